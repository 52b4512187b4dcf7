// SCRI scripts (formats-public §10, checked on the four real layer scripts in core/formats/registry/tests/realLayers.test.ts):
// header, source and bytecode payloads, bare payloads, the writer, and typed
// errors for truncated and mutated files.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../../errors';
import { parseScript } from '../scri';
import { writeScri } from '../writer';
import { expectArch06Error } from '../../../../test/support/errors';
import { prng } from '../../../../test/support/fixtures';

/** A layer script in the retail shape: prototypes, then one section table of bindings. */
const LAYER_SOURCE = [
  '-- SCRIPTOBJECT PROTOTYPES (search for IMPLEMENTATION to get to the actual code)',
  '',
  'hstructure _gate_SO_Script_1_meta',
  '\t__constructor : ifunction',
  '\tInit : ifunction',
  'end',
  '',
  '-- IMPLEMENTATION',
  'local section_0001 = {',
  '-- Relay.Script1 (prefabs\\gameplay\\gate.prefab)',
  '_gate_SR_Script1_2 = function (self, threadId, scriptId)',
  '\tlocal Instance = scriptId.Instance',
  'end,',
  '-- SO.Script (prefabs\\gameplay\\gate.prefab)',
  '_gate_SO_Script_3 = hmake _gate_SO_Script_1_meta {',
  '\t__constructor = function ( parent, scriptId )',
  '\t\tlocal self = hmake _gate_SO_Script_1_inst {}',
  '\tend',
  ',\tInit = function ( self )',
  '\tend',
  '},',
  '_gate_SC_Script_4 = function (self, threadId, scriptId)',
  'end,',
  '}',
  '_G.loadedresource = section_0001',
  '',
].join('\n');

test('scri: a written script reads back: header fields, source without its NUL, payload at 0x0D', () => {
  const bytes = writeScri(LAYER_SOURCE);
  const s = parseScript(bytes, 'layer.scripts');
  assert.deepEqual(s.header, { version: 1, flag: 1, size: bytes.length - 13 });
  assert.equal(s.payloadOffset, 0x0d);
  assert.equal(s.kind, 'source');
  assert.equal(s.source, LAYER_SOURCE);
  assert.equal(s.nulTerminated, true);
  assert.equal(s.confidence, 'confirmed');
  assert.deepEqual(s.notes, []);
  // Without the NUL, and UTF-8 text.
  const plain = parseScript(writeScri('x = "é"', { nulTerminated: false }), 'y');
  assert.equal(plain.source, 'x = "é"');
  assert.equal(plain.nulTerminated, false);
});

test('scri: a payload without the SCRI header is accepted as source; binary without it is refused', () => {
  const bare = parseScript(Buffer.from('f = function() end\n'), 'loose.hks');
  assert.equal(bare.header, undefined);
  assert.equal(bare.kind, 'source');
  assert.equal(bare.payloadOffset, 0);
  assert.match(bare.notes[0], /no SCRI header/);
  expectArch06Error(() => parseScript(Uint8Array.of(0x4d, 0x5a, 0x90, 0, 3, 0), 'x.exe'), 'BAD_MAGIC', { field: 'payload' });
  // A SCRI payload with a NUL inside is neither text nor bytecode.
  expectArch06Error(() => parseScript(writeScri(Uint8Array.of(0x61, 0, 0x62)), 'x'), 'INVALID', { field: 'payload' });
});

test('scri: a Havok Script bytecode payload: its header fields, and it says so', () => {
  const header = [0x1b, 0x4c, 0x75, 0x61, 0x51, 0x0e, 1, 4, 8, 4, 8, 0, 3, 0];
  const s = parseScript(writeScri(Uint8Array.from([...header, 9, 9, 9])), 'compiled.scripts');
  assert.equal(s.kind, 'bytecode');
  assert.deepEqual(s.bytecode, {
    version: 0x51,
    format: 0x0e,
    endianness: 1,
    intSize: 4,
    sizeTSize: 8,
    instructionSize: 4,
    numberSize: 8,
    numberType: 0,
    flags: 3,
    unknown: 0,
  });
  assert.equal(s.confidence, 'uncertain');
  assert.ok(s.notes.some((n) => /compiled Havok Script/.test(n)));
  assert.equal(parseScript(Uint8Array.from(header), 'bare.luac').kind, 'bytecode');
  // Plain Lua 5.1 bytecode is not Havok Script; a cut header is TRUNCATED.
  expectArch06Error(() => parseScript(writeScri(Uint8Array.from([0x1b, 0x4c, 0x75, 0x61, 0x51, 0x00, 1, 4, 8, 4, 8, 0, 0, 0])), 'x'), 'UNSUPPORTED_VERSION', {
    field: 'bytecode.version',
  });
  expectArch06Error(() => parseScript(writeScri(Uint8Array.from(header.slice(0, 9))), 'x'), 'TRUNCATED', { field: 'bytecode.header' });
});

test('scri: header errors name the field; an odd flag is reported', () => {
  const good = writeScri('a = 1');
  const dv = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset);
  const v2 = Uint8Array.from(good);
  dv(v2).setUint32(4, 2, true);
  expectArch06Error(() => parseScript(v2, 'x'), 'UNSUPPORTED_VERSION', { field: 'header.version' });
  const long = Uint8Array.from(good);
  dv(long).setUint32(9, good.length, true);
  expectArch06Error(() => parseScript(long, 'x'), 'TRUNCATED', { field: 'header.size' });
  const short = Uint8Array.from(good);
  dv(short).setUint32(9, 2, true);
  expectArch06Error(() => parseScript(short, 'x'), 'INVALID', { field: 'header.size' });
  const flag = Uint8Array.from(good);
  flag[8] = 7;
  const s = parseScript(flag, 'x');
  assert.equal(s.header?.flag, 7);
  assert.equal(s.confidence, 'uncertain');
});

test('scri: every truncation of a SCRI file is a typed error', () => {
  const good = writeScri(LAYER_SOURCE);
  for (let n = 0; n < good.length; n++) expectArch06Error(() => parseScript(good.subarray(0, n), 's.scripts'), 'TRUNCATED');
});

test('scri: seeded mutations end in a script or a typed error, never anything else', () => {
  const rnd = prng(0x5c41);
  const bases = [writeScri(LAYER_SOURCE), writeScri(Uint8Array.from([0x1b, 0x4c, 0x75, 0x61, 0x51, 0x0e, 1, 4, 8, 4, 8, 0, 0, 0, 5]))];
  let parsed = 0;
  for (let k = 0; k < 2000; k++) {
    const b = Uint8Array.from(bases[k % 2]);
    const edits = 1 + ((rnd() * 3) | 0);
    for (let j = 0; j < edits; j++) b[(rnd() * Math.min(b.length, 24)) | 0] = (rnd() * 256) | 0;
    const input = rnd() < 0.2 ? b.subarray(0, (rnd() * b.length) | 0) : b;
    try {
      const s = parseScript(input, 'm.scripts');
      parsed++;
      assert.ok(s.payloadOffset + s.payloadSize === input.length);
    } catch (e) {
      assert.ok(e instanceof Arch06Error, String(e));
      assert.ok(['TRUNCATED', 'BAD_MAGIC', 'UNSUPPORTED_VERSION', 'OUT_OF_RANGE', 'INVALID'].includes(e.code), e.code);
    }
  }
  assert.ok(parsed > 0);
});
