/**
 * Issue 21 item 2's amplification inputs, crafted by the project's writers: small files whose
 * records share data (a run of bindings, a name, a group, a text, a path) so that a reader or
 * model that copies per reference instead of per record blows up. Each input is under 2 MB; the
 * tests hold every reader and model above it to 20x its size plus a constant.
 *
 * Also `retainedBytes`: what a value built by a function keeps on the heap and in array buffers,
 * measured after forced garbage collections (a model size, not a time).
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { writeBndl, writeEmbb } from '../../core/formats/bundle';
import { blockNameHash, ownScriptPath, writeObjl, writeObjr, writeOnls, writeRegistry } from '../../core/formats/registry';
import { writeSkdb } from '../../core/formats/strings';
import { stringHash } from '../../core/hash';

/** The constant of the figure "memory <= 20x the file's size + a constant". */
export const MODEL_CONSTANT_BYTES = 32 << 20;
export const MODEL_BYTES_PER_INPUT_BYTE = 20;

export interface CraftedFile {
  /** What the test names it by. */
  name: string;
  /** Its game path in a crafted install. */
  path: string;
  bytes: Uint8Array;
}

/** 3,000 SCRB objects sharing one run of 3,000 binding records: 9,000,000 object-binding rows. */
export function sharedRunRegistry(objects = 3000, bindings = 3000): CraftedFile {
  const run = Array.from({ length: bindings }, (_, i) => ({ event: 'Script1', function: `f${i}` }));
  const names = Array.from({ length: objects }, (_, i) => `o${i}.SR`);
  const path = 'worlds\\crafted\\sharedrun.objres';
  return {
    name: `${objects} objects sharing one run of ${bindings} bindings`,
    path,
    bytes: writeRegistry({
      scriptPath: ownScriptPath(path),
      objects: names.map((name) => ({ className: 'ScriptRelay', name })),
      bindings: names.map((name) => ({ name, bindings: run })),
    }),
  };
}

/** One object bound by 20,000 records that all name the same two 300 KB strings (event and function). */
export function sharedNamesRegistry(records = 20_000, chars = 300_000): CraftedFile {
  const event = 'E'.repeat(chars);
  const fn = 'F'.repeat(chars);
  const path = 'worlds\\crafted\\sharednames.objres';
  return {
    name: `${records} bindings sharing two ${chars}-character names`,
    path,
    bytes: writeRegistry({
      scriptPath: ownScriptPath(path),
      objects: [{ className: 'ScriptRelay', name: 'o.SR' }],
      bindings: [{ name: 'o.SR', bindings: Array.from({ length: records }, () => ({ event, function: fn })) }],
    }),
  };
}

/** An ONLS index of 30,000 owners all pointing at one group of 100,000 members. */
export function sharedGroupRegistry(owners = 30_000, members = 100_000): CraftedFile {
  const names = Array.from({ length: members }, (_, i) => `m${i}`);
  const onls = writeOnls([{ owner: 'g0', members: names, sharedBy: Array.from({ length: owners - 1 }, (_, i) => `g${i + 1}`) }]);
  return {
    name: `${owners} ONLS owners sharing one group of ${members} members`,
    path: 'worlds\\crafted\\sharedgroup.objres',
    bytes: writeObjr([{ nameHash: blockNameHash('ONLS')!, payload: onls }]),
  };
}

/** An OBJL of 20,000 records sharing one 500 KB name. */
export function sharedNameObjl(records = 20_000, chars = 500_000): CraftedFile {
  const name = 'N'.repeat(chars);
  const objl = writeObjl([{ objects: Array.from({ length: records }, () => ({ className: 'ScriptRelay', name })) }]);
  return {
    name: `an OBJL of ${records} records sharing one ${chars}-character name`,
    path: 'worlds\\crafted\\sharedname.objres',
    bytes: writeObjr([{ nameHash: blockNameHash('OBJL')!, payload: objl }]),
  };
}

/** An SKDB of 60,000 keys sharing one 250,000-unit string. */
export function sharedTextTable(keys = 60_000, units = 250_000): CraftedFile {
  const text = 'T'.repeat(units);
  return {
    name: `an SKDB of ${keys} keys sharing one ${units}-unit string`,
    path: 'database\\string\\enus\\crafted.strdb',
    bytes: writeSkdb(Array.from({ length: keys }, (_, i) => ({ hash: stringHash(`key_${i}`), text }))),
  };
}

/** A bundle (manifest and container) of 50,000 members sharing one path of `chars` characters. */
export function sharedPathBundle(members = 50_000, chars = 200_000): { manifest: CraftedFile; container: CraftedFile } {
  const path = `worlds\\crafted\\${'p'.repeat(chars - 20)}.objres`;
  const list = Array.from({ length: members }, () => ({ path, size: 1, bytes: new Uint8Array(1) }));
  const stem = `worlds\\crafted\\sharedpath${chars}`;
  return {
    manifest: {
      name: `a manifest of ${members} members sharing one ${chars}-character path`,
      path: `${stem}.bndl`,
      bytes: writeBndl('World', list, { sharePaths: true }),
    },
    container: {
      name: `a container of ${members} members sharing one ${chars}-character path`,
      path: `${stem}.embb`,
      bytes: writeEmbb(list, { sharePaths: true }),
    },
  };
}

/** Every crafted registry. */
export function craftedRegistries(): CraftedFile[] {
  return [sharedRunRegistry(), sharedNamesRegistry(), sharedGroupRegistry(), sharedNameObjl()];
}

let gc: (() => void) | undefined;

/** A full garbage collection (V8's `gc`, exposed on first use). */
function collect(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
  gc();
}

const used = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** What `build`'s result keeps alive (heap and array buffers), measured around it after full collections. */
export function retainedBytes<T>(build: () => T): { value: T; bytes: number } {
  collect();
  const before = used();
  const value = build();
  collect();
  return { value, bytes: used() - before };
}

/** The figure: 20x the file's size + the constant. */
export function modelBound(fileBytes: number): number {
  return MODEL_BYTES_PER_INPUT_BYTE * fileBytes + MODEL_CONSTANT_BYTES;
}
