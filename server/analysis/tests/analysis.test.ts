// The analysis the server answers from, in process on the sample install: completion (members of
// engine globals as the scripts use them and as the seeds document them; the script's own methods
// after `self:`; locals, globals and keywords elsewhere), folding, and references across the
// served scripts with an open document's edits counted instead of its served text.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { SAMPLE_LAYER, SAMPLE_LAYER_SCRIPT, SAMPLE_LAYER_SOURCE, SAMPLE_SWORD_BONES } from '../../../core/sample';
import { formatHash, hiHash, stringHash } from '../../../core/hash';
import { type HashLiteral, hashLiteralAt, hashNames } from '../hashes';
import { mountSample } from '../../../test/support/sampleMount';
import { completion } from '../completion';
import { foldingSpans } from '../folding';
import { references } from '../navigation';
import { semanticSpans } from '../semantics';
import { selectionSpans } from '../selection';
import { ScriptWorkspace } from '../workspace';

const slashed = (p: string): string => p.replace(/\\/g, '/');
const URI = `arch06-text:/${slashed(SAMPLE_LAYER)}.bndl%20%5Bbundle%5D/${slashed(SAMPLE_LAYER_SCRIPT)}%20(text)`;

function workspace(): ScriptWorkspace {
  const m = mountSample('arch06-analysis-');
  const root = m.root;
  m.close();
  return ScriptWorkspace.create({ installRoot: root });
}

test('completion: engine members after Global: and Global., own methods after self:, the rest elsewhere', () => {
  const ws = workspace();
  try {
    const text = SAMPLE_LAYER_SOURCE.replace('not System:IsDayTime()', 'not System:').replace('SO:Init()', 'self:');
    ws.analyse(URI, 1, text);
    const labels = (needle: string): string[] => completion(ws, URI, text.indexOf(needle) + needle.length).map((e) => e.label);
    const system = labels('not System:');
    assert.ok(system.includes('LoadWorld'), 'documented by the seeds');
    assert.ok(system.includes('LoadWorldCustom'));
    assert.ok(!system.includes('ChannelDebug'), 'members of other globals are not offered');
    const console = labels('GameConsole:');
    assert.ok(console.includes('ChannelDebug') && console.includes('ChannelWarning'), console.join(', '));
    const self = labels('self:');
    assert.ok(self.includes('OpenGate') && self.includes('Init'), self.join(', '));
    const anywhere = completion(ws, URI, text.indexOf('local Instance') + 1).map((e) => `${e.kind}:${e.label}`);
    for (const want of ['function:LithThreadSleep', 'class:ScriptRelay', 'keyword:hmake', 'function:_gatealarm_SR_Script1_0c1d2e3f'])
      assert.ok(anywhere.includes(want), `${want} in ${anywhere.slice(0, 30).join(', ')}`);
  } finally {
    ws.dispose();
  }
});

test('folding: functions, tables, blocks and hstructures that span lines', () => {
  const ws = workspace();
  try {
    const doc = ws.analyse(URI, 1, SAMPLE_LAYER_SOURCE);
    const lines = foldingSpans(doc.chunk, doc.text).items.map((s) => [
      doc.text.slice(0, s.start).split('\n').length,
      doc.text.slice(0, s.end).split('\n').length,
    ]);
    const lineOf = (needle: string): number => SAMPLE_LAYER_SOURCE.slice(0, SAMPLE_LAYER_SOURCE.indexOf(needle)).split('\n').length;
    assert.ok(lines.some(([a]) => a === lineOf('hstructure _gatecontroller_SO_Script_6d1f0a42_meta')));
    assert.ok(lines.some(([a]) => a === lineOf('_gatealarm_SR_Script1_0c1d2e3f = function')));
    assert.ok(lines.some(([a]) => a === lineOf('local section_5a3c9e21 = {')));
    for (const [a, b] of lines) assert.ok(b > a, 'only ranges over several lines');
  } finally {
    ws.dispose();
  }
});

test('references across scripts: an open document counts with its edited text', () => {
  const ws = workspace();
  try {
    const edited = SAMPLE_LAYER_SOURCE + '\nLithThreadSleep( 0, 1 )\n';
    ws.analyse(URI, 1, edited);
    const at = edited.indexOf('LithThreadSleep');
    const here = references(ws, URI, at, true).filter((r) => r.uri === URI);
    assert.equal(here.length, 3, 'the two uses of the served text and the edit');
  } finally {
    ws.dispose();
  }
});

test('semantic highlighting: engine classes and functions, bound definitions, parameters', () => {
  const ws = workspace();
  try {
    const doc = ws.analyse(URI, 1, SAMPLE_LAYER_SOURCE);
    const spans = semanticSpans(ws, doc).items.map((t) => `${doc.text.slice(t.start, t.end)}:${t.type}:${t.modifiers.join('+')}`);
    for (const want of [
      'LithThreadSleep:function:defaultLibrary',
      'ScriptRelay:class:defaultLibrary',
      'System:class:defaultLibrary',
      '_gatealarm_SR_Script1_0c1d2e3f:function:declaration',
      'scriptId:parameter:',
    ])
      assert.ok(spans.includes(want), `${want} in ${spans.slice(0, 40).join(', ')}`);
    // A local is none of these.
    assert.ok(!spans.some((s) => s.startsWith('Instance:')));
  } finally {
    ws.dispose();
  }
});

