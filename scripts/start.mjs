// `npm start`: build and package the extension, write the sample install to ./sample-game, and
// open it in VS Code with the extension: desktop VS Code when `code` is on PATH, otherwise
// code-server (VS Code in the browser; see scripts/e2e/setup.mjs) on 127.0.0.1:8080 or the next
// free port, until Ctrl-C. code-server's user data persists in .cache/code-server-user.
// It installs only what that needs: code-server (into .cache/) and the Debian packages its setup
// builds against (ripgrep, libkrb5-dev), never a browser: Chromium is for `npm run test:e2e`.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { codeServerEntry, packageExtension, repoRoot, setupOrExit } from './e2e/setup.mjs';

const say = (msg) => console.log(`[start] ${msg}`);
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`[start] FAILED: ${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
    process.exit(1);
  }
};

try {
  packageExtension();
} catch (e) {
  console.error(`[start] FAILED: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
const sample = path.join(repoRoot, 'sample-game');
run(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'make-sample', sample]);

if (spawnSync('sh', ['-c', 'command -v code'], { stdio: 'ignore' }).status === 0) {
  say('opening sample-game in VS Code with the extension under development');
  run('code', [`--extensionDevelopmentPath=${repoRoot}`, sample]);
  process.exit(0);
}

say('no `code` on PATH: serving VS Code in the browser with code-server instead');
setupOrExit({ codeServerOnly: true });
const userDir = path.join(repoRoot, '.cache', 'code-server-user');
const extensionsDir = path.join(userDir, 'extensions');
// --config inside our folder: code-server otherwise writes a password config to ~/.config.
const common = ['--config', path.join(userDir, 'config.yaml'), '--user-data-dir', userDir, '--extensions-dir', extensionsDir];
const settings = path.join(userDir, 'User', 'settings.json');
if (!fs.existsSync(settings)) {
  fs.mkdirSync(path.dirname(settings), { recursive: true });
  // sample-game sits inside this repository: no "open the parent git repository?" prompt.
  const defaults = {
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'git.openRepositoryInParentFolders': 'never',
  };
  fs.writeFileSync(settings, JSON.stringify(defaults, null, 2));
}
run(process.execPath, [codeServerEntry, ...common, '--force', '--install-extension', path.join(repoRoot, 'dist', 'arch06.vsix')]);

/** 8080, or the next port nobody listens on (loopback only). */
async function freePortFrom(first) {
  for (let port = first; port < first + 50; port++) {
    const free = await new Promise((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${first}..${first + 49}`);
}

const port = await freePortFrom(8080);
const args = [
  codeServerEntry,
  ...common,
  '--auth',
  'none',
  '--bind-addr',
  `127.0.0.1:${port}`,
  '--disable-telemetry',
  '--disable-update-check',
  '--disable-workspace-trust',
  sample,
];
// Its own process group, so Ctrl-C here ends it and its extension hosts, by this PID.
const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: 'inherit', detached: true });
const stop = () => {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.on('exit', stop);
child.on('exit', (code, signal) => process.exit(signal ? 0 : (code ?? 0)));

// Print the address once the server answers, so it is not lost in code-server's own lines.
const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(sample).replace(/%2F/g, '/')}`;
for (let i = 0; i < 240; i++) {
  const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) {
    console.log(`\n  arch06 on the sample game, in VS Code (code-server):\n\n    ${url}\n\n  Ctrl-C to stop.\n`);
    break;
  }
  await new Promise((r) => setTimeout(r, 250));
}
