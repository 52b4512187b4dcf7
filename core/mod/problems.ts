/**
 * What the mod tools report: one vocabulary of problems, each with a stable code the CLI prints,
 * the extension turns into diagnostics and the tests provoke one by one.
 */

export type ModProblemCode =
  // A file the engine cannot load as it is (pack refuses; check reports).
  | 'INVALID_GAME_PATH'
  | 'PATH_TOO_LONG'
  | 'CASE_COLLISION'
  | 'RESERVED_NAME'
  // The mod folder itself (pack refuses; check reports).
  | 'LINK_OUTSIDE'
  | 'LINK_TO_FOLDER'
  | 'NOT_REGULAR'
  | 'UNREADABLE'
  | 'TOO_DEEP'
  | 'TOO_MANY_FILES'
  // What the engine would do that the modder did not mean (check, issue 23 item 6).
  | 'MOD_COPY_SHADOWED'
  | 'MEMBER_SIZE_MISMATCH'
  | 'MEMBER_BELOW_CONTAINER'
  | 'UNINDEXED_NEW_FILE'
  | 'UNREACHABLE_PATH'
  | 'SHADOWS_NOTHING'
  | 'STRING_KEYS_DIFFER'
  | 'BOUND_FUNCTION_LOST'
  | 'ARCHIVE_NAME_TAKEN'
  // The install's lists.
  | 'LIST_RESET'
  | 'MODS_LIST_STALE';

/** `error`: the engine will not do what the mod means; `warning`: it may not; `info`: worth a look. */
export type ModSeverity = 'error' | 'warning' | 'info';

/** What a front end can offer to fix a problem. */
export type ModFix =
  /** Add to the mod the winning manifest with this member's declared size set to the mod's copy. */
  | { kind: 'patch-manifest'; manifest: string; member: string; size: number }
  /** Put a mod's line back into a list the store client reset. */
  | { kind: 'reinstall'; archive: string; mod: string; list: 'default' | 'mods' };

export interface ModProblem {
  code: ModProblemCode;
  severity: ModSeverity;
  /** The game path (or, for the folder's own problems, the path under the mod folder) it is about. */
  path?: string;
  message: string;
  fix?: ModFix;
}

/** Problems that count for an exit code: errors and warnings (an `info` is worth a look, not a failure). */
export function countsAsProblem(p: ModProblem): boolean {
  return p.severity !== 'info';
}
