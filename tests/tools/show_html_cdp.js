// Drives headless Chromium over the Chrome DevTools Protocol to test a `tessera show --format
// html` page like a user would: real mouse events (Input.dispatchMouseEvent) at the screen
// position of a cell, then checks of the tooltip text and of the highlighted cells, a screenshot,
// and wheel zoom and drag pan. No npm packages: a minimal WebSocket client over `net`.
//
// node show_html_cdp.js CHROMIUM PAGE.html SHOT.png I,J TIP_SUBSTRINGS KEY_ATTR KEY_VALUE COUNT
//   TIP_SUBSTRINGS  '|'-separated strings the tooltip must contain, e.g. '(5,9)|offset 149|thread 33'
//   KEY_ATTR        t (TV: same thread) or o (plain: same offset); KEY_VALUE its value
//   COUNT           how many cells must be highlighted (exactly those with data-KEY_ATTR=KEY_VALUE)
// Exit status 0 on success, 1 with a message on any failed check.
'use strict';
const { spawn } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');

const [chromium, page, shot, cell, tipArg, keyAttr, keyValue, countArg] = process.argv.slice(2);
const [ci, cj] = cell.split(',').map(Number);

function fail(msg) {
  console.error('FAIL: ' + msg);
  process.exitCode = 1;
  throw new Error(msg);
}

// ---- a minimal WebSocket client (RFC 6455: text frames, masking, fragmentation) --------------
function wsConnect(url) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const sock = net.connect(Number(u.port), u.hostname);
    const key = crypto.randomBytes(16).toString('base64');
    let buf = Buffer.alloc(0);
    let open = false;
    let partial = [];
    const ws = { onmessage: null, send(text) {
      const data = Buffer.from(text, 'utf8');
      const n = data.length;
      const head = n < 126 ? Buffer.from([0x81, 0x80 | n])
        : n < 65536 ? Buffer.from([0x81, 0x80 | 126, n >> 8, n & 255])
        : (() => { const h = Buffer.alloc(10); h[0] = 0x81; h[1] = 0x80 | 127; h.writeBigUInt64BE(BigInt(n), 2); return h; })();
      const mask = crypto.randomBytes(4);
      const body = Buffer.alloc(n);
      for (let i = 0; i < n; ++i) body[i] = data[i] ^ mask[i & 3];
      sock.write(Buffer.concat([head, mask, body]));
    }, close() { sock.destroy(); } };
    sock.on('connect', () => {
      sock.write(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\n` +
                 `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    sock.on('error', reject);
    sock.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (!open) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const status = buf.slice(0, end).toString().split('\r\n')[0];
        if (!/ 101 /.test(status)) { reject(new Error('WebSocket handshake failed: ' + status)); return; }
        buf = buf.slice(end + 4);
        open = true;
        resolve(ws);
      }
      for (;;) {
        if (buf.length < 2) return;
        const fin = (buf[0] & 0x80) !== 0, op = buf[0] & 0x0f;
        let len = buf[1] & 0x7f, off = 2;
        if (len === 126) { if (buf.length < 4) return; len = buf.readUInt16BE(2); off = 4; }
        else if (len === 127) { if (buf.length < 10) return; len = Number(buf.readBigUInt64BE(2)); off = 10; }
        if (buf.length < off + len) return;
        const payload = buf.slice(off, off + len);
        buf = buf.slice(off + len);
        if (op === 0x8) { sock.destroy(); return; }
        if (op === 0x1 || op === 0x0) {
          partial.push(payload);
          if (fin) { const text = Buffer.concat(partial).toString('utf8'); partial = []; if (ws.onmessage) ws.onmessage(text); }
        }
      }
    });
  });
}

function getJson(port, p) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: p }, (res) => {
      let s = '';
      res.on('data', (d) => { s += d; });
      res.on('end', () => { try { resolve(JSON.parse(s)); } catch (e) { reject(e); } });
    }).on('error', reject);
  });
}

