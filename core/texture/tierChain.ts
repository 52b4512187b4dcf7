/**
 * The tier chain of a texture: the game ships one picture as up to three files with the same
 * folder and stem, `.tex` (the low mips), `.tex0` and `.texuhd` (the larger ones; for arrays
 * `.texa`, `.texa0`, `.texauhd`), each a complete TEXR with its own DDS (seed 004 "Tiers"). The
 * chain is every level of slice 0 across the tier files that read, merged by size, largest first,
 * each labelled with the file it comes from; where several tiers carry a size, the higher tier
 * wins (their ranges can overlap).
 *
 * The caller reads the sibling files (the texture editor through the mounted file system, the CLI
 * from the mount), so the chain follows the same winning copies as the file itself.
 */
import { isArch06Error } from '../errors';
import { TextureFile, parseTextureFile } from '../formats/texture/texr';

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

/** One tier file of the family, whether or not it exists. */
export interface Tier {
  /** Its path, spelled as the caller spells the texture's (same folder and stem). */
  path: string;
  /** Its name (the last path segment). */
  file: string;
  /** Whether it is the file the chain was asked for. */
  own: boolean;
  /** Whether the file exists (`read` gave bytes or failed on an existing file). */
  present: boolean;
  /** Its size in bytes, when it was read. */
  size?: number;
  /** Whether its levels are part of the chain. */
  joined: boolean;
  /** Why a present tier did not join (it does not parse, other slices, not decodable). */
  reason?: string;
}

export interface TierChain {
  /** The family's tier files in ascending order (`.tex`, `.tex0`, `.texuhd`); just the file itself for a `.dds` or another name. */
  tiers: Tier[];
  /** The merged levels of slice 0, largest first. */
  levels: ChainLevel[];
}

/**
 * Reads a sibling tier file: its bytes, or undefined when there is no such file. A throw means
 * the file is there but cannot be read: an `Arch06Error` becomes the tier's reason, any other
 * error is the caller's own and propagates.
 */
export type TierReader = (path: string) => Uint8Array | undefined | Promise<Uint8Array | undefined>;

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
export async function tierChain(path: string, own: TextureFile, read: TierReader): Promise<TierChain> {
  const ownTier: Tier = { path, file: leafOf(path), own: true, present: true, size: own.bytes.length, joined: true };
  const m = /\.(tex|tex0|texuhd|texa|texa0|texauhd)$/i.exec(path);
  if (!m) return { tiers: [ownTier], levels: slice0Levels(own, ownTier.file) };
  const ownExt = m[1]!.toLowerCase();
  const family = TIER_FAMILIES.find((f) => f.includes(ownExt))!;
  const stem = path.slice(0, -m[0].length);
  const tiers: Tier[] = [];
  const ranked: { rank: number; levels: ChainLevel[] }[] = [];
  for (const ext of family) {
    if (ext === ownExt) {
      tiers.push(ownTier);
      ranked.push({ rank: TIER_RANK[ext]!, levels: slice0Levels(own, ownTier.file) });
      continue;
    }
    const tier: Tier = { path: `${stem}.${ext}`, file: leafOf(`${stem}.${ext}`), own: false, present: false, joined: false };
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
  return { tiers, levels: mergeBySize(ranked) };
}

/** Reads and parses one sibling tier, filling in `present`, `size` and, on a failure, `reason`. */
async function readTier(tier: Tier, read: TierReader): Promise<TextureFile | undefined> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await read(tier.path);
  } catch (e) {
    if (!isArch06Error(e)) throw e;
    tier.present = true;
    tier.reason = e.message;
    return undefined;
  }
  if (!bytes) return undefined;
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
