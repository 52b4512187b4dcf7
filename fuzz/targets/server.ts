/**
 * The language server's analysis on mutated documents, called directly (server/analysis/, what
 * server.ts maps every request to): a document opened at a URI (served scripts' URIs, a loose
 * file, URIs with `.` and `..` segments, bad escapes, other schemes), then what the editor asks
 * of it: diagnostics, symbols, code lenses, folding, semantic tokens, hash literals and, at a few
 * offsets (inside, at the ends, past the end), hover, definition, references, completion,
 * selection ranges and the registry text's bound-function definition. The workspace is the
 * sample install with the retail Patch_00.arch06 added, mounted and indexed once per worker.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SAMPLE_LAYER, SAMPLE_LAYER_SCRIPT, SAMPLE_LAYER_SOURCE, sampleGame } from '../../core/sample';
import { scriptDiagnostics } from '../../core/scriptIndex';
import { bindingLenses } from '../../server/analysis/bindings';
import { completion } from '../../server/analysis/completion';
import { foldingSpans } from '../../server/analysis/folding';
import { hashLiterals, hashNames } from '../../server/analysis/hashes';
import { hover } from '../../server/analysis/hover';
import { allSymbols, boundFunctionDefinition, definition, references } from '../../server/analysis/navigation';
import { selectionSpans } from '../../server/analysis/selection';
import { semanticSpans } from '../../server/analysis/semantics';
import { ScriptWorkspace } from '../../server/analysis/workspace';
import type { Seed } from '../mutate';
import { mutateText } from '../mutateText';
import type { Rng } from '../random';
import { realFilesEnding, realSample } from '../samples';
import { parseScript } from '../../core/formats/script';
import { type FuzzCase, type FuzzTarget, textSeed } from '../target';

const slashed = (p: string): string => p.replace(/\\/g, '/');
const LAYER_URI = `arch06-text:/${slashed(SAMPLE_LAYER)}.bndl%20%5Bbundle%5D/${slashed(SAMPLE_LAYER_SCRIPT)}%20(text)`;

/** URIs a client may send: the served script's views, loose files, and the hostile ones issue 21 lists. */
const URIS = [
  LAYER_URI,
  `arch06:/${slashed(SAMPLE_LAYER_SCRIPT)}`,
  `arch06-text:/${slashed(SAMPLE_LAYER)}.objres%20(text)`,
  'arch06:/worlds/retail/island/sectionsandlayers/fortwallgameplay.embb%20%5Bbundle%5D/worlds/retail/island/sectionsandlayers/fortwallgameplay.scripts',
  'file:///tmp/fuzz/loose.scripts',
  'file:///tmp/x/./y.scripts',
  'arch06:/../../etc/passwd',
  'arch06:/a/%2E%2E/b.scripts',
  'arch06-text:/%ZZ',
  'arch06:/@sources/99%20Nowhere/x.scripts',
  'arch06:' + '/a'.repeat(3000),
  'untitled:Untitled-1',
  '',
];

let workspace: ScriptWorkspace | undefined;

/** The sample install plus the retail archive, on disk, mounted and indexed, its names gathered. */
export async function sharedWorkspace(): Promise<ScriptWorkspace> {
  if (workspace) return workspace;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arch06-fuzz-server-'));
  process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
  for (const f of sampleGame()) {
    const p = path.join(root, ...f.path.split('/'));
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, f.bytes);
  }
  const real = realSample('Patch_00.arch06');
  if (real) {
    fs.writeFileSync(path.join(root, 'Patch_00.arch06'), real);
    fs.appendFileSync(path.join(root, 'x64', 'default.archcfg'), '..\\Patch_00.arch06\n');
  }
  workspace = ScriptWorkspace.create({ installRoot: root });
  await workspace.namesGathered(60_000);
  workspace.cross(); // built on first use: not a cost of the first case
  return workspace;
}

function documentSeeds(): Seed[] {
  const out = [
    textSeed('sample layer source', SAMPLE_LAYER_SOURCE),
    textSeed('empty', ''),
    textSeed('hashes', 'x = 0x3c9a61f2hi + 0xDEADBEEF\nlocal s = "a\\\\b.tex"\n'),
  ];
  for (const f of realFilesEnding('.scripts')) {
    const s = parseScript(f.bytes, f.name).source;
    if (s !== undefined && s.length < 40_000) out.push(textSeed(`${f.name} (retail)`, s));
  }
  return out;
}

/** Offsets a request may carry: inside the text, at its ends, past them. */
function offsets(rnd: Rng, n: number): number[] {
  return [rnd.int(n + 1), rnd.int(n + 1), rnd.int(n + 1), 0, n, n + 1 + rnd.int(5), -1];
}

async function analyse(c: FuzzCase): Promise<unknown> {
  const ws = await sharedWorkspace();
  const text = c.text ?? new TextDecoder().decode(c.bytes);
  const uri = c.rnd.chance(0.85) ? c.rnd.pick(URIS) : c.rnd.pick(URIS) + c.rnd.pick(['/./x', '%', '/..', '#frag', '?q=1', '\u0000']);
  const doc = ws.analyse(uri, c.index + 1, text);
  try {
    const answers: unknown[] = [
      scriptDiagnostics(ws.index, doc),
      allSymbols(doc),
      bindingLenses(ws, doc),
      foldingSpans(doc.chunk, doc.text),
      semanticSpans(ws, doc),
      hashLiterals(text, { start: 0, end: text.length }).map((l) => hashNames(ws, l)),
    ];
    for (const at of offsets(c.rnd, text.length)) {
      answers.push(
        hover(ws, uri, at),
        definition(ws, uri, at),
        references(ws, uri, at, c.rnd.chance(0.5)),
        completion(ws, uri, at),
        selectionSpans(doc, at),
        boundFunctionDefinition(ws, `arch06-text:/${slashed(SAMPLE_LAYER)}.objres%20(text)`, text, at),
      );
    }
    return answers;
  } finally {
    ws.didClose(uri);
  }
}

export const server: FuzzTarget = {
  name: 'server',
  covers: "the language server's analysis (server/analysis/) on mutated documents at hostile URIs and offsets",
  seeds: async () => {
    await sharedWorkspace();
    return documentSeeds();
  },
  mutate: mutateText,
  run: analyse,
  memoryBasis: (c) => 2 * (c.text?.length ?? c.bytes.length),
};
