/**
 * Work coalesced per key (a document URI): `after` runs the work once no newer call for the key
 * has come for `quietMs`; each call replaces the pending one, so a storm of edits costs one
 * analysis of the newest text, not one per edit. A request that needs the newest analysis makes
 * it itself (ScriptWorkspace.analyse keeps it by version), so nothing waits on the timer.
 */
export class QuietTimers {
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly quietMs: number) {}

  /** Run `work` for `key` after a quiet period, dropping the work a previous call left pending. */
  after(key: string, work: () => void): void {
    this.cancel(key);
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        work();
      }, this.quietMs),
    );
  }

  cancel(key: string): void {
    const t = this.pending.get(key);
    if (t !== undefined) clearTimeout(t);
    this.pending.delete(key);
  }

  /** Keys with work waiting. */
  get size(): number {
    return this.pending.size;
  }
}
