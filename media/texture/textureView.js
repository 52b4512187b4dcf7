// @ts-check
// Texture editor webview: draws one level on a canvas (decoded by a Web Worker from the encoded
// bytes the host sends, or RGBA8 from the host for BC6H and fallbacks), with zoom
// (fit, 1:1, wheel), pan (drag), mip and slice choice, channel isolation, alpha over a
// checkerboard, a normal-map view, and the header fields beside it. Protocol: see
// extension/editors/textureEditor.ts.
(function () {
  // eslint-disable-next-line no-undef
  const vscode = acquireVsCodeApi();
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const canvas = /** @type {HTMLCanvasElement} */ ($('view'));
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  const stage = $('stage');
  const mipSelect = /** @type {HTMLSelectElement} */ ($('mip'));
  const sliceSelect = /** @type {HTMLSelectElement} */ ($('slice'));
  const alphaBox = /** @type {HTMLInputElement} */ ($('alpha'));
  const exposureInput = /** @type {HTMLInputElement} */ ($('exposure'));
  const state = Object.assign({ mip: 0, slice: 0, channel: 'rgb', zoom: 0, panX: 0, panY: 0, alpha: true, exposure: 0 }, vscode.getState() || {});
  let firstPixelsSent = false;
  /** @type {{width:number,height:number,rgba:Uint8ClampedArray}|undefined} */
  let level;
  let info;

  const save = () => vscode.setState({ mip: state.mip, slice: state.slice, channel: state.channel, alpha: state.alpha, exposure: state.exposure });
  const leaf = (p) => String(p).split(/[\\/]/).pop();

  function esc(s) {
    return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  }

  function showInfo() {
    const rows = [
      ['file', info.file],
      ['container', info.container],
      ['format', info.format + (info.decodable ? '' : ' (not decodable: ' + info.reason + ')')],
      ['size', info.width + ' × ' + info.height + (info.texrSize ? '  (header pair ' + info.texrSize.width + ' × ' + info.texrSize.height + ')' : '')],
      ['mips', info.mipCount],
      ['surfaces', info.surfaces + ' (' + info.dimension + ')'],
    ];
    if (info.tierName) rows.push(['name field', info.tierName.path + ' (' + info.tierName.tier + ')']);
    if (info.role && info.role.srgbMeasured) rows.push(['sRGB', 'flag not located in the header (UNCERTAIN); seed 004 found it set on ' + info.role.srgbMeasured + (info.role.srgbLikely ? ': shown as stored, which is how a colour texture looks' : ': shown as stored (linear data)')]);
    else rows.push(['sRGB', 'flag not located in the header (UNCERTAIN); shown as stored']);
    let html = '<h3>Texture</h3><table>' + rows.map((r) => '<tr><th>' + esc(r[0]) + '</th><td>' + esc(r[1]) + '</td></tr>').join('') + '</table>';
    if (info.role && info.role.kind === 'normal') html += '<p class="hint">Normal map: the game stores X in green and Y in alpha (use N to rebuild Z).</p>';
    if (info.role && info.role.kind === 'specular') html += '<p class="hint">_s map: reflectance in R, a mask in G, roughness in B (the channel buttons are labelled).</p>';
    if (info.texa) {
      html += '<h3>TEXA array <span class="mark" title="no documented layout">uncertain</span></h3><table>';
      if (info.texa.ownPath) html += '<tr><th>own path</th><td>' + esc(info.texa.ownPath) + '</td></tr>';
      (info.texa.slicePaths || []).forEach((p, i) => { html += '<tr><th>slice ' + i + '</th><td>' + esc(p) + '</td></tr>'; });
      if (!info.texa.slicePaths) info.texa.paths.forEach((p) => { html += '<tr><th>0x' + p.offset.toString(16) + '</th><td>' + esc(p.text) + ' (' + esc(p.framing) + ')</td></tr>'; });
      html += '<tr><th>header</th><td><code>' + esc(info.texa.headerHex) + '</code> (' + info.texa.headerBytes + ' bytes)</td></tr></table>';
    }
    if (info.fields) {
      html += '<h3>TEXR header</h3><table class="fields">' + info.fields.map((f) => '<tr class="' + (f.certainty === 'UNCERTAIN' ? 'uncertain' : '') + '"><th>' + esc(f.name) + '</th><td>0x' + f.offset.toString(16) + '</td><td><code>' + esc(f.raw) + '</code></td><td>' + esc(f.value ?? '') + (f.certainty === 'UNCERTAIN' ? ' <span class="mark" title="' + esc(f.note || 'meaning not known') + '">uncertain</span>' : '') + '</td></tr>').join('') + '</table>';
    }
    const tiers = new Set(info.levels.map((l) => l.from));
    html += '<h3>Mips' + (tiers.size > 1 ? ' (full-resolution chain over ' + tiers.size + ' tier files)' : '') + '</h3><table>' + info.levels.map((l) => '<tr><th>' + l.mip + '</th><td>' + l.width + ' × ' + l.height + '</td><td>' + l.size.toLocaleString() + ' bytes</td><td>' + esc(l.from) + '</td></tr>').join('') + '</table>';
    if (info.notes && info.notes.length) html += '<h3>Notes</h3><ul>' + info.notes.map((n) => '<li>' + esc(n) + '</li>').join('') + '</ul>';
    $('info').innerHTML = html;
  }

  function fill(select, count, label) {
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
  function request() {
    if (info && info.hdr) {
      if (hdrInFlight) { hdrAgain = true; return; }
      hdrInFlight = true;
    }
    vscode.postMessage({ type: 'level', slice: state.slice, mip: state.mip, exposure: state.exposure });
  }
  function hdrAnswered() {
    if (!hdrInFlight) return;
    hdrInFlight = false;
    if (hdrAgain) { hdrAgain = false; request(); }
  }

  /** _s and _n maps name their channels (seed 004); others keep R, G, B, A. */
  function labelChannels() {
    const ch = info && info.role && info.role.channels;
    document.querySelectorAll('[data-channel]').forEach((b) => {
      const el = /** @type {HTMLElement} */ (b);
      const c = el.dataset.channel;
      if (!ch || !['r', 'g', 'b', 'a'].includes(c) || !ch[c]) return;
      el.textContent = c.toUpperCase() + ' ' + ch[c];
      el.title = ch[c] + ' only (' + c.toUpperCase() + ')';
    });
  }

  /** The current level as shown (channels applied) to the clipboard as a PNG. */
  function copyPng() {
    if (!level) return;
    canvas.toBlob((blob) => {
      if (!blob) return vscode.postMessage({ type: 'copied', ok: false, message: 'the canvas gave no PNG' });
      // eslint-disable-next-line no-undef
      const item = new ClipboardItem({ 'image/png': blob });
      navigator.clipboard.write([item]).then(
        () => vscode.postMessage({ type: 'copied', ok: true }),
        (e) => vscode.postMessage({ type: 'copied', ok: false, message: String(e && e.message ? e.message : e) }),
      );
    }, 'image/png');
  }

  /** The visible pixels for the current channel choice. */
  function composed() {
    if (!level) return undefined;
    const src = level.rgba;
    const out = new Uint8ClampedArray(src.length);
    const ch = state.channel;
    for (let i = 0; i < src.length; i += 4) {
      let r = src[i], g = src[i + 1], b = src[i + 2], a = src[i + 3];
      if (ch === 'r') g = b = r;
      else if (ch === 'g') r = b = g;
      else if (ch === 'b') r = g = b;
      else if (ch === 'a') { r = g = b = a; a = 255; }
      else if (ch === 'normal') {
        // X in green, Y in alpha (seed 004); Z = sqrt(1 - x² - y²).
        const x = (g / 255) * 2 - 1, y = (a / 255) * 2 - 1;
        const z = Math.sqrt(Math.max(0, 1 - x * x - y * y));
        r = (x * 0.5 + 0.5) * 255; g = (y * 0.5 + 0.5) * 255; b = (z * 0.5 + 0.5) * 255; a = 255;
      }
      if (!state.alpha) a = 255;
      out[i] = r; out[i + 1] = g; out[i + 2] = b; out[i + 3] = a;
    }
    return out;
  }

  function draw() {
    if (!level) return;
    canvas.width = level.width;
    canvas.height = level.height;
    const px = composed();
    if (px) ctx.putImageData(new ImageData(px, level.width, level.height), 0, 0);
    layout();
  }

  function fitZoom() {
    if (!level) return 1;
    const r = stage.getBoundingClientRect();
    return Math.max(1 / 64, Math.min((r.width - 16) / level.width, (r.height - 16) / level.height));
  }

  function layout() {
    if (!level) return;
    const z = state.zoom || fitZoom();
    canvas.style.width = level.width * z + 'px';
    canvas.style.height = level.height * z + 'px';
    canvas.style.transform = 'translate(' + state.panX + 'px,' + state.panY + 'px)';
    canvas.classList.toggle('pixelated', z >= 2);
    $('zoomText').textContent = level.width + '×' + level.height + ' · ' + Math.round(z * 100) + '%' + (state.zoom ? '' : ' (fit)');
  }

  function setZoom(z) {
    state.zoom = z;
    if (!z) state.panX = state.panY = 0;
    layout();
  }

  // The decoder: a Web Worker started from the decoder source the host inlined into the page.
  // undefined = not tried yet, null = unavailable (the host decodes instead).
  let worker;
  let nextJob = 1;
  const jobs = new Map();
  function decoder() {
    if (worker !== undefined) return worker;
    try {
      const src = $('decoderSource').textContent || '';
      let url = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
      // Once the worker has answered (or failed) it has its script: the URL is not needed again.
      const release = () => { if (url) URL.revokeObjectURL(url); url = ''; };
      worker = new Worker(url);
      worker.onmessage = (e) => {
        release();
        const job = jobs.get(e.data.id);
        jobs.delete(e.data.id);
        if (job) job(e.data);
      };
      worker.onerror = () => {
        release();
        if (worker) worker.terminate();
        worker = null;
        for (const [, job] of jobs) job({ error: 'the decoder worker stopped' });
        jobs.clear();
      };
    } catch {
      worker = null;
    }
    return worker;
  }

  /** An encoded level from the host: decoded in the worker; if that fails, the host decodes it (and reports errors with a hex view). */
  function onLevelData(m) {
    if (m.mip !== state.mip || m.slice !== state.slice) return;
    const w = decoder();
    const askHost = () => vscode.postMessage({ type: 'level', slice: m.slice, mip: m.mip, exposure: state.exposure, host: true });
    if (!w) return askHost();
    const id = nextJob++;
    jobs.set(id, (r) => (r.error ? askHost() : onLevel({ slice: m.slice, mip: m.mip, width: m.width, height: m.height, rgba: r.rgba })));
    w.postMessage({ id, decoder: m.decoder, width: m.width, height: m.height, src: m.data, file: m.file }, [m.data]);
  }

  /** Route a level message: encoded (levelData), decoded (level) or failed. */
  function onLevelMessage(m) {
    hdrAnswered();
    if (m.type === 'levelFailed' && (m.mip !== state.mip || m.slice !== state.slice)) return; // an answer to an older request
    if (m.type === 'levelData') onLevelData(m);
    else if (m.type === 'level') onLevel(m);
    else if (m.type === 'levelFailed') {
      $('stage').innerHTML = '<div class="message"><p>' + esc(m.message) + '</p>' + (m.hex ? '<pre>' + esc(m.hex) + '</pre>' : '') + '</div>';
    }
  }

  /** A decoded level: drawn when it is the one the controls ask for. */
  function onLevel(m) {
    if (m.mip !== state.mip || m.slice !== state.slice) return;
    level = { width: m.width, height: m.height, rgba: new Uint8ClampedArray(m.rgba) };
    document.body.dataset.level = m.mip + ':' + m.slice;
    draw();
    if (!firstPixelsSent) {
      firstPixelsSent = true;
      vscode.postMessage({ type: 'firstPixels' });
    }
  }

  window.addEventListener('message', (e) => {
    const m = e.data;
    if (m.type === 'init') {
      info = m.info;
      // Levels from a tier sibling (.tex0, .texuhd) say which file they come from.
      fill(mipSelect, info.levels.length, (i) => i + ': ' + info.levels[i].width + '×' + info.levels[i].height + (info.levels[i].from !== info.own ? ' · ' + info.levels[i].from : ''));
      // Array slices are named by their source texture when the TEXA header gives it.
      fill(sliceSelect, info.surfaces, (i) => (info.texa && info.texa.slicePaths && info.texa.slicePaths[i] ? i + ': ' + leaf(info.texa.slicePaths[i]) : String(i)));
      $('exposureLabel').style.display = info.hdr ? '' : 'none';
      labelChannels();
      $('sliceLabel').style.display = info.surfaces > 1 ? '' : 'none';
      state.mip = Math.min(state.mip, Math.max(0, info.levels.length - 1));
      state.slice = Math.min(state.slice, Math.max(0, info.surfaces - 1));
      mipSelect.value = String(state.mip);
      sliceSelect.value = String(state.slice);
      showInfo();
      if (m.first && m.first.mip === state.mip && m.first.slice === state.slice) onLevelMessage(m.first);
      else if (info.decodable) request();
      else $('stage').innerHTML = '<div class="message">This format is not decoded yet: ' + esc(info.reason || info.format) + '. The header is on the right.</div>';
    } else if (m.type === 'failed') {
      document.body.innerHTML = '<div class="message"><h3>This file could not be read as a texture</h3><p>' + esc(m.message) + '</p><p>First bytes (' + m.size + ' in all):</p><pre>' + esc(m.hex) + '</pre></div>';
    } else if (m.type === 'level' || m.type === 'levelData' || m.type === 'levelFailed') {
      onLevelMessage(m);
    }
  });

  mipSelect.addEventListener('change', () => { state.mip = Number(mipSelect.value); save(); request(); });
  sliceSelect.addEventListener('change', () => { state.slice = Number(sliceSelect.value); save(); request(); });
  alphaBox.checked = state.alpha;
  alphaBox.addEventListener('change', () => { state.alpha = alphaBox.checked; save(); draw(); });
  const channelButtons = document.querySelectorAll('[data-channel]');
  const setChannel = (c) => {
    state.channel = c;
    channelButtons.forEach((b) => b.classList.toggle('on', /** @type {HTMLElement} */ (b).dataset.channel === c));
    save();
    draw();
  };
  channelButtons.forEach((b) => b.addEventListener('click', () => setChannel(/** @type {HTMLElement} */ (b).dataset.channel)));
  setChannel(state.channel);
  $('fit').addEventListener('click', () => setZoom(0));
  $('actual').addEventListener('click', () => setZoom(1));
  $('export').addEventListener('click', () => vscode.postMessage({ type: 'exportPng', slice: state.slice, mip: state.mip }));
  $('exportDds').addEventListener('click', () => vscode.postMessage({ type: 'exportDds' }));
  $('copyPng').addEventListener('click', copyPng);
  exposureInput.value = String(state.exposure);
  $('exposureText').textContent = String(state.exposure);
  exposureInput.addEventListener('input', () => {
    state.exposure = Number(exposureInput.value);
    $('exposureText').textContent = (state.exposure > 0 ? '+' : '') + state.exposure;
    save();
    request();
  });
  stage.addEventListener('wheel', (e) => {
    e.preventDefault();
    const z = state.zoom || fitZoom();
    setZoom(Math.max(1 / 64, Math.min(64, z * (e.deltaY < 0 ? 1.25 : 0.8))));
  }, { passive: false });
  let drag;
  stage.addEventListener('pointerdown', (e) => { drag = { x: e.clientX - state.panX, y: e.clientY - state.panY }; stage.setPointerCapture(e.pointerId); });
  stage.addEventListener('pointermove', (e) => { if (drag) { state.panX = e.clientX - drag.x; state.panY = e.clientY - drag.y; layout(); } });
  stage.addEventListener('pointerup', () => { drag = undefined; });
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
    else if (['r', 'g', 'b', 'a'].includes(k)) setChannel(state.channel === k ? 'rgb' : k);
    else if (k === 'n') setChannel(state.channel === 'normal' ? 'rgb' : 'normal');
  });
  window.addEventListener('resize', layout);
  vscode.postMessage({ type: 'ready' });
  // Start the decoder now, so its start-up overlaps the host's answer.
  decoder();
})();
