/**
 * `arch06 <command> --help`: the command's lines of the usage, its options (its table in
 * `cli/options.ts`, the one the parser reads) and an example; `arch06 --version`: the package's
 * version.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { OptionTable } from './options';

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
  search: 'arch06 search sample-game OpenGate --include *.scripts',
  'new-mod': 'arch06 new-mod my-mod --name "My Mod"',
  pack: 'arch06 pack my-mod My_Mod.arch06',
  install: 'arch06 install sample-game my-mod --as archive',
  uninstall: 'arch06 uninstall sample-game "My Mod"',
  check: 'arch06 check sample-game --mod my-mod',
  'to-text': 'arch06 to-text sample-game/Game/scripts/common/startup.scripts -o startup.txt',
  'from-text': 'arch06 from-text startup.txt -o startup.scripts',
};

/** The help of `command`, cut from the whole usage, with its options; undefined for a name with no usage line. */
export function commandHelp(usage: string, command: string, options: OptionTable): string | undefined {
  const lines = usage.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`  ${command} `));
  if (start < 0) return undefined;
  const own = [lines[start]];
  // Continuation lines are indented past the command column.
  for (let i = start + 1; i < lines.length && /^ {6,}\S/.test(lines[i]); i++) own.push(lines[i]);
  const out = [`usage: arch06 ${own[0].trim()}`, ...own.slice(1).map((l) => l.replace(/^ {30}/, ''))];
  out.push('', 'options:', ...optionLines(options));
  if (EXAMPLES[command]) out.push('', 'example:', `  ${EXAMPLES[command]}`);
  return out.join('\n');
}

/** One line per option, `-q, --quiet` / `--cfg FILE` in a column, then its help; `-h, --help` last. */
function optionLines(options: OptionTable): string[] {
  const rows = Object.entries(options).map(([name, o]) => [
    `${o.short ? `-${o.short}, ` : ''}--${name}${o.value ? ` ${o.value}` : ''}`,
    o.help + (o.multiple && !/repeatable/.test(o.help) ? '; repeatable' : ''),
  ]);
  rows.push(['-h, --help', 'this help']);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, help]) => `  ${left.padEnd(width)}${help}`);
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
