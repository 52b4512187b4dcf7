/**
 * The names one file spells out, added to a hash dictionary with their origin: a script's string
 * literals and top-level definitions, a registry's OBJL strings and SCRB names, a skeleton's bone,
 * socket, mask and part names, a user's word list. The install walk (installNames.ts) and the
 * language server (from its script index) both add names through these, so one name gets one
 * origin whoever reads it.
 */
import { type HashDictionary, NAME_ORIGINS, parseDictionaryFile, scriptStringLiterals } from '../hash';
import type { SpelledNames } from '../formats/registry';
import type { Skel } from '../formats/mesh';

/** A script's literals ('script literal') and the names it defines at the top level ('script name'). */
export function addScriptNames(dict: HashDictionary, text: string, definitions: Iterable<string>): void {
  dict.addAll(scriptStringLiterals(text), 'script literal');
  dict.addAll(definitions, 'script name');
}

/** A registry's OBJL strings ('object name') and SCRB events and functions ('binding name'). */
export function addRegistryNames(dict: HashDictionary, names: { objects: Iterable<string>; bindings: Iterable<string> } | SpelledNames): void {
  dict.addAll(names.objects, 'object name');
  dict.addAll(names.bindings, 'binding name');
}

/** A skeleton's bone, socket, mask and part names ('skeleton name'; MMSH and animations name bones by their hash). */
export function addSkeletonNames(dict: HashDictionary, skel: Skel): void {
  for (const b of skel.bones) dict.add(b.name, 'skeleton name');
  for (const s of skel.sockets) dict.add(s.name, 'skeleton name');
  for (const m of skel.masks) dict.add(m.name, 'skeleton name');
  for (const p of skel.parts) dict.add(p.name, 'skeleton name');
}

/** A user dictionary file's names (one a line) into `dict`; returns how many gave a new hash. */
export function addUserNames(dict: HashDictionary, text: string): number {
  return dict.addAll(parseDictionaryFile(text), 'user file');
}

const PLURAL: Record<(typeof NAME_ORIGINS)[number], string> = {
  path: 'paths',
  'path index': 'path indexes',
  'script literal': 'script literals',
  'script name': 'script definitions',
  'object name': 'object names',
  'binding name': 'binding names',
  'skeleton name': 'skeletons',
  'user file': 'user files',
};

/** One line for a status or an editor: how many names, from where. */
export function dictionarySummary(dict: HashDictionary): string {
  const o = dict.stats.byOrigin;
  const parts = NAME_ORIGINS.map((origin) => `${o[origin]} from ${PLURAL[origin]}`);
  return `${dict.size} names (${parts.join(', ')})${dict.stats.collisions ? `, ${dict.stats.collisions} collisions` : ''}`;
}
