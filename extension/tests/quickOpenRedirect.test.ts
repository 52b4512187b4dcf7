// Ctrl+P / Ctrl+Shift+F to arch06's Go to File / Find in Files: when the context key is on, what the
// keybindings pass, the setting, and the hint, checked against package.json.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../test/support/shared';
import { REDIRECT_CONTEXT_KEY, REDIRECT_SETTING, hintText, redirectWanted, redirectedBy } from '../quickOpenRedirectModel';

interface Keybinding {
  command: string;
  key: string;
  mac?: string;
  when?: string;
  args?: unknown;
}

const manifest = (): {
  contributes: {
    keybindings: Keybinding[];
    configuration: { properties: Record<string, { type: string; default: unknown; description: string }> };
    viewsWelcome: { view: string; contents: string; when?: string }[];
  };
} => JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8'));

test('the keys go to arch06 only with an arch06: folder in the window, an install mounted and the setting on', () => {
  assert.equal(redirectWanted({ folderSchemes: ['arch06'], mounted: true, enabled: true }), true);
  assert.equal(redirectWanted({ folderSchemes: ['file', 'arch06'], mounted: true, enabled: true }), true);
  assert.equal(redirectWanted({ folderSchemes: ['arch06'], mounted: true, enabled: false }), false, 'the setting turns it off');
  assert.equal(redirectWanted({ folderSchemes: ['arch06'], mounted: false, enabled: true }), false, 'a failed mount leaves VS Code its keys');
  assert.equal(redirectWanted({ folderSchemes: ['file'], mounted: true, enabled: true }), false, 'a mount without the arch06: folder');
  assert.equal(redirectWanted({ folderSchemes: [], mounted: false, enabled: true }), false);
});

test('package.json: Ctrl+P and Ctrl+Shift+F run Go to File and Find in Files under the context key, with args naming the key', () => {
  const kb = manifest().contributes.keybindings;
  const p = kb.find((k) => k.key === 'ctrl+p');
  const f = kb.find((k) => k.key === 'ctrl+shift+f');
  assert.deepEqual(p, { command: 'arch06.goToFile', key: 'ctrl+p', mac: 'cmd+p', when: REDIRECT_CONTEXT_KEY, args: { redirectedFrom: 'quickOpen' } });
  assert.deepEqual(f, {
    command: 'arch06.findInFiles',
    key: 'ctrl+shift+f',
    mac: 'cmd+shift+f',
    when: REDIRECT_CONTEXT_KEY,
    args: { redirectedFrom: 'search' },
  });
  assert.equal(redirectedBy(p!.args), 'quickOpen');
  assert.equal(redirectedBy(f!.args), 'search');
  // The palette and Ctrl+Alt+P pass nothing (or something else): no hint.
  for (const other of [undefined, null, 'quickOpen', {}, { redirectedFrom: 'elsewhere' }]) assert.equal(redirectedBy(other), undefined);
  // arch06's own keys stay whatever the setting says.
  assert.ok(kb.some((k) => k.command === 'arch06.goToFile' && k.key === 'ctrl+alt+p' && k.when === 'arch06.mounted'));
  assert.ok(kb.some((k) => k.command === 'arch06.findInFiles' && k.key === 'ctrl+alt+f' && k.when === 'arch06.mounted'));

  const setting = manifest().contributes.configuration.properties[`arch06.${REDIRECT_SETTING}`];
  assert.equal(setting.type, 'boolean');
  assert.equal(setting.default, true);
  assert.match(setting.description, /Ctrl\+P .* Go to File .* Ctrl\+Shift\+F .* Find in Files/);
  // The Search Results view's welcome says what VS Code's Search view cannot do.
  const welcome = manifest().contributes.viewsWelcome.find((w) => w.view === 'arch06.searchResults');
  assert.match(welcome?.contents ?? '', /Search view cannot look inside the game's archives/);
  assert.match(welcome?.contents ?? '', /command:arch06\.findInFiles/);
});

test('the hint names the key it took, why, and where arch06 keys stay', () => {
  assert.match(hintText('quickOpen'), /^Ctrl\+P opened arch06's Go to File: VS Code's Quick Open cannot see inside the game's archives/);
  assert.match(hintText('search'), /^Ctrl\+Shift\+F opened arch06's Find in Files: VS Code's Search view cannot see inside/);
  assert.match(hintText('search'), /Ctrl\+Alt\+P and Ctrl\+Alt\+F always do/);
  assert.match(hintText('quickOpen', true), /^Cmd\+P .* Cmd\+Alt\+P/);
});
