// tests/e2e/firefox.test.js: the leaky-canvas sample in real headless Firefox
// (Debian's firefox-esr, driven over WebDriver BiDi by puppeteer-core).
// Firefox gives no structured call sites, so every JS stack here goes
// through the text path and capture/gecko_stack.js: these tests show that a
// Firefox user gets the same sites, frames, source lines and downloads as a
// Chromium user.
//
// Needs `make samples` and /usr/bin/firefox-esr; without Firefox every test
// is skipped with the reason. Run: node --test tests/e2e/firefox.test.js
'use strict';

const {describe, test, before, after} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const {serve} = require('../../harness/serve');
const {errorsIn, clickLeak, leakMemoryLines} = require('../lib/sample_page');
const firefox = require('../lib/firefox');
const {validateSpeedscope, validatePerfView, validateSnapshot} = require('../lib/schemas');

const {SAMPLES} = require('../lib/paths');
const SKIP = firefox.haveFirefox() ? false
  : `no Firefox at ${firefox.FIREFOX} (apt-get install firefox-esr; ./setup.sh installs it)`;

// One click on #leak: 64 blocks of a 4-byte list link (wasm32) + 16 KiB payload.
const LEAK_BYTES = 64 * (4 + 16384);
const SPEEDSCOPE_NAME = /^memory-profile-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d(\.\d+)?Z\.speedscope\.json$/;
const PERFVIEW_NAME = /^memory-profile-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d(\.\d+)?Z\.PerfView\.json$/;

let server;
let browser;

