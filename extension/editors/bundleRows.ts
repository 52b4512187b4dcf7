/**
 * The bundle editor's table, built without vscode (unit-tested in plain node): one row per member
 * with its declared size, its container size, where the engine serves it from and how many
 * sources hold a loose copy, plus the summary above the table (counts, the container-size
 * identity, the mirror check, notes) and, per row, what opening it does.
 *
 * Three models, one per way a bundle file can be opened:
 * - `resolvedModel`: the bundle as the engine resolves it in the mount (core/archive/bundles.ts:
 *   the winning manifest's members, each loose, from the winning container, or missing). A
 *   member opens through its bundle folder, `arch06:/<dir>/x.bndl [bundle]/<member path>`
 *   (core/archive/bundleFolders.ts), so each opens in its own editor, served as the engine would.
 * - `containerModel`: an `.embb` no manifest names, its own member list (each loose where the
 *   mount ships the path loose, as the engine's rule says, else from this container).
 * - `standaloneModel`: a `.bndl` or `.embb` outside the mounted install, read from its bytes alone.
 */
import { BUNDLE_SUFFIX, type Mount, type ResolvedBundle, mergedUriPath, toGamePath } from '../../core/archive';
import { type EmbbContainer, parseBndl, parseEmbb } from '../../core/formats/bundle';
import type { BundleView, FileView, IdentityView, MemberRow, ServedFrom } from '../../media/bundle/protocol';

/** What opening a row does: open an `arch06:` URI path, or tell the user why nothing opens. */
export type OpenTarget = { uriPath: string } | { reason: string };

/** The table and, index for index, what opening each row does. */
export interface BundleModel {
  view: BundleView;
  targets: OpenTarget[];
}

/** Every mounted source holding a loose copy of `path`, in search order; [] when none (or when the path cannot be a game path). */
export type LooseCopies = (path: string) => string[];

/** Loose copies as the mount has them. */
export function mountLooseCopies(mount: Mount): LooseCopies {
  return (path) => {
    try {
      return mount.which(path)?.copies.map((c) => c.source.name) ?? [];
    } catch {
      // A declared path no game path can be (`..`, control characters): no source holds it.
      return [];
    }
  };
}

