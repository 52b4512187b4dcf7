import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { QuietTimers } from '../analysis/quietTimers';

// node:test's mock timers move time by hand: the test asserts which work ran, never how long it took.
test('quiet timers: a storm of calls for one key runs only the newest work, once, after the quiet period', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const timers = new QuietTimers(100);
    const ran: string[] = [];
    for (let i = 0; i < 50; i++) {
      if (i > 0) mock.timers.tick(10);
      timers.after('a', () => ran.push(`a${i}`));
    }
    timers.after('b', () => ran.push('b'));
    assert.equal(timers.size, 2);
    assert.deepEqual(ran, [], 'nothing runs while calls keep coming within the quiet period');
    mock.timers.tick(99);
    assert.deepEqual(ran, []);
    mock.timers.tick(1);
    assert.deepEqual(ran, ['a49', 'b']);
    assert.equal(timers.size, 0);
    mock.timers.tick(1000);
    assert.deepEqual(ran, ['a49', 'b'], 'each work runs once');
  } finally {
    mock.timers.reset();
  }
});

test('quiet timers: cancel drops the pending work of a key and leaves the others', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const timers = new QuietTimers(5);
    const ran: string[] = [];
    timers.after('x', () => ran.push('x'));
    timers.after('y', () => ran.push('y'));
    timers.cancel('x');
    timers.cancel('never-set');
    assert.equal(timers.size, 1);
    mock.timers.tick(5);
    assert.deepEqual(ran, ['y']);
  } finally {
    mock.timers.reset();
  }
});
