/**
 * The tier chain of a texture: the game ships one picture as up to three files with the same
 * folder and stem, `.tex` (the low mips), `.tex0` and `.texuhd` (the larger ones; for arrays
 * `.texa`, `.texa0`, `.texauhd`), each a complete TEXR with its own DDS (seed 004 "Tiers"). The
 * chain is every level of slice 0 across the tier files that read, merged by size, largest first,
 * each labelled with the file it comes from; where several tiers carry a size, the higher tier
 * wins (their ranges can overlap).
 *
 * The header is held against what the mount has: a TEXR's name field names a tier of the stem
 * (seed 004: a .tex names its .tex0 or itself) and its dimension pair the full size (formats-public
 * §4: the sample's 4096x2048 is 2x its own DDS). When no present level reaches that size, the chain
 * says so (`shortfall`), naming the tier that would hold it and whether it is missing or why it
 * did not join: a missing `.tex0` must never pass for the texture's real size.
 *
 * The caller reads the sibling files (the texture editor through the mounted file system, the CLI
 * from the mount), so the chain follows the same winning copies as the file itself, and says which
 * archive or loose folder served each tier it found.
 */
import { isArch06Error } from '../errors';
import { TextureFile, parseTextureFile, tierOf } from '../formats/texture/texr';

/** One level of the chain, and the tier file it comes from. */
export interface ChainLevel {
  texture: TextureFile;
  /** The level's mip index inside its own tier file. */
  mip: number;
  width: number;
  height: number;
  /** Encoded bytes of the level. */
  size: number;
  /** The tier file's name, e.g. `x_d.tex0`. */
  from: string;
}

/** Where a tier file was found: the archive or loose folder that serves it. */
export interface TierSource {
  /** The source's name (`Patch_01.arch06`, `Game`) or, for a file on disk, its folder. */
  name: string;
  kind: 'archive' | 'folder';
}

/** One tier file of the family, whether or not it exists. */
export interface Tier {
  /** Its path, spelled as the caller spells the texture's (same folder and stem): the path looked up. */
  path: string;
  /** Its name (the last path segment). */
  file: string;
  /** Its extension in lower case: `tex`, `tex0`, `texuhd` (arrays `texa`, `texa0`, `texauhd`); for another name, its own. */
  ext: string;
  /** Whether it is the file the chain was asked for. */
  own: boolean;
  /** Whether the header's name field names this tier (seed 004: a .tex names its .tex0 or itself). */
  named: boolean;
  /** Whether the file exists (`read` gave bytes or failed on an existing file). */
  present: boolean;
  /** Its size in bytes, when it was read. */
  size?: number;
  /** Whether its levels are part of the chain. */
  joined: boolean;
  /** Why a present tier did not join (it does not parse, other slices, not decodable). */
  reason?: string;
  /** The archive or loose folder that served it, when present and the reader said. */
  source?: TierSource;
}

/** What the header claims: the TEXR dimension pair and name field (a TEXA or DDS has none). */
export interface HeaderClaim {
  /** The full size, the dimension pair (S2's "higherResolution"). */
  width: number;
  height: number;
  /** The name field as stored. */
  nameField: string;
  /** The extension of the tier of this stem the name field names, when it names one. */
  names?: string;
}

/** The header's full size is not among the present levels: what is missing and what is shown instead. */
export interface Shortfall {
  /** The header's full size. */
  width: number;
  height: number;
  /** The tier that would hold it, when one can be named (the one the header names, else the lowest missing one above the top). */
  tier?: Tier;
  /** One plain sentence for the top of a view: `4096×2048 per header; the .tex0 tier (…) is not in the mount: showing 2048×1024 from x.tex`. */
  message: string;
}

export interface TierChain {
  /** The family's tier files in ascending order (`.tex`, `.tex0`, `.texuhd`); just the file itself for a `.dds` or another name. */
  tiers: Tier[];
  /** The merged levels of slice 0, largest first: `levels[0]` is the largest present level, what a view shows first and `--png` exports. */
  levels: ChainLevel[];
  /** The header's claim, for a TEXR with a dimension pair. */
  header?: HeaderClaim;
  /** Set when no present level reaches the header's full size. */
  shortfall?: Shortfall;
}

