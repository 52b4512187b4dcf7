// The string-table webview as the E2E tests find it (stringTable and stringTableEdit).
import type { Frame } from 'playwright-core';
import type { Harness } from './harness';

/** The string-table webview whose heading is `title`, once its rows are in and the element `control` is there. */
export async function stringTableFrame(h: Harness, title: string, control = 'search'): Promise<Frame> {
  return h.waitFor(
    async () => {
      for (const f of h.page.frames()) {
        const ok = await f
          .evaluate(
            ([t, c]) => {
              const doc = (globalThis as unknown as { document: any }).document;
              return !!doc.getElementById(c) && doc.body.dataset.state === 'rows' && doc.querySelector('#summary h2')?.textContent === t;
            },
            [title, control] as const,
          )
          .catch(() => false);
        if (ok) return f;
      }
      return undefined;
    },
    30_000,
    `the string-table webview for ${title}`,
  );
}
