/**
 * core/havokScript, the public face: Havok Script (the game's Lua 5.1 dialect) parsed into a
 * syntax tree with exact UTF-16 ranges and diagnostics, never throwing (parser.ts); its tokens
 * (lexer.ts) and tree (syntax.ts); what a script defines (outline.ts) and its names resolved by
 * Lua's scoping rules (scopes.ts); an iterative walk over the tree (walk.ts).
 */
export { parseHavokScript } from './parser';
export { KEYWORDS, MAX_DIAGNOSTICS } from './lexer';
export { flattenOutline, outline } from './outline';
export { lineNumbers } from './lines';
export type { ScriptSymbol, ScriptSymbolKind } from './outline';
export { resolveNames, useAt } from './scopes';
export { forEachNode } from './walk';
export type { WalkedNode } from './walk';
export type { MemberUse, NameUse, ScriptNames } from './scopes';
export type * from './syntax';
export { memberTarget, objectAt, objectMember, objectMembers } from './objects';
export { bindableMap, bindableNames, definitionsOf, scriptDefinitions } from './definitions';
export type { ScriptDefinition } from './definitions';
