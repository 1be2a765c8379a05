#!/usr/bin/env node
// take-screenshots.js -- the README's pictures, from real viewers: the
// leaky-canvas sample runs in headless Chromium (exact mode), leaks, and its
// C heap is saved by the page itself (downloadSnapshot "heapsnapshot" and
// "dhat", and the Ctrl+Shift+H file, speedscope); the files are then opened
// in the speedscope app (npm speedscope), Chromium's own DevTools Memory
// panel and Valgrind's dh_view.html, and each is photographed.
//
//   make samples && node docs/take-screenshots.js   (writes docs/*.png)
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {launch} = require('../tests/lib/browser');
const {serve} = require('../harness/serve');
const {openSample, downloadFrom} = require('../tests/lib/sample_page');
const {panelSummary} = require('../tests/lib/devtools_panel');

const ROOT = path.join(__dirname, '..');
const DH_VIEW = '/usr/libexec/valgrind/dh_view.html';

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-shots-'));
  const server = await serve({'/': path.join(ROOT, 'build', 'samples'), '/profiles/': tmp,
    '/speedscope/': path.join(ROOT, 'node_modules', 'speedscope', 'dist', 'release')});
  const browser = await launch();
  try {
    const {page, context} = await openSample(browser, server.url, 'leaky-canvas');
    for (let i = 0; i < 3; i++) await page.click('#leak');
    const heap = await downloadFrom(page, () => page.evaluate(() => downloadSnapshot('heapsnapshot')));
    const dhat = await downloadFrom(page, () => page.evaluate(() => downloadSnapshot('dhat')));
    const flame = await downloadFrom(page, () => page.keyboard.press('Control+Shift+H'));
    await context.close();

    // speedscope's "Left Heavy" view: the heaviest stacks grouped at the left.
    fs.writeFileSync(path.join(tmp, flame.name), flame.text);
    const scope = await (await browser.newContext({viewport: {width: 1280, height: 220}})).newPage();
    await scope.goto(`${server.url}/speedscope/index.html#profileURL=${encodeURIComponent('/profiles/' + flame.name)}`);
    await scope.waitForFunction(() => / - speedscope$/.test(document.title), null, {timeout: 20000});
    await scope.getByText('Left Heavy').click();
    await new Promise((r) => setTimeout(r, 500));
    const scopeShot = path.join(__dirname, 'speedscope.png');
    await scope.screenshot({path: scopeShot});
    console.log(`wrote ${path.relative(ROOT, scopeShot)}`);

    const shot = path.join(__dirname, 'devtools-memory-panel.png');
    const {rows, errors} = await panelSummary(heap.text, {screenshot: shot});
    if (!Array.isArray(rows) || errors.length) throw new Error(`DevTools: ${rows} ${errors.join('; ')}`);
    console.log(`wrote ${path.relative(ROOT, shot)} (${rows.length} sites in the Summary)`);

    const file = path.join(tmp, dhat.name);
    fs.writeFileSync(file, dhat.text);
    const view = await (await browser.newContext({viewport: {width: 1280, height: 720}})).newPage();
    await view.goto('file://' + DH_VIEW);
    await view.setInputFiles('input[type=file]', file);
    await view.waitForFunction(() => /Times \{/.test(document.body.innerText), null, {timeout: 20000});
    await view.selectOption('select', {label: 'At t-end (bytes)'});
    await new Promise((r) => setTimeout(r, 500));
    const dhShot = path.join(__dirname, 'dh_view.png');
    await view.screenshot({path: dhShot});
    console.log(`wrote ${path.relative(ROOT, dhShot)}`);
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(tmp, {recursive: true, force: true});
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
