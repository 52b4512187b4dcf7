// SKDB v9 string tables (seed 004): the writer round-trips through the reader, the seed's rules are
// enforced as typed errors, and truncated or mutated tables never end in anything else. No real
// table is among the samples: every table here is synthetic.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../../errors';
import { stringHash } from '../../../hash/stringHash';
import { FieldSpan } from '../../../io/fieldReader';
import { findString, parseSkdb } from '../skdb';
import { writeSkdb } from '../writer';
import { expectArch06Error } from '../../../../test/support/errors';
import { prng } from '../../../../test/support/fixtures';

const keys = ['UI_1Sword_Starting_N', 'UI_Menu_Start', 'UI_Menu_Quit', 'Quest_Intro_Title', 'Quest_Intro_Body', 'Shared_A', 'Shared_B'];
const texts: Record<string, string> = {
  UI_1Sword_Starting_N: 'Urfael',
  UI_Menu_Start: 'Start',
  UI_Menu_Quit: 'Quit',
  Quest_Intro_Title: 'The Ring — Reforged',
  Quest_Intro_Body: 'Line one\nLine two 😀',
  Shared_A: 'same',
  Shared_B: 'same',
};
const entries = keys.map((k) => ({ hash: stringHash(k), text: texts[k] }));
const setU32 = (b: Uint8Array, at: number, v: number): void => new DataView(b.buffer, b.byteOffset).setUint32(at, v >>> 0, true);

test("skdb: the seed's example key hashes as stated (UI_1Sword_Starting_N = 0xDCDB4713)", () => {
  assert.equal(stringHash('UI_1Sword_Starting_N'), 0xdcdb4713);
});

test('skdb: a written table reads back: keys ascending, texts by hash, shared strings stored once, exact sizes', () => {
  const bytes = writeSkdb(entries);
  const spans: FieldSpan[] = [];
  const t = parseSkdb(bytes, 'string.strdb', { spans });
  assert.equal(t.version, 9);
  assert.equal(t.headerSize, 0x1c);
  assert.equal(t.keyCount, keys.length);
  assert.equal(t.confidence, 'confirmed');
  assert.deepEqual(t.notes, []);
  const hashes = t.entries.map((e) => e.hash);
  assert.deepEqual(
    hashes,
    [...hashes].sort((a, b) => a - b),
  );
  for (const k of keys) assert.equal(findString(t, stringHash(k))?.text, texts[k], k);
  assert.equal(findString(t, stringHash('UI_1Sword_Starting_N'))?.text, 'Urfael');
  assert.equal(findString(t, 0x12345678), undefined);
  // "same" is stored once: six distinct texts, both keys at one offset.
  assert.equal(t.distinctTexts, 6);
  assert.equal(findString(t, stringHash('Shared_A'))!.textOffset, findString(t, stringHash('Shared_B'))!.textOffset);
  const units = [...new Set(Object.values(texts))].reduce((n, s) => n + s.length + 1, 0);
  assert.equal(t.textUnits, units);
  assert.equal(bytes.length, 0x1c + 8 * keys.length + 2 * units);
  assert.ok(spans.some((s) => s.name === 'keys' && s.offset === 0x1c && s.length === 8 * keys.length));
  // An empty table is 28 bytes and reads back empty.
  assert.equal(parseSkdb(writeSkdb([]), 'e.strdb').entries.length, 0);
});

