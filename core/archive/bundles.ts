/**
 * Bundles in a mount: which manifest, which container and which copy of each member the game
 * uses, following seed 004 "Which copy wins" and "How a manifest and its container relate".
 *
 * - The manifest (`<stem>.bndl`) is opened by path like any file, so its winning copy in the
 *   search order gives the member list (patches ship manifests above their container: 32,903
 *   retail manifests do).
 * - The container is the `<stem>.embb` with the same path stem, its winning copy.
 * - A member is served from a loose entry of the same path when the mount has one (the measured
 *   Desert case uses the loose copy), else from the container's payload, else it is empty when
 *   the manifest declares it with size 0 (a container stores no zero-size member: the retail
 *   world layers declare their `.wldmsh` so, see core/formats/bundle/bndl.ts), else it is
 *   missing: declared with bytes, absent from the container (retail has 13,695 such paths in
 *   winning manifests, 8,521 of them shipping loose).
 * - A bundle with no container anywhere (2,001 retail manifests: sound, string, GlobalDatabase
 *   bundles) resolves its members as loose entries or missing ones. Seed 004 also found 34 such
 *   members inside other bundles' containers; that search is not done here.
 *
 * Open question kept visible (seed 004): whether a loose copy that ranks below the container's
 * archive still replaces the embedded one. Such members are served loose, as the rule above says,
 * and carry a note.
 *
 * Results are plain data (source names, paths, offsets); `readBundleMember` turns a member back
 * into bytes with one ranged read of the container entry, so only the chunks that hold the
 * payload are decoded.
 */
import { Arch06Error, isArch06Error } from '../errors';
import { ByteSource, checkRange } from '../io/byteSource';
import { BndlManifest, parseBndl } from '../formats/bundle/bndl';
import { MirrorCheck, checkMirror } from '../formats/bundle/mirror';
import { EMBB_HEADER_SIZE, EmbbContainer, EmbbMember, readEmbb } from '../formats/bundle/embb';
import { headerCheckFor, readEntryChecked, readEntryCheckedAsync } from './entryRead';
import { GamePath, toGamePath } from './gamePath';
import { Mount, WhichResult } from './mount';
import { SourceEntry } from './source';

/**
 * Where a member's bytes come from: a loose entry, the container, nowhere because it is declared
 * with 0 bytes (`empty`: nothing to store, as the retail layers' `.wldmsh`), or nowhere although
 * it is declared with bytes (`missing`).
 */
export type MemberOrigin = 'loose' | 'container' | 'empty' | 'missing';

export interface BundleMember {
  /** The path as the manifest spells it. */
  path: string;
  /** The size the winning manifest declares. */
  declaredSize: number;
  servedFrom: MemberOrigin;
  /** The source serving it: the loose entry's source, or the container's. */
  source?: string;
  /** Size of the bytes served. */
  size?: number;
  sizeMatchesDeclared: boolean;
  /**
   * The container's payload for this path (offset within the decoded .embb entry, and the EMBB
   * block holding it: 0 unless blocks are concatenated), also when a loose copy wins.
   */
  embedded?: { offset: number; size: number; block: number };
  /** The loose entry's path as its source spells it. */
  loosePath?: string;
  note?: string;
}

export interface BundleFile {
  /** The path as the winning source spells it. */
  path: string;
  /** The winning source's name. */
  source: string;
  size: number;
  /** Every source holding a copy, in search order (the winner first). */
  copies: string[];
}

/**
 * The container-size identity (seed 004 "How a manifest and its container relate", as the retail
 * files show it: core/formats/bundle/bndl.ts): the container a manifest mirrors is exactly
 * `header + pathTable + pathOffsets + members` bytes long, over the members it stores (those not
 * declared with size 0), that is 16 + (u32 @0x08 - the 0-byte members' path slots) + 4 x stored
 * + Σ over stored (4 + declared size[i]).
 */
export interface SizeIdentity {
  /** The EMBB header, 16 bytes. */
  header: number;
  /** The container's path table (pool): the manifest's u32 @0x08, read as S3 reads it, less `notStored.pathBytes`. */
  pathTable: number;
  /** 4 x stored: one u32 path offset per stored member. */
  pathOffsets: number;
  /** Σ(4 + declared size) over the stored members: each one's size word and payload. */
  members: number;
  /** The members declared with 0 bytes, which a container does not store, and the path-area bytes their paths take. */
  notStored: { count: number; pathBytes: number };
  /** The sum: the length of the container this manifest would mirror. */
  predicted: number;
  /** The winning container's length, when there is a container. */
  actual?: number;
  /** predicted === actual (absent without a container). */
  holds?: boolean;
  /** False when a member path ends after the type string: u32 @0x08 is then not the path table's size (UNCERTAIN). */
  certain: boolean;
}

