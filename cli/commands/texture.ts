/**
 * Texture commands: `texture <root> <path>` reads a .tex / .tex0 / .texuhd / .texa* / .dds entry from the
 * mount, `texture-file <file>` one from disk. `--json` prints the parsed header (TEXR fields with
 * their certainty, the DDS description and its level table) and, for `texture`, the tier chain
 * (core/texture/tierChain.ts: each tier file of the stem, present or missing, the one the header
 * names, the path looked up and the source that served it, its size and whether it joined; the
 * merged levels, largest first, each with the file it comes from; the header's full size and,
 * when no present tier reaches it, the shortfall); without it, a short summary with the tiers.
 *
 * `--png OUT` writes one level of one slice (--slice) as a PNG: for `texture`, the largest present
 * level of the tier chain, from whichever tier file holds it; with `--mip N`, mip N of the file
 * itself (as `texture-file` always does).
 */
import { Arch06Error, isArch06Error } from '../../core/errors';
import {
  SLVT_MAGIC,
  SLVT_VERSION,
  TEXR_MAGIC,
  TEXR_VERSION,
  TextureFile,
  parseTextureFile,
  DDS_MAGIC,
  TEXA_MAGIC,
  TEXA_VERSION,
  textureRole,
} from '../../core/formats/texture';
import { decodeDdsLevel } from '../../core/image';
import { encodePng } from '../../core/image/node';
import { writeFileAtomic } from '../../core/io/node';
import { FieldReader } from '../../core/io';
import { TierChain, TierSource, tierChain } from '../../core/texture';
import type { Mount } from '../../core/archive';
import { ParsedArgs, flagString, need } from '../args';
import { readEntryChecked, readFileChecked } from '../limits';
import { escapeControls, escapeName, printJson, refuseInsideInstall, writeOut } from '../output';
import { openMount } from './mountCommands';

/**
 * The header check `parseTextureFile` starts with (magic, version), on the first bytes only, so
 * a non-texture is refused before the whole entry is read and decoded. On a mismatch the
 * parser itself runs on the prefix and throws the format's own error (it checks magic and
 * version before anything else).
 */
function checkTextureHeader(prefix: Uint8Array, file: string): void {
  if (prefix.length < 8) return; // the whole entry is this short: the parser reports it
  const head = new FieldReader(prefix, file);
  const magic = head.u32At(0, 'magic');
  const version = head.u32At(4, 'version');
  const ok =
    magic === DDS_MAGIC ||
    (magic === TEXA_MAGIC && version === TEXA_VERSION) ||
    (magic === TEXR_MAGIC && version === TEXR_VERSION) ||
    (magic === SLVT_MAGIC && version === SLVT_VERSION);
  if (ok) return;
  parseTextureFile(prefix, file);
  throw new Arch06Error('BAD_MAGIC', 'not a texture', { file, offset: 0, field: 'magic', expected: '"TEXR", "SLVT", "TEXA" or "DDS "' });
}

/** `--png OUT`, `--mip N`, `--slice N`; nothing else may follow the command's own positionals. */
function textureOptions(args: ParsedArgs, ownPositionals: number): { png?: string; mip: number; slice: number } {
  const extra = args.positionals.slice(ownPositionals);
  if (extra.length) throw new Arch06Error('BAD_ARGUMENT', `unexpected argument ${JSON.stringify(extra[0])}`);
  const int = (name: string): number => {
    const t = flagString(args, name);
    if (t === undefined) return 0;
    const n = Number(t);
    if (!/^\d+$/.test(t) || !Number.isSafeInteger(n))
      throw new Arch06Error('BAD_ARGUMENT', `--${name} takes a level index (0, 1, …)`, { field: name, actual: t });
    return n;
  };
  return { png: flagString(args, 'png'), mip: int('mip'), slice: int('slice') };
}

export async function textureCommand(args: ParsedArgs): Promise<number> {
  const opts = textureOptions(args, 2);
  const m = openMount(args);
  try {
    refuseInsideInstall(opts.png, m.root, 'png');
    const p = need(args, 1, '<path>');
    const source = flagString(args, 'source');
    const entry = m.entry(p, source);
    const bytes = readEntryChecked(entry, p, (prefix) => checkTextureHeader(prefix, p));
    const tex = parseTextureFile(bytes, p);
    const chain = await mountTierChain(m, p, tex, source, sourceOf(entry.source));
    return show(tex, args, opts, m.readOnlyPlaces(), chain);
  } finally {
    m.close();
  }
}

export function textureFileCommand(args: ParsedArgs): number {
  const opts = textureOptions(args, 1);
  const file = need(args, 0, '<file.tex|file.dds>');
  return show(
    parseTextureFile(
      readFileChecked(file, (prefix) => checkTextureHeader(prefix, file)),
      file,
    ),
    args,
    opts,
    [],
  );
}

/** A mounted source as the tier chain names it: an archive or a loose folder. */
const sourceOf = (s: { name: string; kind: 'archive' | 'directory' }): TierSource => ({ name: s.name, kind: s.kind === 'archive' ? 'archive' : 'folder' });

/** The tier chain over the mount: each sibling as the texture was read (the winning copy, or --source's), with the source that served it. */
function mountTierChain(m: Mount, p: string, tex: TextureFile, source: string | undefined, own: TierSource): Promise<TierChain> {
  return tierChain(
    p,
    tex,
    (sibling) => {
      let entry;
      try {
        entry = m.entry(sibling, source);
      } catch (e) {
        if (isArch06Error(e) && e.code === 'NOT_FOUND') return undefined;
        throw e;
      }
      return { bytes: readEntryChecked(entry, sibling, (prefix) => checkTextureHeader(prefix, sibling)), source: sourceOf(entry.source) };
    },
    // With --source the siblings are looked for in that source alone, and the shortfall says so.
    { source: own, scope: source !== undefined ? (m.source(source)?.name ?? source) : undefined },
  );
}

