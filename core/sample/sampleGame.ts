/**
 * The embedded sample install: a small, fully synthetic Shadow of War-shaped game folder that
 * exercises every rule of the mount (search order, shadowed copies, a loose Game folder, a path
 * index, skipped cfg lines, an empty archive, an archive the cfg does not name). Everything is
 * written by the project's own writers; no game data is used. Returned as files in memory; the
 * CLI (`arch06 make-sample`) writes them to disk. The textures, the sword, the world layer and the
 * string tables are generated in their own modules (./sampleTextures.ts, ./sampleSword.ts,
 * ./sampleLayer.ts, ./sampleStrings.ts); this one lays out the archives.
 */
import { LtarWriter } from '../formats/archive/ltar/writer';
import { writePathIndex } from '../formats/archive/pathIndex';
import { PATH_INDEX_NAME } from '../formats/archive/ltar/layout';
import { writeEmbb } from '../formats/bundle/embbWriter';
import { writeBndl } from '../formats/bundle/bndlWriter';
import { SAMPLE_TEXTURE, SAMPLE_TEXTURE_ARRAY, sampleTexture, sampleTextureArray, sampleTextureArrayTier0, sampleTextureTier0 } from './sampleTextures';
import { SAMPLE_MESH, SAMPLE_SKELETON, sampleSwordMesh, sampleSwordSkeleton } from './sampleSword';
import { SAMPLE_LAYER, SAMPLE_LAYER_REGISTRY, SAMPLE_LAYER_SCRIPT, sampleLayerRegistry, sampleLayerScript } from './sampleLayer';
import { SAMPLE_STRING_TABLES, sampleStringTable } from './sampleStrings';

// What the install holds, each generated in its own module; re-exported here for the tests and the CLI.
export * from './sampleTextures';
export * from './sampleSword';
export * from './sampleLayer';
export * from './sampleStrings';

export interface SampleFile {
  /** Path relative to the install root, with / separators. */
  path: string;
  bytes: Uint8Array;
}

const text = (s: string): Uint8Array => Buffer.from(s.replace(/^\n/, ''), 'utf8');

/** Deterministic filler so multi-chunk entries have recognisable, checkable content. */
function patterned(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = i % 64 === 0 ? 0x0a : 0x20 + ((x >>> 0) % 95);
  }
  return out;
}

const SAMPLE_CFG = `; arch06 sample install: archive config list.
; Same shape as the game's x64/default.archcfg: one path per line, relative to this folder.
; file search order is from the bottom up

..\\Game
..\\GameDev
..\\Base.arch06
..\\Patch_00_LC.arch06
..\\Great_Hall.arch06          ; listed but not shipped: skipped, as in the game
..\\Patch_01.arch06
..\\Patch_02.arch06
..\\HotChunk.arch06
`;

/** The sample bundle (seed 004 "Bundles"): a manifest + container pair in Base, its manifest patched in Patch_02. */
export const SAMPLE_BUNDLE = 'bundles\\characters\\orc_sample';
const ORC = 'characters\\orcs\\orc_sample';
const orcMembers = [
  { path: `${ORC}\\body.txt`, bytes: text('orc_sample body: served from the container in Base\n') },
  { path: `${ORC}\\head.txt`, bytes: text('orc_sample head: served from the container in Base\n') },
  { path: `${ORC}\\weapon.txt`, bytes: text('orc_sample weapon: a cleaver\n') },
];
const orcBanner = text('orc_sample banner: declared by the Patch_02 manifest, ships loose in Patch_02\n');

