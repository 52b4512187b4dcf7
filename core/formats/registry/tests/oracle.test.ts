// Issue 24's oracle for registry edits: on a REAL registry (island), a moved object, a renamed
// bound function and an added object are read back by a minimal reader written here from the
// documents alone (seed 001 "The object registry (.objres)", "The object list (OBJL)", "Group
// members (ONLS) and script bindings (SCRB)"; formats-public.md's 50-byte OBJL record), not by the
// project's reader, and every other record and block is unchanged.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { stringHash } from '../../../hash/stringHash';
import { addObject, renameBoundFunction, setObjectTransform } from '../edit';
import { openRegistry, saveRegistry } from '../model';
import { quaternionFromDegrees } from '../rotation';
import { readRealRegistries, realPatch } from '../../../../test/support/realLayers';

interface OracleObject {
  cls: string;
  name: string;
  group: string | null;
  props: number;
  u16: number;
  pos: number[];
  rot: number[];
  u32: number;
  template: number;
}
interface OracleRegistry {
  blocks: { hash: number; payload: Uint8Array }[];
  objects: OracleObject[];
  /** SCRB object-binding rows: "object hash|event hash|event|script hash|function". */
  rows: string[];
}

/** NUL-terminated strings of `b` keyed by their offset from the area start. */
function strings(b: Uint8Array): Map<number, string> {
  const out = new Map<number, string>();
  let start = 0;
  b.forEach((c, i) => {
    if (c === 0) {
      out.set(start, Buffer.from(b.subarray(start, i)).toString('latin1'));
      start = i + 1;
    }
  });
  return out;
}

const tagOf = (p: Uint8Array): string => Buffer.from(p.subarray(0, 4)).toString('latin1');

/** The seed's layouts, read with plain DataViews: 'OBJR' | 13 | hash | n, n x {hash | size | payload}. */
function oracleRead(bytes: Uint8Array): OracleRegistry {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.equal(tagOf(bytes), 'OBJR');
  assert.equal(v.getUint32(4, true), 13);
  const blocks: OracleRegistry['blocks'] = [];
  let at = 16;
  for (let i = 0; i < v.getUint32(12, true); i++) {
    const size = v.getUint32(at + 4, true);
    blocks.push({ hash: v.getUint32(at, true), payload: bytes.subarray(at + 8, at + 8 + size) });
    at += 8 + size;
  }
  assert.equal(at, bytes.length, 'the chain ends at the end of the file');
  const objl = blocks.find((b) => tagOf(b.payload) === 'OBJL')!.payload;
  const o = new DataView(objl.buffer, objl.byteOffset, objl.byteLength);
  // 'OBJL' | 5 | sets | N | class bytes | name bytes | group bytes, tables at 0x1C.
  const [sets, n, cb, nb, gb] = [8, 12, 16, 20, 24].map((x) => o.getUint32(x, true));
  const classes = strings(objl.subarray(0x1c, 0x1c + cb));
  const names = strings(objl.subarray(0x1c + cb, 0x1c + cb + nb));
  const groups = strings(objl.subarray(0x1c + cb + nb, 0x1c + cb + nb + gb));
  let p = 0x1c + cb + nb + gb;
  const objects: OracleObject[] = [];
  for (let s = 0; s < sets; s++) {
    const count = o.getUint32(p + 4, true);
    p += 8;
    for (let k = 0; k < count; k++, p += 50) {
      const g = o.getUint16(p + 8, true);
      objects.push({
        cls: classes.get(o.getUint32(p, true))!,
        name: names.get(o.getUint32(p + 4, true))!,
        group: g === 0xffff ? null : groups.get(g)!,
        props: o.getUint16(p + 10, true),
        u16: o.getUint16(p + 12, true),
        pos: [0, 1, 2].map((i) => o.getFloat32(p + 0x0e + 4 * i, true)),
        rot: [0, 1, 2, 3].map((i) => o.getFloat32(p + 0x1a + 4 * i, true)),
        u32: o.getUint32(p + 0x2a, true),
        template: o.getUint32(p + 0x2e, true),
      });
    }
  }
  assert.equal(p, objl.length, 'the records end at the block end');
  assert.equal(objects.length, n);
  assert.ok(objects.every((x) => x.cls !== undefined && x.name !== undefined && x.group !== undefined));
  // 'SCRB' | 1 | string bytes | bindings | objects, strings, bindings x 16, objects x 12 (sorted by hash).
  const scrb = blocks.find((b) => tagOf(b.payload) === 'SCRB')!.payload;
  const s = new DataView(scrb.buffer, scrb.byteOffset, scrb.byteLength);
  const [sb, nBind, nObj] = [8, 12, 16].map((x) => s.getUint32(x, true));
  const text = strings(scrb.subarray(20, 20 + sb));
  const rec = (i: number): string => {
    const r = 20 + sb + 16 * i;
    return [s.getUint32(r, true), text.get(s.getUint32(r + 4, true)), s.getUint32(r + 8, true), text.get(s.getUint32(r + 12, true))].join('|');
  };
  const rows: string[] = [];
  let last = -1;
  for (let i = 0; i < nObj; i++) {
    const e = 20 + sb + 16 * nBind + 12 * i;
    const hash = s.getUint32(e, true);
    assert.ok(hash >= last, 'the object index is sorted by hash');
    last = hash;
    for (let k = 0; k < s.getUint32(e + 8, true); k++) rows.push(`${hash}|${rec(s.getUint32(e + 4, true) + k)}`);
  }
  assert.equal(20 + sb + 16 * nBind + 12 * nObj, scrb.length, 'SCRB ends at the block end');
  return { blocks, objects, rows: rows.sort() };
}

