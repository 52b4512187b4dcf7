import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInsideReal } from '../../../core/io/node';
import { tempDir } from '../../../test/support/fixtures';
import { defaultExtractFolder, refuseExtractFolder } from '../extractTargetModel';

/** A disk layout: an install with its archives, a home beside it, a temporary folder. */
function layout() {
  const top = tempDir('arch06-extract-target-');
  const install = path.join(top, 'Shadow of War');
  const home = path.join(top, 'home');
  const tmp = path.join(top, 'tmp');
  for (const d of [path.join(install, 'x64'), home, tmp]) fs.mkdirSync(d, { recursive: true });
  const forbidden = (p: string): boolean => isInsideReal(p, install);
  const isFolder = (p: string): boolean => fs.existsSync(p) && fs.statSync(p).isDirectory();
  return { top, install, home, tmp, facts: { home, installRoot: install, tmp, forbidden, isFolder } };
}

test('the picker never opens inside the install: the last folder while valid, else home, else beside the install', () => {
  const l = layout();
  // Nothing remembered: the home folder.
  assert.equal(defaultExtractFolder({ ...l.facts, last: undefined }), l.home);
  // The last folder extracted to, while it exists outside the install.
  const out = path.join(l.top, 'mods', 'extracted');
  fs.mkdirSync(out, { recursive: true });
  assert.equal(defaultExtractFolder({ ...l.facts, last: out }), out);
  // A remembered folder inside the install (stored before, or by hand), or through a link to it, is skipped.
  assert.equal(defaultExtractFolder({ ...l.facts, last: path.join(l.install, 'x64') }), l.home);
  const link = path.join(l.top, 'link-to-install');
  fs.symlinkSync(l.install, link, 'dir');
  assert.equal(defaultExtractFolder({ ...l.facts, last: link }), l.home);
  // A remembered folder that is gone, relative, or not a string is skipped too.
  assert.equal(defaultExtractFolder({ ...l.facts, last: path.join(l.top, 'gone') }), l.home);
  assert.equal(defaultExtractFolder({ ...l.facts, last: 'relative/folder' }), l.home);
  assert.equal(defaultExtractFolder({ ...l.facts, last: 42 }), l.home);
  // A home inside the install (or absent): the folder holding the install.
  assert.equal(defaultExtractFolder({ ...l.facts, last: undefined, home: path.join(l.install, 'x64') }), l.top);
  // The install at the top of everything: the temporary folder.
  assert.equal(defaultExtractFolder({ ...l.facts, last: undefined, home: path.join(l.install, 'x64'), forbidden: (p) => p !== l.tmp }), l.tmp);
  // A check that throws counts as "not this one".
  const throwing = (p: string): boolean => {
    if (p === out) throw new Error('EACCES');
    return l.facts.isFolder(p);
  };
  assert.equal(defaultExtractFolder({ ...l.facts, last: out, isFolder: throwing }), l.home);
});

test('a folder chosen inside the install is refused with the reason', () => {
  const l = layout();
  assert.match(refuseExtractFolder(path.join(l.install, 'x64'), l.install, l.facts.forbidden)!, /does not write into the game folder/);
  assert.equal(refuseExtractFolder(l.home, l.install, l.facts.forbidden), undefined);
});
