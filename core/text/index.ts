/**
 * core/text, the public face: binary files as readable, stable, searchable text, so a text editor
 * can show them and two copies can be diffed line by line. Pure (no vscode, no file system): the
 * caller reads the bytes.
 *
 * - a bundle manifest (`.bndl`): type, members with declared sizes, the container length it
 *   predicts, and, given the bundle resolved in a mount, where each member is served from;
 * - a container (`.embb`): blocks and members with offsets and sizes;
 * - a string table (`.strdb`): one key per line, hash, name where known, text;
 * - an object registry (`.objres`): blocks, objects, bindings resolved to objects and the part's
 *   script, the SCRB records and index, groups, the GADB header, other blocks as hex;
 * - a skeleton (`.skel`): bones, parts, masks, sockets, sections;
 * - a script (`.scripts`, `.hks`): its source exactly (line numbers kept) and a header summary,
 *   or, for compiled Havok Script, its decoded header;
 * - the path index (`archivepatchloosefiles.txt`, binary despite its name): hash and path per row,
 *   and the rows that break a rule.
 *
 * The syntax (./syntax.ts, documented at its top) is line-oriented: `# comments`, `[section]`
 * headers with summary attributes, `key = value` fields, and records, one object per line
 * (`id key=value …`); hashes as 0x%08X with their names where known.
 */
export { renderText, textKindOf } from './render';
export type { RenderOptions, RenderedText, TextKind } from './render';
export { renderContainer } from './bundleText';
export { renderScript } from './scriptText';
export type { ScriptText } from './scriptText';
export { REGISTRY_TEXT_FORMAT, floatText, registryModelToText, registryToText } from './registrySource';
export { registryFromText, registryTextFormat, registryTextToModel } from './registrySourceRead';
export { TextLineError, lineTokens } from './lineTokens';
export type { LineTokens, Token } from './lineTokens';
