/**
 * The texture editor's webview: draws one level on a canvas (decoded by a Web Worker from the
 * encoded bytes the host sends, or RGBA8 from the host for BC6H and fallbacks), with zoom (fit,
 * 1:1, wheel), pan (drag), mip and slice choice, channel isolation, alpha over a checkerboard, a
 * normal-map view, and the header fields beside it. The page's markup comes from the host
 * (extension/editors/textureEditor.ts), which inlines this bundle (dist/webview/textureView.js).
 *
 * Protocol: ./protocol.ts. The body's `data-level` ("mip:slice") says which level is drawn (tests).
 */
import { esc, failurePage } from '../shared/html';
import { hostChannel } from '../shared/webviewApi';
import type { DecodeReply, DecodeRequest, HostToView, LevelDataMessage, LevelReply, TextureInfo, ViewToHost } from './protocol';

type Channel = 'rgb' | 'r' | 'g' | 'b' | 'a' | 'normal';
const CHANNELS: readonly string[] = ['rgb', 'r', 'g', 'b', 'a', 'normal'];
const isChannel = (c: string | undefined): c is Channel => c !== undefined && CHANNELS.includes(c);

interface ViewState {
  mip: number;
  slice: number;
  channel: Channel;
  /** 0: fit to the window. */
  zoom: number;
  panX: number;
  panY: number;
  alpha: boolean;
  exposure: number;
}

const host = hostChannel<ViewToHost>();
const $ = (id: string): HTMLElement => document.getElementById(id)!;
const canvas = $('view') as HTMLCanvasElement;
const ctx = canvas.getContext('2d')!;
const stage = $('stage');
const mipSelect = $('mip') as HTMLSelectElement;
const sliceSelect = $('slice') as HTMLSelectElement;
const alphaBox = $('alpha') as HTMLInputElement;
const exposureInput = $('exposure') as HTMLInputElement;
const state: ViewState = {
  mip: 0,
  slice: 0,
  channel: 'rgb',
  zoom: 0,
  panX: 0,
  panY: 0,
  alpha: true,
  exposure: 0,
  ...(host.getState() as Partial<ViewState> | undefined),
};
let firstPixelsSent = false;
let level: { width: number; height: number; rgba: Uint8ClampedArray } | undefined;
let info: TextureInfo | undefined;

const save = (): void => host.setState({ mip: state.mip, slice: state.slice, channel: state.channel, alpha: state.alpha, exposure: state.exposure });
const leaf = (p: string): string => p.split(/[\\/]/).pop() ?? p;

