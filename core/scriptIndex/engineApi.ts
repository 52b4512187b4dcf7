/**
 * The engine's script API as the seeds document it (seed 001: "Region travel", "Binding from
 * script", "Moving"). Everything else a script calls is learned from the scripts themselves
 * (usage.ts): unknown globals are never errors.
 */

export interface DocumentedApi {
  /** `System:LoadWorld`, `<Class>.Create`, `LithThreadSleep`. */
  name: string;
  signature: string;
  doc: string;
  /** Where it is documented. */
  from: string;
}

export const DOCUMENTED_API: readonly DocumentedApi[] = [
  {
    name: 'System:LoadWorld',
    signature: 'System:LoadWorld(DBWorldInfo.<world>)',
    doc: 'Starts a region load on the main thread within 0.1-0.2 s; the current region record changes at the start of the load, before the destination’s objects exist.',
    from: 'seed 001, Region travel',
  },
  {
    name: 'System:LoadWorldCustom',
    signature: 'System:LoadWorldCustom(…)',
    doc: 'Shares LoadWorld’s implementation; no shipped script uses it.',
    from: 'seed 001, Region travel',
  },
  {
    name: '<Class>.Create',
    signature: '<Class>.Create(scriptId, name, b3, relative)',
    doc: 'Binds to an object that already exists in the part, by name (a `#.` prefix or `relative` prepends the prefab instance’s name); Create constructs nothing. 117 of 125 script classes share one stub.',
    from: 'seed 001, Binding from script',
  },
  {
    name: 'GameBase:CopyXForm',
    signature: 'GameBase:CopyXForm(A, B)',
    doc: 'SetPosition(A, B’s position) then SetRotation(A, B’s rotation); works across contexts; only pieces the object owns move with it.',
    from: 'seed 001, Moving',
  },
];

/** The classes the seeds name as script classes of scripted objects (seed 001). */
export const DOCUMENTED_CLASSES: readonly string[] = [
  'ScriptRelay',
  'ScriptObject',
  'QuestRelay',
  'StartupCommand',
  'DynamicObjectGroup',
  'DynamicObjectGroupState',
];

/** The documentation of `object` `indexer` `member` (`System`, `:`, `LoadWorld`), or of a class's `Create`. */
export function documentedApi(object: string | undefined, indexer: '.' | ':', member: string): DocumentedApi | undefined {
  if (member === 'Create' && indexer === '.') return DOCUMENTED_API.find((a) => a.name === '<Class>.Create');
  const name = object === undefined ? member : `${object}${indexer}${member}`;
  return DOCUMENTED_API.find((a) => a.name === name);
}
