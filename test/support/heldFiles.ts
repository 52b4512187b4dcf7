// Descriptors this process holds, counted through /proc (Linux): a write that returns must have
// let go of every folder and file it opened under the place it wrote to.
import * as fs from 'node:fs';

/** Why descriptors cannot be counted here, or false where they can (a test's `skip`). */
export const cannotCountDescriptors: string | false =
  process.platform === 'linux' && fs.existsSync('/proc/self/fd') ? false : 'no /proc/self/fd here to count descriptors';

/** Descriptors of this process open on anything under `dir` (a real path). */
export function descriptorsUnder(dir: string): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir)) n++;
    } catch {
      // closed while listing (the listing's own descriptor)
    }
  }
  return n;
}
