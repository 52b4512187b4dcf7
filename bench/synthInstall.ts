/**
 * A full-scale synthetic install matching the figures seed 004 measured on the shipped game:
 * 76 archives (3 empty, 2 on disk but not in the cfg), 488,752 entries, 431,226 distinct paths,
 * 16,302 folder records (roots included), 26,122 paths in more than one archive, up to 37 copies
 * (archivepatchloosefiles.txt, carried by the 37 indexed archives). Path shapes follow the seeds
 * (worlds\retail\<region>\..., characters, textures with tiers, sound banks, anims, bundles).
 *
 * `planInstall()` is pure and cheap (the test checks its figures); `writeInstall()` writes the
 * archives with the project's own LTAR writer. Entries are small, except one 256 MiB chunked
 * entry for range reads and one folder of 10,000 entries for listings. Scripts are SCRI files of
 * retail-style source (`scriptSource`), so Find in Files is measured on what it reads in the game.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LtarWriter, writePathIndex, PATH_INDEX_NAME } from '../core/formats/archive';
import { writeScri } from '../core/formats/script';

export const SEED_FIGURES = {
  archives: 76,
  emptyArchives: 3,
  indexedArchives: 37,
  entries: 488_752,
  distinctPaths: 431_226,
  folderRecords: 16_302,
  shadowedPaths: 26_122,
  maxCopies: 37,
};

export const BIG_ENTRY = { path: 'database\\game\\game_big.gamedb', archive: 'HotChunk', size: 256 << 20 };
export const WIDE_FOLDER = { path: 'worlds\\retail\\lithlad\\layers', files: 10_000, archive: 'Region_01' };

export interface PlannedArchive {
  name: string;
  kind: 'base' | 'indexed' | 'empty' | 'unlisted';
  /** Every file path (folders follow from them, plus `extraFolders`). */
  files: string[];
  /** Folders that hold no file of their own (padding to the seed's folder count). */
  extraFolders: string[];
}

/** Deterministic PRNG: the same install every run. */
function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x + 0x6d2b79f5) >>> 0;
    let t = x;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

const INDEXED = [
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13].flatMap((n) => [`Patch_${pad(n, 2)}`, `Patch_${pad(n, 2)}_LC`]),
  ...[1, 2, 3, 4, 5].flatMap((n) => [`Patch_DLC${n}`, `Patch_DLC${n}_LC`]),
  'Global',
  'HotChunk',
  'soundbundles',
];
const EMPTY = ['Patch_00_LC', 'Patch_12', 'Patch_12_LC'];
const UNLISTED = ['Blade', 'Lithlad'];
const BASE = [
  'Base',
  'Anim',
  'Characters',
  'Presentations',
  'UI',
  'Sound',
  'Benchmark',
  'HighMip',
  'uhdmip',
  ...Array.from({ length: 25 }, (_, i) => `Region_${pad(i + 1, 2)}`),
];

const EXTS = ['.tex', '.tex0', '.texuhd', '.mesh', '.mat', '.anix', '.bnk', '.fxp', '.objres', '.scripts', '.bndl', '.embb', '.inst', '.skel'];
const REGIONS = ['lithlad', 'minasithil', 'cirithungol', 'gorgoroth', 'nurnen', 'seregost', 'desert', 'barad_dur'];

/** A base archive's folder tree: top\mid\leaf shapes that look like the game's. */
function baseFolder(archive: string, i: number): string {
  if (archive.startsWith('Region_')) {
    const r = REGIONS[Number(archive.slice(7)) % REGIONS.length];
    return `worlds\\retail\\${r}\\${archive.toLowerCase()}\\layer_${pad(i, 4)}`;
  }
  const top: Record<string, string> = {
    Base: 'props',
    Anim: 'anims\\characters',
    Characters: 'characters\\orcs',
    Presentations: 'presentations\\cinematics',
    UI: 'ui\\flash',
    Sound: 'sound\\banks',
    Benchmark: 'benchmark\\scenes',
    HighMip: 'textures\\highmip',
    uhdmip: 'textures\\uhdmip',
  };
  return `${top[archive]}\\group_${pad(i >> 6, 3)}\\set_${pad(i, 4)}`;
}

