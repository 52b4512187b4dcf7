/**
 * When Ctrl+P and Ctrl+Shift+F go to arch06's Go to File and Find in Files, and what the one-time
 * hint says, without vscode (unit-tested in tests/quickOpenRedirect.test.ts). The wiring (the
 * context key, the hint's notification) is commands/quickOpenRedirect.ts; the keybindings are in
 * package.json, each with `args` naming the key it took over, so the command knows it was reached
 * that way.
 *
 * Why: VS Code's Quick Open and Search view cannot look inside a custom file system (the file and
 * text search provider APIs are proposed-only), so in the `arch06:` workspace Ctrl+P lists only
 * recent files and the Search view searches only open editors. No API lets an extension put a
 * hint into either (contributed welcome content shows only in tree views that are empty, and the
 * Search view never shows it), so the hint comes when the key is first taken over.
 */

/** The context key the keybindings' `when` clauses read. */
export const REDIRECT_CONTEXT_KEY = 'arch06.redirectQuickOpen';
/** The setting that turns the redirection off. */
export const REDIRECT_SETTING = 'redirectQuickOpenAndSearch';
/** globalState: the hint was shown (once per user, for both keys). */
export const HINT_SHOWN_KEY = 'arch06.quickOpenHintShown';

export interface RedirectState {
  /** The URI schemes of the window's workspace folders. */
  folderSchemes: readonly string[];
  mounted: boolean;
  /** The setting's value. */
  enabled: boolean;
}

/** Whether the keys go to arch06: an `arch06:` folder in the window, an install mounted, the setting on. */
export function redirectWanted(s: RedirectState): boolean {
  return s.enabled && s.mounted && s.folderSchemes.includes('arch06');
}

export type RedirectedKey = 'quickOpen' | 'search';

/** The key a command was reached by, from the keybinding's `args`; undefined from anywhere else. */
export function redirectedBy(args: unknown): RedirectedKey | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const r = (args as { redirectedFrom?: unknown }).redirectedFrom;
  return r === 'quickOpen' || r === 'search' ? r : undefined;
}

/** The hint, and its buttons. */
export function hintText(key: RedirectedKey, mac = false): string {
  const mod = mac ? 'Cmd' : 'Ctrl';
  const what =
    key === 'quickOpen'
      ? `${mod}+P opened arch06's Go to File: VS Code's Quick Open cannot see inside the game's archives (it lists only recent files there).`
      : `${mod}+Shift+F opened arch06's Find in Files: VS Code's Search view cannot see inside the game's archives (it searches only open editors there).`;
  return `${what} While the arch06: workspace is open, ${mod}+P and ${mod}+Shift+F go to arch06's own; ${mod}+Alt+P and ${mod}+Alt+F always do.`;
}

export const HINT_KEEP = 'Keep';
export const HINT_USE_VSCODE = "Use VS Code's Keys";
