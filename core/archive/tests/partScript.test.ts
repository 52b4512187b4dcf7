// The served-part rule for bindings written once (partScript.ts): a registry's own script as the
// engine serves it, on the sample install (the layer's script only in Base's container) and on
// variants of it: a loose copy of the script (wins over the container's), a registry with no script
// anywhere, a script its bundle declares but nothing ships, a registry read through a bundle that
// does not declare its script (the script's own bundle serves it), one source's own copy asked
// first, and a compiled script. The oracle cuts the member
// out of the container with the EMBB reader and lists definitions by a plain scan of the source.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../errors';
import { parseEmbb } from '../../formats/bundle/embb';
import { Mount } from '../mount';
import { resolveBundle } from '../bundles';
import { locatePartScript, partScriptNames, servedFromText } from '../partScript';
import { writeBndl } from '../../formats/bundle/bndlWriter';
import { SAMPLE_LAYER, SAMPLE_LAYER_REGISTRY, SAMPLE_LAYER_SCRIPT, SAMPLE_LAYER_SOURCE, sampleGame } from '../../sample/sampleGame';
import { tempDir, writeTree } from '../../../test/support/fixtures';

function sampleMount(extra: Record<string, string | Uint8Array> = {}): Mount {
  const root = tempDir('arch06-part-script-');
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  writeTree(root, extra);
  return Mount.open({ root });
}

const LOOSE_SCRIPT = '-- loose\n\n_gatequest_QR_Script1_48d7e0b6 = function (self)\nend\n';
const isNotFound = (e: unknown): boolean => e instanceof Arch06Error && e.code === 'NOT_FOUND';

test('the layer script only the container holds: served from the container of the registry’s stem, its bytes the EMBB slice', () => {
  const m = sampleMount();
  try {
    const at = locatePartScript(m, SAMPLE_LAYER_REGISTRY);
    assert.equal(at.path, SAMPLE_LAYER_SCRIPT);
    assert.deepEqual([at.servedFrom, at.entry.source.name, at.bundle?.manifest.path.toLowerCase()], ['container', 'Base.arch06', `${SAMPLE_LAYER}.bndl`]);
    assert.equal(servedFromText(at), `in ${SAMPLE_LAYER}.embb (Base.arch06)`);
    const embb = m.entry(`${SAMPLE_LAYER}.embb`).readSync();
    const slot = parseEmbb(embb, 'fortgate.embb').members.find((x) => x.path.toLowerCase() === SAMPLE_LAYER_SCRIPT.toLowerCase())!;
    assert.ok(Buffer.from(at.entry.readSync()).equals(Buffer.from(embb.subarray(slot.offset, slot.offset + slot.size))));
    // Its bindable names are the sample source's top-level definitions, as a plain scan finds them.
    const names = partScriptNames(at.entry.readSync(), at.path)!;
    const scanned = [...SAMPLE_LAYER_SOURCE.matchAll(/^([A-Za-z_]\w*) = (?:function|hmake)\b/gm)].map((x) => x[1]).sort();
    assert.deepEqual(names.functions.map((d) => d.name).sort(), scanned);
    assert.equal(names.source, SAMPLE_LAYER_SOURCE);
    // Asked near its own bundle, the same member.
    const near = locatePartScript(m, SAMPLE_LAYER_REGISTRY, { bundle: resolveBundle(m, `${SAMPLE_LAYER}.bndl`) });
    assert.equal(near.entry.identity, at.entry.identity);
  } finally {
    m.close();
  }
});