describe('emheap sample in headless Firefox', {skip: SKIP}, () => {
  before(async () => {
    if (SKIP) return;
    assert.ok(fs.existsSync(path.join(SAMPLES, 'leaky-canvas', 'index.html')),
      'build/samples/leaky-canvas/index.html is missing: run `make samples` first');
    server = await serve({'/': SAMPLES});
    browser = await firefox.launch();
  });

  after(async () => {
    if (browser) await browser.close();
    if (server) await server.close();
  });

  test('exact mode: Ctrl+Shift+H downloads a speedscope file blaming leak_memory, with its line in leaky.c', async () => {
    const opened = await firefox.openSample(browser, server.url, 'leaky-canvas', '?emheap=exact');
    try {
      const {page} = opened;
      assert.equal(await page.evaluate(() => typeof Error.captureStackTrace === 'function' &&
        !Array.isArray((() => { const h = {}; Error.captureStackTrace(h); return h.stack; })())), true,
      'this Firefox gives stack text, not call sites: the text path is what runs');
      await clickLeak(page, 3);
      const file = await firefox.downloadFrom(opened, () => firefox.pressHotkey(page));

      assert.match(file.name, SPEEDSCOPE_NAME);
      assert.deepEqual(validateSpeedscope(file.json), []);
      assert.deepEqual(validateSnapshot(file.json.emheap), []);
      const snap = file.json.emheap;
      assert.equal(snap.mode, 'exact');
      const top = snap.sites[0];
      assert.ok(top.key.startsWith('leak_memory+0x'), `sites[0].key = ${top.key}`);
      assert.equal(top.liveBytes, 3 * LEAK_BYTES, 'exact mode counts every byte');
      assert.equal(top.liveBlocks, 3 * 64);
      const names = top.stack.map((i) => snap.frames[i].name);
      assert.equal(names[0], 'leak_memory', `stack: ${names.join(' < ')}`);
      assert.ok(!names.includes('(stack truncated)'), `whole stack at the default depth: ${names.join(' < ')}`);
      assert.ok(!names.some((n) => /malloc|emheap|capture/i.test(n)), `runtime frames left in: ${names.join(' < ')}`);
      const leaf = snap.frames[top.stack[0]];
      assert.match(leaf.file || '', /samples\/leaky-canvas\/leaky\.c$/);
      const [bodyStart, bodyEnd] = leakMemoryLines();
      assert.ok(leaf.line >= bodyStart && leaf.line <= bodyEnd, `line ${leaf.line} outside leak_memory`);
      // The stacks came from Firefox's text: no allocation went unattributed.
      const lost = snap.sites.filter((s) => s.key === '(unattributed)' && s.liveBytes > 0);
      assert.deepEqual(lost, [], 'every live byte has a stack');

      const leaves = file.json.profiles[0].samples.map((s) => file.json.shared.frames[s[s.length - 1]].name);
      assert.equal(leaves[0], 'leak_memory');
      assert.deepEqual(errorsIn(opened.consoleMessages), []);
    } finally {
      await opened.close();
    }
  });

  test('?emheap_depth=N cuts Firefox stacks at N frames, leaf end kept', async () => {
    const opened = await firefox.openSample(browser, server.url, 'leaky-canvas', '?emheap=exact&emheap_depth=5');
    try {
      const snap = await opened.page.evaluate(() => { Module._leak_memory(); return emheap.snapshot(); });
      const site = snap.sites.find((s) => s.key.startsWith('leak_memory'));
      assert.ok(site, 'leak_memory site');
      const names = site.stack.map((i) => snap.frames[i].name);
      assert.equal(names[0], 'leak_memory', names.join(' < '));
      assert.equal(names.at(-1), '(stack truncated)', names.join(' < '));
      // Five frames taken: emheap's three (the JS glue, emheap_current_site,
      // malloc), leak_memory, and the glue's Module._leak_memory, which
      // cleaning drops; the caller below it is cut, so the marker follows.
      assert.deepEqual(names, ['leak_memory', '(stack truncated)']);
      assert.deepEqual(errorsIn(opened.consoleMessages), []);
    } finally {
      await opened.close();
    }
  });

  test('sampled mode estimates the leak from Firefox stacks', async () => {
    // A 4 KiB interval: 3 MiB in 16 KiB blocks is then estimated within
    // about sqrt(4 KiB / 3 MiB) = 3.6% (one standard deviation); 15% is 4 of them.
    const opened = await firefox.openSample(browser, server.url, 'leaky-canvas', '?emheap=sampled&emheap_interval=4096');
    try {
      await clickLeak(opened.page, 3);
      const snap = await opened.page.evaluate(() => emheap.snapshot());
      assert.equal(snap.mode, 'sampled');
      assert.equal(snap.samplingInterval, 4096);
      const top = snap.sites[0];
      assert.ok(top.key.startsWith('leak_memory+0x'), `sites[0].key = ${top.key}`);
      const error = Math.abs(top.liveBytes - 3 * LEAK_BYTES) / (3 * LEAK_BYTES);
      assert.ok(error < 0.15, `estimate ${top.liveBytes} is ${(error * 100).toFixed(1)}% off ${3 * LEAK_BYTES}`);
      assert.ok(snap.summary.liveBytes >= 3 * LEAK_BYTES, 'global totals stay exact');
      assert.deepEqual(errorsIn(opened.consoleMessages), []);
    } finally {
      await opened.close();
    }
  });

  test('downloadSnapshot("perfview") from the console downloads a valid PerfView file', async () => {
    const opened = await firefox.openSample(browser, server.url, 'leaky-canvas');
    try {
      await clickLeak(opened.page, 2);
      let returned;
      const file = await firefox.downloadFrom(opened, async () => {
        returned = await opened.page.evaluate(() => downloadSnapshot('perfview'));
      });
      assert.equal(returned, file.name, 'downloadSnapshot returns the file name');
      assert.match(file.name, PERFVIEW_NAME);
      assert.deepEqual(validatePerfView(file.json), []);
      const first = file.json.StackSource.Samples[0];
      assert.ok(first.Stack[0].includes('leak_memory'), `Samples[0].Stack[0] = ${first.Stack[0]}`);
      assert.equal(first.Metric, 2 * LEAK_BYTES);
      assert.deepEqual(errorsIn(opened.consoleMessages), []);
    } finally {
      await opened.close();
    }
  });
});