async function main() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-chromium-'));
  const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-extensions',
    '--user-data-dir=' + profile, '--remote-debugging-port=0', '--window-size=1280,800', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  const killer = setTimeout(() => { console.error('FAIL: timed out'); browser.kill('SIGKILL'); process.exit(1); }, 90000);
  try {
    const port = await new Promise((resolve, reject) => {
      let err = '';
      browser.stderr.on('data', (d) => {
        err += d;
        const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
        if (m) resolve(Number(m[1]));
      });
      browser.on('exit', (code) => reject(new Error('chromium exited (' + code + '): ' + err)));
    });
    const targets = await getJson(port, '/json/list');
    const target = targets.find((t) => t.type === 'page');
    if (!target) fail('no page target in ' + JSON.stringify(targets));
    const ws = await wsConnect(target.webSocketDebuggerUrl);
    let nextId = 1;
    const pending = new Map();
    const waiters = [];
    ws.onmessage = (text) => {
      const msg = JSON.parse(text);
      if (msg.id && pending.has(msg.id)) {
        const { resolve, reject } = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) reject(new Error(JSON.stringify(msg.error))); else resolve(msg.result);
      } else if (msg.method) {
        for (let k = waiters.length - 1; k >= 0; --k)
          if (waiters[k].method === msg.method) { waiters[k].resolve(msg.params); waiters.splice(k, 1); }
      }
    };
    const send = (method, params = {}) => new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
    const event = (method) => new Promise((resolve) => waiters.push({ method, resolve }));
    const evaluate = async (expr) => {
      const r = await send('Runtime.evaluate', { expression: expr, returnByValue: true });
      if (r.exceptionDetails) fail('page script error: ' + JSON.stringify(r.exceptionDetails));
      return r.result.value;
    };
    const mouse = (type, x, y, extra = {}) => send('Input.dispatchMouseEvent', Object.assign({ type, x, y }, extra));
    const center = (selector) => evaluate(`(() => { const e = document.querySelector(${JSON.stringify(selector)});
      if (!e) return null; const b = e.getBoundingClientRect(); return { x: b.x + b.width / 2, y: b.y + b.height / 2 }; })()`);
    const transform = () => evaluate(`document.querySelector('#vp svg').style.transform`);

    await send('Page.enable');
    await send('Runtime.enable');
    const loaded = event('Page.loadEventFired');
    await send('Page.navigate', { url: 'file://' + path.resolve(page) });
    await loaded;

    // 1:1 (a real click on the button), then hover the cell where it is on screen.
    const one = await center('#z1');
    if (!one) fail('no 1:1 button');
    await mouse('mouseMoved', one.x, one.y);
    await mouse('mousePressed', one.x, one.y, { button: 'left', clickCount: 1 });
    await mouse('mouseReleased', one.x, one.y, { button: 'left', clickCount: 1 });
    const at = await center(`#cells rect[data-i="${ci}"][data-j="${cj}"]`);
    if (!at) fail(`no cell (${ci},${cj}) in the page`);
    await mouse('mouseMoved', at.x - 3, at.y);
    await mouse('mouseMoved', at.x, at.y);
    const state = await evaluate(`(() => {
      const tip = document.getElementById('tip');
      const hl = Array.from(document.querySelectorAll('#cells rect.hl')).map(r => r.getAttribute('data-i') + ',' + r.getAttribute('data-j'));
      const same = Array.from(document.querySelectorAll('#cells rect[data-${keyAttr}="${keyValue}"]')).map(r => r.getAttribute('data-i') + ',' + r.getAttribute('data-j'));
      const hit = document.elementFromPoint(${at.x}, ${at.y});
      return { tip: tip.textContent, tipHidden: tip.hidden, hl, same,
               hit: hit ? hit.getAttribute('data-i') + ',' + hit.getAttribute('data-j') : null };
    })()`);
    console.log('hovered cell (' + ci + ',' + cj + ') at (' + at.x.toFixed(1) + ',' + at.y.toFixed(1) + '); tooltip: ' +
                JSON.stringify(state.tip) + '; highlighted: ' + state.hl.length + ' cells');
    if (state.hit !== `${ci},${cj}`) fail('the element under the pointer is ' + state.hit + ', not the cell');
    if (state.tipHidden) fail('the tooltip is hidden after hovering');
    for (const s of tipArg.split('|')) if (!state.tip.includes(s)) fail(`tooltip ${JSON.stringify(state.tip)} lacks ${JSON.stringify(s)}`);
    const expected = Number(countArg);
    if (state.same.length !== expected) fail(`${state.same.length} cells have data-${keyAttr}=${keyValue}, expected ${expected}`);
    const hl = new Set(state.hl), same = new Set(state.same);
    if (hl.size !== same.size || [...same].some((c) => !hl.has(c)))
      fail('highlighted cells ' + JSON.stringify(state.hl.slice(0, 40)) + ' differ from the cells with data-' + keyAttr +
           '=' + keyValue + ' ' + JSON.stringify(state.same.slice(0, 40)));
    if (!hl.has(`${ci},${cj}`)) fail('the hovered cell itself is not highlighted');

    const png = await send('Page.captureScreenshot', { format: 'png' });
    fs.writeFileSync(shot, Buffer.from(png.data, 'base64'));
    console.log('screenshot: ' + shot);

    // Wheel zoom about the pointer and drag pan change the picture's transform.
    const before = await transform();
    await send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: at.x, y: at.y, deltaX: 0, deltaY: -120 });
    await evaluate('new Promise(r => requestAnimationFrame(() => r(0)))');
    const zoomed = await transform();
    if (zoomed === before) fail('the mouse wheel did not zoom (transform stays ' + before + ')');
    await mouse('mousePressed', 600, 400, { button: 'left', clickCount: 1 });
    await mouse('mouseMoved', 500, 350, { button: 'left', buttons: 1 });
    await mouse('mouseReleased', 500, 350, { button: 'left', clickCount: 1 });
    const panned = await transform();
    if (panned === zoomed) fail('dragging did not pan (transform stays ' + zoomed + ')');
    console.log('zoom/pan: ' + before + ' -> ' + zoomed + ' -> ' + panned);
    ws.close();
    console.log('PASS');
  } finally {
    clearTimeout(killer);
    browser.kill('SIGKILL');
    try { fs.rmSync(profile, { recursive: true, force: true }); } catch (e) { /* profile left in tmp */ }
  }
}

main().catch((e) => { if (!process.exitCode) console.error('FAIL: ' + (e && e.stack || e)); process.exitCode = 1; });
