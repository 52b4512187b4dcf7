/**
 * Writes that races cannot redirect (issue 21 item 1): while arch06 writes into `out/sub`,
 * another process swaps `out/sub` for a link to the install. Three kinds of test: at each step of
 * one write (both ways of reaching folders: held by descriptors, and checked by path), the swap
 * made exactly there is refused and nothing lands in the install; a swapping child process
 * racing an extraction in this process; and the same child racing the built CLI's `extract` of
 * 3,000 files, run after run, with a whole-tree check of the arena (the install unchanged, byte
 * for byte). The oracle is the fake install's tree, which nothing in the code under test reads.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isArch06Error } from '../../core/errors';
import { OutputFolder } from '../../core/io/node';
import { Mount, collectEntries, extractEntries } from '../../core/archive';
import { LtarWriter } from '../../core/formats/archive';
import { Arena, assertContract, craftArchive, runBounded, snapshotTree, treeChanges } from '../support/adversarial';
import { tempDir } from '../support/fixtures';

const STEPS = ['entered', 'opened', 'written', 'renamed'] as const;
const canHold = process.platform === 'linux' && fs.existsSync('/proc/self/fd');

/** root/out/sub (a real folder with one file), root/inst/x64 (the fake install's folder). */
function playground(): { root: string; out: string; sub: string; inst: string; x64: string } {
  const root = fs.realpathSync(tempDir('arch06-race-'));
  const out = path.join(root, 'out');
  const sub = path.join(out, 'sub');
  const inst = path.join(root, 'inst');
  const x64 = path.join(inst, 'x64');
  fs.mkdirSync(sub, { recursive: true });
  fs.mkdirSync(x64, { recursive: true });
  fs.writeFileSync(path.join(x64, 'game.exe'), 'the game');
  fs.writeFileSync(path.join(x64, 'default.archcfg'), '');
  return { root, out, sub, inst, x64 };
}

/** Swap `sub` for a link to `target` (the real folder moved aside to `aside`). */
function swapForLink(sub: string, aside: string, target: string): void {
  fs.renameSync(sub, aside);
  fs.symlinkSync(target, sub);
}

for (const hold of [true, false]) {
  const way = hold ? 'held folders' : 'checked paths';
  for (const step of STEPS) {
    test(
      `OutputFolder (${way}): out/sub swapped for a link to the install right after "${step}": refused, nothing in the install`,
      { skip: hold && !canHold ? 'no /proc/self/fd here' : false },
      () => {
        const p = playground();
        const before = snapshotTree(p.inst);
        let armed = false;
        const out = OutputFolder.open(p.out, {
          forbid: [p.inst],
          hold,
          onStep: (s) => {
            if (s !== step || !armed) return;
            armed = false;
            swapForLink(p.sub, path.join(p.out, 'aside'), p.x64);
          },
        });
        assert.equal(out.holdsFolders, hold);
        try {
          // The first write warms the folder (held or known), so the swap meets a folder arch06 trusts.
          out.writeSync(['sub', 'first.bin'], Buffer.from('first'));
          armed = true;
          assert.throws(
            () => out.writeSync(['sub', 'second.bin'], Buffer.from('second')),
            (e: unknown) => isArch06Error(e) && (e.code === 'CHANGED_ON_DISK' || e.code === 'INVALID'),
          );
          // The second write enters the link itself: refused before anything is created.
          assert.throws(() => out.writeSync(['sub', 'third.bin'], Buffer.from('third')), /symbolic link|install/);
        } finally {
          out.close();
        }
        assert.deepEqual(treeChanges(before, snapshotTree(p.inst)), []);
        // What the refused write created is removed when held; by path it cannot always be
        // reached (it stays in the folder moved away, inside the output).
        const aside = fs.readdirSync(path.join(p.out, 'aside')).sort();
        if (hold) assert.deepEqual(aside, ['first.bin']);
        else assert.ok(aside.includes('first.bin'), aside.join(','));
      },
    );
  }
}

test('OutputFolder: a held folder moved away between writes is let go and the path entered again', { skip: canHold ? false : 'no /proc/self/fd here' }, () => {
  const p = playground();
  const out = OutputFolder.open(p.out, { forbid: [p.inst] });
  try {
    out.writeSync(['sub', 'a.bin'], Buffer.from('a'));
    fs.renameSync(p.sub, path.join(p.out, 'moved'));
    out.writeSync(['sub', 'b.bin'], Buffer.from('b'));
    assert.deepEqual(fs.readdirSync(p.sub), ['b.bin']);
    assert.deepEqual(fs.readdirSync(path.join(p.out, 'moved')), ['a.bin']);
    // Many folders: only a bounded number stay held, and every write still lands where named.
    for (let i = 0; i < 200; i++) out.writeSync(['many', `f${i}`, 'x.bin'], Buffer.from(String(i)));
    assert.equal(fs.readFileSync(path.join(p.out, 'many', 'f7', 'x.bin'), 'utf8'), '7');
    assert.equal(fs.readFileSync(path.join(p.out, 'many', 'f199', 'x.bin'), 'utf8'), '199');
    const held = fs.readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(p.out);
      } catch {
        return false;
      }
    });
    assert.ok(held.length <= 64, `${held.length} folders held`);
  } finally {
    out.close();
  }
  const left = fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(p.out);
    } catch {
      return false;
    }
  });
  assert.deepEqual(left, [], 'close() lets go of every folder');
});

