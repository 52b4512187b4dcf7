// How our .code-workspace file records folders: a disk folder as a path (resolved by the window
// against the workspace file's own location, so it works in remote windows), others as URIs.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { readStoredFolders, storedFolder } from '../workspaceFile';

test('a file-scheme folder is stored as its absolute path, any other scheme as its URI', () => {
  assert.deepEqual(storedFolder({ name: 'sample-game', scheme: 'file', fsPath: '/tmp/x/sample-game', uri: 'file:///tmp/x/sample-game' }), {
    name: 'sample-game',
    path: '/tmp/x/sample-game',
  });
  assert.deepEqual(storedFolder({ name: 'SoW', scheme: 'file', fsPath: 'c:\\Games\\SoW', uri: 'file:///c%3A/Games/SoW' }), {
    name: 'SoW',
    path: 'c:\\Games\\SoW',
  });
  assert.deepEqual(storedFolder({ name: 'Shadow of War (arch06)', scheme: 'arch06', fsPath: '/', uri: 'arch06:/' }), {
    name: 'Shadow of War (arch06)',
    uri: 'arch06:/',
  });
  assert.deepEqual(storedFolder({ name: 'r', scheme: 'vscode-vfs', fsPath: '/o/r', uri: 'vscode-vfs://github/o/r' }), {
    name: 'r',
    uri: 'vscode-vfs://github/o/r',
  });
});

test('folders read back: absolute and relative paths, URIs (older files), junk dropped', () => {
  const file = '/home/u/.local/share/code-server/User/globalStorage/arch06.arch06/workspaces/abc/sample-game.code-workspace';
  const content = {
    folders: [
      { name: 'sample-game', path: '/tmp/x/sample-game' },
      { path: '../other' },
      { name: 'Shadow of War (arch06)', uri: 'arch06:/' },
      { name: 'old', uri: 'file:///tmp/x/old' },
      { name: 'no location' },
      { path: '' },
      null,
      7,
    ],
    settings: { 'arch06.installRoot': '/tmp/x/sample-game' },
  };
  assert.deepEqual(readStoredFolders(content, file, path.posix), [
    { name: 'sample-game', path: '/tmp/x/sample-game' },
    { name: undefined, path: path.posix.join(path.posix.dirname(file), '..', 'other') },
    { name: 'Shadow of War (arch06)', uri: 'arch06:/' },
    { name: 'old', uri: 'file:///tmp/x/old' },
  ]);
  assert.deepEqual(readStoredFolders({ folders: [{ path: 'C:\\Games\\SoW' }, { path: 'mods' }] }, 'D:\\ws\\a.code-workspace', path.win32), [
    { name: undefined, path: 'C:\\Games\\SoW' },
    { name: undefined, path: 'D:\\ws\\mods' },
  ]);
  for (const junk of [null, 3, {}, { folders: 'x' }]) assert.deepEqual(readStoredFolders(junk, file), []);
});

test('what is written reads back to the same folders', () => {
  const written = [
    storedFolder({ name: 'sample-game', scheme: 'file', fsPath: '/tmp/x/sample-game', uri: 'file:///tmp/x/sample-game' }),
    storedFolder({ name: 'Shadow of War (arch06)', scheme: 'arch06', fsPath: '/', uri: 'arch06:/' }),
  ];
  const json = JSON.parse(JSON.stringify({ folders: written }));
  assert.deepEqual(readStoredFolders(json, '/elsewhere/w.code-workspace', path.posix), written);
});
