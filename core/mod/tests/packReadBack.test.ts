// Issue 23 item 4, acceptance: the packed archive read back by a minimal LTAR reader written here
// from formats-public.md §1 alone (not the project's reader), with the order rules of seed 004
// ("Lookup") and the path index rows ("The path index") checked by code of this file only.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packMod } from '../pack';
import { createMod } from '../copy';
import { tempDir, writeTree } from '../../../test/support/fixtures';

// ---- a minimal LTAR v4 reader (formats-public §1) ---------------------------------------------

interface MiniFile {
  path: string;
  leaf: string;
  folder: number;
  dataOffset: number;
  storedSize: number;
  size: number;
  unk1C: number;
  flags: number;
}
interface MiniFolder {
  path: string;
  firstChild: number;
  nextSibling: number;
  fileCount: number;
}

function cString(b: Buffer, at: number): string {
  const end = b.indexOf(0, at);
  assert.ok(end >= 0, `name at ${at} is NUL-terminated`);
  return b.toString('latin1', at, end);
}

function miniRead(b: Buffer): { files: MiniFile[]; folders: MiniFolder[]; header: { unk14: number; reserved: Buffer } } {
  assert.equal(b.toString('latin1', 0, 4), 'LTAR'); // §1.2 magic
  assert.equal(b.readUInt32LE(4), 4); // version 4
  const namePoolSize = b.readUInt32LE(8);
  const folderCount = b.readUInt32LE(0x0c);
  const fileCount = b.readUInt32LE(0x10);
  const header = { unk14: b.readUInt32LE(0x14), reserved: b.subarray(0x18, 0x30) };
  const fileTable = 0x30 + namePoolSize; // §1.1
  const folderTable = fileTable + 30 * fileCount;
  assert.ok(folderTable + 16 * folderCount <= b.length);
  const folders: MiniFolder[] = [];
  for (let i = 0; i < folderCount; i++) {
    const at = folderTable + 16 * i; // §1.5
    folders.push({
      path: cString(b, 0x30 + b.readUInt32LE(at)),
      firstChild: b.readInt32LE(at + 4),
      nextSibling: b.readInt32LE(at + 8),
      fileCount: b.readUInt32LE(at + 12),
    });
  }
  const files: MiniFile[] = [];
  let f = 0;
  let left = folders[0]?.fileCount ?? 0;
  for (let i = 0; i < fileCount; i++) {
    while (left === 0) left = folders[++f].fileCount; // each folder takes the next fileCount records
    left--;
    const at = fileTable + 30 * i; // §1.4, packed, unaligned u64s
    const leaf = cString(b, 0x30 + b.readUInt32LE(at));
    files.push({
      leaf,
      folder: f,
      path: folders[f].path ? `${folders[f].path}\\${leaf}` : leaf,
      dataOffset: Number(b.readBigUInt64LE(at + 4)),
      storedSize: Number(b.readBigUInt64LE(at + 0x0c)),
      size: Number(b.readBigUInt64LE(at + 0x14)),
      unk1C: b[at + 0x1c],
      flags: b[at + 0x1d],
    });
  }
  return { files, folders, header };
}

/** §1.4's decode rule and §1.6's chunk stream; only stored chunks are expected here. */
function miniContent(b: Buffer, f: MiniFile): Buffer {
  if (f.storedSize === 0) return Buffer.alloc(0);
  if (f.unk1C === 0 || f.flags === 0 || f.storedSize === f.size) return b.subarray(f.dataOffset, f.dataOffset + f.size);
  const parts: Buffer[] = [];
  let pos = f.dataOffset;
  let produced = 0;
  while (produced < f.size) {
    const storedLen = b.readUInt32LE(pos);
    const rawLen = b.readUInt32LE(pos + 4);
    assert.ok(storedLen <= 0x10000 && rawLen <= 0x10000, 'chunk lengths within 0x10000');
    assert.equal(storedLen, rawLen, 'a packed mod stores its chunks (stored length = raw length)');
    parts.push(b.subarray(pos + 8, pos + 8 + storedLen));
    produced += rawLen;
    pos += 8 + storedLen;
    while ((pos - f.dataOffset) % 4 !== 0) pos++; // aligned from the entry's own start
  }
  assert.ok(pos - f.dataOffset <= f.storedSize, 'the chunks lie within the stored size');
  return Buffer.concat(parts);
}

