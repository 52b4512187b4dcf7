/**
 * The object-registry editor's message protocol, shared by the webview
 * (media/registry/registryView.ts) and the extension host (extension/editors/registryEditor.ts,
 * which builds the view with registryModel.ts). No DOM, no vscode, no engine imports.
 *
 * Sequence:
 *
 *   webview → host   { type: 'ready' }                        once the script has loaded (again after
 *                                                             a hidden webview is restored)
 *   host → webview   { type: 'init', view }                   header, blocks, bindings, groups, the class
 *                                                             list: everything but the objects
 *                 or { type: 'failed', message, hex, size }   the registry did not parse
 *   webview → host   { type: 'query', seq, text, className,   a window of the objects the search and the
 *                      start, count }                         class filter keep (a registry may hold
 *                                                             100,000 objects: they never cross at once)
 *   host → webview   { type: 'rows', seq, total, shown,       that window
 *                      start, rows }
 *   webview → host   { type: 'firstRows', rows }              once, after the first rows were drawn
 *   webview → host   { type: 'openBinding', row }             open the part's script at the function
 *                                                             of binding row `row`
 *   webview → host   { type: 'hex', block }                   a raw block's bytes as a hex view
 *   host → webview   { type: 'hex', block, text, shown, size }
 *   webview → host   { type: 'edit', seq, edit }                 one edit (RegistryEdit) of the edit panel
 *   host → webview   { type: 'editResult', seq, error }          null when it was applied; else why it was
 *                                                             refused (the reader's check it breaks), shown
 *                                                             in the panel: nothing changed
 *   host → webview   { type: 'updated', view, select? }          the registry after an edit, an undo, a redo
 *                                                             or a revert: the view keeps its tab, search
 *                                                             and selection (or selects `select`) and asks
 *                                                             for its rows again
 *
 * The webview mirrors its state on `document.body.dataset` for tests: `state` ('waiting' | 'ready' |
 * 'failed'), `tab` ('objects' | 'bindings' | 'groups' | 'blocks'), `total` (objects in the
 * registry, or raw records when the layout did not validate), `shown` (those the search and the
 * class filter keep).
 */
import { type FailedMessage, type FirstRowsMessage, type ReadyMessage, checkTableMessage, finite, uint32, unchecked } from '../shared/protocol';

export type { FailedMessage, ReadyMessage } from '../shared/protocol';

/** core/io's Confidence, repeated here because the webview imports no engine code. */
export type Confidence = 'confirmed' | 'likely' | 'uncertain';

/** One block of the chain. */
export interface BlockRow {
  index: number;
  /** The payload's tag, or null when it has none. */
  tag: string | null;
  /** The name its handler registers, where known, and how sure that is. */
  name: string | null;
  nameConfidence: Confidence | null;
  /** 0x%08X. */
  hash: string;
  offset: number;
  size: number;
  /** `decoded`: a reader decoded it; `error`: a reader failed on it (see `error`); `raw`: no reader for it. */
  state: 'decoded' | 'error' | 'raw';
  error?: string;
}

/** One OBJL object, as the table shows it. */
export interface ObjectRow {
  /** Index in the list (over all sets). */
  index: number;
  name: string;
  className: string;
  group: string | null;
  /** 0x%08X: StringHash of the name (what SCRB and ONLS key objects by), or null when a byte has no known hash value. */
  nameHash: string | null;
  /** 0x%08X. */
  set: string;
  /** Centimetres. */
  position: [number, number, number];
  /** Quaternion x, y, z, w. */
  rotation: [number, number, number, number];
  /** The same rotation as [pitch, yaw, roll] degrees (what the edit panel shows and edits). */
  rotationDegrees: Vec3;
  /** 0x%08X. */
  templateId: string;
  propertyIndex: number;
}

/** One record kept raw (the layout did not validate). */
export interface RawRecordRow {
  index: number;
  offset: number;
  set: string;
  /** The 50 bytes, hex pairs separated by spaces. */
  hex: string;
}

/** One object-binding row of SCRB, resolved. */
export interface BindingRowView {
  object: string | null;
  /** 0x%08X. */
  objectHash: string;
  className: string | null;
  event: string | null;
  function: string | null;
  /** The part's script path when the binding's script hash is its StringHash, else the hash (0x%08X). */
  script: string;
  scriptResolved: boolean;
  /** The binding record's index. */
  binding: number;
  /** The function's 1-based line in the part's script, when found there. */
  line: number | null;
  /** Whether the bound name is a function or an hmake script object. */
  kind: 'function' | 'hmake' | null;
  /** What did not resolve on this row; empty when everything did. */
  problems: string[];
  /** Whether opening it can show something (a script copy was found and the function is in it). */
  openable: boolean;
  /** The function's first lines in the served script (the row's tooltip), when found. */
  preview?: string;
}

