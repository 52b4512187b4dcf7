/**
 * What the language server and the extension read besides game files: the script index's and the
 * cross-script facts' cache snapshots (JSON written by an earlier start; a snapshot is a file like
 * any other, so every value is a lie the reader must catch), read back and then asked what the
 * server asks (bound sites, counts, texts, names, globals), and the hash dictionary's inputs: a
 * user's word list and the string literals of a script. Also the LTFX effect header.
 */
import { parseLtfxHeader } from '../../core/formats/effect';
import { HashDictionary, parseDictionaryFile, scriptStringLiterals } from '../../core/hash';
import { CrossScriptIndex, ScriptIndex, type CrossSnapshot, type IndexSnapshot } from '../../core/scriptIndex';
import { SAMPLE_LAYER_SOURCE } from '../../core/sample';
import { mutateJson } from '../mutateJson';
import { mutateText } from '../mutateText';
import { realSample } from '../samples';
import { type FuzzCase, type FuzzTarget, textSeed, withFields } from '../target';
import { sharedWorkspace } from './server';

/** Ask a snapshot-made index what the server asks it. */
function useIndex(index: ScriptIndex): unknown {
  let sites = 0;
  for (const s of index.scripts()) {
    for (const d of s.definitions.values()) sites += index.boundBy(s.path, d.name, 50).length + index.boundByCount(s.path, d.name);
    sites += index.bindingsOf(s.path, 50).size;
    sites += s.text.length;
  }
  return { sites, names: index.registryNames(), again: index.toSnapshot() };
}

function useCross(x: CrossScriptIndex, snap: CrossSnapshot): unknown {
  const names = Array.isArray(snap.sites) ? snap.sites.slice(0, 50).map((s) => (Array.isArray(s) ? s[0] : undefined)) : [];
  const found = names.map((n) => [x.globalSites(String(n)).length, x.globalDefinitions(String(n)).length]);
  return { found, ranked: x.usage.ranked().slice(0, 100), again: x.toSnapshot() };
}

export const snapshot: FuzzTarget = {
  name: 'snapshot',
  covers: "the language server's cache snapshots (script index, cross-script facts) read back and used",
  seeds: async () => {
    const ws = await sharedWorkspace();
    return [textSeed('index snapshot', JSON.stringify(ws.index!.toSnapshot())), textSeed('cross snapshot', JSON.stringify(ws.cross().toSnapshot()))];
  },
  mutate: mutateJson,
  run: async (c: FuzzCase) => {
    const ws = await sharedWorkspace();
    let snap: unknown;
    try {
      snap = JSON.parse(new TextDecoder().decode(c.bytes));
    } catch {
      return 'not JSON: the cache reader refuses it before any snapshot reader'; // server/indexCache.ts
    }
    if (c.seed.name === 'index snapshot') return useIndex(ScriptIndex.fromSnapshot(ws.mount!, snap as IndexSnapshot));
    return useCross(CrossScriptIndex.fromSnapshot(snap as CrossSnapshot), snap as CrossSnapshot);
  },
};

export const names: FuzzTarget = {
  name: 'names',
  covers: "the hash dictionary's inputs: a user's word list, a script's string literals (escapes, long brackets), names hashed",
  seeds: () => [
    textSeed('word list', '# names\nUI_1Sword_Starting_N\n\n  spaced name  \r\nworlds\\retail\\x.objres\n\u00e9\u00ff\n'),
    textSeed('sample layer source', SAMPLE_LAYER_SOURCE),
    textSeed('literals', 'a = "x\\65\\x41\\z  y" b = \'q\\\'\' c = [==[long]]==] d = [[\n]] --[[ "not" ]] e = "\\400\\u{41}"'),
  ],
  mutate: mutateText,
  run: (c) => {
    const text = c.text ?? new TextDecoder().decode(c.bytes);
    const dict = new HashDictionary();
    const words = parseDictionaryFile(text);
    dict.addAll(words, 'user file');
    const literals = scriptStringLiterals(text);
    dict.addAll(literals, 'script literal');
    return { words, literals, dict };
  },
  memoryBasis: (c) => 2 * (c.text?.length ?? c.bytes.length),
};

export const ltfx: FuzzTarget = {
  name: 'ltfx',
  covers: 'LTFX effects (.fxp): the LTFX header and the embedded GADB header',
  seeds: () => {
    const real = realSample('landmine_curse.fxp');
    const crafted = Buffer.concat([Buffer.from('LTFX'), Buffer.from([8, 0, 0, 0]), Buffer.from('GADB'), Buffer.from([17, 0, 0, 0]), Buffer.alloc(36, 1)]);
    return [
      withFields('crafted header', crafted, (b, spans) => parseLtfxHeader(b, 'seed.fxp', { spans })),
      ...(real ? [withFields('landmine_curse.fxp (retail)', real, (b, spans) => parseLtfxHeader(b, 'seed.fxp', { spans }))] : []),
    ];
  },
  run: (c) => parseLtfxHeader(c.bytes, 'fuzz.fxp'),
};
