/**
 * Globs for "Find in Files" over game paths: `*` (within a segment), `**` (any depth), `?`,
 * `{a,b}` alternatives; case-insensitive; either separator. A pattern without a separator
 * matches the file name anywhere (`*.scripts`), as in VS Code's "files to include".
 */
export function globToRegExp(glob: string): RegExp {
  const g = glob.trim().replace(/\//g, '\\');
  if (!g) return /^/;
  let re = '';
  let i = 0;
  let inBraces = 0;
  while (i < g.length) {
    const c = g[i];
    if (c === '*') {
      if (g[i + 1] === '*') {
        // `**\` matches zero or more folders; a trailing `**` anything.
        if (g[i + 2] === '\\') {
          re += '(?:[^\\\\]*\\\\)*';
          i += 3;
        } else {
          re += '.*';
          i += 2;
        }
        continue;
      }
      re += '[^\\\\]*';
    } else if (c === '?') re += '[^\\\\]';
    else if (c === '{') {
      re += '(?:';
      inBraces++;
    } else if (c === '}' && inBraces) {
      re += ')';
      inBraces--;
    } else if (c === ',' && inBraces) re += '|';
    else if (c === '\\') re += '\\\\';
    else re += c.replace(/[.+^$()|[\]]/g, '\\$&');
    i++;
  }
  while (inBraces-- > 0) re += ')';
  const anchored = g.includes('\\') ? `^${re}$` : `(?:^|\\\\)${re}$`;
  return new RegExp(anchored, 'i');
}
