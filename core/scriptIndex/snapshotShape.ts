/**
 * The shape of the cache snapshots (./scriptIndex.ts `IndexSnapshot`, ./crossScript.ts
 * `CrossSnapshot`), checked before a snapshot is read back. A snapshot is a file like any other
 * (issue 21: "values validated like any game file's"): a value of the wrong kind anywhere is one
 * typed INVALID error naming where, never a TypeError later in a request. Linear in the
 * snapshot's size, with no recursion deeper than the layout's own nesting.
 */
import { Arch06Error } from '../errors';

type Check = (v: unknown, at: string) => void;

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

function fail(what: string, at: string, expected: string, v: unknown): never {
  throw new Arch06Error('INVALID', `a ${what} snapshot with ${at} not ${expected}`, { field: at, expected, actual: kindOf(v) });
}

/** The checks of one snapshot kind (`what` names it in errors). */
function checks(what: string) {
  const str: Check = (v, at) => {
    if (typeof v !== 'string') fail(what, at, 'a string', v);
  };
  const bool: Check = (v, at) => {
    if (typeof v !== 'boolean') fail(what, at, 'a boolean', v);
  };
  const num: Check = (v, at) => {
    if (!(typeof v === 'number' && Number.isFinite(v))) fail(what, at, 'a number', v);
  };
  /** An index or an offset: an integer from -1 (the layout's "none") up. */
  const int: Check = (v, at) => {
    if (!(Number.isSafeInteger(v) && (v as number) >= -1)) fail(what, at, 'an integer >= -1', v);
  };
  const oneOf =
    (...values: string[]): Check =>
    (v, at) => {
      if (!values.includes(v as string)) fail(what, at, values.join(' or '), v);
    };
  const optional =
    (c: Check): Check =>
    (v, at) => {
      if (v !== undefined) c(v, at);
    };
  const arrayOf =
    (c: Check): Check =>
    (v, at) => {
      if (!Array.isArray(v)) fail(what, at, 'an array', v);
      for (let i = 0; i < v.length; i++) c(v[i], `${at}[${i}]`);
    };
  const tuple =
    (...cs: Check[]): Check =>
    (v, at) => {
      if (!Array.isArray(v) || v.length !== cs.length) fail(what, at, `an array of ${cs.length}`, v);
      cs.forEach((c, i) => c(v[i], `${at}[${i}]`));
    };
  const object =
    (fields: Record<string, Check>): Check =>
    (v, at) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) fail(what, at, 'an object', v);
      for (const [k, c] of Object.entries(fields)) c((v as Record<string, unknown>)[k], `${at}.${k}`);
    };
  return { str, bool, num, int, oneOf, optional, arrayOf, tuple, object };
}

const index = (() => {
  const { str, bool, num, int, oneOf, optional, arrayOf, tuple, object } = checks('script index');
  const copy = { path: str, from: oneOf('loose', 'container'), source: str, bundle: optional(str) };
  const pathReason = object({ path: str, reason: str });
  return object({
    version: num,
    scripts: arrayOf(
      object({
        ...copy,
        kind: oneOf('source', 'bytecode'),
        definitions: arrayOf(
          object({ name: str, line: int, kind: oneOf('function', 'hmake', 'method'), type: optional(str), object: optional(str), bindable: bool }),
        ),
      }),
    ),
    registryCopies: arrayOf(object(copy)),
    names: arrayOf(str),
    bindings: arrayOf(object({ registry: int, script: str, objects: arrayOf(tuple(int, num, int, int, int)), records: arrayOf(tuple(int, int, num)) })),
    problems: arrayOf(
      object({ kind: oneOf('missing-function', 'foreign-script', 'no-script'), script: str, function: optional(str), registry: object(copy), message: str }),
    ),
    failures: arrayOf(pathReason),
    skipped: arrayOf(pathReason),
    objectNames: str,
    bindingNames: str,
    registries: num,
  });
})();

const cross = (() => {
  const { str, bool, num, int, oneOf, arrayOf, tuple, object } = checks('cross-script');
  const flat = arrayOf(int);
  return object({
    version: num,
    paths: arrayOf(str),
    sites: arrayOf(tuple(str, flat)),
    usage: arrayOf(tuple(str, num, num, bool, flat, arrayOf(tuple(str, oneOf('.', ':'), num, num, flat)))),
  });
})();

/** Throws a typed INVALID error unless `snap` has the index snapshot's shape. */
export const checkIndexSnapshot = (snap: unknown): void => index(snap, 'snapshot');

/** Throws a typed INVALID error unless `snap` has the cross-script snapshot's shape. */
export const checkCrossSnapshot = (snap: unknown): void => cross(snap, 'snapshot');
