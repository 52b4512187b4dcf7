/**
 * core/archive, the public face: the file-system layer. One `Source` interface (an LTAR archive,
 * a directory), the mount (the engine's search order, `which`, merged listings, the hash → path
 * table, what no write may touch), verification, bundles resolved as the engine does and shown as
 * folders, and extraction. Node-only (it opens files through core/io/node).
 */
export { ROOT, toGamePath } from './gamePath';
export type { GamePath } from './gamePath';
export type { Source, SourceEntry, SourceKind, SourceListing, StorageKind } from './source';
export { LtarEntry, LtarSource } from './ltarSource';
export { parseArchcfg } from './archcfg';
export type { CfgLine } from './archcfg';
export { Mount } from './mount';
export type { BrokenSource, MergedListing, MountOptions, PathTable, SkippedLine, WhichResult } from './mount';
export type { MergedIndex } from './mergedIndex';
export { verifyMount } from './verify';
export type { VerifyFailure, VerifyOptions, VerifyReport } from './verify';
export { EntryByteSource, bundleStem, locateBundleMember, readBundleMember, readBundleMemberChecked, resolveBundle } from './bundles';
export { HEADER_PREFIX_BYTES, headerCheckFor, readEntryChecked, readEntryCheckedAsync } from './entryRead';
export type { EntryReadOptions, HeaderCheck } from './entryRead';
export type { BundleFile, BundleMember, MemberOrigin, ResolvedBundle, SizeIdentity } from './bundles';
export { ServedFileWalk, servedFiles } from './servedFiles';
export { MemberCatalog, describeMember } from './memberCatalog';
export type { MemberCatalogOptions, MemberRow } from './memberCatalog';
export { MountCache, mountCacheFile, mountCacheKey } from './mountCache';
export type { MountCacheUse } from './mountCache';
export { verifyMountParallel } from './verifyPool';
export { UNIT_BYTES, planUnits } from './verifyUnits';
export type { VerifyUnit } from './verifyUnits';
export type { ParallelVerifyOptions, ParallelVerifyReport } from './verifyPool';
export { WorkerPool } from './workerPool';
export { extractEntriesParallel } from './extractPool';
export type { PoolOutcome, PoolRun } from './workerPool';
export type { ServedFile, ServedRange } from './servedFiles';
export { BUNDLE_SUFFIX, BundleFolder, BundleFolders, bundleFolderPath, memberName } from './bundleFolders';
export type { BundleFolderPath, BundleListing } from './bundleFolders';
export { collectEntries, extractEntries } from './extract';
export { copyStatus, describeChanges, looseChange, mountChanges, needsRemount, remount } from './remount';
export type { CopyStatus, DiskChange, DiskChangeRole, RemountResult } from './remount';
export { collectAddress, declaredMember, locateAddress, locateUri, partBundlePath, uriFileEntry } from './address';
export type { Located, UriFile } from './address';
export { locatePartScript, partScriptNames, servedFromText } from './partScript';
export type { LocatedPartScript, PartScriptNames, PartScriptNear } from './partScript';
export {
  SCHEME,
  SOURCES_FOLDER,
  TEXT_SCHEME,
  TEXT_VIEW_SUFFIX,
  gamePathOf,
  memberUriPath,
  mergedUriPath,
  parseUriPath,
  sourceFolderName,
  sourceFolderNames,
  sourceOfFolder,
  sourceUriPath,
  textViewPath,
  viewedPath,
} from './viewPaths';
export type { ArchUri } from './viewPaths';
export type { ExtractChanged, ExtractFailure, ExtractOptions, ExtractResult } from './extract';
