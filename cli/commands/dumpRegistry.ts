/**
 * `dump` of an object registry (`.objres`): blocks, objects, the script bindings resolved against
 * the part's own script (read as the engine serves it), groups. Shared records stay shared
 * (issue 21): the object-binding rows are expanded up to `MAX_OUTPUT_ITEMS` with their true count
 * beside them, owners sharing one group list its members once, and every long name is printed in
 * full once (cli/output.ts `OutputBudget`).
 */
import { isArch06Error } from '../../core/errors';
import { type Mount, type ResolvedBundle, locatePartScript, partScriptNames } from '../../core/archive';
import { formatHash } from '../../core/hash';
import { bindableNames } from '../../core/havokScript';
import { type GroupRow, bindingRows, ownScriptPath, parseObjr, resolveRegistry } from '../../core/formats/registry';
import { MAX_OUTPUT_ITEMS, OutputBudget } from '../output';
import { type Served, readLocated, servedLine } from './served';

const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

interface OwnScript {
  path: string;
  servedFrom?: string;
  source?: string;
  functions?: number;
  error?: string;
}

/** The part's own script's names, as the engine serves the script; without it, function names are not checked. */
function ownScript(m: Mount, registryPath: string, within: ResolvedBundle | undefined): { script: OwnScript; functions?: Set<string> } {
  const scriptPath = ownScriptPath(registryPath);
  try {
    const s = readLocated(m, locatePartScript(m, registryPath, { bundle: within }));
    const names = partScriptNames(s.bytes, s.served.path);
    const script: OwnScript = { path: s.served.path, servedFrom: s.served.servedFrom, source: s.served.source };
    if (!names) return { script: { ...script, error: 'compiled script: function names are not checked' } };
    const functions = bindableNames(names.functions);
    return { script: { ...script, functions: functions.size }, functions };
  } catch (e) {
    if (!isArch06Error(e)) throw e;
    return { script: { path: scriptPath, error: e.message } };
  }
}

/** Groups for output: a group several owners share is listed for its first owner; the others name that owner. */
function groupsOut(groups: readonly GroupRow[]): { owner: string; members?: readonly string[]; memberCount: number; sameMembersAs?: string }[] {
  const first = new Map<readonly string[], string>();
  return groups.map((g) => {
    const owner = g.owner ?? formatHash(g.ownerHash);
    const same = g.members.length ? first.get(g.members) : undefined;
    if (same !== undefined) return { owner, memberCount: g.members.length, sameMembersAs: same };
    if (g.members.length) first.set(g.members, owner);
    return { owner, members: g.members, memberCount: g.members.length };
  });
}

