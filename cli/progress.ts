/**
 * The progress line `verify` and `extract` draw on stderr when it is a terminal: files done of
 * the total, bytes, rate and time left, redrawn in place (`\r`, erase to the end of the line) at
 * most ten times a second, drawn once at the start and once at the end, then cleared so the
 * command's own output starts on a clean line. Silent when stderr is not a terminal or with
 * `--quiet`. `formatProgress` is the pure part: one state, one line.
 */
import { formatSize } from './output';

export interface ProgressState {
  /** What is being done, as a present participle: `verifying`, `extracting`. */
  verb: string;
  done: number;
  total: number;
  /** Bytes done so far. */
  bytes: number;
  /** Bytes in all, when known beforehand (the time left is then reckoned by bytes, else by files). */
  totalBytes?: number;
  /** Milliseconds since the work started. */
  elapsedMs: number;
}

/** Below this much elapsed time a rate is noise: neither rate nor time left is shown. */
const MIN_ELAPSED_FOR_RATE_MS = 250;

/** `h:mm:ss`, or `m:ss` under an hour. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * One progress line: `verifying 120/3,400 files (3%)  1.2 GiB  85 MiB/s  1:05 left`, cut to
 * `columns - 1` characters when given, so a narrow terminal never wraps it (a wrapped line
 * cannot be redrawn in place).
 */
export function formatProgress(s: ProgressState, columns?: number): string {
  const total = Math.max(0, s.total);
  const done = Math.min(Math.max(0, s.done), total);
  const parts = [`${s.verb} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} files`];
  if (total > 0) parts[0] += ` (${Math.floor((done / total) * 100)}%)`;
  parts.push(s.totalBytes !== undefined ? `${formatSize(s.bytes)} of ${formatSize(s.totalBytes)}` : formatSize(s.bytes));
  if (s.elapsedMs >= MIN_ELAPSED_FOR_RATE_MS) {
    const rate = s.bytes / (s.elapsedMs / 1000);
    parts.push(`${formatSize(Math.round(rate))}/s`);
    let left: number | undefined;
    if (done >= total) left = 0;
    else if (s.totalBytes !== undefined && rate > 0 && s.bytes > 0) left = ((s.totalBytes - s.bytes) / rate) * 1000;
    else if (done > 0) left = (s.elapsedMs / done) * (total - done);
    if (left !== undefined) parts.push(`${formatDuration(left)} left`);
  }
  const line = parts.join('  ');
  return columns !== undefined && columns > 1 && line.length > columns - 1 ? line.slice(0, columns - 1) : line;
}

/** Where the line is drawn: stderr, or a stand-in in tests. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  /** No line at all (`--quiet`). */
  quiet?: boolean;
  /** Least time between two redraws (default 100 ms: ten a second). */
  intervalMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** Carriage return, then erase to the end of the line. */
const CLEAR = '\r\x1b[K';

export class ProgressLine {
  /** Whether anything is drawn: stderr is a terminal and not --quiet. */
  readonly enabled: boolean;
  private readonly intervalMs: number;
  private readonly now: () => number;
  private started = 0;
  private lastDraw = -Infinity;
  private state: Omit<ProgressState, 'elapsedMs'>;
  /** Something is on the line (to erase at the end). */
  private drawn = false;
  /** The state last drawn, so `end` does not draw the same line twice. */
  private lastDrawnState = '';

  constructor(
    private readonly stream: ProgressStream,
    verb: string,
    options: ProgressOptions = {},
  ) {
    this.enabled = stream.isTTY === true && !options.quiet;
    this.intervalMs = options.intervalMs ?? 100;
    this.now = options.now ?? Date.now;
    this.state = { verb, done: 0, total: 0, bytes: 0 };
  }

  /** The work begins: draws `0/total` at once. */
  start(total: number, totalBytes?: number): void {
    this.started = this.now();
    this.state = { ...this.state, done: 0, total, bytes: 0, totalBytes };
    this.draw(true);
  }

  /** After each file: redraws when the last redraw is older than the interval, and always at the last file. */
  update(done: number, total: number, bytes: number): void {
    this.state = { ...this.state, done, total, bytes };
    this.draw(done >= total);
  }

  /** The work is over: the final state once more (so a short run still shows its end), then the line is erased. */
  end(): void {
    if (!this.enabled) return;
    if (this.lastDrawnState !== this.key()) this.draw(true);
    if (this.drawn) this.stream.write(CLEAR);
    this.drawn = false;
  }

  private key(): string {
    return `${this.state.done}/${this.state.total}/${this.state.bytes}`;
  }

  private draw(force: boolean): void {
    if (!this.enabled) return;
    const t = this.now();
    if (!force && t - this.lastDraw < this.intervalMs) return;
    this.lastDraw = t;
    this.lastDrawnState = this.key();
    this.drawn = true;
    this.stream.write(CLEAR + formatProgress({ ...this.state, elapsedMs: t - this.started }, this.stream.columns));
  }
}
