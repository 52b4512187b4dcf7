/**
 * The mod manifest, `arch06-mod.json` at the root of a mod folder: who made the mod, the archive
 * it packs into and where it goes in the search order. Pure: read from text, checked, written
 * back as text. A mod's files sit beside it at their game paths.
 *
 *   { "name": "MyMod", "version": "1.0.0", "author": "", "description": "",
 *     "archive": "MyMod.arch06", "position": "bottom" }
 *
 * `position` is where the mod's line goes in the archive config list, which is read bottom up
 * (seed 004): `bottom` (the last line, consulted first: the mod wins over every archive) or
 * `above NAME` (directly above the line naming NAME, so NAME and every line below it still win).
 */
import { Arch06Error } from '../errors';
import { unsafeNameReason } from '../io/safeName';

export const MOD_MANIFEST = 'arch06-mod.json';

/** Where a mod's line goes in the list: the bottom, or directly above the line naming an archive or folder. */
export type ModPosition = { kind: 'bottom' } | { kind: 'above'; name: string };

export interface ModManifest {
  name: string;
  version: string;
  author: string;
  description: string;
  /** The archive's file name, `<Name>.arch06`. */
  archive: string;
  position: ModPosition;
}

/** Letters, digits, space, `_`, `-`, `.`; starts with a letter or digit: a name that is also a safe file name and a cfg comment. */
const NAME_RULE = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/;
const TEXT_FIELD_MAX = 4096;

/** Why `name` cannot name a mod, or undefined. */
export function badModNameReason(name: string): string | undefined {
  if (!NAME_RULE.test(name)) return 'a mod name is 1-64 letters, digits, spaces, "_", "-" or ".", starting with a letter or digit';
  const unsafe = unsafeNameReason(name);
  if (unsafe) return `it cannot be a file name: ${unsafe}`;
  return undefined;
}

export function parsePosition(text: string, file = 'position'): ModPosition {
  const t = text.trim();
  if (/^bottom$/i.test(t)) return { kind: 'bottom' };
  const m = /^above\s+(.+)$/i.exec(t);
  if (m && m[1].trim() && !/[\x00-\x1f;]/.test(m[1])) return { kind: 'above', name: m[1].trim() };
  throw new Arch06Error('BAD_ARGUMENT', 'a position is "bottom" or "above NAME" (NAME: an archive or folder the list names)', {
    file,
    field: 'position',
    actual: JSON.stringify(text.slice(0, 120)),
  });
}

export function formatPosition(p: ModPosition): string {
  return p.kind === 'bottom' ? 'bottom' : `above ${p.name}`;
}

/** The default archive name of a mod: its name with spaces as underscores, `.arch06`. */
export function defaultArchiveName(name: string): string {
  return `${name.replace(/ /g, '_')}.arch06`;
}

export function newManifest(name: string, fields: Partial<Omit<ModManifest, 'name'>> = {}): ModManifest {
  const why = badModNameReason(name);
  if (why) throw new Arch06Error('BAD_ARGUMENT', `not a mod name: ${why}`, { field: 'name', actual: JSON.stringify(name.slice(0, 120)) });
  return checkManifest(
    {
      name,
      version: fields.version ?? '0.1.0',
      author: fields.author ?? '',
      description: fields.description ?? '',
      archive: fields.archive ?? defaultArchiveName(name),
      position: fields.position ?? { kind: 'bottom' },
    },
    MOD_MANIFEST,
  );
}

function checkManifest(m: ModManifest, file: string): ModManifest {
  const fail = (field: string, expected: string, actual: string): never => {
    throw new Arch06Error('INVALID', `the mod manifest's "${field}" is not valid`, { file, field, expected, actual: actual.slice(0, 160) });
  };
  const nameWhy = badModNameReason(m.name);
  if (nameWhy) fail('name', nameWhy, JSON.stringify(m.name));
  for (const k of ['version', 'author', 'description'] as const) {
    if (m[k].length > TEXT_FIELD_MAX || /[\x00-\x08\x0b\x0c\x0e-\x1f]/.test(m[k]))
      fail(k, `text of at most ${TEXT_FIELD_MAX} characters without control characters`, JSON.stringify(m[k]));
  }
  const arch = m.archive;
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\.arch06$/i.test(arch) || unsafeNameReason(arch)) {
    fail('archive', 'a file name of letters, digits, "_", "-" or "." ending in .arch06 (at most 70 characters)', JSON.stringify(arch));
  }
  return m;
}

/** Read and check a manifest's text; every problem is one INVALID error naming the field. */
export function parseManifest(text: string, file = MOD_MANIFEST): ModManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new Arch06Error('INVALID', `the mod manifest is not JSON: ${(e as Error).message}`, { file });
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Arch06Error('INVALID', 'the mod manifest is not a JSON object', { file });
  const o = raw as Record<string, unknown>;
  const str = (k: string, fallback?: string): string => {
    const v = o[k];
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v !== 'string')
      throw new Arch06Error('INVALID', `the mod manifest's "${k}" must be a string`, { file, field: k, actual: v === undefined ? 'missing' : typeof v });
    return v;
  };
  const name = str('name');
  const position = str('position', 'bottom');
  let parsed: ModPosition;
  try {
    parsed = parsePosition(position, file);
  } catch (e) {
    throw new Arch06Error('INVALID', (e as Error).message.replace(/ \(.*$/, ''), {
      file,
      field: 'position',
      expected: '"bottom" or "above NAME"',
      actual: JSON.stringify(position.slice(0, 120)),
    });
  }
  return checkManifest(
    {
      name,
      version: str('version', ''),
      author: str('author', ''),
      description: str('description', ''),
      archive: str('archive', typeof o.name === 'string' ? defaultArchiveName(o.name) : ''),
      position: parsed,
    },
    file,
  );
}

/** The manifest as the file holds it (stable key order, two-space indent, a final newline). */
export function manifestText(m: ModManifest): string {
  const { name, version, author, description, archive } = m;
  return JSON.stringify({ name, version, author, description, archive, position: formatPosition(m.position) }, null, 2) + '\n';
}