test('a loose copy of the script wins over the container’s (the patch rule), and a source without its own copy falls back to the served one', () => {
  const m = sampleMount({
    'x64/default.archcfg': '..\\Game\n..\\Base.arch06\n',
    [`Game/${SAMPLE_LAYER_SCRIPT.replace(/\\/g, '/')}`]: LOOSE_SCRIPT,
  });
  try {
    const at = locatePartScript(m, SAMPLE_LAYER_REGISTRY);
    assert.deepEqual([at.servedFrom, at.entry.source.name, at.bundle], ['loose', 'Game', undefined]);
    assert.equal(servedFromText(at), 'loose in Game');
    assert.equal(new TextDecoder().decode(at.entry.readSync()), LOOSE_SCRIPT);
    assert.deepEqual(
      partScriptNames(at.entry.readSync(), at.path)!.functions.map((d) => d.name),
      ['_gatequest_QR_Script1_48d7e0b6'],
    );
    // Base.arch06 has no loose copy of its own: the served one (the loose winner) is taken.
    assert.equal(locatePartScript(m, SAMPLE_LAYER_REGISTRY, { source: 'Base.arch06' }).entry.source.name, 'Game');
    // Asked near the bundle that declares it, the bundle's member (here served loose, as the bundle serves it).
    const near = locatePartScript(m, SAMPLE_LAYER_REGISTRY, { bundle: resolveBundle(m, `${SAMPLE_LAYER}.bndl`) });
    assert.deepEqual([near.servedFrom, near.entry.source.name, near.member?.servedFrom], ['loose', 'Game', 'loose']);
  } finally {
    m.close();
  }
});

test('a registry whose script nothing serves: NOT_FOUND; a compiled script has no names to list', () => {
  const m = sampleMount();
  try {
    assert.throws(() => locatePartScript(m, 'worlds\\retail\\nowhere\\layer.objres'), isNotFound);
    const compiled = new Uint8Array([0x1b, 0x4c, 0x75, 0x61, 0x51, 0x0e, 0x01, 0x04, 0x08, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]);
    assert.equal(partScriptNames(compiled, 'x.scripts'), undefined);
  } finally {
    m.close();
  }
});

/** The Game folder first in the search order, then Base. */
const GAME_FIRST = { 'x64/default.archcfg': '..\\Game\n..\\Base.arch06\n' };
const gamePath = (p: string): string => `Game/${p.replace(/\\/g, '/')}`;

test('a script its bundle declares but nothing ships: NOT_FOUND, never an empty script', () => {
  const layer = 'worlds\\retail\\other\\lost';
  const m = sampleMount({
    ...GAME_FIRST,
    // A manifest declaring a 40-byte script, with no container and no loose copy of it.
    [gamePath(`${layer}.bndl`)]: writeBndl('', [
      { path: `${layer}.objres`, size: 16 },
      { path: `${layer}.scripts`, size: 40 },
    ]),
  });
  try {
    const bundle = resolveBundle(m, `${layer}.bndl`);
    assert.deepEqual(
      bundle.members.map((x) => x.servedFrom),
      ['missing', 'missing'],
    );
    assert.throws(() => locatePartScript(m, `${layer}.objres`), isNotFound);
    assert.throws(() => locatePartScript(m, `${layer}.objres`, { bundle }), isNotFound);
  } finally {
    m.close();
  }
});

test('a registry read through a bundle that does not declare its script: the script’s own bundle serves it', () => {
  const other = 'worlds\\retail\\other\\copy';
  const m = sampleMount({
    ...GAME_FIRST,
    // Another bundle declaring the layer's registry (served loose from Game) but not its script.
    [gamePath(`${other}.bndl`)]: writeBndl('', [{ path: SAMPLE_LAYER_REGISTRY, size: 4 }]),
    [gamePath(SAMPLE_LAYER_REGISTRY)]: new Uint8Array(4),
  });
  try {
    const bundle = resolveBundle(m, `${other}.bndl`);
    assert.deepEqual(
      bundle.members.map((x) => [x.path, x.servedFrom]),
      [[SAMPLE_LAYER_REGISTRY, 'loose']],
    );
    const at = locatePartScript(m, SAMPLE_LAYER_REGISTRY, { bundle });
    assert.deepEqual([at.servedFrom, at.entry.source.name, at.bundle?.manifest.path.toLowerCase()], ['container', 'Base.arch06', `${SAMPLE_LAYER}.bndl`]);
    assert.equal(partScriptNames(at.entry.readSync(), at.path)!.source, SAMPLE_LAYER_SOURCE);
  } finally {
    m.close();
  }
});
