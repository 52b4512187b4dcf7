/**
 * The registry family's public face: OBJR object registries (`.objres`): the block chain, the
 * blocks it decodes (OBJL objects with the validated 50-byte record, SCRB script bindings, ONLS
 * groups, the GADB header), bindings and groups resolved by name against the OBJL and the part's
 * script, and the writers. Layouts and what the real registries showed: ./layout.ts.
 */
export { KNOWN_BLOCK_NAMES, OBJL_RECORD, OBJL_RECORD_SIZE, OBJL_WORLD_SET, OBJR_VERSION, QUATERNION_TOLERANCE, blockNameHash, knownBlockName } from './layout';
export type { KnownBlockName } from './layout';
export { parseObjr } from './objr';
export type { DecodedTag, ObjectRegistry, RegistryBlock } from './objr';
export type { ObjectList, ObjectSet, RawObjectRecord, RecordLayout, RegistryObject } from './objl';
export type { ScriptBindings, ScrbBinding, ScrbObject } from './scrb';
export type { GroupList, OnlsGroup, OnlsIndexEntry } from './onls';
export type { GadbHeader } from './gadb';
export type { NulStrings } from './strings';
export { bindingRow, bindingRows, ownScriptPath, resolveRegistry, spelledNames } from './resolve';
export type { BindingRow, GroupRow, ResolveOptions, ResolvedBinding, ResolvedObject, ResolvedRegistry, SpelledNames } from './resolve';
export { writeGadbHeader, writeObjl, writeObjr, writeOnls, writeRegistry, writeScrb } from './writer';
export type { ObjlWriterObject, ObjlWriterSet, ObjrWriterBlock, OnlsWriterGroup, RegistryWriterLayer, ScrbWriterObject } from './writer';
export type { OnlsGroupSpec, ScrbIndexSpec, ScrbRecordSpec } from './writer';
export { writeOnlsTable, writeScrbTable } from './writer';
export { blockOf, encodeBlock, modelOf, openRegistry, saveRegistry } from './model';
export type { ModelBlock, ModelObject, ModelSet, ObjlBlock, OnlsBlock, RawBlock, RegistryModel, ScrbBlock } from './model';
export {
  addObject,
  deleteObject,
  renameBoundFunction,
  renameObject,
  setBindingRecord,
  setGroupMembers,
  setObjectBinding,
  setObjectClass,
  setObjectTransform,
} from './edit';
export type { AddObjectOptions, BindingChange, NewObject, ObjectTransform } from './edit';
export { degreesFromQuaternion, normalizedF32, quaternionFromDegrees } from './rotation';
export type { EulerDegrees, Quaternion } from './rotation';
