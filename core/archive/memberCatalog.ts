/**
 * Every bundle member of a mount, listed beside the mounted paths so Go to File and Find in Files
 * see them (seed 004: 238,588 asset paths ship only inside containers, 14,172 both inside one and
 * loose). One `resolveBundle` per manifest, the walk paced by the caller; only the rows are kept
 * (path, manifest, where the engine serves it from), not the resolved bundles.
 */
import { isArch06Error } from '../errors';
import { type MemberOrigin, type ResolvedBundle, resolveBundle } from './bundles';
import type { Mount } from './mount';

export interface MemberRow {
  /** The member's path as the winning manifest spells it. */
  path: string;
  /** The manifest's game path. */
  bundle: string;
  servedFrom: MemberOrigin;
  /** The source serving it (a loose entry's source, or the container's). */
  source?: string;
  /** Bytes served (absent when nothing serves it). */
  size?: number;
}

export interface MemberCatalogOptions {
  /** Awaited between manifests, so the caller's thread stays responsive. */
  pause?: () => Promise<void>;
  /** Manifests resolved between pauses (default 50). */
  manifestsPerPause?: number;
  isCancelled?: () => boolean;
  onProgress?: (manifestsDone: number, manifestsTotal: number) => void;
}

export class MemberCatalog {
  readonly rows: MemberRow[] = [];
  /** Manifests that did not resolve (the bundle editor shows why), with the reason. */
  readonly failures: { bundle: string; reason: string }[] = [];
  manifests = 0;
  cancelled = false;

  /** A catalogue read back from the mount cache (core/archive/mountCache.ts). */
  static fromParts(p: { manifests: number; rows: MemberRow[]; failures: { bundle: string; reason: string }[] }): MemberCatalog {
    const catalog = new MemberCatalog();
    catalog.manifests = p.manifests;
    for (const r of p.rows) catalog.rows.push(r);
    for (const f of p.failures) catalog.failures.push(f);
    return catalog;
  }

  /** Resolve every mounted manifest and list its members. */
  static async build(mount: Mount, options: MemberCatalogOptions = {}): Promise<MemberCatalog> {
    const catalog = new MemberCatalog();
    const manifests = mount.distinctPaths().filter((p) => /\.bndl$/i.test(p));
    const perPause = options.manifestsPerPause ?? 50;
    for (let i = 0; i < manifests.length; i++) {
      if (options.isCancelled?.()) {
        catalog.cancelled = true;
        break;
      }
      catalog.add(manifests[i], () => resolveBundle(mount, manifests[i]));
      if (i % perPause === perPause - 1) {
        options.onProgress?.(i + 1, manifests.length);
        await options.pause?.();
      }
    }
    options.onProgress?.(catalog.manifests, manifests.length);
    return catalog;
  }

  private add(manifest: string, resolve: () => ResolvedBundle): void {
    this.manifests++;
    let bundle: ResolvedBundle;
    try {
      bundle = resolve();
    } catch (e) {
      if (!isArch06Error(e)) throw e;
      this.failures.push({ bundle: manifest, reason: e.message });
      return;
    }
    for (const m of bundle.members)
      this.rows.push({
        path: m.path,
        bundle: bundle.manifest.path,
        servedFrom: m.servedFrom,
        ...(m.source ? { source: m.source } : {}),
        ...(m.size !== undefined ? { size: m.size } : {}),
      });
  }
}

/** Where a member row is served from, in words: "in x.bndl, served from the container (Base.arch06)". */
export function describeMember(row: MemberRow): string {
  const name = row.bundle.slice(row.bundle.lastIndexOf('\\') + 1);
  const from =
    row.servedFrom === 'container'
      ? `the container${row.source ? ` (${row.source})` : ''}`
      : row.servedFrom === 'loose'
        ? `a loose copy${row.source ? ` in ${row.source}` : ''}`
        : row.servedFrom === 'empty'
          ? 'nowhere: declared with 0 bytes'
          : 'nowhere: no source ships it';
  return `in ${name}, served from ${from}`;
}