export function dumpRegistry(m: Mount, read: { bytes: Uint8Array; served: Served }, json: boolean, within: ResolvedBundle | undefined): number {
  const { bytes, served } = read;
  const reg = parseObjr(bytes, served.path);
  const scriptPath = ownScriptPath(served.path);
  const { script, functions } = ownScript(m, served.path, within);
  const res = resolveRegistry(reg, { scriptPath, functions });
  const out = new OutputBudget(bytes.length);
  const l = reg.objectList;
  const layout = l ? { validated: l.recordLayout.validated, reason: l.recordLayout.reason ?? null } : { validated: false, reason: 'no OBJL block' };
  const blocks = reg.blocks.map((b) => ({
    index: b.index,
    tag: b.tag,
    name: b.name ?? null,
    nameHash: formatHash(b.nameHash),
    offset: b.offset,
    size: b.size,
    decoded: b.decoded ?? null,
    error: b.error?.message ?? null,
  }));
  const objects = out.items(l?.objects ?? []).map((o) => ({
    set: formatHash(o.set),
    name: o.name,
    class: o.className,
    group: o.group,
    position: o.position,
    rotation: o.rotation,
    templateId: formatHash(o.templateId),
    propertyIndex: o.propertyIndex,
  }));
  const bindings = [...bindingRows(res, MAX_OUTPUT_ITEMS)].map((b) => ({
    object: b.object ?? formatHash(b.objectHash),
    class: b.class,
    event: b.event,
    function: b.function,
    scriptHash: formatHash(b.scriptHash),
    script: b.script,
    problems: b.problems,
  }));
  const groups = groupsOut(out.items(res.groups));
  if (json) {
    out.writeJson({
      ...served,
      version: reg.version,
      hash: formatHash(reg.hash),
      confidence: reg.confidence,
      blocks,
      objectCount: l?.objects.length ?? 0,
      objects,
      bindingRows: res.rowCount,
      bindingRecords: res.records.length,
      bindings,
      groupCount: res.groups.length,
      groups,
      recordLayout: layout,
      ...(l && !l.recordLayout.validated
        ? {
            strings: {
              classes: out.items([...l.classes.byOffset.values()]),
              names: out.items([...l.names.byOffset.values()]),
              groups: out.items([...l.groups.byOffset.values()]),
            },
            rawRecordCount: l.rawRecords.length,
            rawRecords: out.items(l.rawRecords).map((r) => ({ set: formatHash(r.set), offset: r.offset, bytes: hex(r.bytes) })),
          }
        : {}),
      objProps: reg.objProps ? { version: reg.objProps.version, words: reg.objProps.words } : null,
      ownScript: script,
      bindingsResolved: res.bindingsResolved,
      problems: res.problems,
      notes: reg.notes,
    });
    return 0;
  }
  out.line(servedLine(out, served));
  out.line(`OBJR v${reg.version}, hash ${formatHash(reg.hash)}, ${reg.blocks.length} blocks (${reg.confidence})`);
  for (const b of blocks)
    out.line(
      `  ${String(b.index).padStart(3)}  ${(b.tag ?? '-').padEnd(4)}  ${(b.name ?? '?').padEnd(20)} ${b.nameHash}  @0x${b.offset.toString(16).padStart(6, '0')}  ${String(b.size).padStart(9)} bytes${b.error ? `  error: ${out.text(b.error)}` : ''}`,
    );
  if (!l) out.line('objects: no OBJL block');
  else if (l.recordLayout.validated) {
    out.line(`objects: ${l.objects.length} (record layout validated)`);
    for (const o of objects)
      out.line(
        `  ${out.name(o.class).padEnd(28)} ${out.name(o.name)}${o.group ? `  [${out.name(o.group)}]` : ''}  (${o.position.map((x) => +x.toFixed(2)).join(', ')})  template ${o.templateId}`,
      );
    out.omit(l.objects.length - objects.length);
  } else {
    out.line(`objects: record layout NOT validated: ${out.text(l.recordLayout.reason ?? '')}; the names from the table, the records raw:`);
    for (const n of l.names.byOffset.values()) out.line(`  ${out.name(n)}`);
    for (const r of l.rawRecords) out.line(`  @0x${r.offset.toString(16)} ${hex(r.bytes)}`);
  }
  out.line(
    `script: ${out.name(script.path)}${script.servedFrom ? ` (${script.servedFrom} from ${out.name(script.source ?? '')}, ${script.functions ?? 0} definitions)` : ''}${script.error ? ` (${out.text(script.error)})` : ''}`,
  );
  out.line(
    `bindings: ${res.rowCount} rows over ${res.records.length} binding records${res.bindingsResolved ? ', all resolved' : ''}` +
      (bindings.length < res.rowCount ? ` (the first ${bindings.length} shown: objects share runs of records)` : ''),
  );
  for (const b of bindings)
    out.line(
      `  ${out.name(b.object)} (${out.name(b.class ?? '?')})  ${out.name(b.event ?? '?')} -> ${out.name(b.function ?? '?')}${b.problems.length ? `  PROBLEM: ${out.text(b.problems.join('; '))}` : ''}`,
    );
  out.line(`groups: ${res.groups.length}`);
  for (const g of groups)
    out.line(
      `  ${out.name(g.owner)}: ${g.members ? g.members.map((x) => out.name(x)).join(', ') : `the ${g.memberCount} members of ${out.name(g.sameMembersAs!)}`}`,
    );
  out.omit(res.groups.length - groups.length);
  for (const p of res.problems) out.line(`problem: ${out.text(p)}`);
  for (const n of reg.notes) out.line(`note: ${out.text(n)}`);
  out.writeText();
  return 0;
}
