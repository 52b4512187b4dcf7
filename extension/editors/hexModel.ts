/**
 * What the hex view says at its top, without vscode (unit-tested in tests/hexView.test.ts): what a
 * file's magic is (the tags Shadow of War's loader checks, seed 004's format catalogue and
 * formats-public §11, plus a few common containers), which arch06 editor handles it, by the magic
 * or by the name, and where the two disagree.
 *
 * `ARCH06_EDITORS` mirrors package.json `contributes.customEditors` (the test checks every view type
 * and every file pattern against it); the hex views themselves are not in it.
 */
import { magicOf } from '../../media/hex/hexLayout';
import type { EditorOffer, HexViewInfo } from '../../media/hex/protocol';

export interface Arch06Editor {
  viewType: string;
  /** The displayName package.json gives it. */
  name: string;
  /** The extensions its selector lists, lower case, without the dot. */
  extensions: string[];
  /** Whole file names its selector lists (after the extensions), lower case. */
  fileNames?: string[];
}

export const ARCH06_EDITORS: readonly Arch06Editor[] = [
  { viewType: 'arch06.pathIndex', name: 'arch06 Path Index (read-only)', extensions: [], fileNames: ['archivepatchloosefiles.txt'] },
  { viewType: 'arch06.script', name: 'arch06 Script Source (read-only)', extensions: ['scripts'] },
  { viewType: 'arch06.texture', name: 'arch06 Texture', extensions: ['tex', 'tex0', 'texuhd', 'texa', 'texa0', 'texauhd', 'dds'] },
  { viewType: 'arch06.mesh', name: 'arch06 Mesh and Skeleton', extensions: ['mesh', 'skel', 'inst', 'wldmsh'] },
  { viewType: 'arch06.bundle', name: 'arch06 Bundle', extensions: ['bndl', 'embb'] },
  { viewType: 'arch06.registry', name: 'arch06 Object Registry', extensions: ['objres'] },
  { viewType: 'arch06.stringTable', name: 'arch06 String Table', extensions: ['strdb'] },
];

/** The hex view's own view types: the default one for the binary types below, and "Open With…" for any file. */
export const HEX_VIEW_TYPE = 'arch06.hex';
export const HEX_ANY_VIEW_TYPE = 'arch06.hexAny';
/** VS Code's Hex Editor: its extension id and its editor's view type. */
export const HEX_EDITOR_EXTENSION = 'ms-vscode.hexeditor';
export const HEX_EDITOR_VIEW_TYPE = 'hexEditor.hexedit';

/**
 * The binary types the hex view opens by default: the game's formats no arch06 editor reads (seed
 * 004's catalogue and the retail layers' members) and the archives themselves. package.json lists
 * the same (tested).
 */
export const HEX_DEFAULT_EXTENSIONS: readonly string[] = [
  'bin',
  'fxp',
  'anix',
  'bnk',
  'wem',
  'pck',
  'gamedb',
  'mat',
  'veggrid',
  'terrain',
  'uiwd',
  'uis',
  'wldclnt',
  'hkai',
  'gfx',
  'bk2',
  'arch06',
];

interface KnownMagic {
  /** The bytes the file starts with, as latin1 text. */
  tag: string;
  format: string;
  /** The arch06 editor that reads it, by view type. */
  editor?: string;
  note?: string;
}

const ASSET_TAG = "a Shadow of War asset tag the game's loader checks (formats-public §11); no public layout, arch06 does not read it";