/** A sibling's bytes, optionally with the source that served them. */
export type TierRead = Uint8Array | { bytes: Uint8Array; source?: TierSource } | undefined;

/**
 * Reads a sibling tier file: its bytes (with where they came from, if the caller knows), or
 * undefined when there is no such file. A throw means the file is there but cannot be read: an
 * `Arch06Error` becomes the tier's reason, any other error is the caller's own and propagates.
 */
export type TierReader = (path: string) => TierRead | Promise<TierRead>;

export interface TierChainOptions {
  /** Where the file itself came from. */
  source?: TierSource;
  /** Where the siblings were looked for, for the shortfall's sentence: `the mount` (default) or one source's name. */
  scope?: string;
}

/** Higher tiers win a size that several tiers carry (seed 004 "Tiers": their ranges can overlap). */
const TIER_RANK: Record<string, number> = { texuhd: 3, tex0: 2, tex: 1, texauhd: 3, texa0: 2, texa: 1 };
/** The tier files of one stem: plain textures and texture arrays each have three. */
const TIER_FAMILIES = [
  ['tex', 'tex0', 'texuhd'],
  ['texa', 'texa0', 'texauhd'],
];

const leafOf = (p: string): string => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

function slice0Levels(t: TextureFile, from: string): ChainLevel[] {
  return t.dds.levels.filter((l) => l.slice === 0).map((l) => ({ texture: t, mip: l.mip, width: l.width, height: l.height, size: l.size, from }));
}

/**
 * The tier chain of `own` (parsed from `path`): its levels plus those of its tier siblings that
 * `read` finds, parse, line up with its slices (an array: the same slice count) and decode.
 */
export async function tierChain(path: string, own: TextureFile, read: TierReader, options: TierChainOptions = {}): Promise<TierChain> {
  const ownFile = leafOf(path);
  const ownTier: Tier = {
    path,
    file: ownFile,
    ext: ownFile.includes('.') ? ownFile.slice(ownFile.lastIndexOf('.') + 1).toLowerCase() : '',
    own: true,
    named: false,
    present: true,
    size: own.bytes.length,
    joined: true,
    source: options.source,
  };
  const m = /\.(tex|tex0|texuhd|texa|texa0|texauhd)$/i.exec(path);
  if (!m) return finish(own, [ownTier], slice0Levels(own, ownTier.file), undefined, options.scope);
  const ownExt = m[1]!.toLowerCase();
  const family = TIER_FAMILIES.find((f) => f.includes(ownExt))!;
  const stem = path.slice(0, -m[0].length);
  const names = namedTier(own, stem, family);
  ownTier.named = names === ownExt;
  const tiers: Tier[] = [];
  const ranked: { rank: number; levels: ChainLevel[] }[] = [];
  for (const ext of family) {
    if (ext === ownExt) {
      tiers.push(ownTier);
      ranked.push({ rank: TIER_RANK[ext]!, levels: slice0Levels(own, ownTier.file) });
      continue;
    }
    const tier: Tier = { path: `${stem}.${ext}`, file: leafOf(`${stem}.${ext}`), ext, own: false, named: names === ext, present: false, joined: false };
    tiers.push(tier);
    const t = await readTier(tier, read);
    if (!t) continue;
    // A tier joins the chain when its slices line up with this file's (arrays: same slice count).
    if (t.dds.surfaces !== own.dds.surfaces) tier.reason = `${t.dds.surfaces} slices, ${ownTier.file} has ${own.dds.surfaces}`;
    else if (!t.dds.format.decodable) tier.reason = `${t.dds.format.name} is not decodable`;
    else {
      tier.joined = true;
      ranked.push({ rank: TIER_RANK[ext]!, levels: slice0Levels(t, tier.file) });
    }
  }
  return finish(own, tiers, mergeBySize(ranked), names, options.scope);
}