function showInfo(info: TextureInfo): void {
  const rows: [string, string | number][] = [
    ['file', info.file],
    ['container', info.container],
    ['format', info.format + (info.decodable ? '' : ' (not decodable: ' + info.reason + ')')],
    ['size', info.width + ' × ' + info.height + (info.texrSize ? '  (header pair ' + info.texrSize.width + ' × ' + info.texrSize.height + ')' : '')],
    ['mips', info.mipCount],
    ['surfaces', info.surfaces + ' (' + info.dimension + ')'],
  ];
  if (info.tierName) rows.push(['name field', info.tierName.path + ' (' + info.tierName.tier + ')']);
  if (info.role.srgbMeasured)
    rows.push([
      'sRGB',
      'flag not located in the header (UNCERTAIN); seed 004 found it set on ' +
        info.role.srgbMeasured +
        (info.role.srgbLikely ? ': shown as stored, which is how a colour texture looks' : ': shown as stored (linear data)'),
    ]);
  else rows.push(['sRGB', 'flag not located in the header (UNCERTAIN); shown as stored']);
  let html = '<h3>Texture</h3><table>' + rows.map((r) => '<tr><th>' + esc(r[0]) + '</th><td>' + esc(r[1]) + '</td></tr>').join('') + '</table>';
  if (info.role.kind === 'normal') html += '<p class="hint">Normal map: the game stores X in green and Y in alpha (use N to rebuild Z).</p>';
  if (info.role.kind === 'specular') html += '<p class="hint">_s map: reflectance in R, a mask in G, roughness in B (the channel buttons are labelled).</p>';
  // Right below the summary: which tier files the picture is made of, and which are missing.
  if (info.tiers.length > 1 || info.header) html += tierTable(info);
  if (info.texa) {
    const texa = info.texa;
    html += '<h3>TEXA array <span class="mark" title="no documented layout">uncertain</span></h3><table>';
    if (texa.ownPath) html += '<tr><th>own path</th><td>' + esc(texa.ownPath) + '</td></tr>';
    (texa.slicePaths ?? []).forEach((p, i) => (html += '<tr><th>slice ' + i + '</th><td>' + esc(p) + '</td></tr>'));
    if (!texa.slicePaths)
      texa.paths.forEach((p) => (html += '<tr><th>0x' + p.offset.toString(16) + '</th><td>' + esc(p.text) + ' (' + esc(p.framing) + ')</td></tr>'));
    html += '<tr><th>header</th><td><code>' + esc(texa.headerHex) + '</code> (' + texa.headerBytes + ' bytes)</td></tr></table>';
  }
  if (info.fields) {
    html +=
      '<h3>TEXR header</h3><table class="fields">' +
      info.fields
        .map((f) => {
          // Whatever is not confirmed is marked with its confidence (likely, uncertain).
          const unsure = f.certainty !== 'confirmed';
          const mark = unsure ? ' <span class="mark" title="' + esc(f.note || 'meaning not known') + '">' + esc(f.certainty) + '</span>' : '';
          return (
            '<tr class="' +
            (unsure ? 'uncertain' : '') +
            '"><th>' +
            esc(f.name) +
            '</th><td>0x' +
            f.offset.toString(16) +
            '</td><td><code>' +
            esc(f.raw) +
            '</code></td><td>' +
            esc(f.value ?? '') +
            mark +
            '</td></tr>'
          );
        })
        .join('') +
      '</table>';
  }
  const tiers = new Set(info.levels.map((l) => l.from));
  html += '<h3>Mips' + (tiers.size > 1 ? ' (full-resolution chain over ' + tiers.size + ' tier files)' : '') + '</h3><table>';
  html +=
    info.levels
      .map(
        (l) =>
          '<tr><th>' +
          l.mip +
          '</th><td>' +
          l.width +
          ' × ' +
          l.height +
          '</td><td>' +
          l.size.toLocaleString() +
          ' bytes</td><td>' +
          esc(l.from) +
          '</td></tr>',
      )
      .join('') + '</table>';
  if (info.notes.length) html += '<h3>Notes</h3><ul>' + info.notes.map((n) => '<li>' + esc(n) + '</li>').join('') + '</ul>';
  $('info').innerHTML = html;
}

/**
 * The stem's tier files, each present (with the archive or loose folder serving it) or missing
 * (with the path looked up); the one the header names and this file marked.
 */
function tierTable(info: TextureInfo): string {
  let html = '<h3>Tiers</h3>';
  if (info.header)
    html +=
      '<p class="hint">Header: ' +
      info.header.width +
      ' × ' +
      info.header.height +
      (info.header.names ? ', names the .' + esc(info.header.names) + ' tier' : info.header.nameField ? ', name field ' + esc(info.header.nameField) : '') +
      '</p>';
  html += '<table class="tiers">';
  for (const t of info.tiers) {
    const marks = (t.own ? ' <span class="mark own">this file</span>' : '') + (t.named ? ' <span class="mark named">named by header</span>' : '');
    let state: string;
    if (!t.present) state = '<span class="missing">missing</span> · looked up <code>' + esc(t.path) + '</code>';
    else {
      state =
        '<span class="present">present</span>' +
        (t.source ? ' in ' + esc(t.source.name) + (t.source.kind === 'folder' ? ' (loose folder)' : ' (archive)') : '');
      if (t.size !== undefined) state += ' · ' + t.size.toLocaleString() + ' bytes';
      if (!t.joined) state += ' · <span class="missing">not used: ' + esc(t.reason || 'unknown reason') + '</span>';
    }
    // Two lines a tier (the file and its marks, then its state): the panel is narrow and paths are long.
    html +=
      '<tbody data-tier="' +
      esc(t.ext) +
      '" data-present="' +
      t.present +
      '"><tr><th>' +
      esc(t.file) +
      marks +
      '</th></tr><tr><td class="state">' +
      state +
      '</td></tr></tbody>';
  }
  return html + '</table>';
}

