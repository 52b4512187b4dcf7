/**
 * Keeping what a reader says about its input bounded by the input: a name quoted in a message is
 * cut to a few dozen characters (a 500 KB name shared by 20,000 records must not become 20,000
 * copies of itself in the problem list), and a list of messages keeps its first entries and counts
 * the rest. Pure, browser-safe.
 */

/** Characters of a name a message quotes before cutting it. */
export const QUOTED_NAME_CHARS = 120;

/** `s` as a JSON string literal, cut to `max` characters with its full length stated. */
export function quoteShort(s: string, max = QUOTED_NAME_CHARS): string {
  return s.length <= max ? JSON.stringify(s) : `${JSON.stringify(s.slice(0, max))}… (${s.length} characters)`;
}

/** Messages a `MessageList` keeps before it only counts. */
export const MAX_MESSAGES = 500;

/**
 * A list of messages that keeps the first `cap` and counts every one: `list()` ends with one line
 * saying how many more there were. A message may be given as a function, built only when kept.
 */
export class MessageList {
  private readonly kept: string[] = [];
  /** Every message added, kept or not. */
  total = 0;

  constructor(private readonly cap = MAX_MESSAGES) {}

  add(message: string | (() => string)): void {
    this.total++;
    if (this.kept.length < this.cap) this.kept.push(typeof message === 'string' ? message : message());
  }

  /** The kept messages, and a last line counting the others when some were dropped. */
  list(): string[] {
    return this.total > this.kept.length ? [...this.kept, `… and ${this.total - this.kept.length} more (${this.total} in all)`] : [...this.kept];
  }
}
