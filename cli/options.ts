/**
 * The options each command accepts, declared once: `cli/args.ts` parses with them (Node's
 * `util.parseArgs`, strict, so an option not in a command's table is refused by name) and
 * `cli/help.ts` lists them in `arch06 <command> --help`.
 */

export interface OptionSpec {
  /** `string` takes a value (`--name VALUE` or `--name=VALUE`); `boolean` is a switch. */
  type: 'string' | 'boolean';
  /** May be given more than once; every value is kept, in order. */
  multiple?: boolean;
  /** A one-letter alias (`-q`). */
  short?: string;
  /** The value's placeholder in the help (`FILE`, `N`). */
  value?: string;
  /** One line for the help. */
  help: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

/** What every command taking `<root>` mounts with. */
const MOUNT_OPTIONS: OptionTable = {
  cfg: { type: 'string', value: 'FILE', help: 'use this archive config list instead of <root>/x64/default.archcfg' },
  arch: { type: 'string', multiple: true, value: 'FILE', help: 'mount an extra archive before the list (ranks below it); repeatable' },
};

const json: OptionSpec = { type: 'boolean', help: 'machine-readable output' };
const source: OptionSpec = { type: 'string', value: 'NAME', help: 'the copy in this source (a name `mount` lists) instead of the winning one' };
const quiet: OptionSpec = { type: 'boolean', short: 'q', help: 'no progress line on stderr (it is shown only when stderr is a terminal)' };
const png: OptionSpec = { type: 'string', value: 'OUT', help: 'write a level as a PNG file' };
const mip: OptionSpec = { type: 'string', value: 'N', help: 'the mip level to write (0, 1, …)' };
const slice: OptionSpec = { type: 'string', value: 'N', help: 'the array slice to write (0, 1, …)' };
const glb: OptionSpec = { type: 'string', value: 'OUT', help: 'export LOD 0 as glTF binary' };

const jobs: OptionSpec = {
  type: 'string',
  value: 'N',
  help: 'worker threads for the whole-game work (default: the cores, os.availableParallelism()); 1 = this thread alone',
};

/** Every command's options (`--help` / `-h` is every command's too, handled before parsing). */
export const COMMAND_OPTIONS: Readonly<Record<string, OptionTable>> = {
  mount: { ...MOUNT_OPTIONS, json },
  which: { ...MOUNT_OPTIONS, json },
  cat: { ...MOUNT_OPTIONS, source },
  ls: { ...MOUNT_OPTIONS, json },
  extract: { ...MOUNT_OPTIONS, source, json, quiet, jobs },
  verify: { ...MOUNT_OPTIONS, json, quiet, jobs },
  unhash: {
    ...MOUNT_OPTIONS,
    dict: {
      type: 'string',
      multiple: true,
      value: 'FILE',
      help: 'a word list (one name a line, # comments) added to the names gathered from the install; repeatable',
    },
    json,
  },
  hash: { 'table-from': { type: 'string', value: 'EXE', help: 'hash with the table found in this game executable' }, json },
  hashtable: { json },
  oodle: {
    'raw-size': { type: 'string', value: 'N', help: 'the decoded size in bytes (required)' },
    out: { type: 'string', value: 'FILE', help: 'write the decoded bytes here instead of stdout' },
  },
  'make-sample': {},
  'to-text': { out: { type: 'string', short: 'o', value: 'FILE', help: 'write the text here (atomic, an existing file kept as FILE.bak) instead of stdout' } },
  'from-text': {
    out: { type: 'string', short: 'o', value: 'FILE', help: 'the binary file to write (required; atomic, an existing file kept as FILE.bak)' },
    'into-install': { type: 'boolean', help: 'allow FILE inside a game install (a folder holding x64/default.archcfg above it); refused otherwise' },
  },
  texture: { ...MOUNT_OPTIONS, source, png, mip, slice, json },
  'texture-file': { png, mip, slice, json },
  mesh: { ...MOUNT_OPTIONS, source, skel: { type: 'string', value: 'GAMEPATH', help: 'the skeleton to name the bones with' }, glb, json },
  'mesh-file': { skel: { type: 'string', value: 'FILE', help: 'the skeleton file to name the bones with' }, glb, json },
  dump: { ...MOUNT_OPTIONS, source, json },
  scripts: { ...MOUNT_OPTIONS, json, jobs },
  search: {
    ...MOUNT_OPTIONS,
    regex: { type: 'boolean', help: '<text> is a regular expression (JavaScript syntax, matched within one line)' },
    'match-case': { type: 'boolean', help: 'match upper and lower case exactly (default: either)' },
    include: { type: 'string', value: 'GLOB', help: 'only files whose path matches (*.scripts, worlds/**/*.txt)' },
    decoded: { type: 'boolean', help: 'search the decoded text views of registries, string tables, bundles and skeletons too' },
    json: { type: 'boolean', help: 'one JSON object per hit and line: path, source, bundle, view, line, column, text' },
    jobs,
  },
  'new-mod': {
    name: { type: 'string', value: 'NAME', help: "the mod's name (default: the folder's name)" },
    position: { type: 'string', value: 'WHERE', help: '"bottom" (default: the mod wins over every archive) or "above NAME"' },
    json,
  },
  pack: { json, quiet },
  install: {
    as: { type: 'string', value: 'KIND', help: 'folder (a directory line: no pack needed) or archive (packed beside the game archives)' },
    list: { type: 'string', value: 'LIST', help: 'mods (default: x64/arch06-mods.archcfg, no game file changed) or default (default.archcfg in place)' },
    position: { type: 'string', value: 'WHERE', help: '"bottom" or "above NAME" (default: the manifest\'s position)' },
    yes: { type: 'boolean', help: "apply a change to the game's default.archcfg (without it: the diff only)" },
    'dry-run': { type: 'boolean', help: 'show the change, write nothing' },
    json,
    quiet,
  },
  uninstall: {
    list: { type: 'string', value: 'LIST', help: 'mods or default (default: whichever holds the mod)' },
    yes: { type: 'boolean', help: "apply a change to the game's default.archcfg (without it: the diff only)" },
    'dry-run': { type: 'boolean', help: 'show the change, write nothing' },
    json,
  },
  check: {
    ...MOUNT_OPTIONS,
    mod: { type: 'string', value: 'DIR', help: 'check this mod folder, overlaid at its position, instead of the installed mods' },
    json,
    jobs,
  },
};
