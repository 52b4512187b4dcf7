// The hex view's vscode-free parts in plain node: row formatting, windows, the scroll mapping and
// Go to Offset (media/hex/hexLayout.ts), the message check (media/hex/protocol.ts), what the
// header says (hexModel.ts), and package.json's editor contributions against hexModel's tables.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toGamePath } from '../../../core/archive';
import { writeScri } from '../../../core/formats/script';
import { writeDds, writeTexr } from '../../../core/formats/texture';
import {
  BYTES_PER_ROW,
  MAX_SCROLL_PX,
  asciiOf,
  blockRange,
  blocksForRows,
  blocksToDrop,
  formatOffset,
  magicOf,
  offsetDigits,
  parseOffset,
  revealRow,
  rowCount,
  scrollMap,
  scrollTopFor,
  topRowAt,
} from '../../../media/hex/hexLayout';
import { MAX_READ, checkViewMessage } from '../../../media/hex/protocol';
import { mountSample } from '../../../test/support/sampleMount';
import { repoRoot } from '../../../test/support/shared';
import { ARCH06_EDITORS, HEX_ANY_VIEW_TYPE, HEX_DEFAULT_EXTENSIONS, HEX_VIEW_TYPE, editorByExtension, extensionOf, identify, knownMagic } from '../hexModel';

const GIB = 1 << 30;

test('hex rows: offsets widen past 8 digits only when the file needs them; ASCII shows printable bytes, dots otherwise', () => {
  assert.equal(rowCount(0), 0);
  assert.equal(rowCount(1), 1);
  assert.equal(rowCount(16), 1);
  assert.equal(rowCount(17), 2);
  assert.equal(rowCount(GIB), GIB / BYTES_PER_ROW);
  assert.equal(offsetDigits(0), 8);
  assert.equal(offsetDigits(0x1_0000_0000), 8); // last offset 0xFFFFFFFF
  assert.equal(offsetDigits(0x1_0000_0001), 9);
  assert.equal(formatOffset(0x1f40, 8), '00001F40');
  assert.deepEqual([0x00, 0x1f, 0x20, 0x41, 0x7e, 0x7f, 0xff].map(asciiOf), ['.', '.', ' ', 'A', '~', '.', '.']);
  assert.deepEqual(magicOf(Uint8Array.from([0x47, 0x46, 0x58, 0x08, 0x99])), { text: 'GFX\\x08', hex: '47 46 58 08' });
  assert.deepEqual(magicOf(Uint8Array.from([0x1b, 0x4c, 0x75, 0x61])), { text: '\\x1BLua', hex: '1B 4C 75 61' });
  assert.deepEqual(magicOf(Uint8Array.from([0x5c, 0x41])), { text: '\\x5CA', hex: '5C 41' }); // a backslash is escaped too
  assert.deepEqual(magicOf(new Uint8Array(0)), { text: '', hex: '' });
});

test('hex windows: the rows on screen need one or two windows; the farthest are dropped beyond the cap', () => {
  const block = MAX_READ;
  const rowsPerBlock = block / BYTES_PER_ROW;
  assert.deepEqual(blocksForRows(0, 40, 100_000, block), [0]);
  assert.deepEqual(blocksForRows(rowsPerBlock - 10, rowsPerBlock + 30, 10 * block, block), [0, 1]);
  // The last rows of a 1 GiB file: the last window only, never anything past the end.
  const rows = rowCount(GIB);
  assert.deepEqual(blocksForRows(rows - 40, rows + 5, GIB, block), [GIB / block - 1]);
  assert.deepEqual(blocksForRows(10, 20, 0, block), []);
  assert.deepEqual(blockRange(2, 150_000, block), { start: 131_072, end: 150_000 });
  assert.deepEqual(blockRange(5, 150_000, block), { start: 150_000, end: 150_000 });
  assert.deepEqual(blocksToDrop([0, 1, 2, 3], 1, 8), []);
  assert.deepEqual(
    blocksToDrop([0, 1, 2, 3, 9, 10], 2, 4).sort((a, b) => a - b),
    [9, 10],
  );
});

