// The embedded sample install written to a temporary folder and mounted, for tests that read it
// the way the extension and the CLI do.
import { Mount } from '../../core/archive';
import { sampleGame } from '../../core/sample';
import { tempDir, writeTree } from './fixtures';

/** A fresh copy of the sample install, mounted; its folder is `mount.root`. */
export function mountSample(prefix = 'arch06-sample-'): Mount {
  const root = tempDir(prefix);
  for (const f of sampleGame()) writeTree(root, { [f.path]: f.bytes });
  return Mount.open({ root });
}
