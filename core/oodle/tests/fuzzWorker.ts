/**
 * Fuzz loop, run inside a worker thread by fuzz.test.ts so that a hang can be detected and
 * the worker killed. Before each case it publishes the case index in shared memory (the
 * watchdog's heartbeat); at the end it posts a summary. Each case goes through the dispatch
 * (`decodeOodle`/`decodeOodleInto`, whatever engine it picks); a Kraken case is then also
 * decoded by each engine alone, and the WebAssembly engine must agree with the TypeScript
 * reference: the same bytes, or both refuse (and never an unplanned trap).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Arch06Error } from '../../errors';
import { decodeOodle, decodeOodleInto, identifyCodec } from '..';
import { decodeKrakenReferenceInto, decodeKrakenWasmInto, krakenEngine } from '../kraken';
import { loadFuzzVectors, loadLzb16FuzzVectors, makeCase } from './fuzzCases';

export interface FuzzJob {
  seed: number;
  /** Either a fixed number of cases (npm test: replayable) or a time budget (npm run fuzz). */
  budget: { cases: number } | { seconds: number };
  dirs: string[];
  heartbeat: SharedArrayBuffer;
  /** Which decoder's vectors to mutate (default kraken: the vectors in `dirs`). */
  target?: 'kraken' | 'lzb16';
  /** The real archive whose chunks of the target's codec join the vectors. */
  patchArchive?: string;
}

export interface FuzzFailure {
  index: number;
  label: string;
  problem: string;
}

export interface FuzzSummary {
  cases: number;
  decoded: number;
  /** The engine the dispatch used for Kraken, and how many cases compared the two engines. */
  krakenEngine: string;
  compared: number;
  errors: Record<string, number>;
  failures: FuzzFailure[];
}

const GUARD = 64;
/** Engine comparison up to this raw size (larger size lies are the dispatch's business). */
const COMPARE_LIMIT = 1 << 22;

/** Decode a Kraken case with each engine alone; a problem description when they disagree. */
function compareEngines(src: Uint8Array, rawSize: number): string | undefined {
  const ref = new Uint8Array(rawSize);
  let refError: unknown;
  try {
    decodeKrakenReferenceInto(src, ref, 0, rawSize);
  } catch (e) {
    refError = e;
  }
  const fast = new Uint8Array(rawSize);
  const outcome = decodeKrakenWasmInto(src, fast, 0, rawSize);
  if (outcome === 'trapped') return 'WebAssembly engine trapped outside its checks';
  if (outcome === 'unavailable') return 'WebAssembly engine unavailable';
  if (refError !== undefined) {
    if (!(refError instanceof Arch06Error)) return undefined; // reported by the dispatch run
    return outcome === 'rejected' ? undefined : `WebAssembly engine decoded a stream the reference refuses (${refError.code}: ${refError.message})`;
  }
  if (outcome === 'rejected') return 'WebAssembly engine refused a stream the reference decodes';
  for (let i = 0; i < rawSize; i++) if (ref[i] !== fast[i]) return `engines differ at output byte ${i}`;
  return undefined;
}

function run(job: FuzzJob): FuzzSummary {
  const beat = new Int32Array(job.heartbeat);
  const kraken = job.target !== 'lzb16';
  const vectors = kraken ? loadFuzzVectors(job.dirs, job.patchArchive) : loadLzb16FuzzVectors(job.patchArchive);
  const b = job.budget;
  const deadline = 'seconds' in b ? Date.now() + b.seconds * 1000 : Infinity;
  const more = (index: number): boolean => ('cases' in b ? index < b.cases : Date.now() < deadline);
  const summary: FuzzSummary = { cases: 0, decoded: 0, krakenEngine: krakenEngine(), compared: 0, errors: {}, failures: [] };
  for (let index = 0; more(index) && summary.failures.length < 20; index++) {
    Atomics.store(beat, 0, index);
    const c = makeCase(job.seed, index, vectors);
    summary.cases++;
    if (kraken && identifyCodec(c.src) === 'kraken' && Number.isSafeInteger(c.rawSize) && c.rawSize >= 0 && c.rawSize <= COMPARE_LIMIT) {
      summary.compared++;
      const problem = compareEngines(c.src, c.rawSize);
      if (problem) summary.failures.push({ index, label: c.label, problem });
    }
    try {
      if (c.into) {
        // Guard bytes around the destination catch writes outside the requested range.
        if (c.rawSize > 1 << 24) throw new Arch06Error('OUT_OF_RANGE', 'fuzz: skip huge into-buffer');
        const buf = new Uint8Array(c.rawSize + 2 * GUARD).fill(0xe7);
        decodeOodleInto(c.src, buf, GUARD, c.rawSize, { file: 'fuzz', chunkIndex: index });
        for (let i = 0; i < GUARD; i++) {
          if (buf[i] !== 0xe7 || buf[GUARD + c.rawSize + i] !== 0xe7) {
            summary.failures.push({ index, label: c.label, problem: 'wrote outside the destination range' });
            break;
          }
        }
      } else {
        const out = decodeOodle(c.src, c.rawSize, { file: 'fuzz', chunkIndex: index });
        if (out.length !== c.rawSize) summary.failures.push({ index, label: c.label, problem: `returned ${out.length} bytes` });
      }
      summary.decoded++;
    } catch (e) {
      if (e instanceof Arch06Error) {
        summary.errors[e.code] = (summary.errors[e.code] ?? 0) + 1;
        if (e.message.startsWith('fuzz:')) continue;
        if (e.file !== 'fuzz' || e.field === undefined || !e.field.startsWith(`chunk[${index}]`) || typeof e.offset !== 'number') {
          summary.failures.push({ index, label: c.label, problem: `error lacks location: ${JSON.stringify(e.toJSON())}` });
        }
      } else {
        summary.failures.push({ index, label: c.label, problem: `non-Arch06Error thrown: ${(e as Error)?.stack ?? String(e)}` });
      }
    }
  }
  return summary;
}

if (parentPort) parentPort.postMessage(run(workerData as FuzzJob));
