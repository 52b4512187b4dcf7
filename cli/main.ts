/**
 * `arch06`: the engine on the command line. Exit codes: 0 success, 1 path not found,
 * 2 bad input (arguments, malformed files, failed verification), with one line on stderr.
 */
import { isArch06Error } from '../core/errors';
import { parseArgs, ParsedArgs } from './args';
import { catCommand, lsCommand, mountCommand, unhashCommand, verifyCommand, whichCommand } from './commands/mountCommands';
import { extractCommand } from './commands/extract';
import { hashCommand, makeSampleCommand, oodleCommand } from './commands/misc';
import { textureCommand, textureFileCommand } from './commands/texture';
import { meshCommand, meshFileCommand } from './commands/mesh';

const USAGE = `arch06 — Shadow of War archives from the command line

usage: arch06 <command> [arguments] [--json]

  mount   <root>                      sources in search order, skipped cfg lines, path count
  which   <root> <path>               the winning copy of a path and every copy it shadows
  cat     <root> <path> [--source S]  the bytes of the winning (or the named) copy
  ls      <root> [folder]             one folder of the merged view
  extract <root> <path|folder> <out>  copy files out (merged view, or --source S)
  verify  <root>                      decode every entry of every source; report each failure
  unhash  <root> <0xHASH>             paths whose StringHash is HASH
  hash    <string>                    StringHash of a name, as 0x%08X
  oodle   <in-file> --raw-size N [--out FILE]   decode one raw Oodle stream
  make-sample <folder>                write the embedded sample install
  texture <root> <path> [--png OUT] [--mip N] [--slice N]   a .tex/.dds entry: header, or a level as PNG
  texture-file <file.tex|file.dds> [--png OUT] [--mip N] [--slice N]   the same for a file on disk
  mesh    <root> <path> [--skel GAMEPATH] [--glb OUT]   a .mesh (data blocks, meshes, materials, bones) or a .skel;
                                      a .inst (PRFB) or .wldmsh (MESH): its structure, located tables (uncertain) and LODs
  mesh-file <file.mesh|file.skel|file.inst|file.wldmsh> [--skel FILE] [--glb OUT]   the same for a file on disk

options for commands taking <root>:
  --cfg FILE    use this archive config list instead of <root>/x64/default.archcfg
  --arch FILE   mount an extra archive before the list (ranks below it); repeatable
  --json        machine-readable output

exit codes: 0 ok, 1 not found, 2 bad input`;

type Command = (args: ParsedArgs) => number | Promise<number>;

const COMMANDS: Record<string, Command> = {
  mount: mountCommand,
  which: whichCommand,
  cat: catCommand,
  ls: lsCommand,
  extract: extractCommand,
  verify: verifyCommand,
  unhash: unhashCommand,
  hash: hashCommand,
  oodle: oodleCommand,
  'make-sample': makeSampleCommand,
  texture: textureCommand,
  'texture-file': textureFileCommand,
  mesh: meshCommand,
  'mesh-file': meshFileCommand,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE + '\n');
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`arch06: unknown command "${name}" (see arch06 --help)\n`);
    return 2;
  }
  try {
    return await command(parseArgs(rest));
  } catch (e) {
    if (isArch06Error(e)) {
      process.stderr.write(`arch06: ${e.message}\n`);
      return e.code === 'NOT_FOUND' ? 1 : 2;
    }
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
      process.stderr.write(`arch06: ${(e as Error).message}\n`);
      return code === 'ENOENT' ? 1 : 2;
    }
    process.stderr.write(`arch06: internal error: ${(e as Error).stack ?? e}\n`);
    return 70;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
