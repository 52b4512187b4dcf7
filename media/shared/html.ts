/** Small DOM helpers both webviews use: escaping, building elements, and the failure page. */
import type { FailedMessage } from './protocol';

/** `s` as HTML text (for innerHTML built from file data). */
export function esc(s: unknown): string {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** Numbers as the panels print them (1,234). */
export const fmt = (n: number): string => n.toLocaleString('en-US');

/** An element with properties and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const c of children) e.append(c);
  return e;
}

/** The inside of the page shown in place of the view when the host reports a file that did not parse. */
export function failurePage(what: string, m: FailedMessage): string {
  return (
    `<h3>This file could not be read as ${esc(what)}</h3><p>${esc(m.message)}</p>` +
    `<p>First bytes${m.size !== undefined ? ` (${esc(fmt(m.size))} in all)` : ''}:</p><pre>${esc(m.hex)}</pre>`
  );
}

/** `f` run once in the next animation frame, however often the returned function is called before it (scroll events, bursts of messages). */
export function inNextFrame(f: () => void): () => void {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      f();
    });
  };
}
