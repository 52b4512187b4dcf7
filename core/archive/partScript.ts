/**
 * The served-part rule for bindings, written once: a layer's registry `x.objres` binds names of
 * its own script `x.scripts`, and that script is the one the engine serves (address.ts
 * `locateAddress`: the search order's loose winner, else the member of the bundle of its stem, so
 * a loose copy wins over the container's, the patch rule). A registry read from one place (a
 * bundle folder, one source) reads the script from there first when it is there. What the script
 * defines is the parser's answer (core/havokScript `scriptDefinitions`). The CLI's `dump`, the
 * registry editor and the text views all check bindings through these functions.
 */
import { isArch06Error } from '../errors';
import { ownScriptPath } from '../formats/registry';
import { parseScript } from '../formats/script';
import { type ScriptDefinition, scriptDefinitions } from '../havokScript';
import { type Located, declaredMember, locateAddress } from './address';
import { BUNDLE_SUFFIX } from './bundleFolders';
import type { ResolvedBundle } from './bundles';
import type { Mount } from './mount';

/** Where the registry was read from, asked first for its script. */
export interface PartScriptNear {
  /** The bundle the registry was read through (a bundle folder): its member, when it declares the script. */
  bundle?: ResolvedBundle;
  /** The source whose own copy of the registry was read: its copy of the script, when it has one. */
  source?: string;
}

/** The part's script as served: its game path and where its bytes are. */
export interface LocatedPartScript extends Located {
  /** The script's game path (`x.scripts` for `x.objres`). */
  path: string;
}

/**
 * The own script of the registry at `registryPath`, as the engine serves it (see the top of this
 * file); `near` is asked first. Throws NOT_FOUND when nothing serves it, or what the lookup throws.
 */
export function locatePartScript(mount: Mount, registryPath: string, near: PartScriptNear = {}): LocatedPartScript {
  const path = ownScriptPath(registryPath);
  const member = near.bundle && declaredMember(near.bundle, path);
  if (member) return { path, ...locateAddress(mount, `${near.bundle!.manifest.path}${BUNDLE_SUFFIX}\\${member.path}`) };
  if (near.source !== undefined) {
    try {
      return { path, ...locateAddress(mount, path, { source: near.source }) };
    } catch (e) {
      if (!(isArch06Error(e) && e.code === 'NOT_FOUND')) throw e;
    }
  }
  return { path, ...locateAddress(mount, path) };
}

/** Where a located script was served from, in words (`loose in Patch_02.arch06`, `in x.embb (Base.arch06)`). */
export function servedFromText(at: Located): string {
  if (at.servedFrom === 'loose') return `loose in ${at.entry.source.name}`;
  return `in ${at.bundle?.container?.path ?? at.bundle?.manifest.path ?? at.entry.path} (${at.entry.source.name})`;
}

/** What a part's script offers its bindings: its source text and its bindable definitions (the parser's answer). */
export interface PartScriptNames {
  source: string;
  /** The definitions a binding can name (top-level functions and objects, not an object's methods). */
  functions: ScriptDefinition[];
}

/** The bindable definitions of a part script's bytes; undefined for a compiled script, whose names cannot be listed. Throws what the SCRI reader throws. */
export function partScriptNames(bytes: Uint8Array, path: string): PartScriptNames | undefined {
  const parsed = parseScript(bytes, path);
  if (parsed.source === undefined) return undefined;
  return { source: parsed.source, functions: scriptDefinitions(parsed.source).filter((d) => d.bindable) };
}
