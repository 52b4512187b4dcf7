/**
 * core/scriptIndex, the public face: every script and registry a mount serves, read once and
 * linked (bound functions ⇄ the objects bound to them, binding problems); a script's full
 * analysis on demand; the cross-script facts (globals' definitions and uses, the engine API as the
 * scripts use it) from one pass; the engine API as the seeds document it. The language server and `arch06 scripts` stand on it.
 */
export { MAX_BOUND_SITES, ScriptIndex } from './scriptIndex';
export { buildIndexParallel } from './indexPool';
export type { PoolIndexOptions } from './indexPool';
export { analyseText } from './analysis';
export type { AnalysedScript } from './analysis';
export { CrossScriptIndex } from './crossScript';
export type { CrossSnapshot, GlobalSite } from './crossScript';
export type { BindingProblem, BindingSite, IndexSnapshot, IndexedScript, ScriptIndexOptions, ServedCopy } from './scriptIndex';
export { scriptDiagnostics } from './diagnostics';
export { UsageIndex } from './usage';
export type { GlobalUsage, MemberUsage, UsageSite } from './usage';
export { DOCUMENTED_API, DOCUMENTED_CLASSES, documentedApi } from './engineApi';
export type { DocumentedApi } from './engineApi';
