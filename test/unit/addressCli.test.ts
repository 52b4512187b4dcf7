// The CLI reads every path the extension reads, with the same addressing (core/archive
// `locateAddress`): `cat`, `extract`, `which`, `scripts` and `dump` take a world part's file served
// from its bundle's container (`…\fortwallgameplay.scripts`) and the `x.bndl [bundle]\…` form;
// `scripts` on a `.bndl` says "not a script"; `unhash` names hashes from the editors' dictionary
// (script literals, paths, members, registries) and `--dict` word lists. On the retail layers of
// ../shared/samples/real/Patch_00.arch06 and on the sample install; the oracle cuts the members
// out of their containers with the EMBB reader.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseEmbb } from '../../core/formats/bundle';
import { formatHash, stringHash } from '../../core/hash';
import { SAMPLE_LAYER, SAMPLE_LAYER_SCRIPT, sampleGame } from '../../core/sample';
import { CLI, cliJson, runCli } from '../support/cli';
import { tempDir, writeTree } from '../support/fixtures';
import { REAL_LAYER_NAMES, mountRealPatch, realLayerStem, realPatch } from '../support/realLayers';

/** `arch06 cat` as bytes. */
const catBytes = (...args: string[]): Buffer => {
  const r = spawnSync(process.execPath, [CLI, 'cat', ...args], { maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, String(r.stderr));
  return r.stdout;
};

function realInstall(): string {
  const root = tempDir('arch06-address-cli-');
  fs.mkdirSync(path.join(root, 'x64'));
  fs.writeFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Patch_00.arch06\n');
  fs.copyFileSync(realPatch.path, path.join(root, 'Patch_00.arch06'));
  return root;
}

/** Each layer's members as its container holds them, cut out with the EMBB reader. */
function containerMembers(layer: string): Map<string, Buffer> {
  const m = mountRealPatch();
  try {
    const stem = realLayerStem(layer);
    const embb = m.entry(`${stem}.embb`).readSync();
    return new Map(parseEmbb(embb, `${layer}.embb`).members.map((x) => [x.path.toLowerCase(), Buffer.from(embb.subarray(x.offset, x.offset + x.size))]));
  } finally {
    m.close();
  }
}

test(
  "cat, extract, which, dump and scripts read the retail layers' container members by path and through their bundle folders",
  { skip: realPatch.skip },
  () => {
    const root = realInstall();
    for (const layer of REAL_LAYER_NAMES) {
      const stem = realLayerStem(layer);
      const members = containerMembers(layer);
      const script = members.get(`${stem}.scripts`)!;
      const inFolder = `${stem}.bndl [bundle]\\${stem}.scripts`;
      for (const address of [`${stem}.scripts`, inFolder]) {
        assert.ok(catBytes(root, address).equals(script), `cat ${address}`);
        const which = cliJson('which', root, address);
        assert.deepEqual([which.servedFrom, which.winner, which.container.path.toLowerCase()], ['container', 'Patch_00.arch06', `${stem}.embb`], address);
        const out = tempDir('arch06-address-out-');
        const x = runCli('extract', root, address, out);
        assert.equal(x.code, 0, x.stderr);
        assert.ok(fs.readFileSync(path.join(out, ...`${stem}.scripts`.split('\\'))).equals(script), `extract ${address}`);
        const dump = cliJson('dump', root, address);
        assert.deepEqual([dump.kind, dump.servedFrom, dump.payloadSize], ['source', 'container', script.length - 13]);
        const scripts = cliJson('scripts', root, address);
        assert.ok(scripts.functions.length > 0 && scripts.servedFrom === 'container', address);
      }
      // The registry and the other members too: every member the container holds, by its path.
      for (const [p, bytes] of members) assert.ok(catBytes(root, p).equals(bytes), `cat ${p}`);
      // The whole bundle folder extracts every member the container holds.
      const all = tempDir('arch06-address-all-');
      assert.equal(runCli('extract', root, `${stem}.bndl [bundle]`, all).code, 0);
      for (const [p, bytes] of members) assert.ok(fs.readFileSync(path.join(all, ...p.split('\\'))).equals(bytes), `extract of the bundle folder: ${p}`);
      // scripts on a manifest: not a script (exit 2), whichever way it is named.
      for (const address of [`${stem}.bndl`, `${stem}.bndl [bundle]\\${stem}.objres`]) {
        const r = runCli('scripts', root, address);
        assert.equal(r.code, 2, address);
        assert.match(r.stderr, /not a script/);
      }
    }
  },
);

test('unhash names a hash from a retail script literal, as the editors do', { skip: realPatch.skip }, () => {
  const root = realInstall();
  // The island script writes name = "BeSentry" beside its event map entry; the dictionary has it from the script.
  const h = formatHash(stringHash('BeSentry'));
  const r = cliJson('unhash', root, h);
  assert.equal(r.names[0].name, 'BeSentry');
  assert.match(r.names[0].origin, /^script (literal|name)$/);
});

test('unhash of a retail __eventmap literal as the script writes it (0x…hi) names the event by the hi hash, not StringHash', { skip: realPatch.skip }, () => {
  const root = realInstall();
  // `parent.__eventmap[0xad5130eahi] = {func = parent.BeSentry, name = "BeSentry"}` in the island script.
  const r = cliJson('unhash', root, '0xad5130eahi');
  assert.equal(r.function, 'hi');
  assert.equal(r.hash, '0xAD5130EA');
  assert.ok(
    r.names.some((n: { name: string }) => n.name === 'BeSentry'),
    JSON.stringify(r.names),
  );
  // The same digits without the suffix are a StringHash, which no name of the install gives.
  const plain = runCli('unhash', root, '0xad5130ea');
  assert.equal(plain.code, 1);
  assert.match(plain.stderr, /no known name hashes to 0xAD5130EA /);
  // A 64-bit hl literal: the function is unknown, said as such.
  const hl = runCli('unhash', root, '0x12345678abcdef00hl');
  assert.equal(hl.code, 2, 'a usage error: no install can answer it');
  assert.match(hl.stderr, /hash function is unknown/);
});

test('unhash on the sample: a script literal of the layer script, a path, a --dict word list; not found says where it looked', () => {
  const root = tempDir('arch06-address-sample-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  // "UI_Sample_GateOpen" is a literal of the layer script, which only Base's container holds.
  const literal = cliJson('unhash', root, formatHash(stringHash('UI_Sample_GateOpen')));
  assert.deepEqual(literal.names, [{ name: 'UI_Sample_GateOpen', origin: 'script literal' }]);
  const member = cliJson('unhash', root, formatHash(stringHash(SAMPLE_LAYER_SCRIPT)));
  assert.equal(member.names[0].name.toLowerCase(), SAMPLE_LAYER_SCRIPT.toLowerCase());
  // The string table's key is in no file of the install as a name: only a word list names it.
  const key = formatHash(stringHash('UI_1Sword_Starting_N'));
  const none = runCli('unhash', root, key);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no known name hashes to 0xDCDB4713 \(looked through the names of \d+ paths, \d+ bundle members, \d+ scripts/);
  const list = path.join(tempDir('arch06-dict-'), 'names.txt');
  fs.writeFileSync(list, '# my names\nUI_1Sword_Starting_N\n');
  assert.deepEqual(cliJson('unhash', root, key, '--dict', list).names, [{ name: 'UI_1Sword_Starting_N', origin: 'user file' }]);
  const missing = runCli('unhash', root, key, '--dict', path.join(path.dirname(list), 'absent.txt'));
  assert.equal(missing.code, 1);
  // The sample layer's script through its bundle folder, as the extension's Explorer shows it.
  assert.ok(catBytes(root, `${SAMPLE_LAYER}.bndl [bundle]\\${SAMPLE_LAYER_SCRIPT}`).equals(catBytes(root, SAMPLE_LAYER_SCRIPT)));
});
