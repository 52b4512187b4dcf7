// The synthetic install must match the seed's measured figures exactly, or the benchmark measures the wrong thing.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { COMMON_SCRIPT_WORD, SEED_FIGURES, content, planInstall, planCfg, scriptSource } from '../synthInstall';
import { parseArchcfg } from '../../core/archive';

test('the synthetic install plan has the seed figures', () => {
  const archives = planInstall();
  const entries = archives.reduce((n, a) => n + a.files.length, 0);
  const copies = new Map<string, number>();
  for (const a of archives) for (const p of a.files) copies.set(p.toLowerCase(), (copies.get(p.toLowerCase()) ?? 0) + 1);
  const folders = (a: (typeof archives)[number]): number => {
    const s = new Set<string>();
    for (const p of [...a.files.map((f) => f.slice(0, Math.max(0, f.lastIndexOf('\\')))), ...a.extraFolders]) {
      const parts = p.split('\\').filter(Boolean);
      for (let i = 1; i <= parts.length; i++) s.add(parts.slice(0, i).join('\\').toLowerCase());
    }
    return s.size + 1;
  };
  assert.equal(archives.length, SEED_FIGURES.archives);
  assert.equal(archives.filter((a) => a.files.length === 0).length, SEED_FIGURES.emptyArchives);
  assert.equal(archives.filter((a) => a.kind === 'indexed').length, SEED_FIGURES.indexedArchives);
  assert.equal(entries, SEED_FIGURES.entries);
  assert.equal(copies.size, SEED_FIGURES.distinctPaths);
  assert.equal([...copies.values()].filter((c) => c > 1).length, SEED_FIGURES.shadowedPaths);
  assert.equal(
    [...copies.values()].reduce((m, c) => Math.max(m, c), 0),
    SEED_FIGURES.maxCopies,
  );
  assert.equal(
    archives.reduce((n, a) => n + folders(a), 0),
    SEED_FIGURES.folderRecords,
  );
  for (const a of archives) assert.equal(new Set(a.files.map((p) => p.toLowerCase())).size, a.files.length, `${a.name} has a duplicate path`);
  const cfg = parseArchcfg(planCfg(archives));
  assert.equal(cfg.length, 1 + 74 + 5);
});

test('the synthetic scripts are SCRI files of source, and about 9,000 of them hold the common word', () => {
  const scripts = new Map<string, string>();
  for (const a of planInstall()) for (const p of a.files) if (/\.scripts$/i.test(p)) scripts.set(p.toLowerCase(), p);
  let hits = 0;
  for (const p of scripts.values()) {
    const bytes = content(p);
    // The header by hand (formats-public §10): "SCRI", version 1, the u8 1, the payload size; the source ends in one NUL.
    assert.equal(Buffer.from(bytes.subarray(0, 4)).toString('latin1'), 'SCRI');
    assert.equal(Buffer.from(bytes).readUInt32LE(9), bytes.length - 13);
    assert.equal(bytes[bytes.length - 1], 0);
    const source = Buffer.from(bytes.subarray(13, bytes.length - 1)).toString('utf8');
    assert.equal(source, scriptSource(p));
    hits += source.toLowerCase().split(COMMON_SCRIPT_WORD).length - 1;
  }
  assert.ok(scripts.size > 25_000, `${scripts.size} scripts`);
  assert.ok(hits > 8_000 && hits < 10_000, `${hits} hits of "${COMMON_SCRIPT_WORD}"`);
});
