// Every bundle the project ships, in one list (extension host, language server, CLI, webviews).
// Usage: node scripts/build.mjs [--watch] [--minify]
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildKrakenWasm } from './krakenWasm.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const watch = process.argv.includes('--watch');
const minify = process.argv.includes('--minify');

/** @type {(esbuild.BuildOptions & { threeCore?: boolean })[]} */
const bundles = [
  // The extension host: everything that imports vscode.
  { entryPoints: ['extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // The language server, started by the extension over IPC.
  { entryPoints: ['server/server.ts'], outfile: 'dist/server.js' },
  // The command-line tool (package.json "bin").
  { entryPoints: ['cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // The worker pool's one entry (core/archive/workerPool.ts): verify, extract, Find in Files, the cold index.
  { entryPoints: ['core/workers/poolWorker.ts'], outfile: 'dist/poolWorker.js' },
  // Texture decoding off the extension host's thread (core/image/node/decodePool.ts): a worker_threads entry.
  { entryPoints: ['core/image/node/nodeDecodeWorker.ts'], outfile: 'dist/nodeDecodeWorker.js' },
  // The 3D model viewer webview (three.js): a browser script, so it overrides the node settings.
  // Always minified, and `three` is three's source entry without the WebGLRenderer
  // (src/Three.Core.js, side-effect free, so only the classes used stay; the viewer draws with its
  // own media/mesh/renderer.ts): what the webview parses before its first frame.
  // bench/editorTabs.bench.ts reports its size.
  {
    entryPoints: ['media/mesh/main.ts'],
    outfile: 'dist/webview/meshView.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    threeCore: true,
  },
  // The texture editor's webview and its decoder, a Web Worker inside it: both inlined into the
  // page by the host (extension/editors/textureEditor.ts), so no source maps.
  {
    entryPoints: ['media/texture/textureView.ts'],
    outfile: 'dist/webview/textureView.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: false,
  },
  // The bundle editor's webview (a virtualised member table), inlined into the page by the host
  // (extension/editors/bundleEditor.ts).
  {
    entryPoints: ['media/bundle/bundleView.ts'],
    outfile: 'dist/webview/bundleView.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: false,
  },
  // The string-table editor's webview (a virtualised table over rows the host keeps), inlined into
  // the page by the host (extension/editors/stringTableEditor.ts).
  {
    entryPoints: ['media/strings/stringsView.ts'],
    outfile: 'dist/webview/stringsView.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: false,
  },
  // The object-registry editor's webview (objects fetched window by window), inlined into the page
  // by the host (extension/editors/registryEditor.ts).
  {
    entryPoints: ['media/registry/registryView.ts'],
    outfile: 'dist/webview/registryView.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: false,
  },
  // The hex view's webview (rows drawn from windows of bytes the host reads on demand), inlined
  // into the page by the host (extension/editors/hexEditor.ts).
  {
    entryPoints: ['media/hex/hexView.ts'],
    outfile: 'dist/webview/hexView.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: false,
  },
  {
    entryPoints: ['media/texture/webviewDecodeWorker.ts'],
    outfile: 'dist/webview/textureDecodeWorker.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: false,
  },
];

/**
 * core/ has no import-time side effects, so a bundle keeps only what it uses of a layer's face
 * (each layer's index.ts re-exports the whole layer; ARCHITECTURE.md "API boundary"). Without this
 * esbuild keeps every module behind a face whose top level computes a table, and the mesh webview
 * would carry the format readers it never calls.
 */
const coreDir = path.join(root, 'core') + path.sep;
/** @type {esbuild.Plugin} */
const coreHasNoSideEffects = {
  name: 'core-has-no-side-effects',
  setup(build) {
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData?.resolving || args.kind === 'entry-point') return undefined;
      const r = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { resolving: true } });
      if (r.errors.length > 0 || !r.path.startsWith(coreDir)) return undefined;
      return { path: r.path, sideEffects: false };
    });
  },
};

/**
 * `import … from 'three'` (the viewer's and three's own examples') resolved to three's source
 * entry without the WebGLRenderer, `three/src/Three.Core.js`; three's package.json marks its
 * source side-effect free, so esbuild keeps only the modules used.
 */
/** @type {esbuild.Plugin} */
const threeCore = {
  name: 'three-core',
  setup(build) {
    build.onResolve({ filter: /^three$/ }, (args) => build.resolve('three/src/Three.Core.js', { kind: args.kind, resolveDir: args.resolveDir }));
  },
};

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  minify,
  logLevel: 'warning',
  plugins: [coreHasNoSideEffects],
};

/** A bundle's esbuild options: the common ones, its own, and `threeCore` as the plugin above. */
function options({ threeCore: core, ...b }) {
  return { ...common, ...b, plugins: [...common.plugins, ...(core ? [threeCore] : [])] };
}

// The WebAssembly Kraken decoder, embedded in core/oodle/kraken/wasmBinary.ts (rebuilt when its sources change).
if (await buildKrakenWasm()) console.log('built core/oodle/kraken/wasmBinary.ts from core/oodle/kraken/assembly/');

if (watch) {
  for (const b of bundles) await (await esbuild.context(options(b))).watch();
  console.log('watching…');
} else {
  await Promise.all(bundles.map((b) => esbuild.build(options(b))));
}
