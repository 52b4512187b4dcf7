/**
 * What a case can end in, and the counters a target's worker keeps in shared memory (so they
 * survive the worker being killed by the watchdog or the memory cap).
 *
 * - success: the reader (and what stands on it) took the input;
 * - typed: it refused it with an `Arch06Error` (by code);
 * - crash: any other exception (or the worker died of one);
 * - invariant: no exception, but a promise broken (engines disagreeing, a write outside a range);
 * - hang: no progress for the watchdog's limit;
 * - overMemory: the worker hit its memory cap (heap limit, or the process grew past its ceiling);
 * - figure: what the case built outgrew 20x its input + 32 MiB (issue 21's figure), measured in
 *   the worker after full collections.
 */
import type { ErrorCode } from '../core/errors';

export const FINDING_KINDS = ['crash', 'invariant', 'hang', 'overMemory', 'figure'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export const ERROR_CODES: readonly ErrorCode[] = [
  'TRUNCATED',
  'BAD_MAGIC',
  'UNSUPPORTED_VERSION',
  'OUT_OF_RANGE',
  'INVALID',
  'UNSUPPORTED_CODEC',
  'CORRUPT_STREAM',
  'UNSUPPORTED_FORM',
  'NOT_FOUND',
  'BAD_ARGUMENT',
  'UNKNOWN_HASH_BYTE',
  'CANCELLED',
];

/** Slots of the shared Int32Array. */
export const SLOT = {
  /** 0 while the worker builds its seeds, 1 while it runs cases, 2 when done. */
  state: 0,
  /** The case being run. */
  current: 1,
  /** Cases started (the watchdog's heartbeat). */
  started: 2,
  /** The running case's input size in KiB (a large input is given longer before it counts as a hang). */
  kib: 3,
  success: 4,
  typed: 5,
  crash: 6,
  invariant: 7,
  figure: 8,
  /** Then one per error code, in ERROR_CODES order. */
  codes: 9,
} as const;
export const SLOT_COUNT = SLOT.codes + ERROR_CODES.length;

/** The memory figure: 20x the input + 32 MiB (issue 21 scope 2). */
export const FIGURE = { perInputByte: 20, constant: 32 << 20 } as const;
export const figureBound = (inputBytes: number): number => FIGURE.perInputByte * inputBytes + FIGURE.constant;

/**
 * How long a case may go without finishing before it is a hang: a base, plus 10 ms per KiB of
 * input (work linear in a few MiB of input on a loaded machine is slow, not stuck; a case slower
 * than 100 KiB/s is).
 */
export const hangLimitMs = (baseMs: number, kib: number): number => baseMs + 10 * kib;

/** One finding, for the report and a replay. */
export interface Finding {
  kind: FindingKind;
  target: string;
  seed: number;
  index: number;
  label: string;
  problem: string;
  /** Where the input was saved, when it was. */
  saved?: string;
}

/** The case that took longest (for people reading the run: time is never asserted). */
export interface SlowCase {
  index: number;
  ms: number;
  bytes: number;
  label: string;
}

/** What a target's run came to. */
export interface TargetReport {
  target: string;
  covers: string;
  cases: number;
  success: number;
  typed: number;
  crash: number;
  invariant: number;
  hang: number;
  overMemory: number;
  figure: number;
  errors: Partial<Record<ErrorCode, number>>;
  /** How many seeds the target started from. */
  seeds: number;
  findings: Finding[];
  /** Worker restarts after a hang, a cap or a death. */
  restarts: number;
  /** The slowest case of the last worker (the one that finished). */
  slowest?: SlowCase;
  /** Wall-clock time the target took, seeds included (for the console, never asserted). */
  ms: number;
}

/** The counts findings are counted by, summed. */
export const findingCount = (r: TargetReport): number => r.crash + r.invariant + r.hang + r.overMemory + r.figure;
