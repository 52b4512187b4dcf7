/**
 * The hash commands of the palette and the editor's context menu: "Hash a Name" (typed),
 * "Hash Selection" (the selected text, or the word at the cursor) and "Reverse Hash Lookup" (a
 * `0x…` value, from the selection or typed; `0x…hi` as a script writes it is a hi hash: the names the install's hash dictionary and its
 * mounted paths give for it, each with where it comes from, or that none is known). Hashing uses
 * the table read from the game executable when one was stored, else the known one.
 */
import * as vscode from 'vscode';
import { type HashValue, type StringHasher, HL_UNKNOWN, defaultHasher, formatHash, namesOfHash, parseHashQuery } from '../../core/hash';
import type { HashNames } from '../hashNames';
import type { MountService } from '../mountService';
import { storedHasher } from './hashTable';
import { showInformation, showWarning } from '../notify';

/** A typed or selected hash (core/hash/literal.ts decides its kind), or undefined. */
function hashValue(text: string): HashValue | undefined {
  try {
    return parseHashQuery(text);
  } catch {
    return undefined;
  }
}

function hasherOf(context: vscode.ExtensionContext): StringHasher {
  return storedHasher(context) ?? defaultHasher;
}

/** Hash `name`, copy the value, say so (or say which byte the table does not know). */
async function hashAndCopy(hasher: StringHasher, name: string): Promise<void> {
  const r = hasher.tryHash(name);
  if (!r.ok) {
    void showWarning(`Cannot hash "${name}": the value of byte 0x${r.byte.toString(16)} (position ${r.index}) in the engine's table is not known.`);
    return;
  }
  const text = formatHash(r.hash);
  await vscode.env.clipboard.writeText(text);
  void showInformation(`StringHash("${name}") = ${text} (copied)`);
}

export async function hashStringCommand(context: vscode.ExtensionContext): Promise<void> {
  const name = await vscode.window.showInputBox({ prompt: 'Name to hash with StringHash (case-insensitive, \\ and / differ)' });
  if (name !== undefined) await hashAndCopy(hasherOf(context), name);
}

/** The selection's text, or the word under the cursor (a path's characters included). */
function selectedText(): string | undefined {
  const e = vscode.window.activeTextEditor;
  if (!e) return undefined;
  if (!e.selection.isEmpty) return e.document.getText(e.selection);
  const word = e.document.getWordRangeAtPosition(e.selection.active, /[\w.\\/:-]+/);
  return word ? e.document.getText(word) : undefined;
}

export async function hashSelectionCommand(context: vscode.ExtensionContext): Promise<void> {
  const text = selectedText();
  if (!text) {
    void showInformation('Select a name (or put the cursor on one) to hash it.');
    return;
  }
  await hashAndCopy(hasherOf(context), text.trim());
}

export async function reverseHashLookupCommand(service: MountService, names: HashNames): Promise<void> {
  const selected = selectedText();
  const initial = selected && hashValue(selected) !== undefined ? selected : '';
  const input = await vscode.window.showInputBox({
    prompt: 'A StringHash value (0x1234ABCD) or a script literal (0xad5130eahi) to look up among the names arch06 knows',
    value: initial,
    validateInput: (v) => (hashValue(v) === undefined ? 'a 32-bit hex value, e.g. 0xDCDB4713' : undefined),
  });
  if (input === undefined) return;
  const query = hashValue(input)!;
  const hash = query.hash;
  if (query.kind === 'hl') {
    void showInformation(`${input.trim()}: ${HL_UNKNOWN.replace(/`/g, '')}.`);
    return;
  }
  const m = service.mount;
  const dict = await (m ? names.forMount(m) : names.userOnly());
  const found: { label: string; description: string }[] = [];
  const e = namesOfHash(dict, query);
  for (const n of e ? [e, ...(e.others ?? [])] : []) found.push({ label: n.name, description: n.origin });
  // Mounted paths are StringHashes: a hi hash never names one.
  for (const p of query.kind === 'string' ? (m?.unhash(hash) ?? []) : [])
    if (!found.some((f) => f.label.toLowerCase() === p.path.toLowerCase())) found.push({ label: p.path, description: p.from });
  if (found.length === 0) {
    void showInformation(
      `No known name has the ${query.kind === 'hi' ? 'hi hash' : 'hash'} ${formatHash(hash)} (the dictionary holds ${dict.size.toLocaleString('en')} names).`,
    );
    return;
  }
  const pick = await vscode.window.showQuickPick(found, {
    title: `Names with the ${query.kind === 'hi' ? 'hi hash' : 'hash'} ${formatHash(hash)}`,
    placeHolder: 'Pick one to copy it',
  });
  if (pick) {
    await vscode.env.clipboard.writeText(pick.label);
    void showInformation(`Copied "${pick.label}"`);
  }
}