test('selection ranges: from the name under the cursor out through its call, statement, function and table to the file', () => {
  const ws = workspace();
  try {
    const doc = ws.analyse(URI, 1, SAMPLE_LAYER_SOURCE);
    const at = SAMPLE_LAYER_SOURCE.indexOf('LithThreadSleep( threadId, 2 )') + 2;
    const texts = selectionSpans(doc, at).map((s) => SAMPLE_LAYER_SOURCE.slice(s.start, s.end));
    assert.equal(texts[0], 'LithThreadSleep');
    assert.equal(texts[1], 'LithThreadSleep( threadId, 2 )');
    assert.ok(
      texts.some((t) => t.startsWith('_gatealarm_SR_Script1_0c1d2e3f = function')) || texts.some((t) => t.startsWith('function (self, threadId, scriptId)')),
    );
    assert.equal(texts[texts.length - 1], SAMPLE_LAYER_SOURCE);
    for (let i = 1; i < texts.length; i++) assert.ok(texts[i].length > texts[i - 1].length && texts[i].includes(texts[i - 1]));
  } finally {
    ws.dispose();
  }
});

/** The hash literal `text` is. */
const literal = (text: string): HashLiteral => hashLiteralAt(text, 1)!;

test('hash names: the server gathers the same sources as the extension (skeletons, bundle members, bindings) and hovers say where a name came from', async () => {
  const ws = workspace();
  try {
    const pending = hashNames(ws, literal(formatHash(stringHash('Grip'))));
    assert.match(pending, /still gathering names/); // asked before the walk has run: says so
    const report = await ws.gatherNames(async () => undefined);
    assert.ok(ws.namesComplete);
    assert.equal(report?.scripts, 0, 'scripts come from the index, not a second read');
    assert.equal(report?.skeletons, 1);
    for (const b of SAMPLE_SWORD_BONES) assert.equal(ws.dictionary().entry(stringHash(b.name))?.origin, 'skeleton name', b.name);
    assert.equal(ws.dictionary().entry(stringHash(SAMPLE_LAYER_SCRIPT))?.origin, 'path', 'a bundle member');
    assert.equal(ws.dictionary().entry(stringHash('Script1'))?.origin, 'binding name');
    assert.equal(ws.dictionary().entry(stringHash('GateRelay'))?.origin, 'script literal');
    const hover = hashNames(ws, literal(formatHash(stringHash('Blade_Tip'))));
    assert.match(hover, /= StringHash 0x[0-9A-F]{8}\n\nName:\n- `Blade_Tip` \(skeleton name\)/);
    assert.match(hashNames(ws, literal('0x12345678')), /No known name has this hash: the dictionary holds [\d,]+ names/);
    // A `hi` literal is the other function: the sample's event map names OpenGate by it, and says so.
    const hi = hashNames(ws, literal(`0x${hiHash('OpenGate')!.toString(16)}hi`));
    assert.match(hi, /= hi hash 0x[0-9A-F]{8} \(not StringHash: h = h × 919 \+ \(c − 0x40\)/);
    assert.match(hi, /Name:\n- `OpenGate` \(script literal\)/);
    assert.match(hi, /matches all 95 `__eventmap` pairs/);
    // The same digits as StringHash of a name do not name it as a hi literal.
    assert.match(hashNames(ws, literal(`0x${stringHash('OpenGate').toString(16).padStart(8, '0')}hi`)), /No known name has this hash/);
    assert.match(hashNames(ws, literal('0x00000002a1f0c3d4hl')), /64-bit `hl` hash literal; its hash function is unknown/);
    // The same user names (a settings notification about inlay hints) keep the dictionary; new ones gather again.
    const gathered = ws.dictionary();
    ws.setUserNames([]);
    assert.equal(ws.dictionary(), gathered);
    ws.setUserNames(['Sword_Of_The_User']);
    await ws.namesGathered(10_000);
    assert.notEqual(ws.dictionary(), gathered);
    assert.equal(ws.dictionary().entry(stringHash('Sword_Of_The_User'))?.origin, 'user file');
  } finally {
    ws.dispose();
  }
});

// The fuzz harness's server case 83 (seed 176504706): a line of 835 KB made each completion try the
// end-anchored member pattern from every start. Bounded now by the window it reads; the watchdog
// is far above an honest run, the count of answers is the assertion.
test('completion at the end of a very long line reads a bounded window (fuzz finding: server case 83)', { timeout: 120_000 }, () => {
  const ws = workspace();
  try {
    // One identifier run: the pattern, started at each of its characters, ran to its end and back.
    const text = `local Alpha = 1\n${'x'.repeat(300_000)} `;
    ws.analyse(URI, 1, text);
    const offered = completion(ws, URI, text.length);
    // Offsets outside the text, as a client may send: before the fix -1 read all of it.
    for (const outside of [-1, -1000, text.length + 5]) completion(ws, URI, outside);
    assert.ok(
      offered.some((e) => e.label === 'Alpha'),
      'the names in scope are offered',
    );
  } finally {
    ws.dispose();
  }
});