export interface ResolvedBundle {
  /** The path stem shared by manifest and container (no extension). */
  stem: string;
  manifest: BundleFile;
  container?: BundleFile & {
    memberCount: number;
    /** EMBB blocks in the container: 1 in every retail container; more are read (S3) and noted. */
    blocks: number;
    confidence: EmbbContainer['confidence'];
    notes: string[];
  };
  type: string;
  manifestConfidence: BndlManifest['confidence'];
  members: BundleMember[];
  /** Container members the winning manifest does not declare. */
  undeclared: { path: string; offset: number; size: number }[];
  /** Whether the winning manifest mirrors the winning container (absent without a container). */
  mirror?: MirrorCheck;
  /** The winning manifest's container-size identity, checked against the winning container when there is one. */
  identity: SizeIdentity;
  /** Whether the manifest's source ranks above the container's (a patch updating part of a bundle). */
  manifestAboveContainer?: boolean;
  counts: Record<MemberOrigin, number>;
  notes: string[];
}

const BUNDLE_EXT = /\.(bndl|embb)$/i;
const EMPTY_NOTE =
  'declared with 0 bytes: a container stores no zero-size member, so there is nothing to serve (the retail world layers declare their .wldmsh this way)';

/** The path stem of a bundle given as `x.bndl`, `x.embb` or `x` (any case, either separator). */
export function bundleStem(input: string): GamePath {
  const p = toGamePath(input);
  if (!p) throw new Arch06Error('BAD_ARGUMENT', 'empty bundle path', { actual: JSON.stringify(input) });
  return p.replace(BUNDLE_EXT, '') as GamePath;
}