export interface GroupRowView {
  owner: string | null;
  /** 0x%08X. */
  ownerHash: string;
  /** The members; empty when the group is another owner's too (`sameMembersAs`): it is listed there once. */
  members: readonly string[];
  unknownMembers: readonly string[];
  memberCount: number;
  /** The owner whose row lists this same group (several index entries may point at one group). */
  sameMembersAs?: string;
}

/** seed 001's patch rule for this copy: which copy of the part's registry the engine loads. */
export interface PatchView {
  /**
   * `standalone`: a standalone copy in the mount replaces the embedded one and this is it (or the
   * bundle folder serves it); `embedded`: no standalone copy, the container's is in effect;
   * `shadowed`: this copy is not the one the engine loads; `alone`: a standalone registry no
   * container embeds; `unresolved`: opened outside the mounted install.
   */
  state: 'standalone' | 'embedded' | 'shadowed' | 'alone' | 'unresolved';
  text: string;
}

export interface RegistryView {
  /** The registry's path (game path, or the file name outside the mount). */
  title: string;
  size: number;
  version: number;
  /** 0x%08X: the header's raw u32. */
  hash: string;
  confidence: Confidence;
  /** OBJL record layout: validated or why not. */
  layout: { present: boolean; validated: boolean; confidence: Confidence; reason: string | null };
  /** What the Objects tab lists: decoded objects, raw records, or nothing (no OBJL). */
  objectKind: 'objects' | 'raw' | 'none';
  objectCount: number;
  /** Classes with their object counts, most numerous first. */
  classes: { name: string; count: number }[];
  blocks: BlockRow[];
  /** The first `MAX_VIEW_ROWS` object-binding rows (objects share runs of records: a crafted file can make millions). */
  bindings: BindingRowView[];
  /** Every object-binding row (`bindings` holds the first of them). */
  bindingRows: number;
  /** SCRB binding records (object-binding rows share them). */
  bindingRecords: number;
  bindingsResolved: boolean;
  /** The first `MAX_VIEW_ROWS` groups. */
  groups: GroupRowView[];
  groupCount: number;
  /** The part's script the bindings are checked against and open in. */
  script: { path: string; from: string | null; functions: number | null; note: string };
  patch: PatchView;
  problems: string[];
  notes: string[];
}

export interface InitMessage {
  type: 'init';
  view: RegistryView;
  /** Why the objects cannot be edited (the OBJL block stayed bytes), or null: the edit panel says so. */
  editBlocked: string | null;
  /** An object to show (the "bound by N objects" lens opens a registry at one): searched for on the Objects tab. */
  focus?: string;
}

export interface RowsMessage {
  type: 'rows';
  /** The query's `seq`, so the webview drops answers to queries it has moved past. */
  seq: number;
  /** Objects (or raw records) in the registry. */
  total: number;
  /** Those the search and the class filter keep. */
  shown: number;
  /** Position of `rows[0]` among those kept. */
  start: number;
  rows: ObjectRow[] | RawRecordRow[];
}

export interface HexMessage {
  type: 'hex';
  block: number;
  /** A hex dump (offset, 16 bytes, ASCII) of the block's first `shown` bytes. */
  text: string;
  shown: number;
  size: number;
}

/**
 * One edit of the edit panel (core/formats/registry's edits, named by object). Degrees are
 * [pitch about X, yaw about Y, roll about Z]; the file stores a unit quaternion. A transform
 * carries only what changed, so a move keeps the stored quaternion's bits.
 */
export type RegistryEdit =
  | { kind: 'transform'; object: string; position?: Vec3; rotationDegrees?: Vec3 }
  | { kind: 'rename'; object: string; name: string }
  | { kind: 'class'; object: string; className: string }
  | { kind: 'binding'; object: string; /** The binding's place in the object's run. */ k: number; event: string; function: string }
  | { kind: 'group'; owner: string; members: string[] }
  | { kind: 'add'; name: string; className: string; position: Vec3 }
  | { kind: 'delete'; object: string };

export type Vec3 = [number, number, number];

export interface EditResultMessage {
  type: 'editResult';
  seq: number;
  /** Null: applied. Otherwise why it was refused (nothing changed). */
  error: string | null;
}

export interface UpdatedMessage {
  type: 'updated';
  view: RegistryView;
  /** An object to select (the added, renamed or edited one), with its row as it is now. */
  select?: string;
  selectedRow?: ObjectRow;
}

export type HostToView = InitMessage | RowsMessage | HexMessage | FailedMessage | EditResultMessage | UpdatedMessage;

