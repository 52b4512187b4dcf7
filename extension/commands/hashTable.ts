/**
 * "arch06: Read Hash Table from Game Executable": scan ShadowOfWar.exe for the StringHash table
 * (core/hash/tableScan.ts), keep it in globalState, and hash names with it. Exactly one table is
 * accepted; none or several is shown with the scan's reason. `storedHasher` gives the hash commands
 * (hashCommands.ts) the stored table; without one they use the known table.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isArch06Error } from '../../core/errors';
import { StringHasher, formatHash, tableFromExecutable } from '../../core/hash';
import type { HashTable } from '../../core/hash';
import { readFileBytes } from '../../core/io/node';
import { showError, showInformation, showWarning } from '../notify';

const STATE_KEY = 'arch06.hashTable';
/** An executable is ~50-100 MB; more than this is not the game's. */
const MAX_EXE_BYTES = 512 << 20;

interface StoredTable {
  file: string;
  offset: number;
  rva?: number;
  table: number[];
}

/** A hasher over the table read from the executable, if one was stored and is well formed. */
export function storedHasher(context: vscode.ExtensionContext): StringHasher | undefined {
  const s = context.globalState.get<StoredTable>(STATE_KEY);
  if (!s || !Array.isArray(s.table) || s.table.length !== 256 || !s.table.every((v) => Number.isInteger(v) && v >= 0)) return undefined;
  return new StringHasher(s.table);
}

export async function readHashTableCommand(context: vscode.ExtensionContext): Promise<void> {
  const picked = await vscode.window.showOpenDialog({
    title: 'The game executable (ShadowOfWar.exe)',
    canSelectMany: false,
    filters: { Executables: ['exe'], 'All files': ['*'] },
  });
  const uri = picked?.[0];
  if (!uri) return;
  const file = uri.fsPath;
  let found: ReturnType<typeof tableFromExecutable>;
  try {
    found = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `arch06: reading the hash table from ${path.basename(file)}` },
      async (progress) => {
        progress.report({ message: 'reading…' });
        const bytes = readFileBytes(file, MAX_EXE_BYTES);
        progress.report({ message: 'scanning…' });
        await new Promise((r) => setTimeout(r, 0)); // let the message show before the synchronous scan
        return tableFromExecutable(bytes, { file });
      },
    );
  } catch (e) {
    void showError(`arch06: cannot read ${file}: ${(e as Error).message}`);
    return;
  }
  if (isArch06Error(found)) {
    void showError(`arch06: ${found.message}`);
    return;
  }
  const stored: StoredTable = { file, offset: found.offset, table: found.table.map((v) => v ?? 0), ...(found.image ? { rva: found.image.rva } : {}) };
  await context.globalState.update(STATE_KEY, stored);
  const where = `file offset 0x${found.offset.toString(16).toUpperCase()}${found.image ? `, rva 0x${found.image.rva.toString(16).toUpperCase()}` : ''}`;
  const pick = await showInformation(`StringHash table found at ${where}; stored for arch06.`, 'Hash a Name');
  if (pick === 'Hash a Name') await hashWithTable(found.table);
}

async function hashWithTable(table: HashTable): Promise<void> {
  const name = await vscode.window.showInputBox({ prompt: 'Name to hash with the table from the executable (any byte)' });
  if (name === undefined) return;
  const r = new StringHasher(table).tryHash(name);
  if (!r.ok) {
    // Only characters beyond one byte (the table covers every byte) end up here.
    void showWarning(`Cannot hash "${name}": character ${r.index} is not a single byte.`);
    return;
  }
  const text = formatHash(r.hash);
  await vscode.env.clipboard.writeText(text);
  void showInformation(`StringHash("${name}") = ${text} (copied)`);
}
