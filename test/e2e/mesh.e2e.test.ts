// The mesh editor in a real VS Code (code-server + Chromium, WebGL in software): open the sample
// install's sword from the arch06: workspace, check the 3D canvas shows a model (pixel statistics,
// not a blank canvas), that the LOD switcher and the wireframe toggle change the picture, and
// export the LOD as .glb through the title-bar command and the save dialog. A second test opens
// the real head mesh (../shared) with its skeleton. Prints the time from choosing the file to the
// first frame. Screenshots per step.
// A texture assigned to the first material slot ("Texture…" → quick pick) changes the picture
// and is embedded in the export.
// Readable bones: with the skeleton on, only the selected (or hovered) bone and its parent are
// named (the real head has 142 bones); the bone list's search and the arrow keys select a bone,
// which the scene highlights. Disabled toggles are not shown pressed and say why; the parts
// table's Triangles column is not clipped.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { tempDir } from '../support/fixtures';
import { repoRoot, sharedPath } from '../support/shared';
import { rawMmshFacts, rawTrianglesAt } from '../support/rawMmsh';
import { sampleSwordMesh } from '../../core/sample';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';
const HEAD = sharedPath('samples/real/player_eltariel_head.mesh');
// Triangles the sword draws at 0 cm (LOD 0: 206) and from 500 cm (LOD 1: 90), read from the
// sample's own bytes (its LOD section and face-byte counts; test/support/rawMmsh.ts), not from the viewer.
const SWORD = rawMmshFacts(sampleSwordMesh());
const SWORD_LOD0 = String(rawTrianglesAt(SWORD, 0));
const SWORD_LOD1 = String(rawTrianglesAt(SWORD, 500));

interface ViewStats {
  state: string | undefined;
  lod: string | undefined;
  triangles: string | undefined;
  /** How many slots draw a texture. */
  textures: string | undefined;
  /** Distinct colours in a copy of the WebGL canvas, and a hash of its pixels. */
  colours: number;
  hash: number;
}

/** What the mesh webview shows: its dataset mirror and the WebGL canvas's pixels. */
async function viewStats(frame: Frame): Promise<ViewStats> {
  return frame.evaluate(() => {
    const doc = (globalThis as unknown as { document: any }).document;
    const c = doc.querySelector('canvas.gl');
    let colours = 0;
    let hash = 0;
    if (c && c.width) {
      const t = doc.createElement('canvas');
      t.width = c.width;
      t.height = c.height;
      const x = t.getContext('2d');
      x.drawImage(c, 0, 0);
      const d = x.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < d.length; i += 4) {
        const v = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
        seen.add(v);
        hash = (Math.imul(hash, 31) + v) | 0;
      }
      colours = seen.size;
    }
    const ds = doc.body.dataset;
    return { state: ds.state, lod: ds.lod, triangles: ds.triangles, textures: ds.textures, colours, hash };
  });
}

/** The bone (or, with `sockets`, socket) labels on screen (the label layer's elements not hidden), their texts sorted. */
async function shownLabels(frame: Frame, sockets = false): Promise<string[]> {
  return frame.$$eval(sockets ? '#labels .label.socket' : '#labels .label:not(.socket)', (ls) =>
    ls
      .filter((l) => (l as unknown as { style: { display: string } }).style.display !== 'none')
      .map((l) => (l as unknown as { textContent: string }).textContent)
      .sort(),
  );
}

/** What the Textures toggle (or another) looks like and says. */
async function toggleLook(frame: Frame, key: string): Promise<{ disabled: boolean; pressed: string | null; on: boolean; title: string; opacity: string }> {
  return frame.$eval(`button[data-toggle="${key}"]`, (b) => {
    const e = b as unknown as { disabled: boolean; title: string; classList: { contains(c: string): boolean }; getAttribute(a: string): string | null };
    const style = (globalThis as unknown as { getComputedStyle(x: unknown): { opacity: string } }).getComputedStyle(b);
    return { disabled: e.disabled, pressed: e.getAttribute('aria-pressed'), on: e.classList.contains('on'), title: e.title, opacity: style.opacity };
  });
}

