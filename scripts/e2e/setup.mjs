// Installs what running the extension in code-server needs, and what the end-to-end tests need
// on top of it, into .cache/ (gitignored):
// - `setupCodeServer()` (what `npm start` needs without desktop VS Code): Debian's ripgrep and
//   libkrb5-dev, and code-server 4.100.3 with its postinstall done by hand, because that
//   postinstall downloads things and only the npm registry and Debian's packages are reachable here;
// - `setup()` (what `npm run test:e2e` needs): all of that, plus Debian's Chromium and
//   playwright-core (a devDependency) to drive it.
// See /work/shared/docs/e2e-code-server.md. Idempotent: a marker makes a second run take seconds.
// Usage: node scripts/e2e/setup.mjs [--force] [--code-server-only]
// Also imported by run.mjs (setup) and start.mjs (setupCodeServer) for the paths and for packageExtension().
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CODE_SERVER_VERSION = '4.100.3'; // the newest release that runs on Node 20
export const CHROMIUM = '/usr/bin/chromium';
/** What code-server's native modules build against (kerberos) and the ripgrep it would download. */
const CODE_SERVER_PACKAGES = ['libkrb5-dev', 'ripgrep'];
/** What only the E2E tests need: the browser playwright-core drives. */
const BROWSER_PACKAGES = ['chromium'];

const cacheDir = path.join(repoRoot, '.cache');
const csRoot = path.join(cacheDir, 'code-server');
const csPkg = path.join(csRoot, 'node_modules', 'code-server');
const vscodeDir = path.join(csPkg, 'lib', 'vscode');
export const codeServerEntry = path.join(csPkg, 'out', 'node', 'entry.js');
const markerFile = path.join(csRoot, '.arch06-setup-done');
const logFile = path.join(cacheDir, 'e2e-setup.log');

// Native modules are built for one Node ABI: a new Node major must redo the postinstall.
const markerContent = JSON.stringify({ codeServer: CODE_SERVER_VERSION, nodeAbi: process.versions.modules, arch: process.arch });

/** Why code-server cannot run the extension, or undefined when setupCodeServer() is done. */
function missingCodeServer() {
  if (!fs.existsSync(codeServerEntry)) return `code-server is not installed in ${path.relative(repoRoot, csRoot)}`;
  if (readMarker() !== markerContent) return `code-server's postinstall has not completed (no ${path.relative(repoRoot, markerFile)})`;
  return undefined;
}

/** Why E2E cannot run, or undefined when everything setup() installs is in place. */
export function missingSetup() {
  if (!fs.existsSync(CHROMIUM)) return `${CHROMIUM} is absent (Debian package chromium)`;
  const cs = missingCodeServer();
  if (cs) return cs;
  if (!fs.existsSync(path.join(repoRoot, 'node_modules', 'playwright-core', 'package.json'))) return 'playwright-core is not installed (npm ci)';
  return undefined;
}

function readMarker() {
  try {
    return fs.readFileSync(markerFile, 'utf8');
  } catch {
    return undefined;
  }
}

/** The log prefix: `[e2e setup]` for setup(), `[setup]` for setupCodeServer() alone. */
let label = 'e2e setup';
const say = (msg) => console.log(`[${label}] ${msg}`);

class StepError extends Error {}

/** Run a command with its output appended to the setup log; throw naming the step on failure. */
function sh(step, cmd, args, cwd, env = {}) {
  fs.appendFileSync(logFile, `\n$ (cd ${cwd} && ${cmd} ${args.join(' ')})\n`);
  const fd = fs.openSync(logFile, 'a');
  try {
    const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', fd, fd], env: { ...process.env, ...env } });
    if (r.error) throw new StepError(`${step}: could not run ${cmd}: ${r.error.message}`);
    if (r.status !== 0) throw new StepError(`${step}: \`${cmd} ${args.join(' ')}\` exited with ${r.status ?? r.signal} (in ${cwd})`);
  } finally {
    fs.closeSync(fd);
  }
}

