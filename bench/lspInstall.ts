/**
 * The language server benches' full-scale synthetic install (the issue's figures: 1,310
 * registries, 724 of them with 14 blocks, one script per layer with its bound functions, 1.25 M
 * OBJL objects in 10 archives), generated once into bench-data/lsp (a version file marks it complete).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LtarWriter } from '../core/formats/archive';
import { parseObjr, writeObjr, writeRegistry } from '../core/formats/registry';
import { writeScri } from '../core/formats/script';

const dataDir = path.resolve(__dirname, '..', '..', 'bench-data', 'lsp');
const VERSION = '1';
const LAYERS = 1310;
const FOURTEEN_BLOCKS = 724;
export const OBJECTS = 1_250_000;
const ARCHIVES = 10;
const FUNCTIONS_PER_LAYER = 20;
const BOUND_PER_LAYER = 80;

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CLASSES = [
  'ScriptRelay',
  'ScriptObject',
  'QuestRelay',
  'StartupCommand',
  'AISpawnerAmbientSet',
  'Group',
  'AINodeRoute',
  'StaticMesh',
  'PointLight',
  'SoundEmitter',
];

/** A layer's script in the retail files' shape: prototypes, then a section table of bound functions. */
function layerScript(layer: number, functions: string[]): string {
  const lines = [
    '-- SCRIPTOBJECT PROTOTYPES (search for IMPLEMENTATION to get to the actual code)',
    '',
    `hstructure _layer${layer}_SO_meta`,
    '\t__index : table',
    '\tInit : ifunction',
    'end',
    '',
    '-- IMPLEMENTATION',
    `local section_${layer.toString(16)} = {`,
  ];
  for (const f of functions) {
    lines.push(
      `-- Relay.Script1 (prefabs\\gameplay\\layer${layer}.prefab06c)`,
      `${f} = function (self, threadId, scriptId)`,
      '\tlocal Instance = scriptId.Instance',
    );
    lines.push('\tlocal SR = ScriptRelay.Create( scriptId, "SR"  )');
    for (let k = 0; k < 8; k++)
      lines.push(
        `\t\tif (SR ~= GameBase.None and not System:IsDayTime()) then`,
        `\t\t\tLithThreadSleep( threadId, ${k} )`,
        `\t\t\tGameConsole:ChannelDebug(DBOutputChannel.Design, "UI_Layer${layer}_${k}")`,
        '\t\tend',
      );
    lines.push('end,');
  }
  lines.push('}', `_G.loadedresource = section_${layer.toString(16)}`, '');
  return lines.join('\n');
}

function generate(): void {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dataDir, 'x64'), { recursive: true });
  const r = rng(1310);
  const writers = [...Array(ARCHIVES)].map(() => new LtarWriter());
  const perLayer = Math.floor(OBJECTS / LAYERS);
  let extra = OBJECTS - perLayer * LAYERS;
  for (let l = 0; l < LAYERS; l++) {
    const stem = `worlds\\retail\\region${l % 12}\\layers\\layer_${String(l).padStart(4, '0')}`;
    const scriptPath = `${stem}.scripts`;
    const functions = [...Array(FUNCTIONS_PER_LAYER)].map((_, i) => `_layer${l}_SR_Script1_${(l * 31 + i).toString(16).padStart(8, '0')}`);
    const n = perLayer + (extra-- > 0 ? 1 : 0);
    const objects = [...Array(n)].map((_, i) => ({
      className: CLASSES[Math.floor(r() * CLASSES.length)],
      name: `Obj_${l}_${i}.SR`,
      group: i % 7 === 0 ? `Group_${l}_${i % 50}` : null,
      position: [r() * 1e4, r() * 1e3, r() * 1e4] as [number, number, number],
      templateId: Math.floor(r() * 2 ** 32),
    }));
    const bindings = objects
      .slice(0, BOUND_PER_LAYER)
      .map((o, i) => ({ name: o.name, bindings: [{ event: 'Script1', function: functions[i % functions.length] }] }));
    let reg = writeRegistry({ scriptPath, hash: l, objects, bindings, groups: [] });
    if (l < FOURTEEN_BLOCKS) {
      // Five more opaque blocks: 14 in all, as 724 of the game's registries have.
      const parsed = parseObjr(reg, stem);
      const blocks = parsed.blocks.map((b) => ({ nameHash: b.nameHash, payload: reg.subarray(b.offset, b.offset + b.size) }));
      for (let k = 0; k < 5; k++) blocks.splice(3, 0, { nameHash: 0x10000 + k, payload: new Uint8Array(64 + k * 16) });
      reg = writeObjr(blocks, l);
    }
    const w = writers[l % ARCHIVES];
    w.addBytes(`${stem}.objres`, reg);
    w.addBytes(scriptPath, writeScri(layerScript(l, functions)));
  }
  const cfg = ['; synthetic language-server install'];
  writers.forEach((w, i) => {
    const file = path.join(dataDir, `Layers_${i}.arch06`);
    fs.writeFileSync(file, '');
    for (const part of w.build()) fs.appendFileSync(file, part);
    cfg.push(`..\\Layers_${i}.arch06`);
  });
  fs.writeFileSync(path.join(dataDir, 'x64', 'default.archcfg'), cfg.join('\r\n') + '\r\n');
  fs.writeFileSync(path.join(dataDir, '.version'), VERSION);
}

/** The install's folder, generated first when it is missing or of another version. */
export function ensureLspInstall(): string {
  if (!fs.existsSync(path.join(dataDir, '.version')) || fs.readFileSync(path.join(dataDir, '.version'), 'utf8') !== VERSION) {
    const t = performance.now();
    generate();
    process.stdout.write(`language-server bench: generated bench-data/lsp in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  }
  return dataDir;
}