test('hex scrolling: a small file scrolls by pixels; a 1 GiB file on a scaled bar maps both ends and the middle exactly', () => {
  const small = scrollMap(rowCount(200_000), 20, 400);
  assert.equal(small.scaled, false);
  assert.equal(small.contentPx, 12_500 * 20);
  assert.equal(small.pageRows, 20);
  assert.equal(topRowAt(small, 2_010, 400), 100);
  assert.equal(scrollTopFor(small, 100, 400), 2_000);
  assert.equal(scrollTopFor(small, 1e9, 400), small.maxTopRow * 20); // clamped to the last screenful

  const big = scrollMap(rowCount(GIB), 20, 400);
  assert.equal(big.scaled, true);
  assert.equal(big.contentPx, MAX_SCROLL_PX);
  assert.equal(big.maxTopRow, rowCount(GIB) - 20);
  const maxScroll = MAX_SCROLL_PX - 400;
  assert.equal(topRowAt(big, 0, 400), 0);
  assert.equal(topRowAt(big, maxScroll, 400), big.maxTopRow);
  assert.equal(scrollTopFor(big, big.maxTopRow, 400), maxScroll);
  // Row → scrollTop → row returns to within the rows one pixel spans.
  const perPx = big.maxTopRow / maxScroll;
  for (const row of [1, 12_345, big.maxTopRow >> 1, big.maxTopRow - 7]) {
    const back = topRowAt(big, scrollTopFor(big, row, 400), 400);
    assert.ok(Math.abs(back - row) <= Math.ceil(perPx), `${row} → ${back}`);
  }
  // Keeping a row on screen moves the view as little as it can.
  assert.equal(revealRow(small, 100, 105), 100);
  assert.equal(revealRow(small, 100, 130), 111);
  assert.equal(revealRow(small, 100, 50), 50);
});

test('Go to Offset: 0x and h suffixes are hex, plain digits decimal, +N / -N relative; outside the file is an error naming its range', () => {
  assert.deepEqual(parseOffset('0x1F40', 100_000), { offset: 0x1f40 });
  assert.deepEqual(parseOffset(' 1f40h ', 100_000), { offset: 0x1f40 });
  assert.deepEqual(parseOffset('8000', 100_000), { offset: 8000 });
  assert.deepEqual(parseOffset('1_000', 100_000), { offset: 1000 });
  assert.deepEqual(parseOffset('+0x10', 100_000, 32), { offset: 48 });
  assert.deepEqual(parseOffset('-16', 100_000, 32), { offset: 16 });
  assert.deepEqual(parseOffset('0x3FFFFFFF', GIB), { offset: GIB - 1 });
  const past = parseOffset('0x40000000', GIB);
  assert.ok('error' in past && /outside the file: offsets run from 0 to 0x3FFFFFFF \(1,073,741,823\)/.test(past.error), JSON.stringify(past));
  const before = parseOffset('-64', 100, 10);
  assert.ok('error' in before && /outside the file/.test(before.error));
  for (const bad of ['', 'zz', '0x', '12g', '0x-5', '1e5']) assert.ok('error' in parseOffset(bad, 100), bad);
  assert.ok('error' in parseOffset('0', 0));
  assert.ok('error' in parseOffset('9'.repeat(30), 100));
});

