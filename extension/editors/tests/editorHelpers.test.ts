// The editors' vscode-free helpers and the webview protocols' message checks, in plain node.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { hexDump } from '../hexDump';
import { webviewNonce } from '../webviewNonce';
import * as protocol from '../../../media/mesh/protocol';
import * as textureProtocol from '../../../media/texture/protocol';
import * as wire from '../../../core/model';

test('hexDump: offset, 16 bytes in hex, printable ASCII; stops at max', () => {
  const bytes = Uint8Array.from([...Buffer.from('LTFX'), 8, 0, 0, 0, 0x47, 0x41, 0x44, 0x42, 0x11, 0, 0, 0, 0x7f, 0x20]);
  assert.equal(
    hexDump(bytes),
    ['00000000  4c 54 46 58 08 00 00 00 47 41 44 42 11 00 00 00  LTFX....GADB....', '00000010  7f 20                                            . '].join('\n'),
  );
  assert.equal(hexDump(new Uint8Array(100), 32).split('\n').length, 2);
  assert.equal(hexDump(new Uint8Array(0)), '');
});

test('webviewNonce: 32 hex digits, fresh each time', () => {
  const a = webviewNonce();
  assert.match(a, /^[0-9a-f]{32}$/);
  assert.notEqual(webviewNonce(), a);
});

test('the mesh webview protocol re-exports the wire format the host and the viewer share', () => {
  assert.equal(protocol.WIRE_VERSION, wire.WIRE_VERSION);
  assert.equal(protocol.toWireModel, wire.toWireModel);
  assert.equal(protocol.fromWireModel, wire.fromWireModel);
});

test('the texture protocol check: known messages pass normalised (indices, exposure), anything else is dropped', () => {
  assert.deepEqual(textureProtocol.checkViewMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(textureProtocol.checkViewMessage({ type: 'level', slice: 2, mip: 3, exposure: 99, host: true }), {
    type: 'level',
    slice: 2,
    mip: 3,
    exposure: 16,
    host: true,
  });
  assert.deepEqual(textureProtocol.checkViewMessage({ type: 'level', slice: -1, mip: 1.5, exposure: NaN }), {
    type: 'level',
    slice: 0,
    mip: 0,
    exposure: 0,
    host: false,
  });
  assert.deepEqual(textureProtocol.checkViewMessage({ type: 'exportPng', slice: 1 << 16, mip: '2' }), { type: 'exportPng', slice: 0, mip: 0 });
  assert.deepEqual(textureProtocol.checkViewMessage({ type: 'copied', ok: 1, message: 7 }), { type: 'copied', ok: false, message: undefined });
  for (const bad of [undefined, null, 'ready', 42, {}, { type: 3 }, { type: 'init' }, { type: 'levelData' }, { type: 'toString' }]) {
    assert.equal(textureProtocol.checkViewMessage(bad), undefined, JSON.stringify(bad));
  }
});

test('the mesh protocol check: slots are short strings, timings numbers; anything else is dropped', () => {
  assert.deepEqual(protocol.checkViewMessage({ type: 'pickTexture', slot: 'slot 0' }), { type: 'pickTexture', slot: 'slot 0' });
  assert.equal(protocol.checkViewMessage({ type: 'pickTexture', slot: '' }), undefined);
  assert.equal(protocol.checkViewMessage({ type: 'clearTexture', slot: 'x'.repeat(257) }), undefined);
  assert.equal(protocol.checkViewMessage({ type: 'clearTexture', slot: { toString: () => 'slot 0' } }), undefined);
  assert.deepEqual(protocol.checkViewMessage({ type: 'firstFrame', ms: 12, sinceModelMs: 3 }), { type: 'firstFrame', ms: 12, sinceModelMs: 3 });
  assert.equal(protocol.checkViewMessage({ type: 'firstFrame', ms: '12', sinceModelMs: 3 }), undefined);
  assert.deepEqual(protocol.checkViewMessage({ type: 'stats', lod: 'x' }), { type: 'stats', lod: -1, triangles: 0, visibleParts: 0 });
  assert.deepEqual(protocol.checkViewMessage({ type: 'error', message: 'no WebGL' }), { type: 'error', message: 'no WebGL' });
  for (const bad of [undefined, null, [], { type: 'model' }, { type: 'texture', slot: 'a' }, { type: 'failed' }])
    assert.equal(protocol.checkViewMessage(bad), undefined, JSON.stringify(bad));
});