/** The plain sentence at the top when the header's full size is not in the mount. */
function showBanner(info: TextureInfo): void {
  const banner = $('tierBanner');
  banner.textContent = info.shortfall ? '⚠ ' + info.shortfall.message : '';
  banner.hidden = !info.shortfall;
}

function fill(select: HTMLSelectElement, count: number, label: (i: number) => string): void {
  select.innerHTML = '';
  for (let i = 0; i < count; i++) {
    const o = document.createElement('option');
    o.value = String(i);
    o.textContent = label(i);
    select.appendChild(o);
  }
}

// HDR levels are tone-mapped by the host for each exposure: one request in flight at a time,
// and the latest exposure sent once it answers, however fast the slider moves.
let hdrInFlight = false;
let hdrAgain = false;
function request(): void {
  if (info?.hdr) {
    if (hdrInFlight) {
      hdrAgain = true;
      return;
    }
    hdrInFlight = true;
  }
  host.post({ type: 'level', slice: state.slice, mip: state.mip, exposure: state.exposure });
}
function hdrAnswered(): void {
  if (!hdrInFlight) return;
  hdrInFlight = false;
  if (hdrAgain) {
    hdrAgain = false;
    request();
  }
}

/** _s and _n maps name their channels (seed 004); others keep R, G, B, A. */
function labelChannels(): void {
  const ch = info?.role.channels;
  document.querySelectorAll<HTMLElement>('[data-channel]').forEach((el) => {
    const c = el.dataset.channel;
    if (!ch || (c !== 'r' && c !== 'g' && c !== 'b' && c !== 'a') || !ch[c]) return;
    el.textContent = c.toUpperCase() + ' ' + ch[c];
    el.title = ch[c] + ' only (' + c.toUpperCase() + ')';
  });
}

/** The current level as shown (channels applied) to the clipboard as a PNG. */
function copyPng(): void {
  if (!level) return;
  canvas.toBlob((blob) => {
    if (!blob) return host.post({ type: 'copied', ok: false, message: 'the canvas gave no PNG' });
    navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]).then(
      () => host.post({ type: 'copied', ok: true }),
      (e: unknown) => host.post({ type: 'copied', ok: false, message: String(e instanceof Error ? e.message : e) }),
    );
  }, 'image/png');
}

/** The visible pixels for the current channel choice. */
function composed(src: Uint8ClampedArray): Uint8ClampedArray<ArrayBuffer> {
  const out = new Uint8ClampedArray(src.length);
  const ch = state.channel;
  for (let i = 0; i < src.length; i += 4) {
    let r = src[i]!,
      g = src[i + 1]!,
      b = src[i + 2]!,
      a = src[i + 3]!;
    if (ch === 'r') g = b = r;
    else if (ch === 'g') r = b = g;
    else if (ch === 'b') r = g = b;
    else if (ch === 'a') {
      r = g = b = a;
      a = 255;
    } else if (ch === 'normal') {
      // X in green, Y in alpha (seed 004); Z = sqrt(1 - x² - y²).
      const x = (g / 255) * 2 - 1,
        y = (a / 255) * 2 - 1;
      const z = Math.sqrt(Math.max(0, 1 - x * x - y * y));
      r = (x * 0.5 + 0.5) * 255;
      g = (y * 0.5 + 0.5) * 255;
      b = (z * 0.5 + 0.5) * 255;
      a = 255;
    }
    if (!state.alpha) a = 255;
    out[i] = r;
    out[i + 1] = g;
    out[i + 2] = b;
    out[i + 3] = a;
  }
  return out;
}

function draw(): void {
  if (!level) return;
  canvas.width = level.width;
  canvas.height = level.height;
  ctx.putImageData(new ImageData(composed(level.rgba), level.width, level.height), 0, 0);
  layout();
}

function fitZoom(): number {
  if (!level) return 1;
  const r = stage.getBoundingClientRect();
  return Math.max(1 / 64, Math.min((r.width - 16) / level.width, (r.height - 16) / level.height));
}

