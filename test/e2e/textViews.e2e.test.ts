// Text views in a real VS Code (code-server + Chromium) over the sample install's world layer
// (core/sample/sampleGame.ts): the layer's SCRI script, opened from its bundle folder in the
// Explorer, shows as coloured Havok Script source (the document is exactly the source: its first
// line is the source's first line, the SCRI header sits in a CodeLens above it and in the status
// bar), Copies of the Active File lists the copy its bundle serves, and so does a script without the header; "Compare with Next Copy" on the registry
// Patch_02 patches shows a diff of the decoded texts of the container's copy (left) and the
// patched one (right); "Open as Text" on the manifest shows where each member is served from;
// the path index (archivepatchloosefiles.txt, binary despite its name) opens as its decoded rows.
// Screenshots per step; the game folder comes out unchanged.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { tempDir, treeDigest } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';
const LAYER = ['worlds', 'retail', 'sample', 'sectionsandlayers'];

/** Colours of the rendered tokens of the active editor's lines, by token text. */
async function tokenColours(h: Harness): Promise<{ text: string; colour: string }[]> {
  return h.page
    .locator('.editor-group-container.active .monaco-editor .view-lines')
    .first()
    .evaluate((el) => {
      // Runs in the page (the tests are compiled without the DOM library).
      const style = (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle;
      return Array.from(el.querySelectorAll('.view-line span span') as ArrayLike<{ textContent: string | null }>).map((s) => ({
        text: (s.textContent ?? '').trim(),
        colour: style(s).color,
      }));
    });
}

test(
  'a layer script opens as coloured source; Compare with Next Copy diffs the decoded registry texts',
  { skip: e2eSkipReason([vsix]), timeout: 300_000 },
  async () => {
    const game = path.join(tempDir('arch06-e2e-text-'), 'sample-game');
    const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const before = treeDigest(game);

    const h = await Harness.start({ name: 'text-views', folder: game, vsix, viewport: { width: 1400, height: 1000 } });
    try {
      await h.mountFromOffer(ROOT);

      // 1. The layer's script, a member of its bundle folder: opens as its text view.
      const bundle = [ROOT, ...LAYER, 'fortgate.bndl [bundle]', ...LAYER];
      await h.openExplorerFile([...bundle, 'fortgate.scripts'], 30_000);
      const text = await h.waitFor(
        async () => {
          const t = await h.editorText().catch(() => '');
          return /SCRIPTOBJECT PROTOTYPES/.test(t) ? t : undefined;
        },
        30_000,
        'the script source in a text editor',
      );
      // The document is the source: line 1 is the source's first line (no header line above it).
      assert.match(text, /^-- SCRIPTOBJECT PROTOTYPES \(search for IMPLEMENTATION to get to the actual code\)\n/);
      assert.match(text, /hstructure _gatecontroller_SO_Script_6d1f0a42_meta/);
      const firstLineNumber = await h.page.locator('.editor-group-container.active .margin-view-overlays .line-numbers').first().innerText();
      assert.equal(firstLineNumber.trim(), '1');
      // The SCRI header: a CodeLens above line 1 and a status bar item; the language is Havok Script.
      const lens = await h.waitFor(
        async () => {
          const l = h.page.locator('.editor-group-container.active .codelens-decoration');
          return (await l.count()) > 0 ? (await l.first().innerText()).trim() : undefined;
        },
        15_000,
        'the SCRI header CodeLens',
      );
      assert.match(lens, /SCRI v1 · u8 1 · [\d,]+ bytes · source \+ NUL · 4 definitions/);
      assert.ok(await h.statusBarItem('Havok Script'), 'the language is Havok Script');
      await h.waitFor(() => h.statusBarItem(/SCRI v1/), 10_000, 'the SCRI header in the status bar');
      // Coloured: keywords, types, comments and hash literals each get their own colour.
      const tokens = await h.waitFor(
        async () => {
          const t = await tokenColours(h);
          return new Set(t.map((x) => x.colour)).size >= 4 ? t : undefined;
        },
        15_000,
        'the source to be coloured by the Havok Script grammar',
      );
      const colourOf = (s: string): string | undefined => tokens.find((t) => t.text === s)?.colour;
      assert.ok(colourOf('hstructure'), `a token "hstructure": ${JSON.stringify(tokens.slice(0, 20))}`);
      assert.notEqual(colourOf('hstructure'), colourOf('__constructor'), 'the hstructure keyword and a field name differ in colour');
      assert.notEqual(colourOf('ifunction'), colourOf('__constructor'), 'a field and its ": type" annotation differ in colour');
      await h.screenshot('script-as-source');
      // Its copies (issue 20 item 9): the one its bundle's container serves, not an empty view.
      await h.runCommand('arch06: Show Search Order');
      const copies = await h.waitFor(
        async () => {
          const rows = await h.viewRows('Copies of the Active File');
          return rows.length === 1 ? rows : undefined;
        },
        20_000,
        'the Copies view to list the script served from its bundle',
      );
      assert.match(copies[0], /Base\.arch06[\s\S]*wins[\s\S]*in fortgate\.embb/);
      await h.screenshot('script-copies');

      // 1b. A script without the SCRI header (the sample's older scripts), through Go to File: opens the same way.
      await h.runCommand('arch06: Go to File…');
      await h.quickPick('startup.scripts');
      await h.waitFor(async () => ((await h.editorText().catch(() => '')).startsWith('-- Base copy') ? true : undefined), 20_000, 'startup.scripts as source');
      await h.waitFor(
        async () => {
          const l = h.page.locator('.editor-group-container.active .codelens-decoration');
          return (await l.count()) > 0 && /no SCRI header · 128 bytes · source/.test(await l.first().innerText()) ? true : undefined;
        },
        15_000,
        'the CodeLens of a script without the SCRI header',
      );

      // 2. Compare with Next Copy on the registry Patch_02 patches: the container's copy is the next one.
      await h.explorerContextMenu([ROOT, ...LAYER, 'fortgate.objres'], 'Compare with Next Copy');
      const diff = h.page.locator('.monaco-diff-editor').first();
      await diff.waitFor({ state: 'visible', timeout: 20_000 });
      const sides = await h.waitFor(
        async () => {
          const side = async (s: string): Promise<string> => (await diff.locator(`.editor.${s} .view-lines`).innerText()).replace(/\u00a0/g, ' ');
          const left = await side('original');
          const right = await side('modified');
          return /\[objects\] count=9 /.test(left) && /\[objects\] count=10 /.test(right) ? { left, right } : undefined;
        },
        30_000,
        'the diff of the decoded registries (container copy left, Patch_02 right)',
      );
      assert.match(sides.left, /# the container's copy, embedded in .*fortgate\.embb \(Base\.arch06\)/);
      assert.match(sides.left, /GateCon\.SO class=ScriptObject group=GateCon pos=\(-1250, 310\.5, 4075\)/);
      assert.match(sides.right, /GateCon\.SO class=ScriptObject group=GateCon pos=\(-1050, 310\.5, 4075\)/);
      assert.match(sides.right, /GateAlarm_02\.SR class=ScriptRelay/);
      assert.match((await h.activeEditorTitle()) ?? '', /fortgate\.objres: fortgate\.embb in Base\.arch06 ↔ Patch_02\.arch06 \(decoded text\)/);
      await h.screenshot('compare-decoded-registry');

      // 3. Open as Text on the manifest: where each member is served from.
      await h.explorerContextMenu([ROOT, ...LAYER, 'fortgate.bndl'], 'Open as Text');
      const manifest = await h.waitFor(
        async () => {
          const t = await h.editorText().catch(() => '');
          return /\[served\]/.test(t) ? t : undefined;
        },
        20_000,
        'the manifest as text',
      );
      assert.match(manifest, /fortgate\.objres from=loose source=Patch_02\.arch06/);
      assert.ok(await h.statusBarItem('arch06 Decoded Text'), 'decoded texts are in their own language');
      await h.screenshot('manifest-as-text');

      // 4. The path index, a binary file named .txt, opened from the Explorer: its decoded rows, not VS Code's binary notice.
      await h.openExplorerFile([ROOT, 'archivepatchloosefiles.txt']);
      const index = await h.waitFor(
        async () => {
          const t = await h.editorText().catch(() => '');
          return /\[index\] rows=3 problems=0/.test(t) ? t : undefined;
        },
        20_000,
        'the path index as its decoded rows',
      );
      assert.match(index, /path=database\\string\\enus\\string\.strdb/);
      assert.equal(
        await h.page.locator('.editor-group-container.active .monaco-editor-pane-placeholder, .editor-group-container.active .binary-container').count(),
        0,
        'no binary notice',
      );
      await h.screenshot('path-index-as-text');
    } catch (e) {
      await h.screenshot('failure').catch(() => undefined);
      throw e;
    } finally {
      await h.stop();
    }
    assert.deepEqual(treeDigest(game), before);
  },
);
