/** What `verify` reports: its own module, so the verifier and its units of work (./verifyUnits.ts) share it without importing each other. */

export interface VerifyFailure {
  source: string;
  path: string;
  code: string;
  message: string;
}

export interface VerifyReport {
  sources: number;
  entries: number;
  /** Decoded bytes checked. */
  bytes: number;
  failures: VerifyFailure[];
  /** Chunks whose codec this build cannot decode, by codec name (e.g. lzb16), counted apart. */
  unsupportedChunks: Record<string, number>;
  /** Chunks of a decoded codec that use a form no real sample exercises (UNSUPPORTED_FORM), by codec, counted apart. */
  unsupportedForms: Record<string, number>;
  /** Chunks of fully read archive entries, by codec name ('stored' for stored chunks). */
  chunksByCodec: Record<string, number>;
  /** Rule findings that do not stop reading (table order, path index rows). */
  warnings: { source: string; message: string }[];
  /**
   * Sources whose file changed on disk during the run (replaced, truncated, deleted…): reading
   * stopped there, and `unchecked` of their entries were not checked.
   */
  changed: { source: string; detail: string; unchecked: number }[];
}
