// The arch06: workspace in a real VS Code (code-server + Chromium), used as a modder would: mount
// the sample install from the offer, browse the merged tree, read a file, check which copy of a
// shadowed path wins and diff it with the next copy, Go to File, extract a folder and compare the
// bytes on disk; the disk folder stays a working workspace folder beside it (no error on any root,
// a file of it opens); the Search Order view opens with its summary line and @sources lists the
// sources in search order, numbered alike, a file of a numbered folder opening that source's copy.
// A screenshot is saved at each step; the game folder must come out byte-identical.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir, treeDigest } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';
import { parseEmbb } from '../../core/formats/bundle';
import { Mount, sourceFolderNames } from '../../core/archive';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';
const DISK = 'sample-game';

const cat = (game: string, p: string, source?: string): Buffer => {
  const r = spawnSync(process.execPath, [cli, 'cat', game, p, ...(source ? ['--source', source] : [])], { maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr.toString());
  return r.stdout;
};

test('browse, compare, find and extract in the arch06: workspace', { skip: e2eSkipReason([vsix]), timeout: 300_000 }, async () => {
  const game = path.join(tempDir('arch06-e2e-game-'), 'sample-game');
  const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  const before = treeDigest(game);
  const out = tempDir('arch06-e2e-out-');

  const h = await Harness.start({ name: 'workspace', folder: game, vsix, viewport: { width: 1280, height: 800 } });
  try {
    // 1. The extension notices the install and offers to mount it; accepting reloads into a multi-root window.
    await h.waitForNotification('Shadow of War install');
    await h.screenshot('offer-to-mount');
    await h.mountFromOffer(ROOT);
    await h.screenshot('mounted');

    // 1b. The disk folder stays a working workspace folder beside arch06: (the workspace file must
    // keep the folder's own URI: in this remote window a file:/// URI does not resolve). Wait until
    // the workbench has resolved it (children listed) or given up (an error on the root).
    const resolved = await h.waitFor(
      async () => {
        const rows = await h.explorerRows();
        const errors = await h.workspaceFolderErrors();
        const disk = rows.findIndex((r) => r.level === 1 && r.name === DISK);
        return disk >= 0 && rows.some((r) => r.name === ROOT) && (errors.length > 0 || rows[disk + 1]?.level === 2) ? { rows, errors } : undefined;
      },
      30_000,
      `both workspace folders (${DISK}, ${ROOT}) to resolve`,
    );
    assert.deepEqual(resolved.errors, [], `no workspace folder shows an error: ${JSON.stringify(resolved.errors)}`);
    assert.deepEqual(
      resolved.rows.filter((r) => r.level === 1).map((r) => r.name),
      [DISK, ROOT],
    );

    // 2. The merged tree: folders from every source, in one tree.
    await h.expandExplorerPath([ROOT, 'config']);
    await h.expandExplorerPath([ROOT, 'bundles', 'characters']);
    const names = (await h.explorerRows()).map((r) => r.name);
    for (const n of ['@sources', 'config', 'data', 'scripts', 'game.cfg', 'orc_sample.bndl', 'orc_sample.bndl [bundle]'])
      assert.ok(names.includes(n), `the tree shows ${n}: ${names.join(', ')}`);
    await h.screenshot('merged-tree');

    // 3. Open a shadowed file: the editor shows the winning copy (Patch_02's).
    await h.openExplorerFile([ROOT, 'config', 'game.cfg']);
    assert.match(await h.editorText(), /Patch_02 copy/);
    await h.runCommand('arch06: Show Search Order');
    const copies = await h.waitFor(
      async () => {
        const rows = await h.viewRows('Copies of the Active File');
        return rows.length === 3 ? rows : undefined;
      },
      20_000,
      'the Copies view to list three copies',
    );
    assert.match(copies[0], /Patch_02\.arch06[\s\S]*wins/);
    assert.match(copies[1], /Patch_01\.arch06[\s\S]*shadowed/);
    assert.match(copies[2], /Base\.arch06[\s\S]*shadowed/);
    // The view fills in after the command shows it: wait for the skipped lines to be listed too.
    // The other views make room first: a tree view renders only the rows it has room for.
    const others = ['Copies of the Active File', 'Search Results', 'Mod Changes'];
    for (const v of others) await h.setViewExpanded(v, false);
    const order = await h.waitFor(
      async () => {
        const rows = await h.viewRows('Search Order');
        return rows.some((r) => /Great_Hall\.arch06/.test(r)) ? rows : undefined;
      },
      20_000,
      'the Search Order view to list the sources and skipped lines',
    );
    // A summary line opens the view; then the sources, numbered as @sources numbers its folders.
    assert.match(order[0], /^\d+ sources · 0 broken · \d+ skipped · \d+ not in the cfg/);
    assert.match(order[1], /1\. HotChunk\.arch06/);
    assert.ok(
      order.some((r) => /Great_Hall\.arch06/.test(r)),
      `skipped cfg lines listed: ${order.join(' | ')}`,
    );
    await h.screenshot('copies-and-search-order');
    for (const v of others) await h.setViewExpanded(v, true);

    // 4. Compare the winner with the next copy: a diff editor, Patch_01 on the left, Patch_02 on the right.
    await h.runCommand('arch06: Compare with Next Copy');
    const diff = h.page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 20_000 });
    await h.waitFor(
      async () => {
        // Editors render spaces as non-breaking ones.
        const text = async (side: string): Promise<string> => (await diff.locator(`.editor.${side} .view-lines`).innerText()).replace(/\u00a0/g, ' ');
        const left = await text('original');
        const right = await text('modified');
        return /Patch_01 copy/.test(left) && /Patch_02 copy/.test(right);
      },
      20_000,
      'the diff to show Patch_01 (left) against Patch_02 (right)',
    );
    await h.screenshot('compare-with-next-copy');

    // 5. Go to File: fuzzy over every path.
    await h.runCommand('arch06: Go to File…');
    await h.quickPick('startup.scripts');
    await h.waitFor(async () => (await h.activeEditorTitle()) === 'startup.scripts (text in common)', 15_000, 'startup.scripts to open');
    assert.match(await h.editorText(), /Base copy/);
    await h.screenshot('go-to-file');

    // 6. Find in Files: text across the merged view, results with their lines.
    /** Run Find in Files for `text` in `include`; the Search Results rows once one names `file`. */
    const findInFiles = async (text: string, include: string, file: RegExp): Promise<string[]> => {
      await h.runCommand('arch06: Find in Files…');
      await h.quickPick(text);
      await h.quickPick(include);
      return h.waitFor(
        async () => {
          const rows = await h.viewRows('Search Results');
          return rows.some((r) => file.test(r)) ? rows : undefined;
        },
        20_000,
        `search results listing ${file}`,
      );
    };
    const results = await findInFiles('Urfael', '*.txt', /string\.txt/);
    assert.match(results[0], /^1 result for "Urfael" in 1 file; \d+ files searched/);
    await h.screenshot('find-in-files');

    // 5b. Go to File lists bundle members too, each saying which bundle serves it from where: weapon.txt
    // ships only inside Base's orc_sample.embb.
    await h.runCommand('arch06: Go to File…');
    const memberRow = await h.quickPickRow('weapon.txt', /orc_sample\.bndl, served from the container \(Base\.arch06\)/);
    assert.match(memberRow, /weapon\.txt/);
    await h.screenshot('go-to-file-member');
    await h.acceptQuickPick();
    await h.waitFor(async () => (await h.activeEditorTitle()) === 'weapon.txt', 15_000, 'the member weapon.txt to open');
    assert.match(await h.editorText(), /orc_sample weapon: a cleaver/);

    // 6b. Find in Files reads members only a container holds; the result opens the member.
    const inMember = await findInFiles('a cleaver', '', /weapon\.txt/);
    assert.match(inMember[0], /^1 result for "a cleaver" in 1 file; /);
    assert.ok(
      inMember.some((r) => /in orc_sample\.bndl/.test(r)),
      inMember.join(' | '),
    );
    await h.screenshot('find-in-files-member');

    // 7. A bundle as a folder: a member served from the container (Base's .embb) and one served
    // loose (Patch_02), each showing exactly its bytes as the CLI reads them (the container member
    // sliced out of `cat`'s .embb by core's EMBB reader, not by the extension).
    const bundleDir = [ROOT, 'bundles', 'characters', 'orc_sample.bndl [bundle]', 'characters', 'orcs', 'orc_sample'];
    const embb = cat(game, 'bundles\\characters\\orc_sample.embb');
    const body = parseEmbb(embb, 'orc_sample.embb').members.find((m) => m.path === 'characters\\orcs\\orc_sample\\body.txt')!;
    const members: [string, string, RegExp][] = [
      ['body.txt', Buffer.from(embb.subarray(body.offset, body.offset + body.size)).toString('utf8'), /served from the container in Base/],
      ['banner.txt', cat(game, 'characters\\orcs\\orc_sample\\banner.txt').toString('utf8'), /ships loose in Patch_02/],
    ];
    for (const [name, text, says] of members) {
      assert.match(text, says);
      await h.openExplorerFile([...bundleDir, name]);
      assert.equal((await h.editorText()).trimEnd(), text.trimEnd(), `${name} shows exactly its bytes`);
    }
    await h.screenshot('bundle-member');

    // 8. Extract a folder from the Explorer's context menu; the bytes on disk equal the CLI's.
    await h.explorerContextMenu([ROOT, 'data'], 'Extract to Folder…');
    // The picker opens outside the install (issue 20 item 5): its path box never starts in the game folder.
    const dialogInput = h.page.locator('.quick-input-widget input').first();
    await h.waitFor(async () => (await dialogInput.isVisible()) && (await dialogInput.inputValue()).length > 1, 15_000, 'the folder picker to show its start');
    const start = await dialogInput.inputValue();
    assert.ok(!path.resolve(start).startsWith(path.resolve(game)), `the picker starts outside the install: ${start}`);
    await h.answerFileDialog(out);
    await h.waitForNotification('Extracted 3 files', 30_000);
    // The progress notification (with its Cancel) goes once the extraction ends, while the result waits for an answer.
    await h.waitFor(async () => (await h.notifications()).every((n) => !n.startsWith('Extracting')), 5_000, 'no progress left behind');
    await h.screenshot('extracted');
    for (const f of ['big_stored.bin', 'patched.bin', 'empty.bin']) {
      assert.ok(fs.readFileSync(path.join(out, 'data', f)).equals(cat(game, `data\\${f}`)), `extracted data/${f} matches`);
    }

    // 9. A file of the disk folder opens from the Explorer, from disk, beside the arch06: folder.
    await h.openExplorerFile([DISK, 'x64', 'default.archcfg']);
    const cfgText = await h.editorText();
    assert.match(cfgText, /arch06 sample install: archive config list/);
    assert.match(cfgText, /\.\.\\Patch_02\.arch06/);
    assert.deepEqual(await h.workspaceFolderErrors(), [], 'no workspace folder shows an error');
    await h.screenshot('disk-folder-file');

    // 10. @sources lists the sources in search order, numbered as the Search Order view numbers them
    // (last: the open source folders would stand between later steps and the merged tree's rows).
    await h.expandExplorerPath([ROOT, '@sources']);
    const rows = await h.explorerRows();
    const at = rows.findIndex((r) => r.name === '@sources');
    const folders: string[] = [];
    for (let i = at + 1; i < rows.length && rows[i]!.level > rows[at]!.level; i++) if (rows[i]!.level === rows[at]!.level + 1) folders.push(rows[i]!.name);
    const mount = Mount.open({ root: game });
    try {
      assert.deepEqual(folders, sourceFolderNames(mount.sources), `@sources in search order: ${folders.join(', ')}`);
    } finally {
      mount.close();
    }
    assert.match(folders[0] ?? '', /^01 HotChunk\.arch06$/);
    await h.screenshot('sources-in-search-order');
    // A file of a numbered source folder opens its own copy.
    const base = folders.find((f) => f.endsWith(' Base.arch06'))!;
    await h.openExplorerFile([ROOT, '@sources', base, 'config', 'game.cfg']);
    await h.waitFor(async () => (/Base copy/i.test(await h.editorText()) ? true : undefined), 15_000, 'Base’s own copy of game.cfg');
    await h.screenshot('numbered-source-file');
  } catch (e) {
    await h.screenshot('failure').catch(() => undefined);
    throw e;
  } finally {
    await h.stop();
  }
  // The install is read-only to arch06: nothing in it changed.
  assert.deepEqual(treeDigest(game), before);
});
