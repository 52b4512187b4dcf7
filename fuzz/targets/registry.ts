/**
 * Object registries (`.objres`): the OBJR block chain, and each decoded block on its own (OBJL,
 * SCRB, ONLS, GADB: mutations confined to that block's payload, its size word rewritten to fit
 * most of the time so they reach the block's reader). A case runs what every front end runs:
 * parse, resolve against the part's script (shared runs kept shared, rows expanded only up to a
 * cap), the spelled names the dictionary takes, the decoded text and the registry editor's model
 * with a window and a search. Seeds: the sample layer's registry (and its patched copy), crafted
 * layers whose objects share runs, names and groups, and the four retail registries.
 */
import {
  bindingRows,
  blockNameHash,
  ownScriptPath,
  parseObjr,
  resolveRegistry,
  spelledNames,
  writeObjr,
  writeOnls,
  openRegistry,
  saveRegistry,
  writeRegistry,
} from '../../core/formats/registry';
import type { DecodedTag } from '../../core/formats/registry';
import { parseScript } from '../../core/formats/script';
import { bindableNames, scriptDefinitions } from '../../core/havokScript';
import { HashDictionary } from '../../core/hash';
import { addRegistryNames } from '../../core/nameSources';
import { sampleLayerRegistry, sampleLayerScript } from '../../core/sample';
import { registryFromText, registryToText, renderText } from '../../core/text';
import { buildRegistryModel } from '../../extension/editors/registryModel';
import { applyRegistryEdit, inverseStep } from '../../extension/editors/registryEdits';
import type { RegistryEdit } from '../../media/registry/protocol';
import { Arch06Error } from '../../core/errors';
import { mutateRegion, type Region, type Seed } from '../mutate';
import type { Rng } from '../random';
import { realFilesEnding } from '../samples';
import { mutateText } from '../mutateText';
import { FuzzInvariant, type FuzzCase, type FuzzTarget, textSeed, withFields } from '../target';

/** A small layer whose objects share binding runs, a group and a name. */
function craftedLayer(): Uint8Array {
  const run = [
    { event: 'Script1', function: 'f_a' },
    { event: 'Script2', function: 'f_b' },
  ];
  const objects = Array.from({ length: 12 }, (_, i) => ({
    className: i % 2 ? 'ScriptRelay' : 'QuestRelay',
    name: i < 10 ? `o${i}.SR` : 'same.SR',
    group: i % 3 ? 'g0' : null,
  }));
  return writeRegistry({
    scriptPath: 'worlds\\crafted\\layer.scripts',
    objects,
    bindings: objects.map((o) => ({ name: o.name, bindings: run })),
    groups: [
      { owner: 'g0', members: ['o1.SR', 'o2.SR', 'nobody'], sharedBy: ['g1', 'g2'] },
      { owner: 'g3', members: [] },
    ],
  });
}

/** A layer of `n` objects, each bound by a run of its own, in groups of five: room for sharing lies to multiply. */
function scaledLayer(n: number): Uint8Array {
  const objects = Array.from({ length: n }, (_, i) => ({ className: 'ScriptRelay', name: `obj_${i}.SR`, group: `grp_${Math.floor(i / 5)}` }));
  return writeRegistry({
    scriptPath: 'worlds\\crafted\\scaled.scripts',
    objects,
    bindings: objects.map((o, i) => ({
      name: o.name,
      bindings: [
        { event: 'Script1', function: `fn_${i}` },
        { event: 'Script2', function: `fn_${i}_b` },
      ],
    })),
    groups: Array.from({ length: n / 5 }, (_, g) => ({ owner: `grp_${g}`, members: objects.slice(5 * g, 5 * g + 5).map((o) => o.name) })),
  });
}

interface RegistrySeed extends Seed {
  /** The part's script's function names, when the seed came with its script. */
  functions?: ReadonlySet<string>;
}

function functionsOf(script: Uint8Array | undefined): ReadonlySet<string> | undefined {
  if (!script) return undefined;
  const s = parseScript(script, 'seed.scripts');
  return s.source === undefined ? undefined : bindableNames(scriptDefinitions(s.source));
}

