/** Which decoded text a file gets, by its extension, and the one entry point that renders it. */
import { renderContainer, renderManifest } from './bundleText';
import type { BundleTextOptions } from './bundleText';
import { renderRegistry } from './registryText';
import type { RegistryTextOptions } from './registryText';
import { renderSkeleton } from './skeletonText';
import { renderStringTable } from './stringsText';
import type { StringsTextOptions } from './stringsText';
import { renderScript } from './scriptText';
import { renderPathIndex } from './pathIndexText';
import { PATH_INDEX_NAME } from '../formats/archive';
import { parseEmbb } from '../formats/bundle';

export type TextKind = 'manifest' | 'container' | 'strings' | 'registry' | 'skeleton' | 'script' | 'pathIndex';

const BY_EXTENSION: Record<string, TextKind> = {
  bndl: 'manifest',
  embb: 'container',
  strdb: 'strings',
  objres: 'registry',
  skel: 'skeleton',
  scripts: 'script',
  hks: 'script',
};

/** The text a path's file renders to, or undefined when it has none (it is shown as it is). */
export function textKindOf(path: string): TextKind | undefined {
  // The path index is binary though named .txt: by its name, before the extension.
  if (path.slice(Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/')) + 1).toLowerCase() === PATH_INDEX_NAME) return 'pathIndex';
  const ext = /\.([^.\\/]+)$/.exec(path)?.[1].toLowerCase();
  return ext === undefined ? undefined : BY_EXTENSION[ext];
}

export type RenderOptions = BundleTextOptions & RegistryTextOptions & StringsTextOptions;

export interface RenderedText {
  kind: TextKind;
  text: string;
  /** 'havokscript' for a script's source, 'decoded' for everything in the syntax of ./syntax.ts. */
  language: 'havokscript' | 'decoded';
  /** One line for a title or status bar (a script's header; the first field line otherwise). */
  summary: string;
}

/** Render a file's bytes as the text of its kind. Throws the readers' typed errors. */
export function renderText(kind: TextKind, bytes: Uint8Array, path: string, options: RenderOptions = {}): RenderedText {
  if (kind === 'script') {
    const s = renderScript(bytes, path);
    return { kind, text: s.text, language: s.language, summary: s.summary };
  }
  const text =
    kind === 'manifest'
      ? renderManifest(bytes, path, options)
      : kind === 'container'
        ? renderContainer(parseEmbb(bytes, path), path)
        : kind === 'strings'
          ? renderStringTable(bytes, path, options)
          : kind === 'registry'
            ? renderRegistry(bytes, path, options)
            : kind === 'pathIndex'
              ? renderPathIndex(bytes, path)
              : renderSkeleton(bytes, path);
  return { kind, text, language: 'decoded', summary: text.slice(2, text.indexOf('\n')) };
}
