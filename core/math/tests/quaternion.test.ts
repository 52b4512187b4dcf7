// The quaternion product against Hamilton's rules (i² = j² = k² = ijk = −1, ij = k, ji = −k) and
// a composition checked by hand: a quarter turn about Y after a quarter turn about X.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { type Quaternion, multiplyQuaternions } from '../quaternion';

const I: Quaternion = [1, 0, 0, 0];
const J: Quaternion = [0, 1, 0, 0];
const K: Quaternion = [0, 0, 1, 0];
const ONE: Quaternion = [0, 0, 0, 1];
const neg = (q: Quaternion): Quaternion => q.map((c) => (c === 0 ? 0 : -c)) as Quaternion;
const clean = (q: Quaternion): Quaternion => q.map((c) => (Math.abs(c) < 1e-12 ? 0 : c)) as Quaternion;

test("Hamilton's rules: i² = j² = k² = −1, ij = k, jk = i, ki = j, and the reversed products negated", () => {
  for (const q of [I, J, K]) assert.deepEqual(clean(multiplyQuaternions(q, q)), neg(ONE));
  assert.deepEqual(clean(multiplyQuaternions(I, J)), K);
  assert.deepEqual(clean(multiplyQuaternions(J, K)), I);
  assert.deepEqual(clean(multiplyQuaternions(K, I)), J);
  assert.deepEqual(clean(multiplyQuaternions(J, I)), neg(K));
  assert.deepEqual(clean(multiplyQuaternions(ONE, [0.1, 0.2, 0.3, 0.4])), [0.1, 0.2, 0.3, 0.4]);
});

test('a quarter turn about Y after one about X: (1 + j)(1 + i)/2 = (1 + i + j − k)/2', () => {
  const h = Math.SQRT1_2;
  const q = multiplyQuaternions([0, h, 0, h], [h, 0, 0, h]);
  q.forEach((c, n) => assert.ok(Math.abs(c - [0.5, 0.5, -0.5, 0.5][n]) < 1e-12, `component ${n}: ${c}`));
});
