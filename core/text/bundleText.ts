/**
 * Bundles as decoded text (syntax: ./syntax.ts): a BNDL manifest (its type, members and declared
 * sizes, and the container length it predicts: 16 + path area + 4n + Σ(4 + size)), with, when the
 * caller resolved the bundle in a mount, where the engine serves each member from; an EMBB
 * container (blocks, members with offsets and sizes).
 */
import { parseBndl } from '../formats/bundle';
import type { EmbbContainer } from '../formats/bundle';
import type { ResolvedBundle } from '../archive';
import { List, TextDoc, hex6 } from './syntax';

export interface BundleTextOptions {
  /** The bundle as a mount resolves it (core/archive `resolveBundle`), for the served-from section. */
  resolved?: ResolvedBundle;
}

/** Render the bytes of a `.bndl` (either shape). Throws the reader's typed errors. */
export function renderManifest(bytes: Uint8Array, path: string, options: BundleTextOptions = {}): string {
  const b = parseBndl(bytes, path);
  const d = new TextDoc({ inputSize: bytes.length });
  d.comment(`arch06 decoded text · bundle manifest (BNDL) · ${path}`);
  d.comment('syntax: [section] headers, "key = value" fields, one record per line ("id key=value …")');
  if (b.variant === 'data-carrying') {
    d.section('manifest');
    d.field('version', b.version);
    d.field('shape', 'data-carrying (Shadow of Mordor era)');
    d.field('members', b.members.length);
    d.field('confidence', b.confidence);
    d.section('members', [['count', b.members.length]]);
    d.comment('path  payload offset  size');
    d.each(b.members, b.members.length, (m) =>
      d.record(m.path, [
        ['offset', hex6(m.offset)],
        ['size', m.size],
      ]),
    );
    notes(d, b.notes);
    return d.toString();
  }
  d.section('manifest');
  d.field('version', b.version);
  d.field('type', b.type);
  d.field('members', b.members.length);
  d.field('path.area', b.pathAreaSize);
  d.field('container.predicted', b.predictedContainerSize);
  d.comment(
    'the container this manifest mirrors is 16 + path area + 4n + Σ(4 + declared size) bytes long, over the n members it stores (a member declared with 0 bytes is not stored, nor its path)',
  );
  d.field('confidence', b.confidence);
  d.section('members', [['count', b.members.length]]);
  d.comment('path  declared size (manifest order)');
  d.each(b.members, b.members.length, (m) => d.record(m.path, [['declared', m.declaredSize]]));
  const r = options.resolved;
  if (r) {
    d.section('served', [
      ['container', r.counts.container],
      ['loose', r.counts.loose],
      ['empty', r.counts.empty || undefined],
      ['missing', r.counts.missing],
    ]);
    d.field('manifest', `${r.manifest.source}:${r.manifest.path}`);
    d.field('manifest.copies', new List(r.manifest.copies));
    d.field('container', r.container ? `${r.container.source}:${r.container.path}` : null);
    if (r.container) d.field('container.copies', new List(r.container.copies));
    if (r.mirror) d.field('mirrors', r.mirror.mirrors);
    d.comment('where the engine serves each member from: a loose entry of the same path wins over the container');
    d.each(r.members, r.members.length, (m) =>
      d.record(m.path, [
        ['from', m.servedFrom],
        ['source', m.source ?? null],
        ['size', m.size ?? null],
        ['declared', m.declaredSize],
        ['matches', m.servedFrom === 'missing' || m.servedFrom === 'empty' ? undefined : m.sizeMatchesDeclared],
        ['embedded', m.servedFrom === 'loose' && m.embedded ? m.embedded.size : undefined],
        ['note', m.note],
      ]),
    );
    if (r.undeclared.length) {
      d.section('undeclared', [['count', r.undeclared.length]]);
      d.each(r.undeclared, r.undeclared.length, (u) =>
        d.record(u.path, [
          ['offset', hex6(u.offset)],
          ['size', u.size],
        ]),
      );
    }
    if (r.mirror && !r.mirror.mirrors) {
      d.section('mirror', [['differences', r.mirror.differences.length]]);
      for (const x of r.mirror.differences) d.record(x);
    }
    notes(d, [...b.notes, ...r.notes.filter((n) => !b.notes.some((x) => n.endsWith(x)))]);
  } else notes(d, b.notes);
  return d.toString();
}

/** Render a container read with `readEmbb`/`parseEmbb` (payloads are never read). */
export function renderContainer(c: EmbbContainer, path: string): string {
  const d = new TextDoc({ inputSize: c.size });
  d.comment(`arch06 decoded text · bundle container (EMBB) · ${path}`);
  d.comment('syntax: [section] headers, "key = value" fields, one record per line ("id key=value …")');
  d.section('container');
  d.field('size', c.size);
  d.field('blocks', c.blocks.length);
  d.field('members', c.members.length);
  d.field('confidence', c.confidence);
  if (c.trailing) d.field('trailing', `${c.trailing.length} bytes at ${hex6(c.trailing.offset)}`);
  d.section('blocks', [['count', c.blocks.length]]);
  d.comment('index  header offset  version  path pool size  members  retail path table  end');
  c.blocks.forEach((b, i) =>
    d.record(i, [
      ['offset', hex6(b.offset)],
      ['version', b.version],
      ['pool', b.pathPoolSize],
      ['count', b.count],
      ['retail', b.retailPathLayout],
      ['end', hex6(b.end)],
    ]),
  );
  d.section('members', [['count', c.members.length]]);
  d.comment('path  block  index  payload offset  size (container order)');
  d.each(c.members, c.members.length, (m) =>
    d.record(m.path, [
      ['block', m.block],
      ['index', m.index],
      ['offset', hex6(m.offset)],
      ['size', m.size],
    ]),
  );
  notes(d, c.notes);
  return d.toString();
}

function notes(d: TextDoc, list: readonly string[]): void {
  if (!list.length) return;
  d.section('notes', [['count', list.length]]);
  d.each(list, list.length, (n) => d.record(n));
}