/** The tier chain as JSON: the tier files, then the merged levels (the editor's mip list). */
function describeTierChain(chain: TierChain): Record<string, unknown> {
  return {
    tiers: chain.tiers.map((t) => ({
      file: t.file,
      path: t.path,
      ext: t.ext,
      own: t.own,
      named: t.named,
      present: t.present,
      source: t.source ?? null,
      size: t.size ?? null,
      joined: t.joined,
      reason: t.reason ?? null,
    })),
    levels: chain.levels.map((l, i) => ({ index: i, width: l.width, height: l.height, size: l.size, from: l.from, mip: l.mip })),
    header: chain.header ?? null,
    top: chain.levels[0] ? { width: chain.levels[0].width, height: chain.levels[0].height, from: chain.levels[0].from, mip: chain.levels[0].mip } : null,
    shortfall: chain.shortfall
      ? { width: chain.shortfall.width, height: chain.shortfall.height, tier: chain.shortfall.tier?.file ?? null, message: chain.shortfall.message }
      : null,
  };
}

/** One line per tier file: present (and from where) or missing, and whether it joined. */
function tierLines(chain: TierChain): string[] {
  const lines = chain.tiers.map((t) => {
    const state = !t.present
      ? `missing (looked up ${escapeName(t.path)})`
      : `${t.size ?? '?'} bytes${t.source ? ` from ${escapeName(t.source.name)} (${t.source.kind})` : ''}${t.joined ? '' : `, not joined: ${t.reason ?? '?'}`}`;
    return `tier ${escapeName(t.file)}${t.own ? ' (this file)' : ''}${t.named ? ' (named by the header)' : ''}: ${state}`;
  });
  const top = chain.levels[0];
  if (top) lines.push(`top level ${top.width}x${top.height} from ${escapeName(top.from)}`);
  if (chain.shortfall) lines.push(`missing: ${chain.shortfall.message}`);
  return lines;
}

const leafName = (p: string): string => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/** `forbid`: where --png may not land (the install and its sources), compared by real path. */
function show(tex: TextureFile, args: ParsedArgs, opts: { png?: string; mip: number; slice: number }, forbid: string[], chain?: TierChain): number {
  const { dds, texr, texa } = tex;
  let written: { file: string; width: number; height: number; from: string; mip: number; slice: number } | undefined;
  if (opts.png !== undefined) {
    // The largest present level (the chain's first, from whichever tier holds it), unless --mip names one of this file's.
    const top = !args.flags.has('mip') ? chain?.levels[0] : undefined;
    const level = top ? { texture: top.texture, mip: top.mip, from: top.from } : { texture: tex, mip: opts.mip, from: leafName(dds.file) };
    const d = decodeDdsLevel(level.texture.dds, level.texture.bytes, opts.slice, level.mip);
    writeFileAtomic(opts.png, encodePng(d.rgba, d.width, d.height), { forbid });
    written = { file: opts.png, width: d.width, height: d.height, from: level.from, mip: level.mip, slice: opts.slice };
  }
  if (args.flags.has('json')) {
    const { unk4, dds: _dds, ...texrRest } = texr ?? ({} as Partial<NonNullable<typeof texr>>);
    printJson({
      texr: texr ? { ...texrRest, unk4: Buffer.from(unk4 ?? []).toString('hex') } : undefined,
      texa: texa ? { ...texa, dds: undefined } : undefined,
      role: textureRole(dds.file),
      dds,
      tierChain: chain ? describeTierChain(chain) : undefined,
      png: written,
    });
    return 0;
  }
  const lines: string[] = [];
  if (texr) {
    lines.push(
      `${texr.container} v${texr.version}  name field "${escapeName(texr.path)}" (${texr.tierName.tier})  dimension pair ${texr.width}x${texr.height}  DDS at 0x${texr.ddsOffset.toString(16)}  confidence ${texr.confidence}`,
    );
  }
  if (texa) {
    lines.push(`TEXA v${texa.version}  ${texa.headerBytes}-byte header (layout UNCERTAIN)  DDS at 0x${texa.ddsOffset.toString(16)}`);
    if (texa.ownPath) lines.push(`own path ${escapeName(texa.ownPath)}`);
    (texa.slicePaths ?? []).forEach((p, i) => lines.push(`slice ${i}: ${escapeName(p)}`));
  }
  lines.push(
    `DDS ${dds.format.name}${dds.format.decodable ? '' : ' (not decodable: ' + dds.format.reason + ')'}  ${dds.width}x${dds.height}${dds.depth > 1 ? 'x' + dds.depth : ''} ${dds.dimension}  ${dds.mipCount} mips  ${dds.surfaces} surface(s)`,
  );
  const role = textureRole(dds.file);
  if (role.srgbMeasured) lines.push(`sRGB flag: not located in the header; seed 004 found it set on ${role.srgbMeasured}`);
  for (const n of [...(texr?.notes ?? []), ...(texa?.notes ?? []), ...dds.notes]) lines.push(`note: ${n}`);
  if (chain) lines.push(...tierLines(chain));
  if (written) lines.push(`wrote ${written.file} (${written.width}x${written.height}, slice ${written.slice}, mip ${written.mip} of ${written.from})`);
  writeOut(lines.map(escapeControls).join('\n') + '\n');
  return 0;
}