/** Normalised for comparing game paths: lower case, backslashes, no leading separator. */
const norm = (p: string): string => p.replace(/\//g, '\\').replace(/^\\+/, '').toLowerCase();

/**
 * The tier of `stem`'s family that the TEXR name field names, or undefined (no TEXR, an empty
 * field, another stem). The stems match when one ends with the other at a folder boundary: the
 * caller's path may carry a view prefix (`@sources/…`, a disk folder) the stored name lacks.
 */
function namedTier(own: TextureFile, stem: string, family: string[]): string | undefined {
  const field = own.texr?.path ?? '';
  const tier = tierOf(field);
  const m = /\.(tex|tex0|texuhd|texa|texa0|texauhd)$/i.exec(field);
  if (tier === 'empty' || !m) return undefined;
  const ext = m[1]!.toLowerCase();
  if (!family.includes(ext)) return undefined;
  const a = norm(stem);
  const b = norm(field.slice(0, -m[0].length));
  const same = a === b || a.endsWith('\\' + b) || b.endsWith('\\' + a);
  return same ? ext : undefined;
}

/** The header's claim and, when no present level reaches it, the shortfall. */
function finish(own: TextureFile, tiers: Tier[], levels: ChainLevel[], names: string | undefined, scope = 'the mount'): TierChain {
  const t = own.texr;
  const header: HeaderClaim | undefined = t && t.width > 0 && t.height > 0 ? { width: t.width, height: t.height, nameField: t.path, names } : undefined;
  const chain: TierChain = { tiers, levels, header };
  const top = levels[0];
  if (!header || !top || (top.width >= header.width && top.height >= header.height)) return chain;
  const topTier = tiers.find((x) => x.file === top.from);
  const rank = (x: Tier): number => TIER_RANK[x.ext] ?? 0;
  const named = tiers.find((x) => x.named && !x.own);
  let tier: Tier | undefined;
  let why: string;
  if (named && !named.present) {
    tier = named;
    why = `the .${named.ext} tier (${named.path}) is not in ${scope}`;
  } else if (named && !named.joined) {
    tier = named;
    why = `the .${named.ext} tier (${named.path}) is in ${scope} but does not join the chain (${named.reason ?? 'unknown reason'})`;
  } else {
    const above = tiers.filter((x) => !x.present && rank(x) > (topTier ? rank(topTier) : 0));
    tier = above[0];
    why = above.length
      ? `no tier in ${scope} holds it (${above.map((x) => `.${x.ext} (${x.path})`).join(', ')} not in ${scope})`
      : `no tier in ${scope} holds it`;
  }
  chain.shortfall = {
    width: header.width,
    height: header.height,
    tier,
    message: `${header.width}×${header.height} per header; ${why}: showing ${top.width}×${top.height} from ${top.from}`,
  };
  return chain;
}

/** Reads and parses one sibling tier, filling in `present`, `size` and, on a failure, `reason`. */
async function readTier(tier: Tier, read: TierReader): Promise<TextureFile | undefined> {
  let got: TierRead;
  try {
    got = await read(tier.path);
  } catch (e) {
    if (!isArch06Error(e)) throw e;
    tier.present = true;
    tier.reason = e.message;
    return undefined;
  }
  if (!got) return undefined;
  const bytes = got instanceof Uint8Array ? got : got.bytes;
  if (!(got instanceof Uint8Array) && got.source) tier.source = got.source;
  tier.present = true;
  tier.size = bytes.length;
  try {
    return parseTextureFile(bytes, tier.path);
  } catch (e) {
    // A sibling that does not parse leaves the chain to the tiers that do.
    tier.reason = isArch06Error(e) || e instanceof Error ? e.message : String(e);
    return undefined;
  }
}

/** One level per size, from the highest tier that has it, largest first. */
function mergeBySize(tiers: { rank: number; levels: ChainLevel[] }[]): ChainLevel[] {
  const bySize = new Map<string, { rank: number; level: ChainLevel }>();
  for (const t of tiers) {
    for (const l of t.levels) {
      const key = `${l.width}x${l.height}`;
      const had = bySize.get(key);
      if (!had || t.rank > had.rank) bySize.set(key, { rank: t.rank, level: l });
    }
  }
  return [...bySize.values()].map((x) => x.level).sort((a, b) => b.width * b.height - a.width * a.height);
}
