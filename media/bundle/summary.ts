/**
 * The bundle editor's summary, above the members table: the manifest and container, the counts by
 * where each member is served from, the container-size identity, undeclared container members and
 * the notes, as HTML (every value escaped). `mark` is the served-from badge the table's rows share.
 */
import { esc, fmt } from '../shared/html';
import type { BundleView, ServedFrom } from './protocol';

const SERVED_LABEL: Record<ServedFrom, string> = { container: 'container', loose: 'loose', empty: 'empty', missing: 'missing', unresolved: 'not resolved' };

export function mark(served: ServedFrom, text = SERVED_LABEL[served]): string {
  return '<span class="mark m-' + served + '">' + esc(text) + '</span>';
}

const bytes = (n: number): string => fmt(n) + (n === 1 ? ' byte' : ' bytes');
const sources = (list: string[]): string => (list.length ? list.map(esc).join(', ') : 'none');

export function summaryHtml(v: BundleView): string {
  let html = '<h2>' + esc(v.title) + (v.type !== null ? ' <span class="type" title="Bundle type">' + esc(v.type || '(no type)') + '</span>' : '') + '</h2>';
  if (v.banner) html += '<p class="banner">' + esc(v.banner) + '</p>';
  const facts: string[] = [];
  if (v.manifest)
    facts.push(
      '<span title="Every source holding a copy, in search order: ' +
        esc(v.manifest.copies.join(', ')) +
        '">manifest from <b>' +
        esc(v.manifest.source) +
        '</b>' +
        (v.manifest.copies.length > 1 ? ' (' + v.manifest.copies.length + ' copies: ' + sources(v.manifest.copies) + ')' : '') +
        '</span>',
    );
  if (v.container) {
    const c = v.container;
    facts.push(
      'container ' +
        (c.path !== v.title ? '<b>' + esc(c.path) + '</b> ' : '') +
        (c.source ? 'from <b>' + esc(c.source) + '</b>, ' : '') +
        fmt(c.members) +
        ' members, ' +
        (c.blocks !== 1 ? '<span class="warn">' + c.blocks + ' EMBB blocks</span>, ' : '') +
        bytes(c.size) +
        (c.confidence !== 'confirmed' ? ' <span class="warn" title="See the notes">(' + esc(c.confidence) + ')</span>' : ''),
    );
  } else if (v.mode === 'resolved') facts.push('no container: members are loose entries or missing');
  if (facts.length) html += '<p class="facts">' + facts.join(' · ') + '</p>';

  const counts = (['container', 'loose', 'empty', 'missing', 'unresolved'] as const)
    .filter((k) => v.counts[k] > 0)
    .map((k) => mark(k, fmt(v.counts[k]) + ' ' + SERVED_LABEL[k]));
  let line = fmt(v.rows.length) + (v.rows.length === 1 ? ' member' : ' members') + (counts.length ? ': ' + counts.join(' ') : '');
  if (v.mismatches) line += ' · <span class="bad">' + fmt(v.mismatches) + (v.mismatches === 1 ? ' size mismatch' : ' size mismatches') + '</span>';
  if (v.undeclared.length) line += ' · <span class="warn">' + fmt(v.undeclared.length) + ' in the container but not declared</span>';
  html += '<p class="counts" id="counts">' + line + '</p>';

  if (v.identity) {
    const i = v.identity;
    const n = i.pathOffsets / 4;
    const terms =
      '16 header + ' +
      fmt(i.pathTable) +
      ' path table + ' +
      fmt(i.pathOffsets) +
      ' path offsets (4 × ' +
      fmt(n) +
      ') + ' +
      fmt(i.members) +
      ' members (Σ 4 + declared size) = <b>' +
      fmt(i.predicted) +
      '</b>' +
      (i.notStored.count
        ? ' <span class="muted" title="A container stores no member declared with 0 bytes: its path (' +
          fmt(i.notStored.pathBytes) +
          ' bytes of the manifest\'s path area), its offset and its size word are absent, as in the retail world layers">(' +
          fmt(i.notStored.count) +
          (i.notStored.count === 1 ? ' member' : ' members') +
          ' declared with 0 bytes, not stored)</span>'
        : '');
    let verdict: string;
    let cls = '';
    if (i.actual === null) verdict = v.mode === 'standalone' ? 'the container was not read' : 'no container to check it against';
    else if (i.holds) {
      verdict = 'the container is ' + bytes(i.actual) + ': <span class="ok">✓ the identity holds</span>';
      cls = 'ok';
    } else {
      const d = i.actual - i.predicted;
      verdict = 'the container is ' + bytes(i.actual) + ': <span class="bad">✗ off by ' + (d > 0 ? '+' : '') + fmt(d) + '</span>';
      cls = 'bad';
    }
    html +=
      '<p class="identity ' +
      cls +
      '" id="identity" title="seed 004 and the retail layers: a container its manifest mirrors is exactly 16 + path table + 4n + Σ(4 + size) bytes, over the n members it stores">Container size: ' +
      terms +
      '; ' +
      verdict +
      (i.certain ? '' : ' <span class="warn">(UNCERTAIN: a member path ends after the type string)</span>') +
      '</p>';
  }
  if (v.mirror && !v.mirror.mirrors)
    html += '<p class="mirror">The manifest does not mirror its container: ' + v.mirror.differences.map(esc).join('; ') + '.</p>';
  else if (v.mirror) {
    const empty = v.identity?.notStored.count ?? 0;
    const left = empty
      ? '; the ' + (empty === 1 ? 'member' : fmt(empty) + ' members') + ' declared with 0 bytes left out, as retail containers leave them out'
      : '';
    html += '<p class="mirror ok">The manifest mirrors its container byte for byte (paths, offsets, sizes' + left + ').</p>';
  }
  if (v.undeclared.length)
    html +=
      '<details><summary>' +
      fmt(v.undeclared.length) +
      ' container members the manifest does not declare</summary><ul>' +
      v.undeclared.map((u) => '<li>' + esc(u.path) + ' (' + bytes(u.size) + ')</li>').join('') +
      '</ul></details>';
  if (v.notes.length)
    html += '<details><summary>Notes (' + v.notes.length + ')</summary><ul>' + v.notes.map((n) => '<li>' + esc(n) + '</li>').join('') + '</ul></details>';
  return html;
}
