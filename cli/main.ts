/**
 * `arch06`: the engine on the command line. Exit codes: 0 success, 1 path not found,
 * 2 bad input (arguments, malformed files, failed verification, any file-system error), with one
 * line on stderr: `arch06: <message>` for an engine error, `arch06: <what failed>: <path>:
 * <reason>` for a file-system error, control characters escaped either way. Only an internal
 * error (a bug) prints a stack trace, with exit code 70.
 */
import { isArch06Error } from '../core/errors';
import { errnoSummary, isErrnoException } from '../core/io/node';
import { escapeControls, escapeName, writeOut } from './output';
import { parseArgs, ParsedArgs } from './args';
import { COMMAND_OPTIONS } from './options';
import { catCommand, lsCommand, mountCommand, unhashCommand, verifyCommand, whichCommand } from './commands/mountCommands';
import { extractCommand } from './commands/extract';
import { makeSampleCommand, oodleCommand } from './commands/misc';
import { hashTableCommand, hashWithTableCommand } from './commands/hashTable';
import { textureCommand, textureFileCommand } from './commands/texture';
import { meshCommand, meshFileCommand } from './commands/mesh';
import { dumpCommand } from './commands/dump';
import { scriptsCommand } from './commands/scripts';
import { searchCommand } from './commands/search';
import { checkCommand, installCommand, newModCommand, packCommand, uninstallCommand } from './commands/mod';
import { fromTextCommand, toTextCommand } from './commands/textForm';
import { commandHelp, version } from './help';

const USAGE = `arch06 — Shadow of War archives from the command line

usage: arch06 <command> [arguments] [--json]     (arch06 <command> --help: one command; arch06 --version)

  mount   <root>                      sources in search order, skipped cfg lines, path count
  which   <root> <path>               the winning copy of a path and every copy it shadows
  cat     <root> <path> [--source S]  the bytes of the winning (or the named) copy
  ls      <root> [folder]             one folder of the merged view; "<dir>\\x.bndl [bundle]\\<folder>" one folder
                                      of a bundle's members, each served from container, loose or missing
  extract <root> <path|folder> <out>  copy files out (merged view, or --source S)
  verify  <root>                      decode every entry of every source; report each failure
  unhash  <root> <0xHASH> [--dict FILE]   the name whose StringHash is HASH, from the editors' dictionary (paths,
                                      bundle members, path indexes, script literals and definitions, registry and
                                      skeleton names) and your word lists; a script's 0x…hi literal as written
                                      (0xad5130eahi) is looked up by the hi hash instead
  hash    <string> [--table-from EXE] StringHash of a name, as 0x%08X (with the table found in EXE: any byte)
  hashtable <exe>                     find the StringHash table in ShadowOfWar.exe: file offset, address;
                                      exit 2 unless exactly one table agrees with every known value
  oodle   <in-file> --raw-size N [--out FILE]   decode one raw Oodle stream
  make-sample <folder>                write the embedded sample install
  texture <root> <path> [--png OUT] [--mip N] [--slice N]   a .tex/.dds entry: header and tier chain, or its largest present level (or mip N) as PNG
  texture-file <file.tex|file.dds> [--png OUT] [--mip N] [--slice N]   the same for a file on disk
  mesh    <root> <path> [--skel GAMEPATH] [--glb OUT]   a .mesh (data blocks, meshes, materials, bones) or a .skel;
                                      a .inst (PRFB) or .wldmsh (MESH): its structure, located tables (uncertain) and LODs
  mesh-file <file.mesh|file.skel|file.inst|file.wldmsh> [--skel FILE] [--glb OUT]   the same for a file on disk
  dump    <root> <path> [--source S]  decoded structure of a .bndl/.embb, .strdb, .objres or .scripts (also x.bndl [bundle]\\member)
  scripts <root> <path> [--jobs N]   a script's functions and hmake objects (1-based lines), the objects the
                                      registries bind to each (the copy in effect), its problems
  search  <root> <text> [--regex] [--include GLOB] [--decoded]   Find in Files: every file's text (scripts'
                                      source after their SCRI header, bundle members too) as path:line:column: text
                                      (--json: one object a line); the result line on stderr; exit 1 when nothing

mods (a folder with arch06-mod.json and the mod's files at their game paths):
  new-mod <folder> --name NAME        create a mod folder and its arch06-mod.json
  pack    <modfolder> [<out.arch06>]  pack a mod into an LTAR v4 archive (stored chunks, a path index when
                                      the mod holds .scripts/.objres/.mesh/...), read back and compared
  install <root> <mod folder|archive> [--as folder|archive] [--list default|mods] [--position bottom|above NAME]
                                      add the mod's line (a folder line, or the archive beside the game's) to
                                      x64/arch06-mods.archcfg (start the game with -archcfg arch06-mods.archcfg)
                                      or, with --list default --yes, to default.archcfg (backup first); shows the diff
  uninstall <root> <name> [--list default|mods]   take the mod's line out again: the list byte for byte as before
  check   <root> [--mod DIR] [--jobs N]   what the engine would do that the mod did not mean: size mismatches,
                                      unindexed new files, shadowed copies, string keys, lost bound functions;
                                      exit 1 when it finds problems

editing (a file on disk as text and back, byte for byte when unchanged):
  to-text   <file> [-o OUT]           a .strdb (one key a line) or .scripts (the source, the SCRI header in
                                      line 1) as text, on stdout or into OUT
  from-text <text> -o <file>          the text back as its binary file (the form named by its first line);
                                      an error names the line and the reason, and nothing is written;
                                      a <file> inside a game install is refused unless --into-install

options for commands taking <root>:
  --cfg FILE    use this archive config list instead of <root>/x64/default.archcfg
  --arch FILE   mount an extra archive before the list (ranks below it); repeatable
  --json        machine-readable output (all but cat)

extract writes every file it can: a file that fails (an unsafe name in the archive, a link
leading out of <out>, a disk error) is listed on stderr (the first 20; --json lists all) and
the summary counts it. Nothing is ever written inside the install, even through links.
verify and extract draw a progress line on stderr when it is a terminal (files, bytes, rate,
time left); --quiet (-q) turns it off.

environment:
  ARCH06_MAX_ENTRY_BYTES   the most one command reads into memory for one entry or file
                           (texture, mesh, oodle; default 1073741824 = 1 GiB, at most 2^31-1)

exit codes: 0 ok, 1 not found (check: problems found), 2 bad input (or a file-system error), 70 internal error`;