// ---- the engine's orders (seed 004 "Lookup") and StringHash (seed 004 "Hashing"), written here --

const lower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
/** _stricmp: byte order of the lower-cased strings. */
function stricmp(a: string, b: string): number {
  const x = lower(a);
  const y = lower(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
/** Folder order: compare as if each path ended in a backslash. */
const folderOrder = (a: string, b: string): number => stricmp(a + '\\', b + '\\');

function stringHashHere(s: string): number {
  const lut = (c: number): number => {
    if (c >= 0x61 && c <= 0x7a) return c - 0x60;
    if (c >= 0x41 && c <= 0x5a) return c - 0x40;
    if (c >= 0x30 && c <= 0x39) return c - 0x30 + 27;
    const table: Record<number, number> = { 0x2e: 55, 0x2d: 39, 0x5f: 38, 0x20: 37, 0x5c: 42, 0x2f: 52 };
    assert.ok(table[c] !== undefined, `a byte the seed gives: ${c}`);
    return table[c];
  };
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 919) + lut(s.charCodeAt(i))) >>> 0;
  return h;
}

// ---- the mod --------------------------------------------------------------------------------

function bigBytes(n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + (i >> 9)) & 0xff;
  return b;
}

const MOD_FILES: Record<string, Buffer> = {
  'readme.txt': Buffer.from('a mod\n'),
  'Zeta.txt': Buffer.from('upper-case leaf sorts by folded order\n'),
  'bundles/dlc/a.txt': Buffer.from('prefix folder\n'),
  'bundles/dlc4/b.txt': Buffer.from('dlc4 sorts before dlc\n'),
  'bundles/DLC_extra/c.txt': Buffer.from('underscore after backslash? no: _ is 0x5F, backslash 0x5C\n'),
  'scripts/quests/q_new.scripts': Buffer.from('-- new script\nreturn 1\n'),
  'scripts/quests/Q_alpha.scripts': Buffer.from('-- another\n'),
  'worlds/retail/x/layer.bndl': Buffer.from('BNDL manifest without its container in the mod\n'),
  'worlds/retail/y/pair.bndl': Buffer.from('manifest beside its container\n'),
  'worlds/retail/y/pair.embb': Buffer.from('container\n'),
  'data/empty.bin': Buffer.alloc(0),
  'data/big.bin': bigBytes(200_003), // four chunks, the last one short and padded
};

