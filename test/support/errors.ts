import * as assert from 'node:assert/strict';
import { Arch06Error } from '../../core/errors';

/**
 * Run `f`, which must throw an `Arch06Error` with `code`; returns it for further checks.
 * `message` is matched against the message, `field` against the field path.
 */
export function expectArch06Error(f: () => unknown, code: string, expect: { message?: RegExp; field?: string | RegExp } = {}): Arch06Error {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof Arch06Error, `expected an Arch06Error ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  if (expect.message) assert.match(caught.message, expect.message);
  if (typeof expect.field === 'string') assert.equal(caught.field, expect.field, caught.message);
  else if (expect.field) assert.match(caught.field ?? '', expect.field, caught.message);
  return caught;
}