export function sampleGame(): SampleFile[] {
  const files: SampleFile[] = [{ path: 'x64/default.archcfg', bytes: text(SAMPLE_CFG) }];

  // Base: the bulk of the data.
  const base = new LtarWriter();
  base.addBytes(
    'readme.txt',
    text(`
arch06 sample install
=====================
A synthetic game folder for trying arch06. Nothing here comes from the game.
config\\game.cfg ships in Base, Patch_01 and Patch_02: Patch_02 wins.
bundles\\characters\\orc_sample.bndl/.embb: a bundle whose manifest Patch_02 patches.
textures\\sample\\sample_banner_d.tex ships in Base; its .tex0 tier (512x512) in Patch_01.
textures\\sample\\sample_ground_array.texa: a texture array of three slices; its .texa0 tier in Patch_01.
characters\\sample\\sample_sword.mesh/.skel: a skinned sword (2 LODs, 2 material slots, 4 bones).
worlds\\retail\\sample\\sectionsandlayers\\fortgate.bndl/.embb: a world layer (registry + script); Patch_02 patches its registry.
database\\string\\enus and frfr\\string.strdb (in HotChunk): string tables in two languages.
`),
  );
  base.addBytes('config\\game.cfg', text('; Base copy\nDifficulty=Normal\nSubtitles=0\n'));
  base.addBytes('config\\input.cfg', text('; only in Base\nInvertY=0\n'));
  base.addBytes(
    'scripts\\common\\startup.scripts',
    text('-- Base copy: wins over the Game folder copy, because Game is consulted last\nlocal greeting = "hello from Base"\nreturn greeting\n'),
  );
  base.addBytes(
    'scripts\\ui\\banner.scripts',
    text(
      '-- Hover a texture path to see it\nlocal Banner = { Texture = "textures\\\\sample\\\\sample_banner_d.tex", Ground = "textures/sample/sample_ground_array.texa" }\nreturn Banner\n',
    ),
  );
  base.addBytes('scripts\\quests\\q_intro.scripts', text('local Quest = hmake QuestDef { Name = "Intro" }\nreturn Quest\n'));
  base.addBytes('bundles\\dlc\\dlc_main.txt', text('bundles\\dlc: a folder whose name is a prefix of bundles\\dlc4\n'));
  base.addBytes('bundles\\dlc4\\dlc4_main.txt', text('bundles\\dlc4 sorts before bundles\\dlc in the folder table\n'));
  base.addBytes('database\\string\\enus\\string.txt', text('UI_1Sword_Starting_N=Urfael\n'));
  base.add('data\\empty.bin', { storage: 'empty' });
  base.add('data\\big_stored.bin', { storage: 'chunked', bytes: patterned(200_000, 7) });
  // A bundle: a manifest mirroring its container; the container stored in small chunks.
  base.addBytes(
    `${SAMPLE_BUNDLE}.bndl`,
    writeBndl(
      'Presentation',
      orcMembers.map((m) => ({ path: m.path, size: m.bytes.length })),
    ),
  );
  base.add(`${SAMPLE_BUNDLE}.embb`, { storage: 'chunked', bytes: writeEmbb(orcMembers), chunkSize: 128 });
  base.addBytes(SAMPLE_TEXTURE, sampleTexture());
  base.addBytes(SAMPLE_TEXTURE_ARRAY, sampleTextureArray());
  base.addBytes(SAMPLE_MESH, sampleSwordMesh());
  base.addBytes(SAMPLE_SKELETON, sampleSwordSkeleton());
  for (let i = 0; i < 40; i++) base.addBytes(`worlds\\sample\\layer_${String(i).padStart(2, '0')}.txt`, text(`layer ${i}\n`));
  // The world layer: manifest and container (type empty, as the retail layers' manifests).
  const layerMembers = [
    { path: SAMPLE_LAYER_REGISTRY, bytes: sampleLayerRegistry() },
    { path: SAMPLE_LAYER_SCRIPT, bytes: sampleLayerScript() },
  ];
  base.addBytes(
    `${SAMPLE_LAYER}.bndl`,
    writeBndl(
      '',
      layerMembers.map((m) => ({ path: m.path, size: m.bytes.length })),
    ),
  );
  base.add(`${SAMPLE_LAYER}.embb`, { storage: 'chunked', bytes: writeEmbb(layerMembers), chunkSize: 1024 });
  files.push({ path: 'Base.arch06', bytes: base.toBytes() });

  // An empty archive: a 65-byte header and one empty root folder, like Patch_00_LC.
  files.push({ path: 'Patch_00_LC.arch06', bytes: new LtarWriter().toBytes() });

  const patch1Paths = ['config\\game.cfg', 'scripts\\quests\\q_intro.scripts', `${SAMPLE_TEXTURE}0`, `${SAMPLE_TEXTURE_ARRAY}0`];
  const patch1 = new LtarWriter();
  patch1.addBytes(PATH_INDEX_NAME, writePathIndex(patch1Paths));
  patch1.addBytes('config\\game.cfg', text('; Patch_01 copy\nDifficulty=Hard\nSubtitles=1\n'));
  patch1.addBytes(
    'scripts\\quests\\q_intro.scripts',
    text('-- Patch_01 fixes the intro\nlocal Quest = hmake QuestDef { Name = "Intro", Version = 2 }\nreturn Quest\n'),
  );
  patch1.addBytes(`${SAMPLE_TEXTURE}0`, sampleTextureTier0());
  patch1.addBytes(`${SAMPLE_TEXTURE_ARRAY}0`, sampleTextureArrayTier0());
  files.push({ path: 'Patch_01.arch06', bytes: patch1.toBytes() });

  // The path index lists a manifest whose container is in another archive (seed 004).
  const patch2Paths = ['config\\game.cfg', 'data\\patched.bin', `${SAMPLE_BUNDLE}.bndl`, `${ORC}\\banner.txt`, SAMPLE_LAYER_REGISTRY];
  const patch2 = new LtarWriter();
  patch2.addBytes(PATH_INDEX_NAME, writePathIndex(patch2Paths));
  patch2.addBytes('config\\game.cfg', text('; Patch_02 copy: this is the one the game loads\nDifficulty=Nemesis\nSubtitles=1\n'));
  // The patched manifest: the container's three members, one that ships loose here, one shipped nowhere.
  patch2.addBytes(
    `${SAMPLE_BUNDLE}.bndl`,
    writeBndl('Presentation', [
      ...orcMembers.map((m) => ({ path: m.path, size: m.bytes.length })),
      { path: `${ORC}\\banner.txt`, size: orcBanner.length },
      { path: `${ORC}\\voice.txt`, size: 64 },
    ]),
  );
  patch2.addBytes(`${ORC}\\banner.txt`, orcBanner);
  // The patch rule (seed 001): this standalone registry replaces the one in the layer's container.
  patch2.addBytes(SAMPLE_LAYER_REGISTRY, sampleLayerRegistry(true));
  patch2.add('data\\patched.bin', { storage: 'chunked', bytes: patterned(150_000, 11), chunkSize: 0x10000 });
  files.push({ path: 'Patch_02.arch06', bytes: patch2.toBytes() });

  const hot = new LtarWriter();
  hot.addBytes(PATH_INDEX_NAME, writePathIndex(['database\\string\\enus\\string.txt', SAMPLE_STRING_TABLES.enus, SAMPLE_STRING_TABLES.frfr]));
  hot.addBytes('database\\string\\enus\\string.txt', text('UI_1Sword_Starting_N=Urfael (HotChunk copy: above every patch)\n'));
  // The string tables ship in HotChunk (seed 004), one per language folder.
  hot.addBytes(SAMPLE_STRING_TABLES.enus, sampleStringTable('enus'));
  hot.addBytes(SAMPLE_STRING_TABLES.frfr, sampleStringTable('frfr'));
  files.push({ path: 'HotChunk.arch06', bytes: hot.toBytes() });

  // Present on disk, absent from the cfg: not mounted (like Blade.arch06 in the game).
  const blade = new LtarWriter();
  blade.addBytes('dlc\\blade.txt', text('Unlocked'));
  files.push({ path: 'Blade.arch06', bytes: blade.toBytes() });

  // The loose Game folder: the top cfg line, so consulted last.
  files.push({ path: 'Game/scripts/common/startup.scripts', bytes: text('-- Game folder copy: shadowed by Base, because Game is consulted last\n') });
  files.push({ path: 'Game/movies/intro.txt', bytes: text('Loose files such as the cinematic movies ship in Game\\.\n') });
  return files;
}
