/**
 * SCRB, a registry's script bindings (seed 001 "Group members (ONLS) and script bindings (SCRB)"):
 *
 *   'SCRB' | u32 1 | u32 string bytes | u32 bindings | u32 objects
 *   the strings (NUL-terminated, offsets relative to the start of the string area)
 *   bindings x {u32 hash(event), u32 event name offset, u32 hash(script resource path), u32 function name offset}
 *   objects  x {u32 hash(object name), u32 first binding (an index), u32 count}, sorted by hash
 *
 * Checked on the four real registries (./layout.ts): the three parts end exactly at the block's
 * end, the index is sorted, several objects may point at the same run of bindings (island: 37
 * objects, 40 object-binding rows over 25 binding records). The structure is checked here (typed
 * errors); whether each binding and run resolves (names on string starts, event hashes, runs
 * inside the bindings) is reported in `problems`, not thrown, so a registry that breaks it says so.
 * Resolving objects and scripts needs the OBJL and the part's script: ./resolve.ts.
 */
import { MessageList, quoteShort } from '../../io/bounded';
import { Confidence } from '../../io/confidence';
import { FieldReader, hex32 } from '../../io/fieldReader';
import { expectMagicVersion } from '../../io/magic';
import { defaultHasher } from '../../hash/stringHash';
import { SCRB_BINDING_SIZE, SCRB_HEADER_SIZE, SCRB_OBJECT_SIZE, SCRB_VERSION } from './layout';
import { NulStrings, readNulStrings } from './strings';

export interface ScrbBinding {
  index: number;
  /** File offset of the record. */
  offset: number;
  eventHash: number;
  eventNameOffset: number;
  /** The event name, or null when its offset is not a string start. */
  event: string | null;
  scriptHash: number;
  functionNameOffset: number;
  function: string | null;
}

export interface ScrbObject {
  index: number;
  offset: number;
  /** StringHash of the object's name. */
  hash: number;
  firstBinding: number;
  count: number;
}

export interface ScriptBindings {
  offset: number;
  size: number;
  version: number;
  strings: NulStrings;
  bindings: ScrbBinding[];
  objects: ScrbObject[];
  /** Whether the object index is sorted by hash (the engine binary-searches it). */
  sortedByHash: boolean;
  /** Object-binding rows: the sum of the objects' counts. */
  rowCount: number;
  /** Every rule the block breaks (empty on the real registries); the first `MAX_MESSAGES`, then a line counting the rest. */
  problems: string[];
  confidence: Confidence;
}

/** Read the SCRB block spanning [r.pos, r.end). Throws typed errors for a bad header or sizes that do not close. */
export function readScrb(r: FieldReader, field = 'scrb'): ScriptBindings {
  const offset = r.pos;
  const version = expectMagicVersion(r, 'SCRB', [SCRB_VERSION], 'SCRB', {
    what: 'an SCRB binding table',
    magicField: `${field}.tag`,
    versionField: `${field}.version`,
    headerSize: SCRB_HEADER_SIZE,
    headerField: `${field}.header`,
  });
  const stringBytes = r.u32(`${field}.stringBytes`);
  const bindingsAt = r.pos;
  const bindingCount = r.u32(`${field}.bindings`);
  const objectsAt = r.pos;
  const objectCount = r.u32(`${field}.objects`);
  const strings = readNulStrings(r, r.pos, stringBytes, `${field}.strings`);
  r.pos += stringBytes;
  r.fits(bindingCount, SCRB_BINDING_SIZE, `${field}.bindings`, bindingsAt);
  const problems = new MessageList();
  const name = (off: number): string | null => strings.byOffset.get(off) ?? null;
  // Records may share one event name: each name is hashed once, however many records name it.
  const eventHashes = new Map<number, ReturnType<typeof defaultHasher.tryHash>>();
  const bindings: ScrbBinding[] = new Array(bindingCount);
  for (let i = 0; i < bindingCount; i++) {
    const at = r.pos;
    const f = `${field}.binding[${i}]`;
    const eventHash = r.u32(`${f}.eventHash`);
    const eventNameOffset = r.u32(`${f}.eventName`);
    const scriptHash = r.u32(`${f}.scriptHash`);
    const functionNameOffset = r.u32(`${f}.functionName`);
    const b: ScrbBinding = {
      index: i,
      offset: at,
      eventHash,
      eventNameOffset,
      event: name(eventNameOffset),
      scriptHash,
      functionNameOffset,
      function: name(functionNameOffset),
    };
    if (b.event === null) problems.add(`binding ${i}: event name offset ${eventNameOffset} is not a string start of the string area`);
    else {
      let h = eventHashes.get(eventNameOffset);
      if (h === undefined) eventHashes.set(eventNameOffset, (h = defaultHasher.tryHash(b.event)));
      if (h.ok && h.hash !== eventHash) {
        const event = b.event;
        const hash = h.hash;
        problems.add(() => `binding ${i}: event hash ${hex32(eventHash)} is not StringHash(${quoteShort(event)}) = ${hex32(hash)}`);
      }
    }
    if (b.function === null) problems.add(`binding ${i}: function name offset ${functionNameOffset} is not a string start of the string area`);
    bindings[i] = b;
  }
  r.fits(objectCount, SCRB_OBJECT_SIZE, `${field}.objects`, objectsAt);
  const objects: ScrbObject[] = new Array(objectCount);
  let sortedByHash = true;
  let rowCount = 0;
  for (let i = 0; i < objectCount; i++) {
    const at = r.pos;
    const f = `${field}.object[${i}]`;
    const o: ScrbObject = { index: i, offset: at, hash: r.u32(`${f}.hash`), firstBinding: r.u32(`${f}.firstBinding`), count: r.u32(`${f}.count`) };
    if (i > 0 && o.hash < objects[i - 1].hash) sortedByHash = false;
    if (o.firstBinding + o.count > bindingCount)
      problems.add(`object ${i} (${hex32(o.hash)}): bindings ${o.firstBinding}..${o.firstBinding + o.count - 1} run past the ${bindingCount} binding records`);
    else rowCount += o.count;
    objects[i] = o;
  }
  r.atEnd(`${field}.end`);
  if (!sortedByHash) problems.add('the object index is not sorted by hash (the engine binary-searches it)');
  return {
    offset,
    size: r.end - offset,
    version,
    strings,
    bindings,
    objects,
    sortedByHash,
    rowCount,
    problems: problems.list(),
    confidence: problems.total ? 'uncertain' : 'confirmed',
  };
}
