/**
 * The archive config list, `x64/default.archcfg` (seed 004 "The archive config list and the
 * search order"): one path per line, `;` starts a comment, blank lines ignored, each line
 * resolved relative to the cfg's own folder. The file states that "file search order is from
 * the bottom up": the mount vector is the list reversed.
 */

export interface CfgLine {
  /** 1-based line number in the cfg. */
  line: number;
  /** The path as written (comment and surrounding blanks removed). */
  text: string;
}

export function parseArchcfg(text: string): CfgLine[] {
  const out: CfgLine[] = [];
  // A UTF-8 byte-order mark (read as latin1 it is "ï»¿", decoded it is U+FEFF) is not part of line 1.
  const lines = text.replace(/^(\uFEFF|\xEF\xBB\xBF)/, '').split(/\r\n|\n|\r/);
  lines.forEach((raw, i) => {
    const cut = raw.indexOf(';');
    const t = (cut >= 0 ? raw.slice(0, cut) : raw).trim();
    if (t) out.push({ line: i + 1, text: t });
  });
  return out;
}
