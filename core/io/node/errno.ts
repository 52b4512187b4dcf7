/**
 * File-system errors: telling Node's errno errors from programming errors, and saying each in one
 * line (`cannot create folder: /out/a: a part of the path is not a folder (ENOTDIR)`).
 */

/** A Node file-system error (`ENOENT`, `EACCES`, …), as opposed to a programming error. */
export function isErrnoException(e: unknown): e is NodeJS.ErrnoException {
  if (!(e instanceof Error)) return false;
  const x = e as NodeJS.ErrnoException;
  return typeof x.code === 'string' && /^E[A-Z0-9]+$/.test(x.code) && (typeof x.errno === 'number' || typeof x.syscall === 'string');
}

const ERRNO_REASON: Record<string, string> = {
  ENOENT: 'no such file or folder',
  ENAMETOOLONG: 'name too long',
  EEXIST: 'already exists',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'is a folder',
  ELOOP: 'too many levels of symbolic links',
  EPERM: 'operation not permitted',
  EACCES: 'permission denied',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EIO: 'input/output error',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EPIPE: 'the reader went away',
  EXDEV: 'crosses devices',
  EBUSY: 'busy',
  ENOTEMPTY: 'folder not empty',
  EINVAL: 'invalid argument',
  ENXIO: 'no such device',
  ENODEV: 'no such device',
  ETXTBSY: 'file busy',
  EAGAIN: 'temporarily unavailable',
};

const SYSCALL_WHAT: Record<string, string> = {
  open: 'cannot open',
  read: 'cannot read',
  write: 'cannot write',
  mkdir: 'cannot create folder',
  rename: 'cannot move into place',
  scandir: 'cannot list folder',
  opendir: 'cannot list folder',
  stat: 'cannot inspect',
  lstat: 'cannot inspect',
  fstat: 'cannot inspect',
  realpath: 'cannot resolve',
  readlink: 'cannot read link',
  unlink: 'cannot remove',
  rmdir: 'cannot remove',
  rm: 'cannot remove',
  copyfile: 'cannot copy',
  fsync: 'cannot flush',
  close: 'cannot close',
  access: 'cannot access',
};

/**
 * One line for a file-system error: `<what failed>: <path>: <short reason>` (the path as is;
 * front ends escape it), e.g. `cannot create folder: /out/a: a part of the path is not a folder`.
 */
export function errnoSummary(e: NodeJS.ErrnoException): string {
  const code = e.code ?? 'E?';
  const what = (e.syscall && SYSCALL_WHAT[e.syscall]) ?? (e.syscall ? `${e.syscall} failed` : 'file-system error');
  const where = (e as { dest?: string }).dest ?? e.path;
  const reason = ERRNO_REASON[code] ? `${ERRNO_REASON[code]} (${code})` : code;
  return where !== undefined ? `${what}: ${where}: ${reason}` : `${what}: ${reason}`;
}

/** An errno-style error the primitives below raise themselves (same shape as Node's). */
export function errnoError(code: string, syscall: string, p: string): NodeJS.ErrnoException {
  const e = new Error(`${code}: ${ERRNO_REASON[code] ?? code}, ${syscall} '${p}'`) as NodeJS.ErrnoException;
  e.code = code;
  e.syscall = syscall;
  e.path = p;
  e.errno = -1;
  return e;
}
