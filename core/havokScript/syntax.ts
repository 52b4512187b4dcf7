/**
 * The syntax tree of Havok Script: Lua 5.1 plus what the game's scripts add (seed 001, the four
 * retail layer scripts): `hstructure Name field : type … end` declarations, `hmake Type { … }`
 * constructors, `: type` annotations on locals, parameters, loop variables and function results,
 * and `0x…hi` / `0x…hl` hash literals.
 *
 * Every node carries `start`/`end`, offsets into the source string (UTF-16 code units, which is
 * what LSP positions count), `end` exclusive. No LSP or vscode types here: the server converts.
 */

export interface Span {
  start: number;
  end: number;
}

export interface Diagnostic extends Span {
  message: string;
  severity: 'error' | 'warning';
}

/** A name as written, with its place (a local, a field, a type). */
export interface Name extends Span {
  kind: 'Name';
  name: string;
}

/** `: type` after a name or a parameter list. */
export interface TypeAnnotation extends Span {
  /** The type's name as written (dotted names kept whole, e.g. `a.b`). */
  name: string;
}

export interface TypedName extends Name {
  type?: TypeAnnotation;
}

// Expressions

export interface NilLiteral extends Span {
  kind: 'Nil';
}
export interface BooleanLiteral extends Span {
  kind: 'Boolean';
  value: boolean;
}
export interface NumberLiteral extends Span {
  kind: 'Number';
  /** The literal as written. */
  raw: string;
  /** Its value (a hash literal: the value of its hex digits; a 64-bit `hl` one is exact only below 2^53). */
  value: number;
  /** `hi` (32-bit) / `hl` (64-bit): a Havok hash literal (`0x…hi`). */
  suffix?: 'hi' | 'hl';
}
export interface StringLiteral extends Span {
  kind: 'String';
  /** The string's value, escapes decoded. */
  value: string;
}
export interface Vararg extends Span {
  kind: 'Vararg';
}
export interface FunctionExpression extends Span {
  kind: 'Function';
  params: TypedName[];
  /** Whether the parameter list ends with `...`. */
  vararg: boolean;
  returnType?: TypeAnnotation;
  body: Statement[];
}
export interface TableField extends Span {
  /** `name = v`, `[k] = v`, or `v` (positional). */
  kind: 'named' | 'keyed' | 'positional';
  /** `named`: the field's name. */
  name?: Name;
  /** `keyed`: the key expression. */
  key?: Expression;
  value: Expression;
}
export interface TableConstructor extends Span {
  kind: 'Table';
  fields: TableField[];
}
export interface HMakeExpression extends Span {
  kind: 'HMake';
  /** The structure type made (e.g. `_ambsentry_SO_Script_9dfba427_meta`). */
  type: Name;
  table: TableConstructor;
}
export interface BinaryExpression extends Span {
  kind: 'Binary';
  operator: string;
  left: Expression;
  right: Expression;
}
export interface UnaryExpression extends Span {
  kind: 'Unary';
  operator: 'not' | '-' | '#';
  argument: Expression;
}
export interface MemberExpression extends Span {
  kind: 'Member';
  object: Expression;
  /** `.` field access or `:` method reference (only as a call's callee). */
  indexer: '.' | ':';
  member: Name;
}
export interface IndexExpression extends Span {
  kind: 'Index';
  object: Expression;
  index: Expression;
}
export interface CallExpression extends Span {
  kind: 'Call';
  /** A `Member` with indexer `:` for a method call. */
  callee: Expression;
  args: Expression[];
}
export interface ParenExpression extends Span {
  kind: 'Paren';
  expression: Expression;
}
/** What could not be parsed as an expression (a diagnostic says why). */
export interface ErrorExpression extends Span {
  kind: 'ErrorExpression';
}

export type Expression =
  | NilLiteral
  | BooleanLiteral
  | NumberLiteral
  | StringLiteral
  | Vararg
  | FunctionExpression
  | TableConstructor
  | HMakeExpression
  | BinaryExpression
  | UnaryExpression
  | Name
  | MemberExpression
  | IndexExpression
  | CallExpression
  | ParenExpression
  | ErrorExpression;

// Statements

export interface LocalStatement extends Span {
  kind: 'Local';
  names: TypedName[];
  values: Expression[];
}
export interface LocalFunctionStatement extends Span {
  kind: 'LocalFunction';
  name: Name;
  func: FunctionExpression;
}
export interface FunctionStatement extends Span {
  kind: 'FunctionDeclaration';
  /** `a.b.c` or `a.b:c`: the path (first name, then fields). */
  path: Name[];
  /** Whether the last name follows `:` (an implicit `self` parameter). */
  method: boolean;
  func: FunctionExpression;
}
export interface AssignmentStatement extends Span {
  kind: 'Assignment';
  targets: Expression[];
  values: Expression[];
}
export interface CallStatement extends Span {
  kind: 'CallStatement';
  call: CallExpression;
}
export interface DoStatement extends Span {
  kind: 'Do';
  body: Statement[];
}
export interface WhileStatement extends Span {
  kind: 'While';
  condition: Expression;
  body: Statement[];
}
export interface RepeatStatement extends Span {
  kind: 'Repeat';
  body: Statement[];
  condition: Expression;
}
export interface IfClause extends Span {
  /** Absent for `else`. */
  condition?: Expression;
  body: Statement[];
}
export interface IfStatement extends Span {
  kind: 'If';
  clauses: IfClause[];
}
export interface NumericForStatement extends Span {
  kind: 'NumericFor';
  variable: TypedName;
  from: Expression;
  limit: Expression;
  step?: Expression;
  body: Statement[];
}
export interface GenericForStatement extends Span {
  kind: 'GenericFor';
  variables: TypedName[];
  iterators: Expression[];
  body: Statement[];
}
export interface ReturnStatement extends Span {
  kind: 'Return';
  values: Expression[];
}
export interface BreakStatement extends Span {
  kind: 'Break';
}
/** `hstructure Name` then `field : type` lines, then `end`. */
export interface HStructureStatement extends Span {
  kind: 'HStructure';
  name: Name;
  fields: { name: Name; type: TypeAnnotation }[];
}

export type Statement =
  | LocalStatement
  | LocalFunctionStatement
  | FunctionStatement
  | AssignmentStatement
  | CallStatement
  | DoStatement
  | WhileStatement
  | RepeatStatement
  | IfStatement
  | NumericForStatement
  | GenericForStatement
  | ReturnStatement
  | BreakStatement
  | HStructureStatement;

export interface Comment extends Span {
  /** The text after `--` (a long comment: between its brackets). */
  text: string;
  long: boolean;
}

/** A parsed file: its statements, comments and the problems found (the parser never throws). */
export interface Chunk extends Span {
  kind: 'Chunk';
  body: Statement[];
  comments: Comment[];
  /** The first problems found (core/havokScript's `MAX_DIAGNOSTICS`), in source order. */
  diagnostics: Diagnostic[];
  /** How many problems there are in all (more than `diagnostics` holds on a hostile file). */
  diagnosticCount: number;
}
