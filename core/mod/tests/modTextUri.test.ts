// The arch06-modtext: URI form (core/mod/modTextUri.ts): a mod file's text URI is its file path
// with `.txt` / `.hks`, and maps back to the game path inside the active mod that holds it; a
// path outside every mod, a URI of another scheme or a malformed escape maps to nothing.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gamePathInMods, gamePathOfModTextUri, modFileUriPath, modTextUriPath, servedAsModText } from '..';

const folder = path.resolve('/mods/ScriptMod');
const other = path.resolve('/mods/Other');
const mods = [{ folder: other }, { folder }];

test('arch06-modtext: a script is <file>.hks, a table <file>.txt, and back; other files are not served as text', () => {
  assert.equal(modTextUriPath('/m/a/x.scripts'), '/m/a/x.scripts.hks');
  assert.equal(modTextUriPath('/m/a/string.STRDB'), '/m/a/string.STRDB.txt');
  assert.equal(modFileUriPath('/m/a/x.scripts.hks'), '/m/a/x.scripts');
  assert.equal(modFileUriPath('/m/a/string.strdb.txt'), '/m/a/string.strdb');
  assert.ok(servedAsModText('x.SCRIPTS') && servedAsModText('a.strdb'));
  assert.ok(!servedAsModText('a.objres') && !servedAsModText('readme.txt'));
});

test('arch06-modtext: the URI of a file in an active mod names its game path; anything else names none', () => {
  const file = path.join(folder, 'worlds', 'retail', 'fort gate.scripts');
  const uri = `arch06-modtext:${pathToFileURL(file).pathname}.hks`;
  assert.equal(gamePathOfModTextUri(mods, uri), 'worlds\\retail\\fort gate.scripts');
  assert.deepEqual(gamePathInMods(mods, file), { mod: 1, gamePath: 'worlds\\retail\\fort gate.scripts' });
  assert.equal(gamePathInMods(mods, path.resolve('/mods/ScriptModX/a.scripts')), undefined, 'a sibling folder sharing the prefix');
  assert.equal(gamePathInMods(mods, folder), undefined, 'the mod folder itself');
  assert.equal(gamePathOfModTextUri(mods, `arch06-text:${pathToFileURL(file).pathname}`), undefined);
  assert.equal(gamePathOfModTextUri(mods, 'arch06-modtext:/mods/ScriptMod/%E0%A4%A.hks'), undefined, 'a malformed escape');
  assert.equal(gamePathOfModTextUri([], uri), undefined, 'no active mod');
});
