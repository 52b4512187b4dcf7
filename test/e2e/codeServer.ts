/**
 * The code-server side of the E2E harness: whether setup is done (and so whether a test runs or
 * skips), a polling wait, and one code-server process started, and stopped, by its own PID.
 * `node scripts/e2e/setup.mjs` installs code-server and Chromium; see harness.ts for the UI side.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { repoRoot } from '../support/shared';

// Kept in step with scripts/e2e/setup.mjs, which installs them.
export const CHROMIUM = '/usr/bin/chromium';
const CODE_SERVER_ROOT = ['.cache', 'code-server'];
const CODE_SERVER_ENTRY = [...CODE_SERVER_ROOT, 'node_modules', 'code-server', 'out', 'node', 'entry.js'];
const SETUP_MARKER = [...CODE_SERVER_ROOT, '.arch06-setup-done'];

/** User settings for every session: nothing that opens editors or asks the network on its own. */
const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'window.confirmBeforeClose': 'never',
  // Sticky ancestor rows duplicate tree rows and cover the top ones; tooltips cover rows and
  // screenshots.
  'workbench.tree.enableStickyScroll': false,
  // One row per folder, so a path is one row per segment ("a/b" rows merge single-child folders).
  'explorer.compactFolders': false,
  'workbench.hover.delay': 10_000,
};

export const artifactsRoot = (): string => path.join(repoRoot(), 'test-artifacts', 'e2e');

/** What setup has not installed yet, or undefined when E2E can run. */
export function missingE2ESetup(): string | undefined {
  const root = repoRoot();
  if (!fs.existsSync(CHROMIUM)) return `${CHROMIUM} is absent`;
  if (!fs.existsSync(path.join(root, ...CODE_SERVER_ENTRY))) return 'code-server is not installed in .cache/code-server';
  if (!fs.existsSync(path.join(root, ...SETUP_MARKER))) return "code-server's postinstall has not completed";
  try {
    require.resolve('playwright-core');
  } catch {
    return 'playwright-core is not installed';
  }
  return undefined;
}

/** True when E2E must run (`npm run test:e2e` sets ARCH06_E2E=1): missing setup is then a failure. */
export const e2eRequired = (): boolean => process.env.ARCH06_E2E === '1';

/**
 * The environment for code-server: ours without NODE_V8_COVERAGE, which `npm test`'s coverage run
 * sets and every child inherits; code-server's own bundles would land in the report (their source
 * maps fail node's coverage reporter), and only this repository's code is ours to measure.
 */
function uncovered(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_V8_COVERAGE;
  return env;
}

/**
 * The `skip` option for an E2E test: a reason when setup (or a file the test needs) is missing,
 * or false. With ARCH06_E2E=1 it is always false, so the test runs and fails on what is missing.
 * Under plain `npm test` a .vsix older than the extension's sources is skipped too, since it would
 * test yesterday's code.
 */
export function e2eSkipReason(needs: string[] = []): string | false {
  if (e2eRequired()) return false;
  const hint = 'run `npm run test:e2e` (installs code-server and Chromium, packages, runs E2E)';
  const missing = missingE2ESetup();
  if (missing) return `E2E not set up (${missing}): ${hint}`;
  for (const f of needs) {
    if (!fs.existsSync(f)) return `${path.relative(repoRoot(), f)} is absent: ${hint}`;
    if (f.endsWith('.vsix')) {
      const newer = newestSource();
      if (newer && fs.statSync(newer.file).mtimeMs > fs.statSync(f).mtimeMs) return `${path.relative(repoRoot(), f)} is older than ${newer.rel}: ${hint}`;
    }
  }
  return false;
}

/** The most recently changed file the extension bundle is built from. */
function newestSource(): { file: string; rel: string } | undefined {
  const root = repoRoot();
  let best: { file: string; rel: string; t: number } | undefined;
  const consider = (file: string): void => {
    const t = fs.statSync(file).mtimeMs;
    if (!best || t > best.t) best = { file, rel: path.relative(root, file), t };
  };
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'tests') walk(p);
      } else if (e.name.endsWith('.ts')) consider(p);
    }
  };
  for (const d of ['extension', 'core', 'server']) walk(path.join(root, d));
  consider(path.join(root, 'package.json'));
  return best;
}

