/** Every fuzz target, in the order a run takes them. */
import type { FuzzTarget } from '../target';
import { archcfg, ltarChunks, ltarTables, pathIndex } from './archive';
import { bndl, embb } from './bundle';
import { ltfx, names, snapshot } from './indexes';
import { mmsh, prfb, skel, worldMesh } from './mesh';
import { kraken, lzb16 } from './oodle';
import { gadb, objl, objr, onls, registryText, scrb } from './registry';
import { hksLexer, hksParser, scri } from './script';
import { server } from './server';
import { skdb } from './strings';
import { bcn, dds, texa, texr } from './texture';
import { HARNESS_CHECKS } from './harnessChecks';

export const TARGETS: readonly FuzzTarget[] = [
  ltarTables,
  ltarChunks,
  kraken,
  lzb16,
  archcfg,
  pathIndex,
  bndl,
  embb,
  dds,
  texr,
  texa,
  bcn,
  mmsh,
  skel,
  prfb,
  worldMesh,
  skdb,
  objr,
  objl,
  scrb,
  onls,
  gadb,
  registryText,
  scri,
  hksLexer,
  hksParser,
  server,
  snapshot,
  names,
  ltfx,
];

export function targetByName(name: string): FuzzTarget {
  const t = TARGETS.find((x) => x.name === name) ?? HARNESS_CHECKS.find((x) => x.name === name);
  if (!t) throw new Error(`no fuzz target ${JSON.stringify(name)}: ${TARGETS.map((x) => x.name).join(', ')}`);
  return t;
}