/** Folders a set of paths implies (ancestors included), lower-cased. */
function foldersOf(paths: Iterable<string>, extra: Iterable<string> = []): Set<string> {
  const out = new Set<string>();
  const add = (folder: string): void => {
    const parts = folder.split('\\');
    for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join('\\').toLowerCase());
  };
  for (const p of paths) {
    const cut = p.lastIndexOf('\\');
    if (cut > 0) add(p.slice(0, cut));
  }
  for (const f of extra) add(f);
  return out;
}

export function planInstall(): PlannedArchive[] {
  const rnd = rng(20261130);
  const F = SEED_FIGURES;
  const archives = new Map<string, PlannedArchive>();
  const make = (name: string, kind: PlannedArchive['kind']): PlannedArchive => {
    const a: PlannedArchive = { name, kind, files: [], extraFolders: [] };
    archives.set(name, a);
    return a;
  };
  for (const n of BASE) make(n, 'base');
  for (const n of INDEXED) make(n, 'indexed');
  for (const n of EMPTY) make(n, 'empty');
  for (const n of UNLISTED) make(n, 'unlisted').files.push(`dlc\\${n.toLowerCase()}.txt`);

  // Shared paths: homed in two base archives' "hot" folders, copied into indexed archives.
  const hot: string[] = [];
  for (let i = 0; i < 30; i++) hot.push(`characters\\gear\\set_${pad(i, 2)}`, `presentations\\shared\\scene_${pad(i, 2)}`);
  const sharedCount = F.shadowedPaths - 1; // the path index file is the 26,122nd
  const shared: { path: string; extra: number }[] = [];
  for (let i = 0; i < sharedCount; i++) {
    const folder = hot[i % hot.length];
    shared.push({ path: `${folder}\\item_${pad(i, 5)}${EXTS[i % EXTS.length]}`, extra: 1 });
    archives.get(folder.startsWith('characters') ? 'Characters' : 'Presentations')!.files.push(shared[i].path);
  }
  // Extra copies beyond one per shared path, spread at random; at most 36 copies of any of them.
  let remaining = F.entries - F.distinctPaths - (F.maxCopies - 1) - sharedCount;
  while (remaining > 0) {
    const s = shared[(rnd() * shared.length) | 0];
    if (s.extra < F.maxCopies - 2) {
      s.extra++;
      remaining--;
    }
  }
  const indexed = INDEXED.map((n) => archives.get(n)!);
  for (const s of shared) {
    // `extra` distinct indexed archives, chosen by a random rotation.
    const start = (rnd() * indexed.length) | 0;
    for (let k = 0; k < s.extra; k++) indexed[(start + k * 7) % indexed.length].files.push(s.path);
  }
  for (const a of indexed) a.files.push(PATH_INDEX_NAME);

  // Unique files: 300 per indexed archive in 20 folders of their own, the rest in base archives.
  const perIndexed = 300;
  for (const a of indexed) {
    for (let i = 0; i < perIndexed; i++) a.files.push(`patches\\${a.name.toLowerCase()}\\fix_${pad(i % 20, 2)}\\file_${pad(i, 4)}${EXTS[i % EXTS.length]}`);
  }
  const uniqueBase = F.distinctPaths - UNLISTED.length - 1 - sharedCount - perIndexed * indexed.length;

  // Folder budget: what the indexed and unlisted archives use is fixed by now; base archives get the rest.
  const used = [...archives.values()].filter((a) => a.kind !== 'base').reduce((n, a) => n + foldersOf(a.files).size, 0);
  const baseArchives = BASE.map((n) => archives.get(n)!);
  const hotUsed = baseArchives.reduce((n, a) => n + foldersOf(a.files).size, 0);
  let baseBudget = F.folderRecords - F.archives - used - hotUsed;

  // Each base archive gets leaf folders (3 new records for its first, then 1 or 2 each) until the budget is met.
  const leaves: string[][] = baseArchives.map(() => []);
  const counts = baseArchives.map((a) => foldersOf(a.files));
  let k = 0;
  for (let guard = 0; baseBudget > 0 && guard < 1e7; guard++, k++) {
    const ai = k % baseArchives.length;
    const f = baseFolder(baseArchives[ai].name, leaves[ai].length);
    const before = counts[ai].size;
    const after = foldersOf([], [f]);
    let added = 0;
    for (const x of after) if (!counts[ai].has(x)) added++;
    if (added > baseBudget) continue; // would overshoot: let another archive (or a sibling) take it
    for (const x of after) counts[ai].add(x);
    leaves[ai].push(f);
    baseBudget -= counts[ai].size - before;
  }
  if (baseBudget !== 0) throw new Error(`folder budget not met: ${baseBudget} left`);

  // Base unique files: the wide folder first, then round-robin over every base leaf.
  const region1 = archives.get(WIDE_FOLDER.archive)!;
  region1.extraFolders.push(WIDE_FOLDER.path);
  for (let i = 0; i < WIDE_FOLDER.files; i++) region1.files.push(`${WIDE_FOLDER.path}\\obj_${pad(i, 5)}${EXTS[i % EXTS.length]}`);
  const allLeaves: { a: PlannedArchive; f: string }[] = [];
  baseArchives.forEach((a, i) => leaves[i].forEach((f) => allLeaves.push({ a, f })));
  for (let i = 0; i < uniqueBase - WIDE_FOLDER.files; i++) {
    const { a, f } = allLeaves[i % allLeaves.length];
    a.files.push(`${f}\\asset_${pad(i, 6)}${EXTS[(i >> 3) % EXTS.length]}`);
  }
  archives.get(BIG_ENTRY.archive)!.files.push(BIG_ENTRY.path);
  // The big entry is one of HotChunk's unique files: drop one ordinary file to keep the totals.
  const lastBase = baseArchives[baseArchives.length - 1];
  lastBase.files.pop();

  // The wide folder added folder records (worlds\retail\lithlad\layers and ancestors): give them back.
  let over = [...archives.values()].reduce((n, a) => n + foldersOf(a.files, a.extraFolders).size, 0) + F.archives - F.folderRecords;
  for (let ai = baseArchives.length - 1; over > 0 && ai >= 0; ai--) {
    const a = baseArchives[ai];
    while (over > 0) {
      // Move the files of this archive's last leaf into its previous leaf: one record fewer.
      const ls = leaves[ai];
      if (ls.length < 2) break;
      const gone = ls.pop()!;
      const into = ls[ls.length - 1];
      a.files = a.files.map((p) => (p.startsWith(gone + '\\') ? into + p.slice(gone.length) : p));
      over -= 1;
    }
  }
  return [...archives.values()];
}