type Command = (args: ParsedArgs) => number | Promise<number>;

/** Reasons printed under a refusal before "… and N more". */
const MAX_REASON_LINES = 50;

const COMMANDS: Record<string, Command> = {
  mount: mountCommand,
  which: whichCommand,
  cat: catCommand,
  ls: lsCommand,
  extract: extractCommand,
  verify: verifyCommand,
  unhash: unhashCommand,
  hash: hashWithTableCommand,
  hashtable: hashTableCommand,
  oodle: oodleCommand,
  'make-sample': makeSampleCommand,
  texture: textureCommand,
  'texture-file': textureFileCommand,
  mesh: meshCommand,
  'mesh-file': meshFileCommand,
  dump: dumpCommand,
  scripts: scriptsCommand,
  search: searchCommand,
  'new-mod': newModCommand,
  pack: packCommand,
  install: installCommand,
  uninstall: uninstallCommand,
  check: checkCommand,
  'to-text': toTextCommand,
  'from-text': fromTextCommand,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (!name) {
      // No command: the usage is the error message.
      process.stderr.write(USAGE + '\n');
      return 2;
    }
    if (name === '--help' || name === '-h' || name === 'help') {
      writeOut(USAGE + '\n');
      return 0;
    }
    if (name === '--version' || name === '-V') {
      writeOut(`arch06 ${version()}\n`);
      return 0;
    }
    const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!command) {
      process.stderr.write(`arch06: unknown command "${escapeControls(name)}" (see arch06 --help)\n`);
      return 2;
    }
    const options = COMMAND_OPTIONS[name] ?? {};
    // --help anywhere before `--` wins over everything else, even an unknown option.
    const end = rest.indexOf('--');
    const own = end < 0 ? rest : rest.slice(0, end);
    if (own.includes('--help') || own.includes('-h')) {
      writeOut((commandHelp(USAGE, name, options) ?? USAGE) + '\n');
      return 0;
    }
    return await command(parseArgs(rest, name, options));
  } catch (e) {
    return reportError(e);
  }
}

/** One stderr line (line breaks and other control characters escaped) and the exit code for an error that ended a command. */
function reportError(e: unknown): number {
  if (isArch06Error(e)) {
    process.stderr.write(`arch06: ${escapeControls(e.message)}\n`);
    // A refusal with its reasons (a mod that cannot be packed): one line each.
    const problems = (e as { problems?: { code: string; path?: string; message: string }[] }).problems ?? [];
    const shown = problems
      .slice(0, MAX_REASON_LINES)
      .map((p) => `arch06:   ${p.code}: ${p.path !== undefined ? `${escapeName(p.path)}: ` : ''}${escapeControls(p.message)}`);
    if (problems.length > MAX_REASON_LINES) shown.push(`arch06:   … and ${problems.length - MAX_REASON_LINES} more (arch06 check lists all)`);
    if (shown.length) process.stderr.write(shown.join('\n') + '\n');
    return e.code === 'NOT_FOUND' ? 1 : 2;
  }
  if (isErrnoException(e)) {
    process.stderr.write(`arch06: ${escapeControls(errnoSummary(e))}\n`);
    return e.code === 'ENOENT' ? 1 : 2;
  }
  process.stderr.write(`arch06: internal error: ${escapeControls(String((e as Error)?.stack ?? e))}\n`);
  return 70;
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