/** Search the bone list for `query`, pick the first match with the arrow key; the bone's name and its parent's as the list shows them. */
async function pickBone(h: Harness, frame: Frame, query: string, expected: string): Promise<{ name: string; parent: string }> {
  await frame.fill('#boneSearch', query);
  await h.waitFor(
    async () =>
      (await frame.$$eval('#boneList li[data-bone] .name', (ns) => ns.map((n) => (n as unknown as { textContent: string }).textContent))).includes(expected)
        ? true
        : undefined,
    10_000,
    `the bone list to offer ${expected}`,
  );
  await frame.press('#boneSearch', 'ArrowDown');
  const ds = await h.waitFor(
    async () => {
      const d = await frame.evaluate(() => ({ ...(globalThis as unknown as { document: any }).document.body.dataset }) as Record<string, string>);
      return d.selectedBone === expected ? d : undefined;
    },
    10_000,
    `${expected} selected from the keyboard`,
  );
  void ds;
  const row = frame.locator('#boneList li[aria-selected="true"]');
  assert.equal(await row.count(), 1, 'one row selected');
  const parent = ((await row.locator('.parent').textContent()) ?? '').replace(/^← /, '');
  return { name: (await row.locator('.name').textContent()) ?? '', parent };
}

async function meshFrame(h: Harness): Promise<Frame> {
  return h.waitFor(
    async () => {
      for (const f of h.page.frames()) {
        const ok = await f.evaluate(() => (globalThis as unknown as { document: any }).document.body?.dataset.state === 'model').catch(() => false);
        if (ok) return f;
      }
      return undefined;
    },
    30_000,
    'the mesh editor webview with a model',
  );
}