function registrySeeds(): RegistrySeed[] {
  const seed = (name: string, bytes: Uint8Array, script?: Uint8Array): RegistrySeed => ({
    ...withFields(name, bytes, (b, spans) => parseObjr(b, name, { spans })),
    functions: functionsOf(script),
  });
  const real = realFilesEnding('.objres').map((f) =>
    seed(`${f.name} (retail)`, f.bytes, realFilesEnding('.scripts').find((s) => s.name === ownScriptPath(f.name))?.bytes),
  );
  return [
    seed('sample layer', sampleLayerRegistry(), sampleLayerScript()),
    seed('sample layer, patched', sampleLayerRegistry(true), sampleLayerScript()),
    seed('crafted layer', craftedLayer()),
    seed('scaled layer: 600 objects, runs of their own, groups of five', scaledLayer(600)),
    seed(
      'ONLS only, shared group',
      writeObjr([{ nameHash: blockNameHash('ONLS')!, payload: writeOnls([{ owner: 'a', members: ['x', 'y'], sharedBy: ['b'] }]) }]),
    ),
    ...real,
  ];
}

/** What the front ends do with a registry. */
function readRegistry(c: FuzzCase): unknown {
  const functions = (c.seed as RegistrySeed).functions;
  const reg = parseObjr(c.bytes, 'fuzz.objres');
  const res = resolveRegistry(reg, { scriptPath: 'fuzz.scripts', functions });
  const rows = [...bindingRows(res, 2000)];
  const names = spelledNames(reg, res);
  const dict = new HashDictionary();
  addRegistryNames(dict, names);
  const text = renderText('registry', c.bytes, 'fuzz.objres', { functions });
  const model = buildRegistryModel({ bytes: c.bytes, path: 'fuzz.objres', patch: { state: 'unresolved', text: '' } });
  const window = model.objects.window(c.rnd.pick(['', 'o', 'relay', '0x1', 'zz']), c.rnd.pick(['', 'ScriptRelay']), c.rnd.int(50), 100);
  const exact = exactRoundTrip(c.bytes);
  return { reg, res, rows, names, dict, text, model, window, exact, edits: editsHold(c) };
}

/**
 * The registry editor's edits on any registry the reader accepts (issue 24 item 4): each edit is
 * refused with a typed error (nothing changed) or gives bytes the reader accepts; undoing every
 * applied edit, last first, gives the original bytes back.
 */
