// Exact round trip (issue 24): every real script and manifest of ../shared/samples/real/Patch_00.arch06
// and every script, string table and bundle manifest the sample install holds (each copy in each
// source, and the scripts bundle containers embed), read through the archive reader, then
// (1) parsed and written back unchanged, (2) turned into text and compiled back: the sha256 of the
// output equals the input's. One test per file.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { Mount } from '../../archive/mount';
import { parseEmbb } from '../../formats/bundle/embb';
import { parseBndl } from '../../formats/bundle/bndl';
import { rewriteBndl } from '../../formats/bundle/bndlWriter';
import { parseScript } from '../../formats/script/scri';
import { rewriteScript } from '../../formats/script/writer';
import { StringTableDocument } from '../../formats/strings/document';
import { fromText, toText } from '../textForms';
import { sharedPath } from '../../../test/support/shared';
import { tempDir, writeTree } from '../../../test/support/fixtures';
import { mountSample } from '../../../test/support/sampleMount';

const PATCH = sharedPath('samples/real/Patch_00.arch06');
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

interface Sample {
  name: string;
  bytes: Uint8Array;
}

/** Every file of the kinds edited, with the embedded scripts of every container. */
function collect(m: Mount): Sample[] {
  const out: Sample[] = [];
  for (const source of m.sources) {
    source.allPaths().forEach((p, i) => {
      const lower = p.toLowerCase();
      if (/\.(scripts|strdb|bndl)$/.test(lower)) out.push({ name: `${source.name}: ${p}`, bytes: source.entryAt(i).readSync() });
      if (lower.endsWith('.embb')) {
        const bytes = source.entryAt(i).readSync();
        for (const member of parseEmbb(bytes, p).members)
          if (/\.(scripts|strdb)$/i.test(member.path))
            out.push({ name: `${source.name}: ${p} [${member.path}]`, bytes: bytes.subarray(member.offset, member.offset + member.size) });
      }
    });
  }
  return out;
}

/** The file written back from what its reader made of it. */
function rewrite(s: Sample): Uint8Array {
  const lower = s.name.toLowerCase().replace(/\]$/, '');
  if (lower.endsWith('.scripts')) return rewriteScript(parseScript(s.bytes, s.name));
  if (lower.endsWith('.strdb')) return StringTableDocument.read(s.bytes, s.name).toBytes();
  const manifest = parseBndl(s.bytes, s.name);
  assert.equal(manifest.variant, 'manifest');
  return rewriteBndl(manifest as Extract<typeof manifest, { variant: 'manifest' }>);
}

function roundTrips(s: Sample): void {
  const input = sha(s.bytes);
  assert.equal(sha(rewrite(s)), input, `${s.name}: rewritten unchanged`);
  if (/\.bndl$/i.test(s.name)) return; // manifests have no text form (their edits are declared sizes)
  const text = toText(s.bytes, s.name);
  assert.equal(sha(fromText(text, s.name)), input, `${s.name}: from-text(to-text(x))`);
}

function mountReal(): Mount {
  const root = tempDir('arch06-exact-real-');
  writeTree(root, { 'x64/default.archcfg': '..\\Patch_00.arch06\r\n', 'Patch_00.arch06': fs.readFileSync(PATCH.path) });
  return Mount.open({ root });
}

// Collected when the file loads, so each file is its own test.
const real = PATCH.skip ? [] : ((m) => { try { return collect(m); } finally { m.close(); } })(mountReal()); // prettier-ignore
const sample = ((m) => { try { return collect(m); } finally { m.close(); } })(mountSample('arch06-exact-')); // prettier-ignore

test('exact round trip: Patch_00.arch06 has its 4 scripts and 4 manifests', { skip: PATCH.skip }, () => {
  // README: four layers, each an .embb (holding one .scripts) and a .bndl.
  assert.equal(real.filter((s) => /\.scripts\]$/.test(s.name)).length, 4);
  assert.equal(real.filter((s) => s.name.endsWith('.bndl')).length, 4);
});

for (const s of real) test(`exact round trip (real): ${s.name}`, () => roundTrips(s));

test('exact round trip: the sample install has scripts, string tables and manifests', () => {
  for (const ext of ['.scripts', '.strdb', '.bndl'])
    assert.ok(
      sample.some((s) => s.name.replace(/\]$/, '').endsWith(ext)),
      ext,
    );
});

for (const s of sample) test(`exact round trip (sample): ${s.name}`, () => roundTrips(s));