export interface QueryMessage {
  type: 'query';
  seq: number;
  /** The search text: a substring of the name or class, or `0x…` for a name hash or template id. */
  text: string;
  /** Only objects of this class ('' for every class). */
  className: string;
  start: number;
  count: number;
}

export interface OpenBindingMessage {
  type: 'openBinding';
  /** An index into `view.bindings`. */
  row: number;
}

export interface HexRequestMessage {
  type: 'hex';
  block: number;
}

export interface EditMessage {
  type: 'edit';
  seq: number;
  edit: RegistryEdit;
}

export type ViewToHost = ReadyMessage | QueryMessage | FirstRowsMessage | OpenBindingMessage | HexRequestMessage | EditMessage;

/** Most rows one query returns (a window is a screenful and some beyond). */
export const MAX_WINDOW = 500;
/** Binding rows and groups the init message carries at most (the view states the true counts). */
export const MAX_VIEW_ROWS = 5000;
/** Characters of one name a row carries at most (a longer one is cut, with its length). */
export const MAX_CELL_CHARS = 1024;
/** Longest search text or class name the host accepts. */
const MAX_TEXT = 1024;

/** Most members one group edit names. */
export const MAX_MEMBERS = 10000;

const text = (x: unknown): string | undefined => (typeof x === 'string' && x.length <= MAX_TEXT ? x : undefined);
/** A name an edit gives: text, not empty. */
const name = (x: unknown): string | undefined => (typeof x === 'string' && x.length > 0 && x.length <= MAX_TEXT ? x : undefined);

function vec3(x: unknown): Vec3 | undefined {
  if (!Array.isArray(x) || x.length !== 3) return undefined;
  const v = x.map(finite);
  return v.every((n) => n !== undefined) ? (v as Vec3) : undefined;
}

/** An edit as the host may apply it, or undefined for one outside the union. */
export function checkEdit(raw: unknown): RegistryEdit | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const e = raw as { readonly [field: string]: unknown };
  switch (e.kind) {
    case 'transform': {
      const object = name(e.object);
      const position = e.position === undefined ? undefined : vec3(e.position);
      const rotationDegrees = e.rotationDegrees === undefined ? undefined : vec3(e.rotationDegrees);
      if (!object || (e.position !== undefined && !position) || (e.rotationDegrees !== undefined && !rotationDegrees)) return undefined;
      return { kind: 'transform', object, ...(position ? { position } : {}), ...(rotationDegrees ? { rotationDegrees } : {}) };
    }
    case 'rename':
    case 'class': {
      const object = name(e.object);
      const to = name(e.kind === 'rename' ? e.name : e.className);
      if (!object || !to) return undefined;
      return e.kind === 'rename' ? { kind: 'rename', object, name: to } : { kind: 'class', object, className: to };
    }
    case 'binding': {
      const object = name(e.object);
      const k = uint32(e.k);
      const event = name(e.event);
      const fn = name(e.function);
      return object && k !== undefined && event && fn ? { kind: 'binding', object, k, event, function: fn } : undefined;
    }
    case 'group': {
      const owner = name(e.owner);
      if (!owner || !Array.isArray(e.members) || e.members.length > MAX_MEMBERS) return undefined;
      const members = e.members.map(name);
      return members.every((m) => m !== undefined) ? { kind: 'group', owner, members: members as string[] } : undefined;
    }
    case 'add': {
      const n = name(e.name);
      const className = name(e.className);
      const position = vec3(e.position);
      return n && className && position ? { kind: 'add', name: n, className, position } : undefined;
    }
    case 'delete': {
      const object = name(e.object);
      return object ? { kind: 'delete', object } : undefined;
    }
    default:
      return undefined;
  }
}

/** A message from the webview as the host may use it, or undefined for one outside the protocol. */
export function checkViewMessage(raw: unknown): ViewToHost | undefined {
  const m = unchecked(raw);
  switch (m?.type) {
    case 'ready':
    case 'firstRows':
      return checkTableMessage(m);
    case 'query': {
      const seq = uint32(m.seq);
      const start = uint32(m.start);
      const count = uint32(m.count);
      const t = text(m.text);
      const className = text(m.className);
      if (seq === undefined || start === undefined || count === undefined || t === undefined || className === undefined) return undefined;
      return { type: 'query', seq, text: t, className, start, count: Math.min(count, MAX_WINDOW) };
    }
    case 'openBinding': {
      const row = uint32(m.row);
      return row === undefined ? undefined : { type: 'openBinding', row };
    }
    case 'hex': {
      const block = uint32(m.block);
      return block === undefined ? undefined : { type: 'hex', block };
    }
    case 'edit': {
      const seq = uint32(m.seq);
      const edit = checkEdit(m.edit);
      return seq === undefined || !edit ? undefined : { type: 'edit', seq, edit };
    }
    default:
      return undefined;
  }
}