function layout(): void {
  if (!level) return;
  const z = state.zoom || fitZoom();
  canvas.style.width = level.width * z + 'px';
  canvas.style.height = level.height * z + 'px';
  canvas.style.transform = 'translate(' + state.panX + 'px,' + state.panY + 'px)';
  canvas.classList.toggle('pixelated', z >= 2);
  const from = info?.levels[state.mip]?.from;
  $('zoomText').textContent =
    level.width + '×' + level.height + (from ? ' from ' + from : '') + ' · ' + Math.round(z * 100) + '%' + (state.zoom ? '' : ' (fit)');
}

function setZoom(z: number): void {
  state.zoom = z;
  if (!z) state.panX = state.panY = 0;
  layout();
}

// The decoder: a Web Worker started from the decoder source the host inlined into the page.
// undefined = not tried yet, null = unavailable (the host decodes instead).
let worker: Worker | null | undefined;
let nextJob = 1;
const jobs = new Map<number, (r: DecodeReply) => void>();
function decoder(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    const src = $('decoderSource').textContent || '';
    let url = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
    // Once the worker has answered (or failed) it has its script: the URL is not needed again.
    const release = (): void => {
      if (url) URL.revokeObjectURL(url);
      url = '';
    };
    const w = new Worker(url);
    w.onmessage = (e: MessageEvent<DecodeReply>) => {
      release();
      const job = jobs.get(e.data.id);
      jobs.delete(e.data.id);
      job?.(e.data);
    };
    w.onerror = () => {
      release();
      w.terminate();
      worker = null;
      for (const [id, job] of jobs) job({ id, error: 'the decoder worker stopped' });
      jobs.clear();
    };
    worker = w;
  } catch {
    worker = null;
  }
  return worker;
}

/** An encoded level from the host: decoded in the worker; if that fails, the host decodes it (and reports errors with a hex view). */
function onLevelData(m: LevelDataMessage): void {
  if (m.mip !== state.mip || m.slice !== state.slice) return;
  const w = decoder();
  const askHost = (): void => host.post({ type: 'level', slice: m.slice, mip: m.mip, exposure: state.exposure, host: true });
  if (!w) return askHost();
  const id = nextJob++;
  jobs.set(id, (r) => (r.error !== undefined ? askHost() : onLevel(m.slice, m.mip, m.width, m.height, r.rgba)));
  const job: DecodeRequest = { id, decoder: m.decoder, width: m.width, height: m.height, src: m.data, file: m.file };
  w.postMessage(job, [m.data]);
}

/** Route a level reply: encoded (levelData), decoded (level) or failed. */
function onLevelReply(m: LevelReply): void {
  hdrAnswered();
  if (m.type === 'levelData') onLevelData(m);
  else if (m.type === 'level') onLevel(m.slice, m.mip, m.width, m.height, m.rgba);
  else if (m.mip === state.mip && m.slice === state.slice) {
    // A failure of the level the controls ask for (not an answer to an older request).
    stage.innerHTML = '<div class="message"><p>' + esc(m.message) + '</p>' + (m.hex ? '<pre>' + esc(m.hex) + '</pre>' : '') + '</div>';
  }
}

/** A decoded level: drawn when it is the one the controls ask for. */
function onLevel(slice: number, mip: number, width: number, height: number, rgba: ArrayBuffer): void {
  if (mip !== state.mip || slice !== state.slice) return;
  level = { width, height, rgba: new Uint8ClampedArray(rgba) };
  document.body.dataset.level = mip + ':' + slice;
  draw();
  if (!firstPixelsSent) {
    firstPixelsSent = true;
    host.post({ type: 'firstPixels' });
  }
}

function onInit(i: TextureInfo, first: LevelReply | undefined): void {
  info = i;
  // Every level says which tier file it comes from (the top one too: it may not be this file).
  fill(mipSelect, i.levels.length, (k) => k + ': ' + i.levels[k]!.width + '×' + i.levels[k]!.height + ' · ' + i.levels[k]!.from);
  showBanner(i);
  // Array slices are named by their source texture when the TEXA header gives it.
  fill(sliceSelect, i.surfaces, (k) => (i.texa?.slicePaths?.[k] ? k + ': ' + leaf(i.texa.slicePaths[k]!) : String(k)));
  $('exposureLabel').style.display = i.hdr ? '' : 'none';
  labelChannels();
  $('sliceLabel').style.display = i.surfaces > 1 ? '' : 'none';
  state.mip = Math.min(state.mip, Math.max(0, i.levels.length - 1));
  state.slice = Math.min(state.slice, Math.max(0, i.surfaces - 1));
  mipSelect.value = String(state.mip);
  sliceSelect.value = String(state.slice);
  showInfo(i);
  if (first && first.mip === state.mip && first.slice === state.slice) onLevelReply(first);
  else if (i.decodable) request();
  else stage.innerHTML = '<div class="message">This format is not decoded yet: ' + esc(i.reason || i.format) + '. The header is on the right.</div>';
}

