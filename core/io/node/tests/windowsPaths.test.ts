// The game and most modders are on Windows (issue 21 item 8): the path logic is held to
// path.win32 semantics here, over an in-memory Windows disk: cfg lines with drive letters and
// `..\`, UNC shares, a rooted `\` line, device names (CON, AUX, NUL, COM1 …), trailing dots and
// spaces, names differing only in case. And the names extraction refuses on every platform
// because Windows would misread them, each with its reason.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { type PathWorld, resolveCaseInsensitive } from '../disk';
import { unsafeNameReason } from '../../safeName';

/** A Windows disk of `files` (full paths as Windows spells them); a lookup by exact path is case-sensitive here, so the case-insensitive step is what finds the rest. */
function windowsDisk(files: string[]): PathWorld & { listed: string[] } {
  const p = path.win32;
  const exists = new Set<string>();
  const children = new Map<string, Set<string>>();
  for (const f of files) {
    for (let cur = p.normalize(f); ;) {
      exists.add(cur);
      const parent = p.dirname(cur);
      if (parent === cur) break;
      if (!children.has(parent)) children.set(parent, new Set());
      children.get(parent)!.add(p.basename(cur));
      cur = parent;
    }
  }
  const listed: string[] = [];
  return {
    path: p,
    listed,
    exists: (x) => exists.has(p.normalize(x)),
    list: (d) => {
      listed.push(d);
      const c = children.get(p.normalize(d));
      if (!c) throw new Error(`ENOENT: ${d}`);
      return [...c];
    },
  };
}

const INSTALL = 'C:\\Program Files (x86)\\Steam\\steamapps\\common\\ShadowOfWar';
const disk = windowsDisk([
  `${INSTALL}\\x64\\default.archcfg`,
  `${INSTALL}\\Base.arch06`,
  `${INSTALL}\\Patch_02.arch06`,
  `${INSTALL}\\HighMip.ARCH06`,
  `${INSTALL}\\Game\\Worlds\\Retail\\island.scripts`,
  'D:\\Mods\\MyMod\\mymod.arch06',
  '\\\\nas\\share\\mods\\shared.arch06',
]);
const cfgDir = `${INSTALL}\\x64`;
const resolve = (line: string, base = cfgDir): string | undefined => resolveCaseInsensitive(base, line, undefined, disk);

test('cfg lines resolve as Windows resolves them: ..\\, case, drive letters, UNC shares, a rooted line', () => {
  assert.equal(resolve('..\\Base.arch06'), `${INSTALL}\\Base.arch06`);
  assert.equal(resolve('../Base.arch06'), `${INSTALL}\\Base.arch06`, 'either separator');
  assert.equal(resolve('..\\base.ARCH06'), `${INSTALL}\\Base.arch06`, 'names differing only in case are the same name');
  assert.equal(resolve('..\\highmip.arch06'), `${INSTALL}\\HighMip.ARCH06`, 'the disk spelling is kept');
  assert.equal(resolve('.\\..\\x64\\..\\Patch_02.arch06'), `${INSTALL}\\Patch_02.arch06`);
  assert.equal(resolve('..\\..\\..\\..\\..\\..\\..\\..\\..\\Base.arch06'), undefined, 'above the drive root is the root: no Base.arch06 there');
  assert.equal(resolve('D:\\Mods\\MyMod\\MyMod.arch06'), 'D:\\Mods\\MyMod\\mymod.arch06', 'a drive letter starts at that drive');
  assert.equal(resolve('d:/mods/mymod/mymod.arch06'), 'D:\\Mods\\MyMod\\mymod.arch06');
  assert.equal(resolve('\\\\nas\\share\\mods\\SHARED.arch06'), '\\\\nas\\share\\mods\\shared.arch06', 'a UNC share is its own root');
  assert.equal(
    resolve('\\Program Files (x86)\\Steam\\steamapps\\common\\ShadowOfWar\\Base.arch06'),
    `${INSTALL}\\Base.arch06`,
    'a rooted line: the base drive',
  );
  assert.equal(resolve('C:Base.arch06'), undefined, 'a drive-relative line is no path the engine takes');
  assert.equal(resolve('..\\Missing.arch06'), undefined);
  assert.equal(resolve('Game\\worlds\\retail\\ISLAND.scripts', INSTALL), `${INSTALL}\\Game\\Worlds\\Retail\\island.scripts`, 'case-insensitive per folder');
});

test('trailing dots and spaces are dropped as Windows drops them; device names are never files', () => {
  assert.equal(resolve('..\\Base.arch06.'), `${INSTALL}\\Base.arch06`);
  assert.equal(resolve('..\\Base.arch06 . '), `${INSTALL}\\Base.arch06`);
  assert.equal(resolve('..\\Game.\\Worlds \\retail\\island.scripts'), `${INSTALL}\\Game\\Worlds\\Retail\\island.scripts`);
  for (const device of ['CON', 'aux', 'NUL.arch06', 'com1', 'COM1.arch06', 'lpt9.txt', 'PRN', 'nul .arch06', 'CONIN$'])
    assert.equal(resolve(`..\\${device}`), undefined, device);
  // Not devices: a longer name that starts like one.
  const lookalikes = windowsDisk([`${INSTALL}\\console.arch06`, `${INSTALL}\\con_x.arch06`, `${INSTALL}\\com10.arch06`]);
  for (const name of ['console.arch06', 'con_x.arch06', 'com10.arch06'])
    assert.equal(resolveCaseInsensitive(cfgDir, `..\\${name}`, undefined, lookalikes), `${INSTALL}\\${name}`, name);
});

test('a folder is listed once for every line that needs it (the cache)', () => {
  const d = windowsDisk([`${INSTALL}\\A.arch06`, `${INSTALL}\\B.arch06`]);
  const cache = new Map<string, Map<string, string>>();
  assert.equal(resolveCaseInsensitive(cfgDir, '..\\a.arch06', cache, d), `${INSTALL}\\A.arch06`);
  assert.equal(resolveCaseInsensitive(cfgDir, '..\\b.arch06', cache, d), `${INSTALL}\\B.arch06`);
  assert.deepEqual(d.listed, [INSTALL]);
});

test('extraction refuses names Windows would misread, with the reason, on every platform', () => {
  const refused: [string, RegExp][] = [
    ['CON', /device/],
    ['aux.dds', /device/],
    ['NUL .txt', /device/],
    ['COM1', /device/],
    ['Lpt3.scripts', /device/],
    ['trailing.', /dot or a space/],
    ['trailing ', /dot or a space/],
    ['a:stream', /":"/],
    ['C:', /":"/],
    ['what?.txt', /Windows forbids/],
    ['star*.dds', /Windows forbids/],
    ['pipe|name', /Windows forbids/],
    ['<tag>.txt', /Windows forbids/],
    ['quote".txt', /Windows forbids/],
    ['..\\up', /separator/],
  ];
  for (const [name, why] of refused) assert.match(unsafeNameReason(name) ?? 'accepted', why, JSON.stringify(name));
  for (const ok of ['console.txt', 'con_x.txt', 'com10.dds', 'a b.txt', '.hidden', 'Mixed.Case.TXT']) assert.equal(unsafeNameReason(ok), undefined, ok);
});
