/**
 * core/scriptIndex, the public face: every script and registry a mount serves, read once and
 * linked (bound functions ⇄ the objects bound to them, binding problems), the engine API as the
 * seeds document it and as the scripts use it. The language server and `arch06 scripts` stand on it.
 */
export { ScriptIndex } from './scriptIndex';
export type { BindingProblem, BindingSite, IndexedScript, ScriptIndexOptions, ServedCopy } from './scriptIndex';
export { UsageIndex } from './usage';
export type { GlobalUsage, MemberUsage, UsageSite } from './usage';
export { DOCUMENTED_API, DOCUMENTED_CLASSES, documentedApi } from './engineApi';
export type { DocumentedApi } from './engineApi';
