// Moved to core/archive/viewPaths.ts (the language server needs it too); this re-export goes once
// the modules still importing it here have moved to core/archive.
export { BUNDLE_SUFFIX, SCHEME, SOURCES_FOLDER, gamePathOf, mergedUriPath, parseUriPath, sourceUriPath } from '../../core/archive';
export type { ArchUri } from '../../core/archive';