test(
  'the mesh editor shows the sample sword, switches LODs and wireframe, shows a slot texture, exports glb',
  { skip: e2eSkipReason([vsix]), timeout: 300_000 },
  async () => {
    const game = path.join(tempDir('arch06-e2e-game-'), 'sample-game');
    const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    // A loose texture beside the sword that is not a texture at all: offered first (the mesh's folder), refused with a warning.
    const beside = path.join(game, 'Game', 'characters', 'sample');
    fs.mkdirSync(beside, { recursive: true });
    fs.writeFileSync(path.join(beside, 'sample_broken_d.tex'), 'not a texture\n');
    const h = await Harness.start({ name: 'mesh', folder: game, vsix, viewport: { width: 1280, height: 800 } });
    try {
      await h.mountFromOffer(ROOT);
      await h.runCommand('arch06: Go to File…');
      await h.quickPick('sample_sword.mesh');
      const opened = performance.now();
      const frame = await meshFrame(h);
      const first = await h.waitFor(
        async () => {
          const s = await viewStats(frame);
          return s.colours > 8 ? s : undefined;
        },
        20_000,
        'a model on the canvas',
      );
      console.log(
        `[e2e] mesh tab: first frame ${Math.round(performance.now() - opened)} ms after choosing the file, VS Code webview start-up included (npm run bench splits it)`,
      );
      assert.equal(first.lod, '0');
      assert.equal(first.triangles, SWORD_LOD0, `LOD 0 of the sample sword has ${SWORD_LOD0} triangles`);
      const lodNames = await frame.$$eval('#lod option', (os) => os.map((o) => (o as unknown as { textContent: string }).textContent));
      assert.equal(lodNames.length, 2);
      assert.match(lodNames[0], new RegExp(`\\b${SWORD_LOD0}\\b`));
      assert.match(lodNames[1], new RegExp(`\\b${SWORD_LOD1}\\b`));
      // The parts table fits the panel, or scrolls: no Triangles figure is cut off.
      const clipped = await frame.evaluate(() => {
        const doc = (globalThis as unknown as { document: any }).document;
        const info = doc.getElementById('info').getBoundingClientRect();
        const out: string[] = [];
        for (const c of doc.querySelectorAll('table.parts td.num, table.parts th.num')) {
          const r = c.getBoundingClientRect();
          const box = c.closest('.tableBox');
          const scrolls = box && box.scrollWidth > box.clientWidth;
          if (r.right > info.right + 0.5 && !scrolls) out.push(`${c.textContent} ends at ${r.right} > ${info.right}`);
        }
        return out;
      });
      assert.deepEqual(clipped, [], 'Triangles cells inside the panel');
      // No texture yet: the Textures toggle is disabled, not shown pressed, and says why.
      const noTexture = await toggleLook(frame, 'textures');
      assert.equal(noTexture.disabled, true);
      assert.equal(noTexture.pressed, 'false');
      assert.equal(noTexture.on, false);
      assert.match(noTexture.title, /no texture is assigned/);
      assert.ok(Number(noTexture.opacity) < 1, `a disabled toggle looks dimmed (opacity ${noTexture.opacity})`);
      await h.screenshot('mesh-lod0');

      // LOD 1: fewer triangles, another picture.
      await frame.selectOption('#lod', '1');
      const lod1 = await h.waitFor(
        async () => {
          const s = await viewStats(frame);
          return s.lod === '1' && s.hash !== first.hash ? s : undefined;
        },
        10_000,
        'LOD 1 shown, and the picture changed with it',
      );
      assert.equal(lod1.triangles, SWORD_LOD1);
      await h.screenshot('mesh-lod1');

      // Wireframe: another picture again.
      await frame.click('button[data-toggle="wireframe"]');
      const wire = await h.waitFor(
        async () => {
          const s = await viewStats(frame);
          return s.hash !== lod1.hash ? s : undefined;
        },
        10_000,
        'the wireframe picture',
      );
      assert.ok(wire.colours > 2);
      await h.screenshot('mesh-wireframe');

      // Wireframe off again: the shaded LOD 1 picture.
      await frame.click('button[data-toggle="wireframe"]');
      const shaded = await h.waitFor(
        async () => {
          const s = await viewStats(frame);
          return s.hash !== wire.hash ? s : undefined;
        },
        10_000,
        'the shaded picture again',
      );
      assert.equal(shaded.textures, '0');

      // A texture for the first material slot: the picture changes, the panel lists the path.
      const slot = await frame.getAttribute('button[data-pick-texture] >> nth=0', 'data-pick-texture');
      assert.equal(slot, 'slot 0');
      // First a file that does not parse: a warning, and nothing changes.
      await frame.click('button[data-pick-texture] >> nth=0');
      const offered = await h.waitFor(
        async () => {
          const items = await h.quickInputItems();
          return items.includes('sample_banner_d.tex') ? items : undefined;
        },
        15_000,
        'the texture list',
      );
      assert.ok(
        offered.indexOf('sample_broken_d.tex') >= 0 && offered.indexOf('sample_broken_d.tex') < offered.indexOf('sample_banner_d.tex'),
        `the texture beside the mesh comes first: ${offered.join(', ')}`,
      );
      await h.screenshot('mesh-texture-pick');
      await h.quickPick('sample_broken_d.tex');
      await h.waitForNotification('sample_broken_d.tex cannot be used as the texture of slot 0; nothing changed');
      assert.equal((await viewStats(frame)).textures, '0');
      await frame.click('button[data-pick-texture] >> nth=0');
      await h.quickPick('sample_banner_d.tex');
      const textured = await h.waitFor(
        async () => {
          const s = await viewStats(frame);
          return s.textures === '1' && s.hash !== shaded.hash ? s : undefined;
        },
        20_000,
        'the sword with the banner texture on slot 0',
      );
      assert.ok(textured.colours > 8);
      const listed = await frame.textContent('#slots .path');
      assert.equal(listed, 'textures\\sample\\sample_banner_d.tex');
      await h.screenshot('mesh-texture');
      // The Textures toggle hides it without forgetting it.
      await frame.click('button[data-toggle="textures"]');
      const plain = await h.waitFor(
        async () => {
          const s = await viewStats(frame);
          return s.textures === '0' && s.hash !== textured.hash ? s : undefined;
        },
        10_000,
        'the picture with textures off',
      );
      await frame.click('button[data-toggle="textures"]');
      await h.waitFor(
        async () => {
          const s = await viewStats(frame);
          return s.textures === '1' && s.hash !== plain.hash ? s : undefined;
        },
        10_000,
        'the texture back on',
      );

      // Export the LOD on screen as glTF binary through the title-bar command and the save dialog.
      const out = path.join(tempDir('arch06-e2e-glb-'), 'sword_lod1.glb');
      await h.runCommand('arch06: Export as glTF (.glb)');
      await h.answerFileDialog(out, 15_000, 'file');
      assert.match(await h.waitForNotification('Exported sword_lod1.glb'), /1 texture embedded/);
      const glb = fs.readFileSync(out);
      assert.equal(glb.subarray(0, 4).toString('latin1'), 'glTF');
      const json = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8'));
      const triangles = json.meshes
        .flatMap((m: { primitives: { indices: number }[] }) => m.primitives)
        .reduce((n: number, p: { indices: number }) => n + json.accessors[p.indices].count / 3, 0);
      assert.equal(triangles, 90, 'the export is the LOD on screen');
      // The slot's texture is embedded as its material's base colour, a PNG of the 256x256 banner.
      assert.equal(json.images?.length, 1);
      const slot0 = json.materials.find((m: { name: string }) => m.name === 'slot 0');
      assert.equal(slot0.pbrMetallicRoughness.baseColorTexture.index, 0);
      const view = json.bufferViews[json.images[0].bufferView];
      const bin = glb.subarray(20 + glb.readUInt32LE(12) + 8);
      const png = bin.subarray(view.byteOffset, view.byteOffset + view.byteLength);
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [256, 256]);

      // "×" forgets the slot's texture; the focus moves to the slot's "Texture…" button.
      await frame.click('button[data-clear-texture="slot 0"]');
      await h.waitFor(async () => ((await viewStats(frame)).textures === '0' ? true : undefined), 10_000, 'the texture removed');
      assert.equal(await frame.locator('#slots .path').count(), 0);
      assert.equal(await frame.evaluate(() => (globalThis as unknown as { document: any }).document.activeElement?.dataset.pickTexture), 'slot 0');
      // The Textures toggle is on in the view state, but with no texture left it is disabled, and not pressed.
      const after = await toggleLook(frame, 'textures');
      assert.deepEqual([after.disabled, after.pressed, after.on], [true, 'false', false]);

      // Bones: the skeleton without names, then a bone found in the list: it and its parent are named.
      const beforeBones = await viewStats(frame);
      await frame.click('button[data-toggle="bones"]');
      await h.waitFor(async () => ((await viewStats(frame)).hash !== beforeBones.hash ? true : undefined), 10_000, 'the skeleton drawn');
      assert.deepEqual(await shownLabels(frame), [], 'no bone is named before one is in focus');
      const noBone = await viewStats(frame);
      const tip = await pickBone(h, frame, 'tip', 'Blade_Tip');
      assert.equal(tip.parent, 'Blade');
      await h.waitFor(async () => ((await shownLabels(frame)).join() === 'Blade,Blade_Tip' ? true : undefined), 10_000, 'Blade_Tip and its parent named');
      // The selected bone's socket is named too, the other bones' are not.
      assert.deepEqual(await shownLabels(frame, true), ['Socket_Tip']);
      assert.notEqual((await viewStats(frame)).hash, noBone.hash, 'the selected bone is highlighted in the picture');
      await h.screenshot('mesh-bone-selected');
    } catch (e) {
      await h.screenshot('failure').catch(() => undefined);
      throw e;
    } finally {
      await h.stop();
    }
  },
);

