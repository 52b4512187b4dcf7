/**
 * core/mod, the public face: mod projects (issue 23). A mod is a folder with `arch06-mod.json` and
 * its files at their game paths; the overlay mounts an install with mods in place by the one
 * search-order rule; pack writes the LTAR archive the engine's lookups accept (with its path
 * index) and reads it back; install/uninstall edit a list reversibly; check says what the engine
 * would do that the modder did not mean. Node-only (it reads and writes through core/io/node).
 */
export { MOD_MANIFEST, badModNameReason, defaultArchiveName, formatPosition, manifestText, newManifest, parseManifest, parsePosition } from './manifest';
export type { ModManifest, ModPosition } from './manifest';
export { countsAsProblem } from './problems';
export type { ModFix, ModProblem, ModProblemCode, ModSeverity } from './problems';
export { ARCHIVE_MANIFEST_PATH, MOD_MAX_FILES, MOD_MAX_PATH, WINDOWS_MAX_PATH, modPathProblem, needsIndexRow } from './rules';
export { openModFolder, readModManifest } from './modFolder';
export type { ModFile, ModFolder, OpenModOptions } from './modFolder';
export { ModRefusedError, packMod } from './pack';
export type { PackOptions, PackResult } from './pack';
export { MODS_LIST, findModLines, lineDiff } from './cfgList';
export type { ModLine } from './cfgList';
export { applyInstall, applyUninstall, archiveManifest, findResets, listFiles, planInstall, planUninstall } from './install';
export type { InstallPlan, InstallRequest, ListChange, ListChoice, ResetFinding, UninstallPlan, UninstallRequest } from './install';
export { modSourceName, openOverlay, overlayMountOptions } from './overlay';
export type { ActiveMod, OverlayOptions } from './overlay';
export { checkMods, checkMounted } from './check';
export type { CheckOptions, CheckReport, CheckTarget, CheckedMod } from './check';
export { createMod, installAbove, modFilePath, patchedManifest, writeManifest, writeModFile } from './copy';
export { stringTableFromText, stringTableText } from './stringTableText';
export { scriptFromText, scriptSourceForEditing, scriptText, scriptWithSource } from './scriptText';
export { TEXT_FORMS, fromText, textFormOfFile, textFormOfText, toText } from './textForms';
export type { TextForm, TextFormOptions } from './textForms';
