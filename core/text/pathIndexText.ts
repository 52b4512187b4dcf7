/**
 * The path index (`archivepatchloosefiles.txt`, a binary file despite its name: seed 004 "The
 * path index") as decoded text (syntax: ./syntax.ts): the row count, whether the rows keep the
 * engine's order, then one row per line in file order: the hash and the path, and the rows that
 * break a rule (order, a hash that is not StringHash of its path) with the reason.
 */
import { formatHash } from '../hash';
import { parsePathIndex } from '../formats/archive';
import { TextDoc } from './syntax';

/** Render the bytes of a path index. Throws the reader's typed errors. */
export function renderPathIndex(bytes: Uint8Array, path: string): string {
  const index = parsePathIndex(bytes, path);
  const d = new TextDoc({ inputSize: bytes.length });
  d.comment(`arch06 decoded text · path index · ${path}`);
  d.comment('a binary file named .txt: u32 1, the paths, then {StringHash of the path, offset of the path} rows sorted by hash');
  d.section('index', [
    ['rows', index.rows.length],
    ['problems', index.problems.length],
  ]);
  d.comment('hash (StringHash of the path)  path');
  d.each(index.rows, index.rows.length, (r) => d.record(formatHash(r.hash), [['path', r.path]]));
  if (index.problems.length) {
    d.section('problems', [['count', index.problems.length]]);
    d.each(index.problems, index.problems.length, (p) => d.record(p.row < 0 ? 'file' : `row ${p.row}`, [['problem', p.message]]));
  }
  return d.toString();
}
