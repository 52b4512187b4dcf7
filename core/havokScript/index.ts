/**
 * core/havokScript, the public face: Havok Script (the game's Lua 5.1 dialect) parsed into a
 * syntax tree with exact UTF-16 ranges and diagnostics, never throwing (parser.ts); its tokens
 * (lexer.ts) and tree (syntax.ts).
 */
export { MAX_NESTING, parseHavokScript } from './parser';
export { KEYWORDS, tokenize } from './lexer';
export type { LexResult, Token, TokenType } from './lexer';
export type * from './syntax';