function timed(step, fn) {
  const t0 = Date.now();
  say(`${step} …`);
  fn();
  say(`${step}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

function debianInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${db:Status-Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() === 'installed';
}

/** Install the Debian packages of `wanted` that are missing (one apt-get run for all of them). */
function ensureDebianPackages(wanted) {
  const missing = wanted.filter((p) => !debianInstalled(p));
  if (missing.length === 0) return say(`Debian packages present: ${wanted.join(', ')}`);
  if (process.getuid?.() !== 0) throw new StepError(`Debian packages: missing ${missing.join(', ')}; run as root or install them with apt-get`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  timed('apt-get update', () => sh('apt-get update', 'apt-get', ['update'], repoRoot, env));
  timed(`apt-get install ${missing.join(' ')}`, () => sh('apt-get install', 'apt-get', ['install', '-y', ...missing], repoRoot, env));
  if (wanted.includes('chromium') && !fs.existsSync(CHROMIUM)) throw new StepError(`Debian packages: chromium installed but ${CHROMIUM} is absent`);
}

function ensurePlaywright() {
  if (!fs.existsSync(path.join(repoRoot, 'node_modules', 'playwright-core', 'package.json'))) {
    throw new StepError('playwright-core: not in node_modules; run `npm ci` (it is a devDependency)');
  }
  say('playwright-core present (it drives /usr/bin/chromium; no browser download)');
}

function installCodeServer() {
  fs.mkdirSync(csRoot, { recursive: true });
  // Its own package.json, so npm installs here and never touches the project's manifest.
  fs.writeFileSync(path.join(csRoot, 'package.json'), JSON.stringify({ name: 'arch06-e2e-code-server', private: true }, null, 2) + '\n');
  const npmQuiet = ['--no-audit', '--no-fund', '--loglevel=error'];
  timed(`npm install code-server@${CODE_SERVER_VERSION} --ignore-scripts`, () =>
    sh('code-server install', 'npm', ['install', `code-server@${CODE_SERVER_VERSION}`, '--ignore-scripts', ...npmQuiet], csRoot),
  );
  // The postinstall, by hand (it would download ripgrep and prebuilt binaries).
  timed('VS Code runtime dependencies', () => sh('lib/vscode npm install', 'npm', ['install', '--omit=dev', '--ignore-scripts', ...npmQuiet], vscodeDir));
  timed('native modules (kerberos, spdlog, deviceid)', () =>
    sh('native rebuild', 'npm', ['rebuild', 'kerberos', '@vscode/spdlog', '@vscode/deviceid'], vscodeDir),
  );
  // node-pty's install step generates compile_commands.json over the network and fails, but the
  // pty.node it needs is built by then, so its failure is tolerated when that file exists.
  const ptyNode = path.join(vscodeDir, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node');
  timed('node-pty', () => {
    try {
      sh('node-pty rebuild', 'npm', ['rebuild', 'node-pty'], vscodeDir);
    } catch (e) {
      if (!fs.existsSync(ptyNode)) throw e;
      say('node-pty: its rebuild reported a failure after building pty.node (expected offline)');
    }
  });
  if (!fs.existsSync(ptyNode)) throw new StepError(`node-pty: ${ptyNode} is absent after the rebuild`);
  const rgDir = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  fs.mkdirSync(rgDir, { recursive: true });
  fs.copyFileSync('/usr/bin/rg', path.join(rgDir, 'rg'));
  fs.chmodSync(path.join(rgDir, 'rg'), 0o755);
  const asar = path.join(vscodeDir, 'node_modules.asar');
  fs.rmSync(asar, { force: true });
  fs.symlinkSync('node_modules', asar);
  say('ripgrep copied from /usr/bin/rg; node_modules.asar linked');
  timed('built-in extensions dependencies', () =>
    sh('extensions npm install', 'npm', ['install', '--omit=dev', '--ignore-scripts', ...npmQuiet], path.join(vscodeDir, 'extensions')),
  );
  timed('argon2', () => sh('argon2 rebuild', 'npm', ['rebuild', 'argon2'], csRoot));
  // --config keeps code-server from writing a default config (with a password) into ~/.config.
  const v = spawnSync(process.execPath, [codeServerEntry, '--config', path.join(csRoot, 'config.yaml'), '--version'], { encoding: 'utf8', timeout: 60_000 });
  if (v.status !== 0) throw new StepError(`code-server check: \`code-server --version\` failed: ${v.stderr || v.stdout}`);
  say(`code-server runs: ${v.stdout.trim().split('\n').pop()}`);
  fs.writeFileSync(markerFile, markerContent);
}

/** code-server, once (the marker says it is done for this Node ABI), or again with `force`. */
function ensureCodeServer(force) {
  if (!force && readMarker() === markerContent && fs.existsSync(codeServerEntry)) {
    say(`code-server ${CODE_SERVER_VERSION} already set up in ${path.relative(repoRoot, csRoot)}`);
  } else {
    fs.rmSync(markerFile, { force: true });
    installCodeServer();
  }
}

function beginLog(what) {
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(logFile, `arch06 ${what} ${new Date().toISOString()}\n`);
}

/**
 * What running the extension in code-server needs (`npm start` without desktop VS Code):
 * ripgrep, libkrb5-dev and code-server; no browser. Quick when already done. Throws with the
 * failing step named.
 */
export function setupCodeServer({ force = false } = {}) {
  const t0 = Date.now();
  label = 'setup';
  beginLog('code-server setup');
  ensureDebianPackages(CODE_SERVER_PACKAGES);
  ensureCodeServer(force);
  say(`ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** Everything E2E needs: what setupCodeServer() installs, Chromium and playwright-core. Throws with the failing step named. */
export function setup({ force = false } = {}) {
  const t0 = Date.now();
  label = 'e2e setup';
  beginLog('e2e setup');
  ensureDebianPackages([...BROWSER_PACKAGES, ...CODE_SERVER_PACKAGES]);
  ensurePlaywright();
  ensureCodeServer(force);
  say(`ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** `npm run package`: build, then vsce into dist/arch06.vsix (what E2E installs). */
export function packageExtension() {
  const r = spawnSync('npm', ['run', 'package'], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`npm run package failed (exit ${r.status ?? r.signal})`);
}

/**
 * setup() (E2E), or with `codeServerOnly` setupCodeServer() (`npm start`); on a failure print
 * which step failed (with the end of the setup log) and exit 1.
 */
export function setupOrExit({ codeServerOnly = false, ...options } = {}) {
  try {
    if (codeServerOnly) setupCodeServer(options);
    else setup(options);
  } catch (e) {
    console.error(`[${label}] FAILED: ${e instanceof Error ? e.message : e}`);
    const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n') : '';
    if (e instanceof StepError && tail) console.error(`--- last lines of ${path.relative(repoRoot, logFile)} ---\n${tail}`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  setupOrExit({ force: process.argv.includes('--force'), codeServerOnly: process.argv.includes('--code-server-only') });
}
