// The editors' vscode-free helpers, in plain node.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { hexDump } from '../hexDump';
import { webviewNonce } from '../webviewNonce';
import * as protocol from '../../../media/mesh/protocol';
import * as wire from '../../../core/model/wire';

test('hexDump: offset, 16 bytes in hex, printable ASCII; stops at max', () => {
  const bytes = Uint8Array.from([...Buffer.from('LTFX'), 8, 0, 0, 0, 0x47, 0x41, 0x44, 0x42, 0x11, 0, 0, 0, 0x7f, 0x20]);
  assert.equal(hexDump(bytes), [
    '00000000  4c 54 46 58 08 00 00 00 47 41 44 42 11 00 00 00  LTFX....GADB....',
    '00000010  7f 20                                            . ',
  ].join('\n'));
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