/** An archive or loose entry as a `ByteSource`, so format readers can read it in small ranges. */
export class EntryByteSource implements ByteSource {
  readonly name: string;
  readonly size: number;
  constructor(private readonly entry: SourceEntry) {
    this.name = `${entry.source.name}:${entry.path}`;
    this.size = entry.size;
  }
  readSync(position: number, length: number): Uint8Array {
    checkRange(this.name, this.size, position, length);
    return this.entry.readSync(position, position + length);
  }
  readIntoSync(position: number, length: number, target: Uint8Array, targetOffset: number): void {
    target.set(this.readSync(position, length), targetOffset);
  }
  read(position: number, length: number): Promise<Uint8Array> {
    try {
      checkRange(this.name, this.size, position, length);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.entry.read(position, position + length);
  }
}

/**
 * Member paths to their case-folded keys, each path string folded once and every equal key one
 * string: a crafted bundle may name one 200 KB path from 50,000 members of the manifest and the
 * container, and map reads by a shared key compare pointers, not 200 KB.
 */
function pathKeys(): (path: string) => string {
  const byPath = new Map<string, string>();
  const canonical = new Map<string, string>();
  // The last path asked: a run of members sharing one string is answered without a map read (V8
  // hashes strings over 16 Ki characters by length, so equal long strings meet in one bucket).
  let last: { path: string; key: string } | undefined;
  return (path) => {
    if (last && last.path === path) return last.key;
    let k = byPath.get(path);
    if (k === undefined) {
      const folded = path.toLowerCase();
      k = canonical.get(folded) ?? folded;
      canonical.set(k, k);
      byPath.set(path, k);
    }
    last = { path, key: k };
    return k;
  };
}

const fileOf = (w: WhichResult): BundleFile => ({
  path: w.winner.path,
  source: w.winner.source.name,
  size: w.winner.size,
  copies: w.copies.map((c) => c.source.name),
});

/**
 * Resolve the bundle at `input` (`x.bndl`, `x.embb` or the stem) in `mount`. Throws NOT_FOUND
 * when no manifest exists, and the readers' typed errors when the manifest or container is
 * malformed. The container is read lazily: header, path table and size words only.
 */
export function resolveBundle(mount: Mount, input: string): ResolvedBundle {
  const stem = bundleStem(input);
  const manifestWhich = mount.which(`${stem}.bndl`);
  const containerWhich = mount.which(`${stem}.embb`);
  if (!manifestWhich) {
    const hint = containerWhich ? ` (a container ${containerWhich.path} exists in ${containerWhich.winner.source.name}, but no manifest)` : '';
    throw new Arch06Error('NOT_FOUND', `no bundle manifest in any mounted source${hint}`, { file: `${stem}.bndl` });
  }
  const manifestEntry = manifestWhich.winner;
  const manifestName = `${manifestEntry.source.name}:${manifestEntry.path}`;
  // Header first and within the mount's cap: a manifest that decodes to gigabytes of zeros costs 64 KiB.
  const parsed = parseBndl(readEntryChecked(manifestEntry, { name: manifestName, maxBytes: mount.maxEntryBytes, raiseHint: mount.maxEntryHint }), manifestName);
  if (parsed.variant !== 'manifest') {
    throw new Arch06Error('INVALID', 'a data-carrying BNDL (Shadow of Mordor era) is not a manifest; read it with parseBndl', {
      file: manifestName,
      offset: 0x10,
      field: 'header.count',
      expected: 'a v6 manifest',
      actual: `version ${parsed.version}, data-carrying`,
    });
  }
  const notes: string[] = [...parsed.notes.map((n) => `manifest: ${n}`)];

  let container: ResolvedBundle['container'];
  let embb: EmbbContainer | undefined;
  const embedded = new Map<string, EmbbMember>();
  const keyOf = pathKeys();
  if (containerWhich) {
    embb = readEmbb(new EntryByteSource(containerWhich.winner));
    container = {
      ...fileOf(containerWhich),
      memberCount: embb.members.length,
      blocks: embb.blocks.length,
      confidence: embb.confidence,
      notes: embb.notes,
    };
    // Paths are case-insensitive; with a repeated path the first copy counts (noted by the reader).
    for (const m of embb.members) if (!embedded.has(keyOf(m.path))) embedded.set(keyOf(m.path), m);
    // Seed 004: every retail container has a manifest of the same stem in its own archive.
    if (!manifestWhich.copies.some((c) => c.source === containerWhich.winner.source)) {
      notes.push(`the container's archive (${container.source}) holds no manifest of its own; every retail container has one`);
    }
  } else {
    notes.push("no container anywhere: members resolve as loose entries or are missing (members inside other bundles' containers are not searched)");
  }

  const rank = (name: string): number => mount.sources.findIndex((s) => s.name === name);
  const containerRank = container ? rank(container.source) : -1;
  const declared = new Set<string>();
  const counts: Record<MemberOrigin, number> = { loose: 0, container: 0, empty: 0, missing: 0 };
  // Each path string is looked up once: members sharing one (a crafted manifest repeats one path 50,000 times) share the answer.
  const looseLookups = new Map<string, { loose?: SourceEntry; note?: string }>();
  const looseOf = (path: string): { loose?: SourceEntry; note?: string } => {
    let found = looseLookups.get(path);
    if (found === undefined) {
      try {
        found = { loose: mount.which(path)?.winner };
      } catch (err) {
        if (!isArch06Error(err)) throw err;
        found = { note: `not a valid game path for a loose lookup: ${err.description}` };
      }
      looseLookups.set(path, found);
    }
    return found;
  };
  const members: BundleMember[] = parsed.members.map((m) => {
    const key = keyOf(m.path);
    declared.add(key);
    const e = embedded.get(key);
    const { loose } = looseOf(m.path);
    let { note } = looseOf(m.path);
    const inContainer = e ? { offset: e.offset, size: e.size, block: e.block } : undefined;
    let out: BundleMember;
    if (loose) {
      if (e && rank(loose.source.name) > containerRank) {
        note = `the loose copy (${loose.source.name}) ranks below the container (${container!.source}); whether the engine still prefers it is an open question (seed 004)`;
      }
      out = {
        path: m.path,
        declaredSize: m.declaredSize,
        servedFrom: 'loose',
        source: loose.source.name,
        size: loose.size,
        sizeMatchesDeclared: loose.size === m.declaredSize,
        loosePath: loose.path,
      };
    } else if (e) {
      out = {
        path: m.path,
        declaredSize: m.declaredSize,
        servedFrom: 'container',
        source: container!.source,
        size: e.size,
        sizeMatchesDeclared: e.size === m.declaredSize,
      };
    } else if (m.declaredSize === 0) {
      out = { path: m.path, declaredSize: 0, servedFrom: 'empty', size: 0, sizeMatchesDeclared: true, note: EMPTY_NOTE };
    } else {
      out = { path: m.path, declaredSize: m.declaredSize, servedFrom: 'missing', sizeMatchesDeclared: false };
    }
    if (inContainer) out.embedded = inContainer;
    if (note) out.note = note;
    counts[out.servedFrom]++;
    return out;
  });

  const undeclared = (embb?.members ?? []).filter((m) => !declared.has(keyOf(m.path))).map((m) => ({ path: m.path, offset: m.offset, size: m.size }));
  const stored = parsed.members.length - parsed.notStored.length;
  const identity: SizeIdentity = {
    header: EMBB_HEADER_SIZE,
    pathTable: parsed.pathAreaSize - parsed.notStoredPathBytes,
    pathOffsets: 4 * stored,
    members: parsed.members.reduce((sum, m) => sum + (m.declaredSize ? 4 + m.declaredSize : 0), 0),
    notStored: { count: parsed.notStored.length, pathBytes: parsed.notStoredPathBytes },
    predicted: parsed.predictedContainerSize,
    certain: parsed.typeFollowsPaths,
  };
  if (container) {
    identity.actual = container.size;
    identity.holds = parsed.predictedContainerSize === container.size;
  }
  const result: ResolvedBundle = {
    stem,
    manifest: fileOf(manifestWhich),
    container,
    type: parsed.type,
    manifestConfidence: parsed.confidence,
    members,
    undeclared,
    identity,
    counts,
    notes,
  };
  if (embb) {
    result.mirror = checkMirror(parsed, embb);
    result.manifestAboveContainer = rank(result.manifest.source) < containerRank;
  }
  return result;
}

function memberOf(bundle: ResolvedBundle, member: BundleMember | string): BundleMember {
  if (typeof member !== 'string') return member;
  const k = member.toLowerCase().replace(/\//g, '\\');
  const m = bundle.members.find((x) => x.path.length === k.length && x.path.toLowerCase() === k);
  if (!m)
    throw new Arch06Error('NOT_FOUND', 'the manifest does not declare this member', {
      file: `${bundle.manifest.source}:${bundle.manifest.path}`,
      actual: member,
    });
  return m;
}

/** Where a member's bytes are: an entry and a decoded range of it. */
export function locateBundleMember(mount: Mount, bundle: ResolvedBundle, member: BundleMember | string): { entry: SourceEntry; start: number; end: number } {
  const m = memberOf(bundle, member);
  if (m.servedFrom === 'loose') {
    const entry = mount.entry(m.loosePath ?? m.path, m.source);
    return { entry, start: 0, end: entry.size };
  }
  if (m.servedFrom === 'container' && bundle.container && m.embedded) {
    const entry = mount.entry(bundle.container.path, bundle.container.source);
    return { entry, start: m.embedded.offset, end: m.embedded.offset + m.embedded.size };
  }
  const why =
    m.servedFrom === 'empty'
      ? 'member declared with 0 bytes: no source stores it'
      : 'member declared by the manifest but neither in the container nor a loose entry';
  throw new Arch06Error('NOT_FOUND', why, {
    file: `${bundle.stem}.bndl`,
    actual: m.path,
  });
}

/** A member's bytes within the mount's cap: the loose entry, or one ranged read of the container entry (only the chunks holding the payload are decoded); no bytes for an empty one. */
export function readBundleMember(mount: Mount, bundle: ResolvedBundle, member: BundleMember | string): Uint8Array {
  if (memberOf(bundle, member).servedFrom === 'empty') return new Uint8Array(0);
  const { entry, start, end } = locateBundleMember(mount, bundle, member);
  return readEntryChecked(
    entry,
    { name: memberOf(bundle, member).path, checkHeader: null, maxBytes: mount.maxEntryBytes, raiseHint: mount.maxEntryHint },
    start,
    end,
  );
}

/**
 * A member's bytes as core/archive/entryRead.ts reads whole entries: its first bytes checked
 * against the format its own path names, its size against the mount's cap, then the range.
 */
export function readBundleMemberChecked(mount: Mount, bundle: ResolvedBundle, member: BundleMember | string): Uint8Array {
  const m = memberOf(bundle, member);
  if (m.servedFrom === 'empty') return new Uint8Array(0);
  const { entry, start, end } = locateBundleMember(mount, bundle, m);
  const options = { name: m.path, checkHeader: headerCheckFor(m.path) ?? null, maxBytes: mount.maxEntryBytes, raiseHint: mount.maxEntryHint };
  return readEntryChecked(entry, options, start, end);
}

/** The same, without blocking the thread. */
export async function readBundleMemberAsync(mount: Mount, bundle: ResolvedBundle, member: BundleMember | string): Promise<Uint8Array> {
  if (memberOf(bundle, member).servedFrom === 'empty') return new Uint8Array(0);
  const { entry, start, end } = locateBundleMember(mount, bundle, member);
  const options = { name: memberOf(bundle, member).path, checkHeader: null, maxBytes: mount.maxEntryBytes, raiseHint: mount.maxEntryHint };
  return readEntryCheckedAsync(entry, options, start, end);
}