test("skdb: the seed's rules as typed errors naming the field", () => {
  const good = writeSkdb(entries);
  const t = parseSkdb(good, 'x');
  const mutate = (f: (b: Uint8Array) => void): Uint8Array => {
    const b = Uint8Array.from(good);
    f(b);
    return b;
  };
  expectArch06Error(
    () =>
      parseSkdb(
        mutate((b) => (b[0] = 0x54)),
        'x',
      ),
    'BAD_MAGIC',
    { field: 'header.magic' },
  );
  expectArch06Error(
    () =>
      parseSkdb(
        mutate((b) => setU32(b, 4, 8)),
        'x',
      ),
    'UNSUPPORTED_VERSION',
    { field: 'header.version' },
  );
  expectArch06Error(
    () =>
      parseSkdb(
        mutate((b) => setU32(b, 8, 0x20)),
        'x',
      ),
    'INVALID',
    { field: 'header.headerSize' },
  );
  // Keys out of order, and a repeated key (strictly ascending).
  const k0 = 0x1c;
  const swapped = mutate((b) => {
    const dv = new DataView(b.buffer);
    const [h0, h1] = [dv.getUint32(k0, true), dv.getUint32(k0 + 8, true)];
    dv.setUint32(k0, h1, true);
    dv.setUint32(k0 + 8, h0, true);
  });
  expectArch06Error(() => parseSkdb(swapped, 'x'), 'INVALID', { field: 'keys[1].hash' });
  expectArch06Error(
    () =>
      parseSkdb(
        mutate((b) => setU32(b, k0 + 8, t.entries[0].hash)),
        'x',
      ),
    'INVALID',
    { field: 'keys[1].hash' },
  );
  expectArch06Error(
    () =>
      parseSkdb(
        mutate((b) => setU32(b, k0 + 4, t.textUnits)),
        'x',
      ),
    'OUT_OF_RANGE',
    { field: 'keys[0].textOffset' },
  );
  // Text units that do not end at the file's end: short (TRUNCATED), long (INVALID).
  expectArch06Error(
    () =>
      parseSkdb(
        mutate((b) => setU32(b, 0x14, t.textUnits + 1)),
        'x',
      ),
    'TRUNCATED',
    { field: 'header.textUnits' },
  );
  expectArch06Error(
    () =>
      parseSkdb(
        mutate((b) => setU32(b, 0x14, t.textUnits - 1)),
        'x',
      ),
    'INVALID',
    { field: 'header.textUnits' },
  );
  // A key count that cannot fit is refused before anything is allocated for it.
  expectArch06Error(
    () =>
      parseSkdb(
        mutate((b) => setU32(b, 0x0c, 0x7fffffff)),
        'x',
      ),
    'TRUNCATED',
    { field: 'header.keyCount' },
  );
  // The last string without its NUL.
  const last = mutate((b) => {
    b[b.length - 2] = 0x41;
    b[b.length - 1] = 0;
  });
  const lastKey = t.entries.findIndex((e) => e.textOffset === Math.max(...t.entries.map((x) => x.textOffset)));
  expectArch06Error(() => parseSkdb(last, 'x'), 'INVALID', { field: `keys[${lastKey}].text` });
  // Nonzero reserved words are reported, not refused.
  const odd = parseSkdb(
    mutate((b) => setU32(b, 0x10, 7)),
    'x',
  );
  assert.equal(odd.confidence, 'uncertain');
  assert.match(odd.notes[0], /0x00000007/);
});

test('skdb: every truncation is a typed error', () => {
  const good = writeSkdb(entries);
  for (let n = 0; n < good.length; n++) {
    const e = expectArch06Error(() => parseSkdb(good.subarray(0, n), 's.strdb'), 'TRUNCATED');
    assert.equal(e.file, 's.strdb');
  }
});

test('skdb: seeded mutations end in a table or a typed error, never anything else', () => {
  const rnd = prng(0x5db);
  const good = writeSkdb(entries);
  let parsed = 0;
  for (let k = 0; k < 3000; k++) {
    const b = Uint8Array.from(good);
    const edits = 1 + ((rnd() * 3) | 0);
    for (let j = 0; j < edits; j++) {
      const at = (rnd() * b.length) | 0;
      if (rnd() < 0.5) setU32(b, Math.min(at, b.length - 4), rnd() < 0.5 ? (rnd() * 0x100000000) >>> 0 : (rnd() * 64) | 0);
      else b[at] = (rnd() * 256) | 0;
    }
    const input = rnd() < 0.2 ? b.subarray(0, (rnd() * b.length) | 0) : b;
    try {
      const t = parseSkdb(input, 'm.strdb');
      parsed++;
      for (const e of t.entries) assert.ok(e.textOffset < t.textUnits);
    } catch (e) {
      assert.ok(e instanceof Arch06Error, String(e));
      assert.ok(['TRUNCATED', 'BAD_MAGIC', 'UNSUPPORTED_VERSION', 'OUT_OF_RANGE', 'INVALID'].includes(e.code), e.code);
    }
  }
  assert.ok(parsed > 0);
});

test('skdb: the writer refuses duplicate keys, NUL in a text and hashes that are not u32', () => {
  expectArch06Error(
    () =>
      writeSkdb([
        { hash: 1, text: 'a' },
        { hash: 1, text: 'b' },
      ]),
    'BAD_ARGUMENT',
    { message: /twice/ },
  );
  expectArch06Error(() => writeSkdb([{ hash: 1, text: 'a\0b' }]), 'BAD_ARGUMENT');
  expectArch06Error(() => writeSkdb([{ hash: -1, text: 'a' }]), 'BAD_ARGUMENT');
  expectArch06Error(() => writeSkdb([{ hash: 2 ** 32, text: 'a' }]), 'BAD_ARGUMENT');
});
