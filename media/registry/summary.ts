/**
 * The registry editor's header (media/registry/registryView.ts): the counts, the OBJL layout's
 * validation, seed 001's patch rule for this copy, the part's script, problems and notes.
 */
import { esc, fmt } from '../shared/html';
import type { Confidence, RegistryView } from './protocol';

export const bytes = (n: number): string => fmt(n) + (n === 1 ? ' byte' : ' bytes');
export const count = (n: number, one: string, many = one + 's'): string => fmt(n) + ' ' + (n === 1 ? one : many);
export const conf = (c: Confidence): string =>
  '<span class="conf conf-' + c + '" title="confirmed / likely / uncertain: how sure the reading is">' + esc(c) + '</span>';

export function summaryHtml(v: RegistryView): string {
  let html = '<h2>' + esc(v.title) + '</h2>';
  const objects = v.objectKind === 'objects' ? count(v.objectCount, 'object') : v.objectKind === 'raw' ? count(v.objectCount, 'raw record') : 'no object list';
  html +=
    '<p class="facts" id="counts">OBJR v' +
    v.version +
    ' · ' +
    bytes(v.size) +
    ' · ' +
    count(v.blocks.length, 'block') +
    ' · ' +
    objects +
    ' in ' +
    count(v.classes.length, 'class', 'classes') +
    ' · ' +
    count(v.bindingRows, 'binding row') +
    ' over ' +
    count(v.bindingRecords, 'record') +
    ' · ' +
    count(v.groupCount, 'group') +
    ' · header hash <span class="mono">' +
    esc(v.hash) +
    '</span> · ' +
    conf(v.confidence) +
    '</p>';
  const l = v.layout;
  html +=
    '<p class="layout" id="layout">OBJL record layout: ' +
    (!l.present
      ? '<span class="warn">no OBJL block</span>'
      : l.validated
        ? '<span class="ok">validated</span> on every record ' + conf(l.confidence)
        : '<span class="bad">not validated</span> ' + conf(l.confidence) + ': ' + esc(l.reason ?? '') + ' (records shown raw)') +
    '</p>';
  html +=
    '<p class="patch p-' +
    v.patch.state +
    '" id="patch" title="seed 001: a standalone .objres in the mount replaces the one embedded in the part’s container">Patch rule: ' +
    esc(v.patch.text) +
    '</p>';
  html +=
    '<p class="script" id="script">Script: <span class="mono">' +
    esc(v.script.path) +
    '</span> · ' +
    esc(v.script.note) +
    (v.bindings.length
      ? v.bindingsResolved
        ? ' · <span class="ok">every binding resolves</span>'
        : ' · <span class="bad">some bindings do not resolve</span>'
      : '') +
    '</p>';
  if (v.problems.length)
    html +=
      '<details><summary class="bad">Problems (' +
      v.problems.length +
      ')</summary><ul>' +
      v.problems.map((p) => '<li>' + esc(p) + '</li>').join('') +
      '</ul></details>';
  if (v.notes.length)
    html += '<details><summary>Notes (' + v.notes.length + ')</summary><ul>' + v.notes.map((n) => '<li>' + esc(n) + '</li>').join('') + '</ul></details>';
  return html;
}