test(
  'oracle: a moved object, a renamed bound function and an added object on the real island registry, read by the test’s own reader',
  { skip: realPatch.skip },
  () => {
    const island = readRealRegistries().find((r) => r.layer === 'island')!;
    const before = oracleRead(island.bytes);
    const moved = before.objects[10];
    const bound = before.rows[0].split('|');
    const fn = bound[4];
    const added = { name: 'arch06_oracle.SR', className: 'ScriptRelay', position: [100, 200, 300] as [number, number, number], templateId: 0x1234 };

    let m = openRegistry(island.bytes, island.path);
    m = setObjectTransform(m, moved.name, { position: [1, 2, 3], rotationDegrees: [0, 45, 0] });
    m = renameBoundFunction(m, fn, 'arch06_renamed_function');
    m = addObject(m, added, { bindings: [{ event: 'Script1', function: 'arch06_added_function' }] });
    const after = oracleRead(saveRegistry(m));

    // OBJL: the moved record changed in position and rotation only, the new one at the end, every other record equal.
    assert.equal(after.objects.length, before.objects.length + 1);
    const q = quaternionFromDegrees([0, 45, 0]);
    const expected = before.objects.map((o) => (o === moved ? { ...o, pos: [1, 2, 3], rot: q } : o));
    assert.deepEqual(after.objects.slice(0, -1), expected);
    assert.deepEqual(after.objects[after.objects.length - 1], {
      cls: 'ScriptRelay',
      name: added.name,
      group: null,
      props: 0,
      u16: 0,
      pos: [100, 200, 300],
      rot: [0, 0, 0, 1],
      u32: 0,
      template: 0x1234,
    });
    // SCRB: the renamed function on every row that named it, one row for the new object, every other row equal.
    const scriptHash = bound[3];
    const renamed = before.rows.map((r) => (r.endsWith(`|${fn}`) ? r.slice(0, -fn.length) + 'arch06_renamed_function' : r));
    // Keys are StringHash of the names (seed 001), the script hash the part's own (the one the other rows carry).
    const addedRow = `${stringHash(added.name)}|${stringHash('Script1')}|Script1|${scriptHash}|arch06_added_function`;
    assert.deepEqual(after.rows, [...renamed, addedRow].sort());
    assert.ok(before.rows.filter((r) => r.endsWith(`|${fn}`)).length >= 1);
    // Every other block byte for byte.
    const others = (r: OracleRegistry): string[] =>
      r.blocks.filter((b) => !['OBJL', 'SCRB'].includes(tagOf(b.payload))).map((b) => `${b.hash}:${Buffer.from(b.payload).toString('hex')}`);
    assert.deepEqual(others(after), others(before));
  },
);
