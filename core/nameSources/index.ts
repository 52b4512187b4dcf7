/**
 * core/nameSources, the public face: where the hash dictionary's names come from. One walk of a
 * mounted install (paths, bundle members, path indexes, scripts, registries, skeletons) and the
 * per-file adders it and the language server share, each name with its origin.
 */
export { collectInstallNames } from './installNames';
export type { CollectOptions, CollectReport, KnownNames } from './installNames';
export { addRegistryNames, addScriptNames, addSkeletonNames, addUserNames, dictionarySummary } from './fileNames';
