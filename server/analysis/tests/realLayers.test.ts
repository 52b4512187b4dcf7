// The language server's analysis on the four real layers of Patch_00.arch06: every script parses
// cleanly, every hstructure, hmake object and bound function is in the outline, every function the
// registries bind has a code lens counting its objects (40, 17, 18, 19 rows), and hover on one
// names its objects; the usage index lists the engine calls the scripts make.
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