test('the hex protocol check: reads are clamped to one window, offsets may pass 4 GiB, anything else is dropped', () => {
  assert.deepEqual(checkViewMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(checkViewMessage({ type: 'read', offset: 5e9, length: 1e6 }), { type: 'read', offset: 5e9, length: MAX_READ });
  assert.deepEqual(checkViewMessage({ type: 'read', offset: 0, length: 100 }), { type: 'read', offset: 0, length: 100 });
  assert.deepEqual(checkViewMessage({ type: 'openWith', target: 'hexEditor' }), { type: 'openWith', target: 'hexEditor' });
  assert.deepEqual(checkViewMessage({ type: 'firstRows', rows: 'x' }), { type: 'firstRows', rows: 0 });
  for (const bad of [
    null,
    'read',
    { type: 'read', offset: -1, length: 10 },
    { type: 'read', offset: 1.5, length: 10 },
    { type: 'read', offset: 2 ** 60, length: 10 },
    { type: 'read', offset: 0 },
    { type: 'openWith', target: 'workbench.action.files.save' },
    { type: 'bytes', offset: 0 },
    { type: 'toString' },
  ])
    assert.equal(checkViewMessage(bad), undefined, JSON.stringify(bad));
});

test('the header: the magic, what arch06 knows it to be, and the editor that would handle it (by magic, by name, or neither)', () => {
  const ltfx = Uint8Array.from([...Buffer.from('LTFX'), 8, 0, 0, 0, ...Buffer.from('GADB')]);
  const fxp = identify(ltfx, '/fx/landmine_curse.fxp');
  assert.equal(fxp.magic.text, 'LTFX');
  assert.equal(fxp.magic.hex, '4C 54 46 58');
  assert.equal(fxp.magic.format, 'LTFX effect (.fxp)');
  assert.match(fxp.magic.note ?? '', /header/);
  assert.equal(fxp.editor, null);
  assert.equal(fxp.mismatch, null);

  // A real texture written by the project's writer, named as one: both say the texture editor.
  const dds = writeDds({ width: 4, height: 4, format: 'BC1', mips: [new Uint8Array(8)] });
  const texr = writeTexr({ path: 'textures\\x_d.tex', width: 4, height: 4, dds });
  const tex = identify(texr, '/textures/x_d.tex');
  assert.equal(tex.magic.format, 'TEXR v8 texture');
  assert.deepEqual(tex.editor, { viewType: 'arch06.texture', name: 'arch06 Texture', reason: 'its magic and its .tex name' });
  // The same bytes under another name: the magic decides, and the name is not blamed for a .bin.
  assert.equal(identify(texr, '/data/x.bin').editor?.viewType, 'arch06.texture');
  assert.equal(identify(texr, '/data/x.bin').editor?.reason, 'its magic');
  // A script's SCRI header, named .bin; a compiled payload.
  const scri = writeScri('print("hi")');
  assert.equal(identify(scri, 'a.bin').editor?.viewType, 'arch06.script');
  assert.equal(knownMagic(Uint8Array.from([0x1b, 0x4c, 0x75, 0x61, 0x51]))?.editor, 'arch06.script');

  // Named as a mesh, but the bytes are an effect: both said, the name's editor offered.
  const odd = identify(ltfx, 'x.mesh');
  assert.equal(odd.editor?.viewType, 'arch06.mesh');
  assert.match(odd.mismatch ?? '', /The \.mesh name says arch06 Mesh and Skeleton, the magic says LTFX effect/);
  // Unknown bytes under an editor's name.
  assert.match(identify(Uint8Array.from([1, 2, 3, 4]), 'x.strdb').mismatch ?? '', /not one that editor reads/);

  // Unknown magic, unknown name: said plainly; a two-byte magic; an empty file; a cut file.
  const unknown = identify(Uint8Array.from([0x0a, 0x41, 0x42, 0x43, 0x44]), 'data/big_stored.bin');
  assert.deepEqual(unknown.magic, { text: '\\x0AABC', hex: '0A 41 42 43', format: null, note: null });
  assert.equal(unknown.editor, null);
  assert.equal(identify(Uint8Array.from([0x4d, 0x5a, 0x90, 0]), 'ShadowOfWar.exe').magic.format, 'Windows executable (MZ)');
  assert.equal(identify(new Uint8Array(0), 'data/empty.bin').magic.format, 'an empty file');
  assert.equal(identify(Uint8Array.from([0x4c, 0x54]), 'cut.fxp').magic.format, null);
  assert.equal(extensionOf('a\\b.c\\Name.TEX0'), 'tex0');
  assert.equal(extensionOf('/x/.hidden'), '');
});

test('the sample install: its .bin files have no editor, so the hex view is theirs; its texture names the texture editor', () => {
  const mount = mountSample();
  try {
    for (const p of ['data\\big_stored.bin', 'data\\patched.bin']) {
      const entry = mount.winner(toGamePath(p));
      assert.ok(entry, p);
      const id = identify(entry.readSync(0, 16), p);
      assert.equal(id.editor, null, p);
      assert.equal(id.magic.format, null, p);
      assert.ok(HEX_DEFAULT_EXTENSIONS.includes(extensionOf(p)));
    }
    const tex = mount.winner(toGamePath('textures\\sample\\sample_banner_d.tex'));
    assert.ok(tex);
    assert.equal(identify(tex.readSync(0, 64), tex.path).editor?.name, 'arch06 Texture');
  } finally {
    mount.close();
  }
});

test('package.json: the editor table mirrors contributes.customEditors; the hex view is default only for types no editor claims, and an option for any file', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as {
    contributes: { customEditors: { viewType: string; displayName: string; selector: { filenamePattern: string }[]; priority: string }[] };
  };
  const editors = manifest.contributes.customEditors;
  const patterns = (e: (typeof editors)[number]): string[] => e.selector.map((s) => s.filenamePattern);
  for (const known of ARCH06_EDITORS) {
    const e = editors.find((x) => x.viewType === known.viewType);
    assert.ok(e, known.viewType);
    assert.equal(e.displayName, known.name);
    assert.deepEqual(patterns(e), [...known.extensions.map((x) => `*.${x}`), ...(known.fileNames ?? [])]);
  }
  const others = editors.filter((e) => !ARCH06_EDITORS.some((k) => k.viewType === e.viewType));
  assert.deepEqual(others.map((e) => e.viewType).sort(), [HEX_VIEW_TYPE, HEX_ANY_VIEW_TYPE].sort());
  const hex = editors.find((e) => e.viewType === HEX_VIEW_TYPE)!;
  assert.equal(hex.priority, 'default');
  assert.deepEqual(
    patterns(hex),
    HEX_DEFAULT_EXTENSIONS.map((x) => `*.${x}`),
  );
  for (const x of HEX_DEFAULT_EXTENSIONS) assert.equal(editorByExtension(x), undefined, `.${x} has an arch06 editor`);
  const any = editors.find((e) => e.viewType === HEX_ANY_VIEW_TYPE)!;
  assert.equal(any.priority, 'option');
  assert.deepEqual(patterns(any), ['*']);
});
