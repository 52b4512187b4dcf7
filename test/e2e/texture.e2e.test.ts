// The texture editor in a real VS Code (code-server + Chromium): open the sample install's
// texture from the arch06: workspace, check the canvas shows a picture (pixel statistics, not a
// blank canvas), that its .tex0 tier heads the level chain, and that switching the mip level and
// the channel changes the picture. Screenshots per step.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { tempDir } from '../support/fixtures';
import { repoRoot } from '../support/shared';
import { e2eSkipReason, Harness } from './harness';

const vsix = path.join(repoRoot(), 'dist', 'arch06.vsix');
const cli = path.join(repoRoot(), 'dist', 'cli.js');
const ROOT = 'Shadow of War (arch06)';

interface CanvasStats {
  level: string | undefined;
  width: number;
  height: number;
  /** Distinct colours over a sample of pixels, and the spread of the red channel. */
  colours: number;
  redSpread: number;
  /** Whether every sampled pixel has R = G = B (a single channel shown as grey). */
  grey: boolean;
}

/** Statistics of the texture canvas inside the editor's webview frame. */
async function canvasStats(frame: Frame): Promise<CanvasStats> {
  return frame.evaluate(() => {
    const doc = (globalThis as unknown as { document: any }).document;
    const c = doc.getElementById('view');
    const ctx = c.getContext('2d');
    const { width, height } = c;
    const data: Uint8ClampedArray = width && height ? ctx.getImageData(0, 0, width, height).data : new Uint8ClampedArray(0);
    const seen = new Set<number>();
    let min = 255;
    let max = 0;
    let grey = true;
    for (let i = 0; i < data.length; i += 4 * 7) {
      seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      min = Math.min(min, data[i]);
      max = Math.max(max, data[i]);
      if (data[i] !== data[i + 1] || data[i] !== data[i + 2]) grey = false;
    }
    return { level: doc.body.dataset.level, width, height, colours: seen.size, redSpread: max - min, grey };
  });
}

test('the texture editor shows the sample texture, its mips and channels', { skip: e2eSkipReason([vsix]), timeout: 240_000 }, async () => {
  const game = path.join(tempDir('arch06-e2e-game-'), 'sample-game');
  const made = spawnSync(process.execPath, [cli, 'make-sample', game], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  const h = await Harness.start({ name: 'texture', folder: game, vsix, viewport: { width: 1280, height: 800 } });
  try {
    await h.mountFromOffer(ROOT);
    await h.runCommand('arch06: Go to File…');
    await h.quickPick('sample_banner_d.tex');

    // The custom editor's webview is a nested frame holding the canvas.
    const frame = await h.waitFor(async () => {
      for (const f of h.page.frames()) {
        const ok = await f.evaluate(() => !!(globalThis as unknown as { document: any }).document.getElementById('view')).catch(() => false);
        if (ok) return f;
      }
      return undefined;
    }, 30_000, 'the texture editor webview');
    const top = await h.waitFor(async () => {
      const s = await canvasStats(frame);
      return s.level === '0:0' && s.width > 0 ? s : undefined;
    }, 20_000, 'the top mip on the canvas');
    assert.ok(top.colours >= 4 && top.redSpread > 64, `the canvas shows a picture, not a blank: ${JSON.stringify(top)}`);
    // The .tex0 sibling (Patch_01) tops the full-resolution chain: level 0 is its 512×512 level.
    const first = await frame.$eval('#mip option', (o) => (o as unknown as { textContent: string }).textContent);
    assert.match(first, /512×512 · sample_banner_d\.tex0/);
    assert.equal(top.width, 512);
    await h.screenshot('texture-top-mip');

    // Mip 1: half the size.
    await frame.selectOption('#mip', '1');
    const mip1 = await h.waitFor(async () => {
      const s = await canvasStats(frame);
      return s.level === '1:0' ? s : undefined;
    }, 20_000, 'mip 1 on the canvas');
    assert.equal(mip1.width, top.width / 2);
    assert.equal(mip1.height, top.height / 2);
    await h.screenshot('texture-mip-1');

    // The red channel alone is drawn as grey.
    await frame.click('button[data-channel="r"]');
    const red = await h.waitFor(async () => {
      const s = await canvasStats(frame);
      return s.grey ? s : undefined;
    }, 10_000, 'the red channel shown alone');
    assert.ok(red.colours < mip1.colours, `fewer distinct colours with one channel (${red.colours} < ${mip1.colours})`);
    await h.screenshot('texture-red-channel');
  } catch (e) {
    await h.screenshot('failure').catch(() => undefined);
    throw e;
  } finally {
    await h.stop();
  }
});