/** Poll `predicate` until it returns a truthy value; a throw counts as "not yet". */
export async function waitFor<T>(predicate: () => T | Promise<T>, timeoutMs: number, what: string): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await predicate();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message.split('\n')[0]})` : '';
      throw new Error(`timed out after ${(timeoutMs / 1000).toFixed(0)} s waiting for ${what}${why}`);
    }
    await sleep(250);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A free TCP port on the loopback interface (asked of the OS, then released). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface CodeServerOptions {
  /** Packaged extension to install first, with the same code-server binary. */
  vsix?: string;
  /** Where user data (settings, logs) and extensions live; the caller owns both. */
  userDataDir: string;
  extensionsDir: string;
  /** Port to try first (the next free ones after it when taken); a free one when absent. */
  port?: number;
  /** File receiving code-server's stdout and stderr. */
  logFile: string;
  /** Extra arguments, e.g. a folder to open. */
  args?: string[];
}

/** A running code-server, started and stopped by its own process id (group). */
export class CodeServer {
  private exited = false;
  private stopped = false;
  private readonly onExit = (): void => {
    if (!this.stopped) this.killGroup('SIGKILL');
  };

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly userDataDir: string,
    readonly extensionsDir: string,
  ) {
    child.once('exit', () => {
      this.exited = true;
    });
    // A test that dies mid-run must not leave a server behind.
    process.on('exit', this.onExit);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(o: CodeServerOptions): Promise<CodeServer> {
    const missing = missingE2ESetup();
    if (missing) throw new Error(`E2E setup is missing (${missing}): run \`node scripts/e2e/setup.mjs\``);
    const entry = path.join(repoRoot(), ...CODE_SERVER_ENTRY);
    const { userDataDir, extensionsDir } = o;
    fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
    fs.mkdirSync(extensionsDir, { recursive: true });
    const settings = path.join(userDataDir, 'User', 'settings.json');
    if (!fs.existsSync(settings)) fs.writeFileSync(settings, JSON.stringify(USER_SETTINGS, null, 2));
    fs.mkdirSync(path.dirname(o.logFile), { recursive: true });
    // --config inside user data: code-server otherwise writes a password config to ~/.config.
    const common = ['--config', path.join(userDataDir, 'config.yaml'), '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
    if (o.vsix) {
      const r = spawnSync(process.execPath, [entry, ...common, '--force', '--install-extension', o.vsix], {
        encoding: 'utf8',
        timeout: 120_000,
        env: uncovered(),
      });
      fs.appendFileSync(o.logFile, `$ code-server --install-extension ${o.vsix}\n${r.stdout}${r.stderr}\n`);
      if (r.status !== 0 || !/successfully installed/i.test(r.stdout + r.stderr)) {
        throw new Error(`installing ${o.vsix} failed (exit ${r.status ?? r.signal}): ${(r.stderr || r.stdout).trim()}`);
      }
    }
    // The port is released before code-server binds it; on the rare race, try the next one.
    let port = o.port ?? (await freePort());
    for (let attempt = 0; ; attempt++) {
      const args = [
        entry,
        ...common,
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        ...(o.args ?? []),
      ];
      fs.appendFileSync(o.logFile, `$ code-server --bind-addr 127.0.0.1:${port}\n`);
      const out = fs.openSync(o.logFile, 'a');
      // detached: its own process group, so stop() ends its extension hosts too, by this PID.
      const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', out, out], env: uncovered() });
      fs.closeSync(out);
      const cs = new CodeServer(child, port, userDataDir, extensionsDir);
      try {
        await waitFor(
          async () => {
            if (cs.exited) throw new Error('code-server exited');
            const res = await fetch(`${cs.url}/healthz`);
            return res.ok;
          },
          60_000,
          `code-server on ${cs.url} (log: ${o.logFile})`,
        );
        return cs;
      } catch (e) {
        await cs.stop();
        const inUse = /EADDRINUSE/.test(fs.readFileSync(o.logFile, 'utf8'));
        if (!inUse || attempt >= 5) throw e;
        port = o.port !== undefined ? port + 1 : await freePort();
      }
    }
  }

  /** Signal the process group this object started (its leader's PID), never anything by name. */
  private killGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // already gone
    }
  }

  /** SIGTERM to the group it started, SIGKILL if it has not exited within 5 s. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    if (!this.exited) {
      const gone = new Promise<void>((r) => this.child.once('exit', () => r()));
      this.killGroup('SIGTERM');
      const timedOut = await Promise.race([gone.then(() => false), sleep(5000).then(() => true)]);
      if (timedOut) {
        this.killGroup('SIGKILL');
        await gone;
      }
    }
    // Helpers (extension host, pty host) share its group and may outlive the leader a moment.
    this.killGroup('SIGKILL');
    this.stopped = true;
    process.off('exit', this.onExit);
  }
}