/** Longest first where one tag begins another ("MZ" is two bytes). */
const MAGICS: readonly KnownMagic[] = [
  { tag: 'TEXR', format: 'TEXR v8 texture', editor: 'arch06.texture' },
  { tag: 'SLVT', format: 'SLVT texture (a small header wrapping a TEXR)', editor: 'arch06.texture' },
  { tag: 'TEXA', format: 'TEXA v1 texture array', editor: 'arch06.texture' },
  { tag: 'DDS ', format: 'DDS texture', editor: 'arch06.texture' },
  { tag: 'MMSH', format: 'MMSH v17 mesh', editor: 'arch06.mesh' },
  { tag: 'SKEL', format: 'SKEL v17 skeleton', editor: 'arch06.mesh' },
  { tag: 'PRFB', format: 'PRFB v8 prefab (.inst)', editor: 'arch06.mesh' },
  { tag: 'MESH', format: 'MESH v5 world mesh (.wldmsh)', editor: 'arch06.mesh' },
  { tag: 'BNDL', format: 'BNDL bundle manifest', editor: 'arch06.bundle' },
  { tag: 'EMBB', format: 'EMBB bundle container', editor: 'arch06.bundle' },
  { tag: 'OBJR', format: 'OBJR v13 object registry', editor: 'arch06.registry' },
  { tag: 'SKDB', format: 'SKDB v9 string table', editor: 'arch06.stringTable' },
  { tag: 'SCRI', format: 'SCRI script (Havok Script)', editor: 'arch06.script' },
  { tag: '\x1bLua', format: 'compiled Havok Script (a bare payload)', editor: 'arch06.script' },
  {
    tag: 'LTAR',
    format: 'LTAR v4 archive (.arch06)',
    note: 'arch06 mounts archives as the arch06: workspace ("arch06: Open Game Folder as Workspace" on the install)',
  },
  {
    tag: 'LTFX',
    format: 'LTFX effect (.fxp)',
    note: 'arch06 reads its header and the GADB header after it (core/formats/effect), nothing beyond',
  },
  { tag: 'GADB', format: 'GADB game database (.gamedb)', note: 'only its header is known (formats-public §9)' },
  { tag: 'LTMI', format: 'LTMI material (.mat)', note: 'its layout is partial and the public sources disagree (formats-public §8); arch06 does not read it' },
  { tag: 'ANIX', format: 'ANIX animation (.anix)', note: ASSET_TAG },
  { tag: 'BKHD', format: 'Wwise SoundBank (.bnk)', note: 'Audiokinetic Wwise; arch06 does not read it' },
  { tag: 'AKPK', format: 'Wwise file package (.pck)', note: 'Audiokinetic Wwise; arch06 does not read it' },
  { tag: 'RIFF', format: 'RIFF container (Wwise .wem audio, WAV)', note: 'arch06 does not read it' },
  { tag: 'VEGG', format: 'VEGG vegetation grid (.veggrid)', note: ASSET_TAG },
  { tag: 'TERR', format: 'TERR terrain (.terrain)', note: ASSET_TAG },
  { tag: 'UIWD', format: 'UIWD world UI data (.uiwd)', note: ASSET_TAG },
  { tag: 'UISH', format: 'UISH UI script hooks (.uis)', note: ASSET_TAG },
  { tag: 'WDSC', format: 'WDSC world client data (.wldclnt)', note: ASSET_TAG },
  { tag: 'HKAI', format: 'HKAI Havok AI navigation (.hkai)', note: ASSET_TAG },
  { tag: 'OBJL', format: 'OBJL object list (a block of an .objres registry)', note: 'the registry editor decodes it inside its OBJR registry' },
  { tag: 'SCRB', format: 'SCRB script bindings (a block of an .objres registry)', note: 'the registry editor decodes it inside its OBJR registry' },
  { tag: 'ONLS', format: 'ONLS object groups (a block of an .objres registry)', note: 'the registry editor decodes it inside its OBJR registry' },
  { tag: 'GFX\x08', format: 'Scaleform GFx movie', note: 'arch06 does not read it' },
  { tag: 'KB2j', format: 'Bink 2 video', note: 'arch06 does not read it' },
  { tag: 'BIKi', format: 'Bink video', note: 'arch06 does not read it' },
  { tag: 'glTF', format: 'glTF binary (.glb)', note: 'what arch06 exports meshes to' },
  { tag: '\x89PNG', format: 'PNG image', note: 'arch06 does not read it' },
  { tag: 'PK\x03\x04', format: 'ZIP archive', note: 'arch06 does not read it' },
  {
    tag: 'MZ',
    format: 'Windows executable (MZ)',
    note: 'for the game executable, "arch06: Read Hash Table from Game Executable" reads its StringHash table',
  },
  ...['SRHR', 'VEGT', 'VIDO', 'SUBB', 'LTTA', 'CRES', 'CPUT', 'PARA', 'RCVA', 'SMAP'].map((tag) => ({ tag, format: `${tag} asset`, note: ASSET_TAG })),
];

/** What a file's first bytes say, by the table above; undefined for a magic arch06 does not know. */
export function knownMagic(bytes: Uint8Array): KnownMagic | undefined {
  return MAGICS.find((m) => m.tag.length <= bytes.length && [...m.tag].every((c, i) => bytes[i] === c.charCodeAt(0)));
}

/** The lower-case extension of a path's last segment, '' when it has none. */
export function extensionOf(path: string): string {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export function editorByViewType(viewType: string): Arch06Editor | undefined {
  return ARCH06_EDITORS.find((e) => e.viewType === viewType);
}

export function editorByExtension(ext: string): Arch06Editor | undefined {
  return ext ? ARCH06_EDITORS.find((e) => e.extensions.includes(ext)) : undefined;
}

export interface Identity {
  magic: HexViewInfo['magic'];
  /** The editor to offer (the magic's, else the name's), by view type, with why. */
  editor: (EditorOffer & { viewType: string }) | null;
  mismatch: string | null;
}

/** What the header says about a file: its magic, what arch06 knows it to be, which editor would handle it. */
export function identify(prefix: Uint8Array, path: string): Identity {
  const { text, hex } = magicOf(prefix);
  const known = knownMagic(prefix);
  const ext = extensionOf(path);
  const byMagic = known?.editor ? editorByViewType(known.editor) : undefined;
  const byName = editorByExtension(ext);
  let editor: Identity['editor'] = null;
  if (byMagic && byName === byMagic) editor = { viewType: byMagic.viewType, name: byMagic.name, reason: `its magic and its .${ext} name` };
  else if (byMagic) editor = { viewType: byMagic.viewType, name: byMagic.name, reason: 'its magic' };
  else if (byName) editor = { viewType: byName.viewType, name: byName.name, reason: `its .${ext} name` };
  let mismatch: string | null = null;
  if (prefix.length === 0) mismatch = null;
  else if (byName && known && byMagic !== byName)
    mismatch = `The .${ext} name says ${byName.name}, the magic says ${known.format}${byMagic ? ` (${byMagic.name})` : ''}.`;
  else if (byName && !known) mismatch = `The .${ext} name says ${byName.name}, but the magic is not one that editor reads.`;
  return {
    magic: {
      text,
      hex,
      format: prefix.length === 0 ? 'an empty file' : (known?.format ?? null),
      note: known?.note ?? null,
    },
    editor,
    mismatch,
  };
}
