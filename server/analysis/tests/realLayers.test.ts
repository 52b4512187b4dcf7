// The language server's analysis on the four real layers of Patch_00.arch06: every script parses
// cleanly, every hstructure, hmake object and bound function is in the outline, every function the
// registries bind has a code lens counting its objects (40, 17, 18, 19 rows), and hover on one
// names its objects; the usage index lists the engine calls the scripts make; every hi literal
// hovers as the event name its __eventmap line spells.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { REAL_LAYER_NAMES, mountRealPatch, realLayerStem, realPatch } from '../../../test/support/realLayers';
import { scriptDiagnostics } from '../../../core/scriptIndex';
import { bindingLenses } from '../bindings';
import { hover } from '../hover';
import { allSymbols } from '../navigation';
import { ScriptWorkspace } from '../workspace';

const ROWS: Record<string, number> = { island: 40, mtnpass: 17, snowmtn: 18, volcano: 19 };

test('real layers: clean parse, full outline, code lenses counting 40/17/18/19 objects, hover naming them', { skip: realPatch.skip }, () => {
  const m = mountRealPatch();
  const root = m.root;
  m.close();
  const ws = ScriptWorkspace.create({ installRoot: root });
  try {
    for (const layer of REAL_LAYER_NAMES) {
      const path = `${realLayerStem(layer)}.scripts`;
      const served = ws.index!.script(path)!;
      const uri = ws.uriOf(served);
      const script = ws.analyse(uri, 1, served.text);
      assert.deepEqual(scriptDiagnostics(ws.index, script), [], layer);
      const symbols = allSymbols(script);
      const count = (kind: string): number => symbols.filter((s) => s.kind === kind).length;
      assert.equal(count('structure'), (script.text.match(/^hstructure /gm) ?? []).length, `${layer}: hstructures`);
      assert.equal(count('hmake'), (script.text.match(/^[A-Za-z_]\w* = hmake /gm) ?? []).length, `${layer}: hmake objects`);
      const { lenses, total } = bindingLenses(ws, script);
      assert.equal(total, lenses.length);
      assert.equal(
        lenses.reduce((n, l) => n + l.count, 0),
        ROWS[layer],
        `${layer}: objects counted by the lenses`,
      );
      // Every bound name has its lens (none is missing from the script).
      assert.equal(lenses.length, ws.index!.bindingsOf(path).size, layer);
      const first = lenses[0];
      const h = hover(ws, uri, first.span.start + 1);
      assert.ok(h, layer);
      assert.match(h.markdown, new RegExp(`Bound by ${first.count} object`));
      assert.ok(h.markdown.includes(first.sites[0].object!), `${layer}: the hover names ${first.sites[0].object}`);
    }
    const usage = ws.usage();
    for (const g of ['LithThreadSleep', 'WBEventSystem', 'GameConsole', 'ScriptObject']) assert.ok(usage.globals.get(g), `the usage index knows ${g}`);
    assert.ok((usage.globals.get('WBEventSystem')?.members.get(':Add')?.calls ?? 0) > 0);
  } finally {
    ws.dispose();
  }
});

test(
  'real layers: every hi literal hovers as the event name its __eventmap line spells, by the hi hash, with where the name came from',
  { skip: realPatch.skip },
  async () => {
    const m = mountRealPatch();
    const root = m.root;
    m.close();
    const ws = ScriptWorkspace.create({ installRoot: root });
    try {
      await ws.gatherNames(async () => undefined);
      let named = 0;
      for (const layer of REAL_LAYER_NAMES) {
        const served = ws.index!.script(`${realLayerStem(layer)}.scripts`)!;
        const uri = ws.uriOf(served);
        ws.analyse(uri, 1, served.text);
        // The oracle: the name the same line spells (the script's own data).
        const spelled = new Map<string, string>();
        for (const f of served.text.matchAll(/__eventmap\[(0x[0-9a-fA-F]{1,8}hi)\][^\n]*\bname\s*=\s*"([^"\n]*)"/g)) spelled.set(f[1].toLowerCase(), f[2]);
        for (const f of served.text.matchAll(/0x[0-9a-fA-F]{1,8}hi\b/g)) {
          const h = hover(ws, uri, f.index + 3)!;
          const want = spelled.get(f[0].toLowerCase());
          assert.ok(want, `${layer}: ${f[0]} is on an __eventmap line too`);
          assert.ok(h.markdown.includes(`= hi hash 0x${f[0].slice(2, -2).toUpperCase().padStart(8, '0')} (not StringHash`), h.markdown);
          assert.ok(h.markdown.includes(`- \`${want}\` (script literal)`), `${layer}: ${f[0]} → ${want}: ${h.markdown}`);
          named++;
        }
      }
      assert.ok(named >= 95, `${named} literals named`);
    } finally {
      ws.dispose();
    }
  },
);