test('a packed mod reads back through a reader written from formats-public §1: header, tables, order rules, chunks, every file', async () => {
  const dir = tempDir('arch06-mod-');
  const mod = path.join(dir, 'MyMod');
  createMod(mod, 'My Mod');
  writeTree(mod, MOD_FILES);
  const out = path.join(dir, 'out', 'mymod.arch06');
  const r = await packMod(mod, { out });
  assert.equal(r.files, Object.keys(MOD_FILES).length);
  assert.equal(r.verified, r.files);
  const b = fs.readFileSync(out);
  assert.equal(b.length, r.archiveBytes);
  const { files, folders, header } = miniRead(b);

  // Header as the retail samples have it: unk 1, reserved bytes zero.
  assert.equal(header.unk14, 1);
  assert.ok(header.reserved.every((x) => x === 0));

  // Root first with an empty name; counts add up; every non-root folder extends its parent.
  assert.equal(folders[0].path, '');
  assert.equal(
    folders.reduce((n, f) => n + f.fileCount, 0),
    files.length,
  );
  const byPath = new Map(folders.map((f, i) => [lower(f.path), i]));
  for (const f of folders.slice(1)) {
    const parent = f.path.includes('\\') ? f.path.slice(0, f.path.lastIndexOf('\\')) : '';
    assert.ok(byPath.has(lower(parent)), `${f.path}: its parent folder is a record`);
  }
  // Folder records (after the root) in case-insensitive order as if each ended in a backslash.
  for (let i = 2; i < folders.length; i++) assert.ok(folderOrder(folders[i - 1].path, folders[i].path) < 0, `${folders[i - 1].path} before ${folders[i].path}`);
  const dlc = folders.findIndex((f) => f.path === 'bundles\\dlc');
  const dlc4 = folders.findIndex((f) => f.path === 'bundles\\dlc4');
  assert.ok(dlc4 < dlc, 'bundles\\dlc4 before bundles\\dlc (digit 4 < backslash)');
  // Leaves inside each folder in _stricmp order.
  for (let i = 1; i < files.length; i++)
    if (files[i].folder === files[i - 1].folder) assert.ok(stricmp(files[i - 1].leaf, files[i].leaf) < 0, `${files[i - 1].path} before ${files[i].path}`);
  // Child and sibling links: each folder's children are the folders one level below it.
  folders.forEach((f, i) => {
    const kids: string[] = [];
    for (let c = f.firstChild; c !== -1; c = folders[c].nextSibling) kids.push(folders[c].path);
    const expected = folders
      .filter((g, j) => j > 0 && (g.path.includes('\\') ? g.path.slice(0, g.path.lastIndexOf('\\')) : '') === f.path && j !== i)
      .map((g) => g.path);
    assert.deepEqual(kids, expected, `children of "${f.path}"`);
  });

  // Every mod file, byte for byte, as a stored chunk stream (reader byte 1, flags 9).
  const got = new Map(files.map((f) => [f.path, f]));
  for (const [rel, bytes] of Object.entries(MOD_FILES)) {
    const f = got.get(rel.replace(/\//g, '\\'));
    assert.ok(f, `${rel} is in the archive`);
    assert.equal(f!.size, bytes.length);
    assert.equal(f!.unk1C, 1);
    assert.equal(f!.flags, 9);
    assert.equal(f!.dataOffset % 4, bytes.length ? 0 : f!.dataOffset % 4);
    assert.ok(miniContent(b, f!).equals(bytes), `${rel}: bytes`);
  }
  // The manifest copy, in a subfolder.
  const manifest = got.get('arch06\\arch06-mod.json');
  assert.ok(manifest);
  assert.equal(JSON.parse(miniContent(b, manifest!).toString('utf8')).name, 'My Mod');

  // The path index: record 0, rows sorted by hash, every hash the StringHash of its path, and the
  // rows exactly the kinds seed 004 lists (the .bndl whose container is in the mod left out).
  assert.equal(files[0].path, 'archivepatchloosefiles.txt');
  assert.ok(r.indexIsRecord0);
  const ix = miniContent(b, files[0]);
  assert.equal(ix.readUInt32LE(0), 1);
  const stringBytes = ix.readUInt32LE(4);
  const count = ix.readUInt32LE(8 + stringBytes);
  assert.equal(ix.length, 12 + stringBytes + 8 * count);
  const rows: { hash: number; path: string }[] = [];
  for (let i = 0; i < count; i++) {
    const at = 12 + stringBytes + 8 * i;
    rows.push({ hash: ix.readUInt32LE(at), path: cString(ix, 8 + ix.readUInt32LE(at + 4)) });
  }
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].hash <= rows[i].hash, 'rows sorted by hash');
  for (const row of rows) assert.equal(row.hash, stringHashHere(row.path), `hash of ${row.path}`);
  assert.deepEqual(rows.map((x) => x.path).sort(), ['scripts\\quests\\Q_alpha.scripts', 'scripts\\quests\\q_new.scripts', 'worlds\\retail\\x\\layer.bndl']);
});

test('a mod with nothing the path index lists gets no path index', async () => {
  const dir = tempDir('arch06-mod-');
  const mod = path.join(dir, 'Plain');
  createMod(mod, 'Plain');
  writeTree(mod, { 'config/game.cfg': 'Difficulty=Easy\n' });
  const r = await packMod(mod);
  assert.equal(r.archive, path.join(dir, 'Plain.arch06'));
  assert.equal(r.indexRows, 0);
  const { files } = miniRead(fs.readFileSync(r.archive));
  assert.deepEqual(files.map((f) => f.path).sort(), ['arch06\\arch06-mod.json', 'config\\game.cfg']);
});