function editsHold(c: FuzzCase): unknown {
  let model = openRegistry(c.bytes, 'fuzz.objres');
  const names = model.blocks.flatMap((b) => (b.kind === 'OBJL' ? b.sets.flatMap((set) => set.objects.map((o) => o.name)) : []));
  const name = (): string => (names.length && c.rnd.chance(0.9) ? c.rnd.pick(names) : c.rnd.pick(['', 'nobody.SR', 'a\\b', 'x'.repeat(300)]));
  const num = (): number => c.rnd.pick([0, -1, 1.5, 1e30, Number.NaN, Number.POSITIVE_INFINITY, c.rnd.int(100000) - 50000]);
  const vec = (): [number, number, number] => [num(), num(), num()];
  const edits: RegistryEdit[] = [
    { kind: 'transform', object: name(), position: vec() },
    { kind: 'transform', object: name(), rotationDegrees: vec() },
    { kind: 'rename', object: name(), name: name() + c.rnd.pick(['', '_2', '.SR']) },
    { kind: 'class', object: name(), className: c.rnd.pick(['ScriptRelay', '', 'Q'.repeat(70000)]) },
    { kind: 'binding', object: name(), k: c.rnd.int(4) - 1, event: c.rnd.pick(['Script1', '', 'OnX']), function: c.rnd.pick(['f_a', '', 'fn_1']) },
    { kind: 'group', owner: name(), members: [name(), name()] },
    { kind: 'add', name: name() + c.rnd.pick(['', '_new']), className: 'ScriptRelay', position: vec() },
    { kind: 'delete', object: name() },
  ];
  const undo: ReturnType<typeof inverseStep>[] = [];
  for (let k = 0; k < 3; k++) {
    const edit = c.rnd.pick(edits);
    let step;
    try {
      step = applyRegistryEdit(model, edit);
    } catch (e) {
      if (e instanceof Arch06Error) continue; // refused, with the reason
      throw e;
    }
    const bytes = saveRegistry(step.after);
    try {
      parseObjr(bytes, 'fuzz-edited.objres');
    } catch (e) {
      throw new FuzzInvariant(`an accepted ${edit.kind} edit wrote a registry the reader refuses: ${(e as Error).message.slice(0, 300)}`);
    }
    undo.push(inverseStep(step));
    model = step.after;
  }
  for (const u of undo.reverse()) model = u.after;
  if (!sameBytes(saveRegistry(model), c.bytes)) throw new FuzzInvariant('undoing every applied edit does not give the original bytes back');
  return undo.length;
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Issue 24's promise on any registry the reader accepts: an unchanged model and the registry text both give its bytes back. */
function exactRoundTrip(bytes: Uint8Array): unknown {
  const editable = openRegistry(bytes, 'fuzz.objres');
  if (!sameBytes(saveRegistry(editable), bytes)) throw new FuzzInvariant('an unchanged registry model does not save to its bytes');
  const source = registryToText(bytes, 'fuzz.objres');
  let back: Uint8Array;
  try {
    back = registryFromText(source, 'fuzz.objres');
  } catch (e) {
    throw new FuzzInvariant(`the registry text of a registry the reader accepts does not compile: ${(e as Error).message.slice(0, 300)}`);
  }
  if (!sameBytes(back, bytes)) throw new FuzzInvariant('the registry text compiles to other bytes');
  return { editable, source };
}

/** Registry texts, mutated: compiling them fails as a typed error at a line, or gives bytes the reader accepts. */
export const registryText: FuzzTarget = {
  name: 'registry-text',
  covers: 'the registry text that compiles back: every line checked, errors typed, what compiles read again',
  seeds: () => registrySeeds().map((s) => textSeed(`${s.name} as text`, registryToText(s.bytes, 'seed.objres'))),
  mutate: mutateText,
  run: (c) => {
    const bytes = registryFromText(c.text ?? new TextDecoder().decode(c.bytes), 'fuzz.objres');
    return parseObjr(bytes, 'fuzz.objres');
  },
};

export const objr: FuzzTarget = {
  name: 'objr',
  covers: 'OBJR registries: the block chain and every block, resolved, spelled, rendered as text and as the editor model',
  seeds: registrySeeds,
  run: readRegistry,
};

const regionsOf = new Map<Seed, Region[]>();

/** A target for one decoded block: seeds holding it, mutations confined to its payload. */
function blockTarget(tag: DecodedTag, covers: string): FuzzTarget {
  return {
    name: tag.toLowerCase(),
    covers,
    seeds: () => {
      const out: Seed[] = [];
      for (const s of registrySeeds()) {
        const blocks = parseObjr(s.bytes, s.name).blocks.filter((b) => b.tag === tag);
        if (blocks.length === 0) continue;
        regionsOf.set(
          s,
          blocks.map((b) => ({ start: b.offset, end: b.offset + b.size, prefix: `block[${b.index}].${tag.toLowerCase()}`, sizeField: b.offset - 4 })),
        );
        out.push(s);
      }
      return out;
    },
    mutate: (seed: Seed, rnd: Rng, seeds: readonly Seed[]) => mutateRegion(seed, rnd.pick(regionsOf.get(seed)!), rnd, seeds),
    run: readRegistry,
  };
}

export const objl = blockTarget('OBJL', 'OBJL blocks: string tables, 50-byte records, the layout validation, the raw-record fallback');
export const scrb = blockTarget('SCRB', 'SCRB blocks: string area, binding records, the object index and its shared runs');
export const onls = blockTarget('ONLS', 'ONLS blocks: the group area, the owner index, groups shared by several owners');
export const gadb = blockTarget('GADB', 'GADB headers inside registries');
