/**
 * The script family's public face: SCRI scripts (`.scripts`; a bare payload is accepted too):
 * plain-text Havok Script source, or compiled Havok Script whose header only is read; the writer.
 * What a script defines is the parser's answer (core/havokScript `scriptDefinitions`).
 */
export { HKS_HEADER_SIZE, LUA_SIGNATURE, SCRI_HEADER_SIZE, SCRI_VERSION, parseScript } from './scri';
export type { BytecodeHeader, ScriptFile, ScriptHeader } from './scri';
export { rewriteScript, writeScri } from './writer';
export type { ScriWriterOptions } from './writer';