/** A path's extension, lower case, without the dot ('' when its last segment has none). */
export function memberType(path: string): string {
  const leaf = path.slice(Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/')) + 1);
  const dot = leaf.lastIndexOf('.');
  return dot > 0 ? leaf.slice(dot + 1).toLowerCase() : '';
}

const noCounts = (): Record<ServedFrom, number> => ({ container: 0, loose: 0, empty: 0, missing: 0, unresolved: 0 });
const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Whether `path` names a file inside a bundle folder (a game path that is not empty and has no `..`). */
function asGamePath(path: string): string | undefined {
  try {
    return toGamePath(path) || undefined;
  } catch {
    return undefined;
  }
}

/** The `arch06:` URI path of a member in its bundle folder: `/<dir>/x.bndl [bundle]/<member path>`. */
export function bundleMemberUriPath(manifestPath: string, memberPath: string): string {
  return mergedUriPath(`${manifestPath}${BUNDLE_SUFFIX}\\${memberPath}`);
}

/** The bundle as the engine resolves it in the mount. */
export function resolvedModel(b: ResolvedBundle, looseCopies: LooseCopies): BundleModel {
  const multiBlock = (b.container?.blocks ?? 1) > 1;
  const rows: MemberRow[] = [];
  const targets: OpenTarget[] = [];
  let mismatches = 0;
  for (const m of b.members) {
    const problems: string[] = [];
    if (m.servedFrom === 'loose' && !m.sizeMatchesDeclared)
      problems.push(`declared ${m.declaredSize} bytes, the loose copy served (${m.source}) is ${m.size} bytes`);
    if (m.servedFrom === 'container' && !m.sizeMatchesDeclared) problems.push(`declared ${m.declaredSize} bytes, the container holds ${m.size} bytes`);
    if (m.servedFrom === 'loose' && m.embedded && m.embedded.size !== m.declaredSize)
      problems.push(`the container's own copy (not served) is ${m.embedded.size} bytes`);
    if (problems.length) mismatches++;
    const row: MemberRow = {
      path: m.path,
      type: memberType(m.path),
      declared: m.declaredSize,
      container: m.embedded ? m.embedded.size : null,
      served: m.servedFrom,
      source: m.source ?? null,
      copies: looseCopies(m.path),
      openable: false,
    };
    if (multiBlock && m.embedded) row.block = m.embedded.block;
    if (problems.length) row.mismatch = problems.join('; ');
    if (m.note) row.note = m.note;
    const game = asGamePath(m.path);
    let target: OpenTarget;
    if (m.servedFrom === 'missing')
      target = { reason: `${m.path} is declared by the manifest, but no source ships it: the container does not hold it and no loose copy exists.` };
    else if (m.servedFrom === 'empty')
      target = { reason: `${m.path} is declared with 0 bytes: a container stores no zero-size member, so there is nothing to open.` };
    else if (!game) target = { reason: `${m.path} cannot be a game path, so it has no place in the bundle folder.` };
    else target = { uriPath: bundleMemberUriPath(b.manifest.path, game) };
    row.openable = 'uriPath' in target;
    rows.push(row);
    targets.push(target);
  }
  const notes = [...b.notes];
  if (b.container) for (const n of b.container.notes) notes.push(`container: ${n}`);
  if (b.manifestAboveContainer)
    notes.push(
      `the manifest (${b.manifest.source}) ranks above its container (${b.container!.source}): a patch that updates part of a bundle ships its manifest alone`,
    );
  if (!b.identity.certain) notes.push('a member path ends after the type string: u32 @0x08 is then not the path table size, so the identity is UNCERTAIN');
  if (b.manifestConfidence !== 'confirmed') notes.push(`manifest read with confidence ${b.manifestConfidence}`);
  const identity: IdentityView = {
    header: b.identity.header,
    pathTable: b.identity.pathTable,
    pathOffsets: b.identity.pathOffsets,
    members: b.identity.members,
    notStored: b.identity.notStored,
    predicted: b.identity.predicted,
    actual: b.identity.actual ?? null,
    holds: b.identity.holds ?? null,
    certain: b.identity.certain,
  };
  return {
    view: {
      mode: 'resolved',
      title: b.manifest.path,
      type: b.type,
      manifest: { path: b.manifest.path, source: b.manifest.source, size: b.manifest.size, copies: b.manifest.copies },
      container: b.container
        ? {
            path: b.container.path,
            source: b.container.source,
            size: b.container.size,
            copies: b.container.copies,
            members: b.container.memberCount,
            blocks: b.container.blocks,
            confidence: b.container.confidence,
          }
        : null,
      counts: { ...b.counts, unresolved: 0 },
      identity,
      mirror: b.mirror ? { mirrors: b.mirror.mirrors, differences: b.mirror.differences } : null,
      mismatches,
      undeclared: b.undeclared.map((u) => ({ path: u.path, size: u.size })),
      notes,
      rows,
    },
    targets,
  };
}

/**
 * When the copy opened (from one source's own view, `@sources/<name>/…`) is not the one the
 * engine uses, a line saying so; the table shows the engine's resolution either way.
 */
export function copyBanner(b: ResolvedBundle, opened: { source: string; path: string }): string | undefined {
  const isContainer = /\.embb$/i.test(opened.path);
  const used = isContainer ? b.container : b.manifest;
  const what = isContainer ? 'container' : 'manifest';
  if (used && used.source.toLowerCase() === opened.source.toLowerCase()) return undefined;
  return (
    `You opened the ${what} in ${opened.source}; the engine uses ` +
    (used ? `the one in ${used.source}` : `no ${what} of this bundle`) +
    `. The table shows the bundle as the engine resolves it.`
  );
}

/** Rows of a container by itself: `loose` where the mount ships the path loose (the engine's rule), else from this container. */
function containerRows(embb: EmbbContainer, source: string | undefined, looseCopies: LooseCopies | undefined): { rows: MemberRow[]; targets: OpenTarget[] } {
  const multiBlock = embb.blocks.length > 1;
  const rows: MemberRow[] = [];
  const targets: OpenTarget[] = [];
  for (const m of embb.members) {
    const copies = looseCopies?.(m.path) ?? [];
    const served: ServedFrom = !looseCopies ? 'unresolved' : copies.length ? 'loose' : 'container';
    const row: MemberRow = {
      path: m.path,
      type: memberType(m.path),
      declared: null,
      container: m.size,
      served,
      source: served === 'loose' ? copies[0] : (source ?? null),
      copies,
      openable: false,
    };
    if (multiBlock) row.block = m.block;
    const game = asGamePath(m.path);
    let target: OpenTarget;
    if (served === 'loose' && game) target = { uriPath: mergedUriPath(game) };
    else if (!looseCopies) target = { reason: `${m.path}: this file is outside the mounted install, so its members cannot be opened from here.` };
    else
      target = {
        reason: `${m.path} is only inside this container, and a container without a manifest has no bundle folder to open it from (arch06 dump lists it; extraction goes through a manifest).`,
      };
    row.openable = 'uriPath' in target;
    rows.push(row);
    targets.push(target);
  }
  return { rows, targets };
}

const count = (rows: MemberRow[]): Record<ServedFrom, number> => {
  const c = noCounts();
  for (const r of rows) c[r.served]++;
  return c;
};

/** An `.embb` in the mount that no manifest names: the container's own member list. */
export function containerModel(file: FileView, embb: EmbbContainer, looseCopies: LooseCopies): BundleModel {
  const { rows, targets } = containerRows(embb, file.source, looseCopies);
  return {
    view: {
      mode: 'container',
      title: file.path,
      type: null,
      manifest: null,
      container: { ...file, members: embb.members.length, blocks: embb.blocks.length, confidence: embb.confidence },
      counts: count(rows),
      identity: null,
      mirror: null,
      mismatches: 0,
      undeclared: [],
      notes: [
        'no manifest (.bndl) of the same stem in any mounted source: the container lists its members itself, and no declared sizes exist to check',
        ...embb.notes.map((n) => `container: ${n}`),
      ],
      rows,
    },
    targets,
  };
}

/**
 * A `.bndl` or `.embb` read from its bytes alone (outside the mount, or inside a bundle folder):
 * a manifest's declared members, or a container's members with their sizes. Throws the readers'
 * typed errors when the bytes do not parse (the editor shows its failure page).
 */
export function standaloneModel(name: string, bytes: Uint8Array): BundleModel {
  const outside = 'read on its own, outside the mounted install: where the engine serves each member from is not resolved';
  if (/\.bndl$/i.test(name)) {
    const parsed = parseBndl(bytes, name);
    if (parsed.variant === 'data-carrying') {
      // Shadow of Mordor's shape: payloads inline, shown like a container.
      const rows: MemberRow[] = parsed.members.map((m) => ({
        path: m.path,
        type: memberType(m.path),
        declared: null,
        container: m.size,
        served: 'unresolved',
        source: null,
        copies: [],
        openable: false,
      }));
      return {
        view: {
          mode: 'standalone',
          title: name,
          type: null,
          manifest: null,
          container: null,
          counts: count(rows),
          identity: null,
          mirror: null,
          mismatches: 0,
          undeclared: [],
          notes: [outside, ...parsed.notes],
          rows,
        },
        targets: rows.map((r) => ({ reason: `${r.path}: members of a data-carrying BNDL are not opened by arch06.` })),
      };
    }
    const rows: MemberRow[] = parsed.members.map((m) => ({
      path: m.path,
      type: memberType(m.path),
      declared: m.declaredSize,
      container: null,
      served: 'unresolved',
      source: null,
      copies: [],
      openable: false,
    }));
    const identity: IdentityView = {
      header: 16,
      pathTable: parsed.pathAreaSize - parsed.notStoredPathBytes,
      pathOffsets: 4 * (parsed.members.length - parsed.notStored.length),
      members: parsed.members.reduce((s, m) => s + (m.declaredSize ? 4 + m.declaredSize : 0), 0),
      notStored: { count: parsed.notStored.length, pathBytes: parsed.notStoredPathBytes },
      predicted: parsed.predictedContainerSize,
      actual: null,
      holds: null,
      certain: parsed.typeFollowsPaths,
    };
    return {
      view: {
        mode: 'standalone',
        title: name,
        type: parsed.type,
        manifest: null,
        container: null,
        counts: count(rows),
        identity,
        mirror: null,
        mismatches: 0,
        undeclared: [],
        notes: [outside, ...parsed.notes.map((x) => `manifest: ${x}`)],
        rows,
      },
      targets: rows.map((r) => ({ reason: `${r.path}: this manifest is ${outside}, so its members cannot be opened from here.` })),
    };
  }
  const embb = parseEmbb(bytes, name);
  const { rows, targets } = containerRows(embb, undefined, undefined);
  return {
    view: {
      mode: 'standalone',
      title: name,
      type: null,
      manifest: null,
      container: {
        path: name,
        source: '',
        size: bytes.length,
        copies: [],
        members: embb.members.length,
        blocks: embb.blocks.length,
        confidence: embb.confidence,
      },
      counts: count(rows),
      identity: null,
      mirror: null,
      mismatches: 0,
      undeclared: [],
      notes: [outside, ...embb.notes.map((n) => `container: ${n}`)],
      rows,
    },
    targets,
  };
}

/** A one-line summary for the log: `N members: X container, Y loose, Z missing`. */
export function summaryLine(v: BundleView): string {
  const parts = (['container', 'loose', 'empty', 'missing', 'unresolved'] as const).filter((k) => v.counts[k] > 0).map((k) => `${v.counts[k]} ${k}`);
  return `${plural(v.rows.length, 'member')}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}
