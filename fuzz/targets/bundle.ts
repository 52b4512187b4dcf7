/**
 * Bundles: BNDL manifests (the v6 manifest and the data-carrying shape) and EMBB containers, each
 * parsed with spans, rendered as decoded text, and, for containers, read with a small window too
 * (the size-word walk over an archive entry) with every member's bytes located. Seeds: the
 * writers (plain, shared paths, empty), a hand-laid data-carrying BNDL, and the four retail
 * manifests and containers of Patch_00.
 */
import { parseBndl, parseEmbb, readEmbb, writeBndl, writeEmbb } from '../../core/formats/bundle';
import { checkMirror } from '../../core/formats/bundle/mirror';
import { MemoryByteSource } from '../../core/io';
import { ByteWriter } from '../../core/io/byteWriter';
import { renderText } from '../../core/text';
import type { Seed } from '../mutate';
import { realFilesEnding } from '../samples';
import { type FuzzTarget, withFields } from '../target';

/** 3,000 members with paths of their own, for lies that make them share. */
const MANY = Array.from({ length: 3000 }, (_, i) => ({ path: `worlds\\scaled\\part_${i % 50}\\member_${i}.bin`, bytes: new Uint8Array(i % 7) }));

const MEMBERS = [
  { path: 'worlds\\sample\\a.objres', bytes: new Uint8Array(40).fill(1) },
  { path: 'worlds\\sample\\a.scripts', bytes: new Uint8Array(3).fill(2) },
  { path: 'worlds\\sample\\sub\\b.inst', bytes: new Uint8Array(0) },
  { path: 'x', bytes: new Uint8Array(9).fill(3) },
];

/** Shadow of Mordor's data-carrying BNDL (read-only in arch06, no writer): names, extra name refs, inline payloads. */
function dataCarryingBndl(): Uint8Array {
  const names = Buffer.from('a.txt\0dir\\b.bin\0', 'latin1');
  const pool = new Uint8Array(Math.ceil(names.length / 4) * 4);
  pool.set(names);
  const w = new ByteWriter().latin1('BNDL').u32(4).u32(pool.length).u32(pool.length).u32(0).u32(2).u32(2).bytes(pool);
  w.u32(0).u32(6);
  w.u32(0)
    .u32(3)
    .bytes(Uint8Array.of(1, 2, 3));
  w.u32(6)
    .u32(5)
    .bytes(Uint8Array.of(4, 5, 6, 7, 8));
  return w.toBytes();
}

const bndlSeed = (name: string, bytes: Uint8Array): Seed => withFields(name, bytes, (b, spans) => parseBndl(b, name, { spans }));
const embbSeed = (name: string, bytes: Uint8Array): Seed => withFields(name, bytes, (b, spans) => parseEmbb(b, name, { spans }));

export const bndl: FuzzTarget = {
  name: 'bndl',
  covers: 'BNDL manifests (v6, and the data-carrying shape): members, the 0x0C rule, the mirror check, the decoded text',
  seeds: () => [
    bndlSeed(
      'writer: Presentation',
      writeBndl(
        'Presentation',
        MEMBERS.map((m) => ({ path: m.path, size: m.bytes.length })),
      ),
    ),
    bndlSeed(
      'writer: shared paths',
      writeBndl(
        'World',
        [...MEMBERS, ...MEMBERS].map((m) => ({ path: m.path, size: 7 })),
        { sharePaths: true },
      ),
    ),
    bndlSeed('writer: empty', writeBndl('', [])),
    bndlSeed(
      'writer: 3,000 members',
      writeBndl(
        'World',
        MANY.map((m) => ({ path: m.path, size: m.bytes.length })),
      ),
    ),
    bndlSeed('data-carrying BNDL v4', dataCarryingBndl()),
    ...realFilesEnding('.bndl').map((f) => bndlSeed(`${f.name} (retail)`, f.bytes)),
  ],
  run: (c) => {
    const b = parseBndl(c.bytes, 'fuzz.bndl');
    const text = renderText('manifest', c.bytes, 'fuzz.bndl');
    const container = MIRROR.get(c.seed.name);
    const mirror = b.variant === 'manifest' && container ? checkMirror(b, container) : undefined;
    return { b, text, mirror };
  },
};

/** The container each manifest seed mirrors (the writers' pairs), for the mirror check. */
const MIRROR = new Map([['writer: Presentation', parseEmbb(writeEmbb(MEMBERS), 'mirror.embb')]]);

export const embb: FuzzTarget = {
  name: 'embb',
  covers: 'EMBB containers: header, path pool and table, the size-word chain (whole and by small windows), further blocks, the decoded text',
  seeds: () => [
    embbSeed('writer: four members', writeEmbb(MEMBERS)),
    embbSeed('writer: shared paths', writeEmbb([...MEMBERS, ...MEMBERS], { sharePaths: true })),
    embbSeed('writer: empty', writeEmbb([])),
    embbSeed('writer: 3,000 members', writeEmbb(MANY)),
    embbSeed('writer: two blocks', Buffer.concat([writeEmbb(MEMBERS.slice(0, 2)), writeEmbb(MEMBERS.slice(2))])),
    ...realFilesEnding('.embb').map((f) => embbSeed(`${f.name} (retail)`, f.bytes)),
  ],
  run: (c) => {
    const whole = parseEmbb(c.bytes, 'fuzz.embb');
    const windowed = readEmbb(new MemoryByteSource('fuzz.embb', c.bytes), { window: 16 + c.rnd.int(64) });
    let located = 0;
    for (const m of whole.members) located += c.bytes.subarray(m.offset, m.offset + m.size).length;
    const text = renderText('container', c.bytes, 'fuzz.embb');
    return { whole, windowed, located, text };
  },
};