window.addEventListener('message', (e: MessageEvent<HostToView>) => {
  const m = e.data;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'init') onInit(m.info, m.first);
  else if (m.type === 'failed') document.body.innerHTML = '<div class="message">' + failurePage('a texture', m) + '</div>';
  else if (m.type === 'level' || m.type === 'levelData' || m.type === 'levelFailed') onLevelReply(m);
});

mipSelect.addEventListener('change', () => {
  state.mip = Number(mipSelect.value);
  save();
  request();
});
sliceSelect.addEventListener('change', () => {
  state.slice = Number(sliceSelect.value);
  save();
  request();
});
alphaBox.checked = state.alpha;
alphaBox.addEventListener('change', () => {
  state.alpha = alphaBox.checked;
  save();
  draw();
});
const channelButtons = document.querySelectorAll<HTMLElement>('[data-channel]');
function setChannel(c: Channel): void {
  state.channel = c;
  channelButtons.forEach((b) => b.classList.toggle('on', b.dataset.channel === c));
  save();
  draw();
}
channelButtons.forEach((b) =>
  b.addEventListener('click', () => {
    if (isChannel(b.dataset.channel)) setChannel(b.dataset.channel);
  }),
);
setChannel(isChannel(state.channel) ? state.channel : 'rgb');
$('fit').addEventListener('click', () => setZoom(0));
$('actual').addEventListener('click', () => setZoom(1));
$('export').addEventListener('click', () => host.post({ type: 'exportPng', slice: state.slice, mip: state.mip }));
$('exportDds').addEventListener('click', () => host.post({ type: 'exportDds' }));
$('copyPng').addEventListener('click', copyPng);
exposureInput.value = String(state.exposure);
$('exposureText').textContent = String(state.exposure);
exposureInput.addEventListener('input', () => {
  state.exposure = Number(exposureInput.value);
  $('exposureText').textContent = (state.exposure > 0 ? '+' : '') + state.exposure;
  save();
  request();
});
stage.addEventListener(
  'wheel',
  (e) => {
    e.preventDefault();
    const z = state.zoom || fitZoom();
    setZoom(Math.max(1 / 64, Math.min(64, z * (e.deltaY < 0 ? 1.25 : 0.8))));
  },
  { passive: false },
);
let drag: { x: number; y: number } | undefined;
stage.addEventListener('pointerdown', (e) => {
  drag = { x: e.clientX - state.panX, y: e.clientY - state.panY };
  stage.setPointerCapture(e.pointerId);
});
stage.addEventListener('pointermove', (e) => {
  if (!drag) return;
  state.panX = e.clientX - drag.x;
  state.panY = e.clientY - drag.y;
  layout();
});
stage.addEventListener('pointerup', () => (drag = undefined));
document.addEventListener('keydown', (e) => {
  const k = e.key.toLowerCase();
  // Ctrl+C copies the picture, unless the user selected text (a header value) to copy.
  if ((e.ctrlKey || e.metaKey) && k === 'c') {
    const sel = window.getSelection();
    if (!sel || sel.isCollapsed) copyPng();
    return;
  }
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  if (k === 'f') setZoom(0);
  else if (k === '1') setZoom(1);
  else if (k === 'r' || k === 'g' || k === 'b' || k === 'a') setChannel(state.channel === k ? 'rgb' : k);
  else if (k === 'n') setChannel(state.channel === 'normal' ? 'rgb' : 'normal');
});
window.addEventListener('resize', layout);
host.post({ type: 'ready' });
// Start the decoder now, so its start-up overlaps the host's answer.
decoder();
