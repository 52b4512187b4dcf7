// Issue 24, saving into a mod: every write into a mod lets go of the folders the write primitive
// held (a save per keystroke-burst must not leak descriptors), and leaves the file whole with no
// temp file beside it.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createMod, writeManifest, writeModFile } from '../copy';
import { MOD_MANIFEST, parseManifest } from '../manifest';
import { tempDir } from '../../../test/support/fixtures';
import { cannotCountDescriptors, descriptorsUnder } from '../../../test/support/heldFiles';

const skip = cannotCountDescriptors;

test('writes into a mod hold no descriptor once they return (create, manifest, 40 saves)', { skip }, () => {
  const dir = fs.realpathSync(tempDir('arch06-modwrites-'));
  const mod = path.join(dir, 'Mod');
  const manifest = createMod(mod, 'Leak check');
  writeManifest(mod, { ...manifest, description: 'changed' });
  for (let i = 0; i < 40; i++) writeModFile(mod, 'database\\string\\enus\\string.strdb', [Buffer.from('head '), Buffer.from(`save ${i}`)], { overwrite: true });
  assert.equal(descriptorsUnder(dir), 0);
  assert.equal(fs.readFileSync(path.join(mod, 'database', 'string', 'enus', 'string.strdb'), 'latin1'), 'head save 39');
  assert.equal(parseManifest(fs.readFileSync(path.join(mod, MOD_MANIFEST), 'utf8')).description, 'changed');
});

test('a save into a mod is whole when the call returns, with no temp file beside it', { skip }, () => {
  const dir = fs.realpathSync(tempDir('arch06-modsave-'));
  const mod = path.join(dir, 'Mod');
  createMod(mod, 'Whole');
  const bytes = Buffer.alloc(3 << 20, 0x5a);
  const dest = writeModFile(mod, 'scripts\\big.bin', [bytes.subarray(0, 1000), bytes.subarray(1000)], { overwrite: true });
  assert.ok(Buffer.from(fs.readFileSync(dest)).equals(bytes));
  assert.deepEqual(fs.readdirSync(path.dirname(dest)), ['big.bin']);
  assert.equal(descriptorsUnder(dir), 0);
});
