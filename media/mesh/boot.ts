/**
 * The mesh viewer's first moments: the header and progress line until the model is on screen, and
 * the report of when the page first painted (the host logs it; the E2E first-paint check reads it).
 */
import { el } from '../shared/html';
import type { ViewToHost } from './protocol';

/**
 * The header and progress line shown until the model is on screen: the page's own `#boot` (drawn
 * before this script loaded), or one made here for a page without it.
 */
export class Boot {
  readonly element: HTMLElement;
  private readonly text: HTMLElement;
  constructor() {
    this.element = document.getElementById('boot') ?? el('div', { id: 'boot' });
    if (!this.element.isConnected) document.body.prepend(this.element);
    this.text = this.element.querySelector<HTMLElement>('.bootText') ?? this.element.appendChild(el('div', { className: 'bootText' }));
  }
  say(text: string): void {
    this.text.textContent = text;
  }
  done(): void {
    this.element.hidden = true;
  }
}

/**
 * Tells the host when the page first painted (its header and progress line, from the markup),
 * when this script started and when `ready` went, all from the document's time origin
 * (`scriptStart`, `readyAt`: `performance.now()` then). The
 * paint entry is usually there already; otherwise it is awaited for up to two seconds.
 */
export function reportPaint(post: (msg: ViewToHost) => void, scriptStart: number, readyAt: number): void {
  let sent = false;
  const send = (firstPaintMs: number): void => {
    if (sent) return;
    sent = true;
    const page = (globalThis as { __arch06PageStart?: unknown }).__arch06PageStart;
    post({ type: 'painted', pageMs: typeof page === 'number' ? page : -1, firstPaintMs, scriptMs: scriptStart, readyMs: readyAt });
  };
  const fcp = (entries: PerformanceEntryList): PerformanceEntry | undefined => entries.find((e) => e.name === 'first-contentful-paint');
  const now = fcp(performance.getEntriesByType('paint'));
  if (now) return send(now.startTime);
  try {
    const observer = new PerformanceObserver((list) => {
      const e = fcp(list.getEntries());
      if (!e) return;
      observer.disconnect();
      send(e.startTime);
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    // No paint timing here: reported as -1 below.
  }
  setTimeout(() => send(-1), 2000);
}