// The real head (../shared), copied loose into a throw-away install's Game folder beside its
// skeleton: its own test, so a missing sample is a visible skip (a failure under
// ARCH06_REQUIRE_SHARED=1), never a silent log line inside the sword's test.
test('the mesh editor opens the real head mesh with its skeleton', { skip: e2eSkipReason([vsix]) || HEAD.skip, timeout: 240_000 }, async () => {
  const game = path.join(tempDir('arch06-e2e-head-'), 'sample-game');
  const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  const dir = path.join(game, 'Game', 'characters', 'real');
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(HEAD.path, path.join(dir, 'player_eltariel_head.mesh'));
  fs.copyFileSync(HEAD.path.replace(/\.mesh$/, '.skel'), path.join(dir, 'player_eltariel_head.skel'));
  const h = await Harness.start({ name: 'mesh-real-head', folder: game, vsix, viewport: { width: 1280, height: 800 } });
  try {
    await h.mountFromOffer(ROOT);
    await h.runCommand('arch06: Go to File…');
    await h.quickPick('player_eltariel_head.mesh');
    const t0 = performance.now();
    const frame = await meshFrame(h);
    const head = await h.waitFor(
      async () => {
        const s = await viewStats(frame);
        return s.colours > 8 ? s : undefined;
      },
      30_000,
      'the real head on the canvas',
    );
    console.log(`[e2e] real head mesh: first frame ${Math.round(performance.now() - t0)} ms after choosing the file; LOD 0 shows ${head.triangles} triangles`);
    // 24,980: LOD 0 of the real head, from its LOD section and face-byte counts read from the bytes.
    assert.equal(head.triangles, String(rawTrianglesAt(rawMmshFacts(fs.readFileSync(HEAD.path)), 0)), 'LOD 0 of the real head (from its LOD section)');
    await h.screenshot('mesh-real-head');

    // 142 bones: shown, but none named until one is in focus (all at once are an unreadable block).
    await h.waitFor(
      async () => ((await frame.evaluate(() => (globalThis as unknown as { document: any }).document.body.dataset.optional)) === 'ready' ? true : undefined),
      15_000,
      'the optional work after the first frame (the bone list)',
    );
    assert.equal(await frame.locator('#boneList li[data-bone]').count(), 142, 'the bone list lists every bone');
    await frame.click('button[data-toggle="bones"]');
    await h.waitFor(async () => ((await viewStats(frame)).hash !== head.hash ? true : undefined), 10_000, 'the skeleton drawn over the head');
    assert.deepEqual(await shownLabels(frame), []);
    const skeleton = await viewStats(frame);
    await h.screenshot('mesh-real-head-bones');
    // The search narrows the list; the arrow key selects the first match, named with its parent only.
    const brow = await pickBone(h, frame, 'l_ browin', 'L_BrowIn');
    assert.ok((await frame.locator('#boneList li[data-bone]').count()) < 142, 'the search narrows the list');
    await h.waitFor(
      async () => ((await shownLabels(frame)).join() === [brow.name, brow.parent].sort().join() ? true : undefined),
      10_000,
      `${brow.name} and its parent ${brow.parent} named, nothing else`,
    );
    assert.notEqual((await viewStats(frame)).hash, skeleton.hash, 'the selected bone is highlighted');
    assert.equal(await frame.evaluate(() => (globalThis as unknown as { document: any }).document.body.dataset.boneLabels), '2');
    await h.screenshot('mesh-real-head-bone-selected');
    // "All names" names every bone (what the readable default avoids).
    await frame.click('button[data-toggle="labels"]');
    await h.waitFor(
      async () => ((await frame.evaluate(() => (globalThis as unknown as { document: any }).document.body.dataset.boneLabels)) === '142' ? true : undefined),
      10_000,
      'every bone named with "All names"',
    );
    await h.screenshot('mesh-real-head-all-names');
    await frame.click('button[data-toggle="labels"]');
    await h.waitFor(async () => ((await shownLabels(frame)).length === 2 ? true : undefined), 10_000, 'back to the two names');
  } catch (e) {
    await h.screenshot('failure').catch(() => undefined);
    throw e;
  } finally {
    await h.stop();
  }
});
