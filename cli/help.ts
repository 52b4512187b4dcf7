/**
 * `arch06 <command> --help`: the command's lines of the usage, the options every `<root>` command
 * takes, and an example; `arch06 --version`: the package's version.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** One example per command, run against the sample install (`arch06 make-sample sample-game`). */
const EXAMPLES: Record<string, string> = {
  mount: 'arch06 mount sample-game',
  which: 'arch06 which sample-game config/game.cfg',
  cat: 'arch06 cat sample-game config\\game.cfg --source Base.arch06',
  ls: 'arch06 ls sample-game "bundles\\characters\\orc_sample.bndl [bundle]\\characters\\orcs\\orc_sample"',
  extract: 'arch06 extract sample-game data out-folder',
  verify: 'arch06 verify sample-game --json',
  unhash: 'arch06 unhash sample-game 0x13E62DDF',
  hash: 'arch06 hash "textures\\sample\\sample_banner_d.tex"',
  hashtable: 'arch06 hashtable ShadowOfWar.exe --json',
  oodle: 'arch06 oodle chunk.bin --raw-size 65536 --out chunk.raw',
  'make-sample': 'arch06 make-sample sample-game',
  texture: 'arch06 texture sample-game textures\\sample\\sample_banner_d.tex --png banner.png',
  'texture-file': 'arch06 texture-file sample_banner_d.tex --json',
  mesh: 'arch06 mesh sample-game characters\\sample\\sample_sword.mesh --glb sword.glb',
  'mesh-file': 'arch06 mesh-file sample_sword.mesh --skel sample_sword.skel',
  dump: 'arch06 dump sample-game worlds\\retail\\sample\\sectionsandlayers\\fortgate.objres --json',
  scripts: 'arch06 scripts sample-game worlds\\retail\\sample\\sectionsandlayers\\fortgate.scripts',
};

/** The help of `command`, cut from the whole usage, or undefined for a name with no usage line. */
export function commandHelp(usage: string, command: string): string | undefined {
  const lines = usage.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`  ${command} `));
  if (start < 0) return undefined;
  const own = [lines[start]];
  // Continuation lines are indented past the command column.
  for (let i = start + 1; i < lines.length && /^ {6,}\S/.test(lines[i]); i++) own.push(lines[i]);
  const out = [`usage: arch06 ${own[0].trim()}`, ...own.slice(1).map((l) => l.replace(/^ {30}/, ''))];
  if (/<root>/.test(own[0])) {
    const from = lines.findIndex((l) => l.startsWith('options for commands taking <root>'));
    const options: string[] = [];
    for (let i = from + 1; from >= 0 && i < lines.length && lines[i].startsWith('  '); i++) options.push(lines[i]);
    out.push('', 'options:', ...options);
  }
  if (EXAMPLES[command]) out.push('', 'example:', `  ${EXAMPLES[command]}`);
  return out.join('\n');
}

/** The version of the package this CLI ships in (its package.json, beside `dist/`). */
export function version(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