/** The cfg: Game first, then the archives in rank order (bottom = consulted first), with the shipped list's dead lines. */
export function planCfg(archives: PlannedArchive[]): string {
  const listed = archives.filter((a) => a.kind !== 'unlisted').map((a) => a.name);
  const order = [
    ...listed.filter((n) => BASE.includes(n) && n !== 'HighMip' && n !== 'uhdmip'),
    ...listed.filter((n) => EMPTY.includes(n) || (INDEXED.includes(n) && n.startsWith('Patch_'))),
    'Global',
    'HotChunk',
    'soundbundles',
    'HighMip',
    'uhdmip',
  ];
  const dead = ['Great_Hall', 'Great_Hall_Lighting', 'TextureArrayPatch', 'HighMipA', 'uhdmipA'];
  return [
    '; synthetic full-scale install (arch06 benchmark)',
    '; file search order is from the bottom up',
    '..\\Game',
    ...order.slice(0, 10).map((n) => `..\\${n}.arch06`),
    ...dead.map((n) => `..\\${n}.arch06`),
    ...order.slice(10).map((n) => `..\\${n}.arch06`),
    '',
  ].join('\r\n');
}

/** A path's deterministic 32-bit hash (FNV-1a), to vary the scripts. */
function pathHash(p: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < p.length; i++) h = Math.imul(h ^ p.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The word a ~9,000-hit search looks for: one `self:BeSentry(…)` call in three scripts in ten. */
export const COMMON_SCRIPT_WORD = 'sentry';

/**
 * A script's source in the retail layers' style (../shared/samples/real: prototypes, then an
 * implementation of relay functions and hmake objects), about 700 bytes; three scripts in ten call
 * `self:BeSentry`, the only place the word `sentry` stands.
 */
export function scriptSource(p: string): string {
  const h = pathHash(p);
  const stem = p.slice(p.lastIndexOf('\\') + 1).replace(/\.[^.]*$/, '');
  const id = h.toString(16).padStart(8, '0');
  return [
    '-- SCRIPTOBJECT PROTOTYPES (search for IMPLEMENTATION to get to the actual code)',
    `-- ${p}`,
    `hstructure _${stem}_SO_meta`,
    '\t__constructor : ifunction',
    '\tInit : ifunction',
    'end',
    '',
    '-- IMPLEMENTATION',
    `local section_${id} = {`,
    `_${stem}_SR_Script1_${id} = function (self, threadId, scriptId)`,
    '\tlocal Instance = scriptId.Instance',
    '\tlocal SR = ScriptRelay.Create( scriptId, "SR"  )',
    `\t\tLithThreadSleep( threadId, ${h % 7} )`,
    '\t\tSR:Trigger(GameBase.None)',
    'end,',
    `_${stem}_SO_Script_${id} = hmake _${stem}_SO_meta {`,
    '\tInit = function ( self )',
    '\t\tlocal Instance = self.scriptId.Instance',
    h % 10 < 3 ? '\t\tself:BeSentry( Instance )' : '\t\tself.IsOpen = false',
    '\tend',
    ',},',
    '}',
    '',
  ].join('\n');
}

/** Small deterministic content for a path: a script is SCRI source as the retail ones (header, source, one NUL), anything else its path. */
export function content(p: string): Uint8Array {
  if (/\.scripts$/i.test(p)) return writeScri(scriptSource(p));
  return Buffer.from(`${p}\n`, 'latin1');
}

export function writeInstall(root: string, onArchive?: (name: string) => void): void {
  const archives = planInstall();
  fs.mkdirSync(path.join(root, 'x64'), { recursive: true });
  fs.mkdirSync(path.join(root, 'Game', 'movies'), { recursive: true });
  fs.writeFileSync(path.join(root, 'Game', 'movies', 'intro.vib'), 'loose movie\n');
  fs.writeFileSync(path.join(root, 'x64', 'default.archcfg'), planCfg(archives));
  for (const a of archives) {
    const w = new LtarWriter();
    for (const f of a.extraFolders) w.addFolder(f);
    for (const p of a.files) {
      if (p === PATH_INDEX_NAME) continue;
      if (p === BIG_ENTRY.path) {
        const big = Buffer.allocUnsafe(BIG_ENTRY.size);
        for (let i = 0; i < big.length; i += 4) big.writeUInt32LE(i >>> 0, i);
        w.add(p, { storage: 'chunked', bytes: big });
      } else w.add(p, { storage: 'plain', bytes: content(p) });
    }
    if (a.kind === 'indexed') w.addBytes(PATH_INDEX_NAME, writePathIndex(a.files.filter((p) => p !== PATH_INDEX_NAME && !p.endsWith('.embb'))));
    const fd = fs.openSync(path.join(root, `${a.name}.arch06`), 'w');
    try {
      for (const part of w.build()) fs.writeSync(fd, part);
    } finally {
      fs.closeSync(fd);
    }
    onArchive?.(a.name);
  }
}