// ---- a racing process --------------------------------------------------------------------------

/**
 * A child that swaps `sub` for a link to `target` and back as fast as it can until killed; it
 * says "ready" once it has swapped a first time. Its own errors (arch06 recreated `sub`, a rename
 * onto a folder that is not empty) are ignored: it only has to keep swapping.
 */
async function startSwapper(sub: string, target: string): Promise<ChildProcess> {
  const code = `
const fs = require('fs');
const [sub, target] = process.argv.slice(1);
let n = 0;
for (;;) {
  const aside = sub + '.aside' + (n % 4);
  try { fs.renameSync(sub, aside); } catch {}
  try { fs.symlinkSync(target, sub); } catch {}
  for (let i = 0; i < (n % 7) * 300; i++);
  try { if (fs.lstatSync(sub).isSymbolicLink()) fs.unlinkSync(sub); } catch {}
  try { fs.renameSync(aside, sub); } catch {}
  if (n++ === 0) process.stdout.write('ready\\n');
}`;
  const child = spawn(process.execPath, ['-e', code, sub, target], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (c) => reject(new Error(`the swapper exited (${c})`)));
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

test(
  'extractEntries: a process swapping out/sub for a link to the install never gets a file into it',
  { skip: canHold ? false : 'no /proc/self/fd here' },
  async () => {
    const p = playground();
    const w = new LtarWriter();
    for (let i = 0; i < 600; i++) w.addBytes(`sub\\f${String(i).padStart(4, '0')}.bin`, Buffer.from(`file ${i}`));
    const archive = path.join(p.root, 'mods', 'Mod.arch06');
    fs.mkdirSync(path.dirname(archive));
    fs.writeFileSync(archive, w.toBytes());
    const mount = Mount.open({ root: p.inst, extraArchives: [archive] });
    const before = snapshotTree(p.inst);
    let written = 0;
    let refused = 0;
    try {
      for (let run = 0; run < 3; run++) {
        fs.rmSync(p.out, { recursive: true, force: true });
        fs.mkdirSync(p.sub, { recursive: true });
        const swapper = await startSwapper(p.sub, p.x64);
        try {
          const r = await extractEntries(mount, collectEntries(mount, ''), p.out, { blockSize: 4 });
          written += r.files;
          refused += r.failures.length;
          for (const f of r.failures) assert.match(f.code, /^(CHANGED_ON_DISK|INVALID|ENOENT|ENOTDIR|ENOTEMPTY)$/, f.message);
        } finally {
          await stop(swapper);
        }
        assert.deepEqual(treeChanges(before, snapshotTree(p.inst)), [], `run ${run}`);
      }
    } finally {
      mount.close();
    }
    assert.equal(written + refused, 1800);
    assert.ok(refused > 0, 'the swapper never met a write');
  },
);

test('extract (built CLI): 3,000 files into out/sub while a process swaps it for a link to <install>/x64, six runs: nothing lands in the install', async () => {
  const arena = new Arena();
  fs.writeFileSync(arena.at('game', 'x64', 'ShadowOfWar.exe'), 'the game');
  const files: Record<string, string> = {};
  for (let i = 0; i < 3000; i++) files[`sub\\file${String(i).padStart(4, '0')}.bin`] = `bytes of file ${i}`;
  fs.mkdirSync(arena.at('mods'));
  fs.writeFileSync(arena.at('mods', 'Mod.arch06'), craftArchive(files));
  arena.seal();
  let failed = 0;
  for (let run = 0; run < 6; run++) {
    const out = `out${run}`;
    fs.mkdirSync(arena.at(out, 'sub'), { recursive: true });
    const swapper = await startSwapper(arena.at(out, 'sub'), arena.at('game', 'x64'));
    let r;
    try {
      r = runBounded(['extract', arena.game, '', arena.at(out), '--source', 'Mod.arch06', '--json', '--arch', arena.at('mods', 'Mod.arch06')], {
        timeoutMs: 120_000,
      });
    } finally {
      await stop(swapper);
    }
    assertContract(r, { code: [0, 2], withinMs: 120_000 }, `run ${run}`);
    const j = JSON.parse(r.stdout.toString());
    assert.equal(j.files + j.failed, 3000);
    failed += j.failed;
    arena.check(Array.from({ length: run + 1 }, (_, i) => `out${i}`));
  }
  assert.ok(failed > 0, 'the swapper never met a write');
});
