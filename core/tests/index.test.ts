// core/index.ts, the engine's API boundary, loads in plain node and exposes the entry points the
// front ends use (ARCHITECTURE.md "API boundary").
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as core from '../index';

test('core/index.ts loads and exports the engine\'s entry points', () => {
  for (const name of ['Mount', 'LtarArchive', 'LtarWriter', 'Arch06Error', 'verifyMount', 'parseEmbb', 'parseBndl', 'resolveBundle', 'parsePathIndex', 'stringHash', 'parseTexr', 'parseMmsh', 'parseSkel', 'parsePrfb', 'parseLtfxHeader', 'writeGlb', 'FuzzyIndex', 'searchText', 'decodeOodle'] as const) {
    assert.equal(typeof (core as Record<string, unknown>)[name], 'function', name);
  }
});
