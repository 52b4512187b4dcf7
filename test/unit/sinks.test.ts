// Text from game data is data (issue 21 item 3): every sink where text can reach markdown (hovers,
// completion docs, tree tooltips), a notification, a terminal or HTML is found by scanning the
// sources, and each must go through the escaping function for that sink (core/io sinkText.ts,
// safeName.ts; media/shared/html.ts). File names are the write primitive's (tidy.test.ts: every
// write goes through it; here: it checks every name with unsafeNameReason). Then the functions
// themselves, and a hover on a script whose doc comment carries links, an image and HTML.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mdCode, mdFence, mdLines, mdText, noticeText } from '../../core/io';
import { SAMPLE_LAYER, SAMPLE_LAYER_SCRIPT, SAMPLE_LAYER_SOURCE } from '../../core/sample';
import { hover } from '../../server/analysis/hover';
import { ScriptWorkspace } from '../../server/analysis/workspace';
import { repoRoot } from '../support/shared';
import { mountSample } from '../support/sampleMount';

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'tests') walk(p);
      } else if (e.name.endsWith('.ts')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Every line of the shipped sources of `dirs` matching `sink`, as `file:line: text`, with the file's whole text. */
function sinkLines(dirs: string[], sink: RegExp): { rel: string; line: string; where: string; text: string }[] {
  const root = repoRoot();
  const out: { rel: string; line: string; where: string; text: string }[] = [];
  for (const dir of dirs)
    for (const f of sources(path.join(root, dir))) {
      const text = fs.readFileSync(f, 'utf8');
      const rel = path.relative(root, f).split(path.sep).join('/');
      text.split('\n').forEach((line, i) => {
        if (sink.test(line) && !/^\s*(\*|\/\/|\/\*)/.test(line)) out.push({ rel, line, where: `${rel}:${i + 1}: ${line.trim()}`, text });
      });
    }
  return out;
}

test('notifications: every vscode.window.show*Message goes through extension/notify.ts, which passes noticeText', () => {
  const direct = sinkLines(['extension'], /\bwindow\s*\.\s*show(Information|Warning|Error)Message\b|^\s*\.show(Information|Warning|Error)Message\(/);
  const outside = direct.filter((s) => s.rel !== 'extension/notify.ts');
  assert.deepEqual(
    outside.map((s) => s.where),
    [],
    'a notification not through extension/notify.ts (VS Code makes [label](command:…) in it a link)',
  );
  const notify = fs.readFileSync(path.join(repoRoot(), 'extension', 'notify.ts'), 'utf8');
  assert.match(notify, /show\(\)\(noticeText\(message\), \.\.\.rest\)/);
  assert.ok(direct.length >= 3, 'the three notification kinds are found');
});

test('markdown: every markdown sink is found; code spans and blocks are built by mdCode/mdFence, text goes through mdText', () => {
  // The sinks: hover and completion contents the server sends as markdown, MarkdownStrings and
  // markdown tooltips in the extension.
  const sinks = sinkLines(['server', 'extension'], /MarkupKind\.Markdown|new vscode\.MarkdownString\(|tooltipIsMarkdown: true|\bmarkdown: /);
  const files = [...new Set(sinks.map((s) => s.rel))].sort();
  // What each sink's file sends, and where that text is made (those files are checked below).
  const producers: Record<string, string[]> = {
    // hover(): hover.ts; hashNames(): hashes.ts; completion documentation: completion.ts.
    'server/server.ts': ['server/analysis/hover.ts', 'server/analysis/hashes.ts', 'server/analysis/completion.ts'],
    'server/analysis/hover.ts': ['server/analysis/hover.ts'],
    // appendText: VS Code escapes it; the sink line itself is `new vscode.MarkdownString()`.
    'extension/hovers/texturePathHover.ts': [],
    // The node's tooltip is made by the model.
    'extension/views/searchOrderView.ts': ['extension/views/searchOrderModel.ts'],
    'extension/views/searchOrderModel.ts': ['extension/views/searchOrderModel.ts'],
  };
  assert.deepEqual(files, Object.keys(producers).sort(), `markdown sinks found: ${sinks.map((s) => s.where).join('\n')}`);
  const root = repoRoot();
  for (const p of new Set(Object.values(producers).flat())) {
    const text = fs.readFileSync(path.join(root, p), 'utf8');
    // A code span or fence written by hand around an interpolation breaks on a name holding a backtick.
    assert.doesNotMatch(text, /\\`\$\{/, `${p} builds a code span around game text by hand: use mdCode`);
    assert.doesNotMatch(text, /'```|"```|`{3}/, `${p} builds a code block by hand: use mdFence`);
  }
  // Running text from game data in the producers goes through mdText / mdLines (its sites, by name).
  const hoverText = fs.readFileSync(path.join(root, 'server/analysis/hover.ts'), 'utf8');
  for (const site of ['mdText(d.script.path)', 'mdText(siteLine(s))', 'mdLines(defined.doc)']) assert.ok(hoverText.includes(site), `hover.ts: ${site}`);
  assert.ok(fs.readFileSync(path.join(root, 'server/analysis/hashes.ts'), 'utf8').includes('mdText(n.origin)'));
  const model = fs.readFileSync(path.join(root, 'extension/views/searchOrderModel.ts'), 'utf8');
  assert.ok(model.includes('**${mdText(s.name)}**') && model.includes('${mdText(s.diskPath)}'), 'the source tooltip escapes its names');
  // Completion documentation is the project's own seed text (documentedApi, DOCUMENTED_API), never a game file's.
  const completion = fs.readFileSync(path.join(root, 'server/analysis/completion.ts'), 'utf8');
  for (const m of completion.matchAll(/documentation: ([^,}]+)/g)) assert.match(m[1], /^`?\$?\{?d\.(doc|signature)/, `completion documentation from ${m[1]}`);
});

test('terminal: every line the CLI writes to stderr escapes what it interpolates (stdout: writeOut/printJson, which escape)', () => {
  const sinks = sinkLines(['cli'], /process\.std(out|err)\.write\(|console\.(log|error|warn)\(/);
  // Lines that interpolate only numbers or the CLI's own constants, reviewed.
  const reviewed = [
    /process\.stderr\.write\(USAGE \+ '\\n'\)/,
    /process\.stderr\.write\(shown\.join\('\\n'\) \+ '\\n'\)/, // each line escaped where built (escapeName, escapeControls)
    /process\.stderr\.write\(lines\.join\('\\n'\) \+ '\\n'\)/, // the same
    /`arch06: \$\{failed\} of \$\{entries\.length\} files failed/, // counts
    /`arch06: verify: \$\{n\} failure\$\{n === 1 \? '' : 's'\} in \$\{report\.entries\} entries of \$\{report\.sources\} sources/, // counts
  ];
  const holes = sinks.filter((s) => /\$\{| \+ /.test(s.line) && !/escapeControls\(|escapeName\(/.test(s.line) && !reviewed.some((r) => r.test(s.line)));
  assert.deepEqual(
    holes.map((s) => s.where),
    [],
    'a CLI line interpolating text without escapeControls/escapeName',
  );
  assert.ok(sinks.length >= 5);
});

test('HTML: every webview file that sets innerHTML or builds a page escapes with esc (media/shared/html.ts) or its own escapeHtml', () => {
  const sinks = sinkLines(['media', 'extension'], /\binnerHTML\b|\.webview\.html\s*=|insertAdjacentHTML/);
  const files = [...new Set(sinks.map((s) => s.rel))];
  assert.ok(files.length >= 5, files.join(', '));
  for (const rel of files) {
    const s = sinks.find((x) => x.rel === rel)!;
    const interpolating = sinks.filter((x) => x.rel === rel && (/\$\{| \+ [a-z]/.test(x.line) || !/= '[^']*';?$/.test(x.line.trim())));
    if (!interpolating.length || ESCAPES.test(s.text)) continue;
    // A view split into modules: each such line only calls builders imported from modules that escape.
    const unescaped = interpolating.filter((x) => !builtByEscapingModules(rel, s.text, x.line));
    assert.deepEqual(
      unescaped.map((x) => x.where),
      [],
      `${rel} builds HTML without esc`,
    );
  }
});

/** A module that escapes what it puts in HTML: it imports esc from media/shared/html.ts, defines its own, or builds through pageHtml. */
const ESCAPES = /import \{[^}]*\besc\b[^}]*\} from '[./]*shared\/html'|function esc(apeHtml)?\(|\bpageHtml\(/;

/**
 * Whether every function a sink line calls is imported from a module of media/ that escapes (read
 * here, one level): `$('summary').innerHTML = summaryHtml(v)` with summaryHtml from ./summary.
 */
function builtByEscapingModules(rel: string, text: string, line: string): boolean {
  const rhs = line.slice(line.indexOf('=') + 1).replace(/'[^']*'/g, "''");
  const calls = [...rhs.matchAll(/\b([A-Za-z_$][\w$]*)\(/g)].map((m) => m[1]);
  if (calls.length === 0) return false;
  return calls.every((name) => {
    const imp = new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from '(\\.{1,2}/[^']+)'`).exec(text);
    if (!imp) return false;
    const file = path.join(repoRoot(), path.dirname(rel), imp[1] + '.ts');
    if (!fs.existsSync(file)) return false;
    const module = fs.readFileSync(file, 'utf8');
    return ESCAPES.test(module) || /export function esc\(/.test(module);
  });
}

test('file names: the write primitive checks every segment with unsafeNameReason before writing', () => {
  const text = fs.readFileSync(path.join(repoRoot(), 'core/io/node/outputFolder.ts'), 'utf8');
  assert.match(text, /unsafeNameReason\(/);
});

// What the sinks' functions do with hostile text.
const HOSTILE = [
  '[run](command:workbench.action.terminal.new)',
  '![x](http://example.invalid/x.png)',
  '<img src=x onerror=alert(1)>',
  '`` `code` ``',
  '```\nfenced\n```',
  '**bold** _it_ # head',
  'a\x1b[31mred\x1b[0m\x9bC1',
  'line\nbreak',
];

/** Markup left active in `md`: links, images, HTML tags, terminal escapes (code spans and blocks removed first: nothing inside them is markup). */
function activeMarkup(md: string): string[] {
  let text = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '');
  text = text.replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
  const found: string[] = [];
  for (const [what, re] of [
    ['a link', /(?<!\\)\]\(/],
    ['an image', /(?<!\\)!(?<!\\)\[/],
    ['a tag', /(?<!\\)<[a-z/]/i],
    ['a control character', /[\x00-\x08\x0b-\x1f\x7f-\x9f]/],
    ['a stray backtick', /(?<!\\)`/],
  ] as const)
    if (re.test(text)) found.push(what);
  return found;
}

test('mdText, mdLines, mdCode, mdFence and noticeText leave nothing active, and keep the text readable', () => {
  for (const s of HOSTILE) {
    assert.deepEqual(activeMarkup(mdText(s)), [], `mdText ${JSON.stringify(s)}: ${mdText(s)}`);
    assert.ok(!mdText(s).includes('\n'), 'one line');
    assert.deepEqual(activeMarkup(mdLines(s)), [], `mdLines ${JSON.stringify(s)}`);
    assert.deepEqual(activeMarkup(mdCode(s)), [], `mdCode ${JSON.stringify(s)}: ${mdCode(s)}`);
    assert.deepEqual(
      activeMarkup(`before ${mdFence(s, 'havokscript')} after`.replace(/^before /, 'before\n').replace(/ after$/, '\nafter')),
      [],
      `mdFence ${JSON.stringify(s)}`,
    );
    assert.ok(!/\]\(/.test(noticeText(s)) && !/[\x1b\x9b]/.test(noticeText(s)), `noticeText ${JSON.stringify(s)}`);
  }
  // The text stays readable: a plain name is unchanged in a code span, a fence outgrows the backticks inside.
  assert.equal(mdCode('_gatealarm_SR_Script1'), '`_gatealarm_SR_Script1`');
  assert.equal(mdCode('a`b'), '``a`b``');
  assert.equal(mdCode('`x'), '`` `x ``');
  assert.equal(mdFence('x = "```"', 'lua'), '````lua\nx = "```"\n````');
  assert.equal(mdText('worlds\\retail\\a_b.scripts'), 'worlds\\\\retail\\\\a_b.scripts', 'a _ inside a word opens nothing');
  assert.equal(mdText('FortSentry_09.Set (class) · event'), 'FortSentry_09.Set (class) · event');
  assert.equal(mdText('# head'), '\\# head');
  assert.equal(mdText('12. item'), '12\\. item');
  assert.equal(mdText('see www.example.invalid or http://x'), 'see www\\.example.invalid or http\\://x');
  assert.equal(noticeText('see [x](command:y)'), 'see [x] (command:y)');
});

test('a hover on a function whose doc comment carries a command link, an image, HTML and a terminal escape shows them as text', () => {
  const m = mountSample('arch06-sinks-');
  const root = m.root;
  m.close();
  const ws = ScriptWorkspace.create({ installRoot: root });
  try {
    const slashed = (p: string): string => p.replace(/\\/g, '/');
    const uri = `arch06-text:/${slashed(SAMPLE_LAYER)}.bndl%20%5Bbundle%5D/${slashed(SAMPLE_LAYER_SCRIPT)}%20(text)`;
    const comment = HOSTILE.filter((s) => !s.includes('\n'))
      .map((s) => `-- ${s}`)
      .join('\n');
    const text = `${SAMPLE_LAYER_SOURCE}\n${comment}\nfunction HostileDoc_a()\nend\n`;
    ws.analyse(uri, 1, text);
    const h = hover(ws, uri, text.indexOf('HostileDoc_a') + 2);
    assert.ok(h, 'a hover');
    assert.match(h.markdown, /HostileDoc_a/);
    assert.match(h.markdown, /command/, 'the comment is shown');
    assert.deepEqual(activeMarkup(h.markdown), [], h.markdown);
  } finally {
    ws.dispose();
  }
});
