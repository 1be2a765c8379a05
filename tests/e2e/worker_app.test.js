// worker_app.test.js -- an app that runs in a Web Worker
// (tests/runtime/worker_app.c), its page loading emheap_page.js only: the
// page's Ctrl+Shift+H reaches the worker and its profile downloads in the
// page; the app saving a profile itself (its downloadSnapshot, in the
// worker) downloads too; the app's own messages carry nothing of emheap's.
// In headless Chromium and Firefox (output/worker_channel.js; the protocol
// alone: tests/worker_channel.test.js).
'use strict';

const {describe, test, before, after} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const {Profile} = require('pprof-format');
const {newPage, servedChromium, CHROMIUM_SKIP} = require('../lib/browser');
const firefox = require('../lib/firefox');
const {serve} = require('../../harness/serve');
const {SAMPLES} = require('../lib/paths');

const READY = 'worker app: ready';
const LEAKED_BYTES = [40, 24].reduce((sum, n) => sum + n * 3000 + (n * (n - 1)) / 2, 0);

// speedscope samples are root first: the leaf is the last frame.
function leakLeaves(file) {
  const frames = file.shared.frames;
  return file.profiles[0].samples.map((s) => frames[s[s.length - 1]].name);
}

function checkSnapshot(snap) {
  const sites = snap.sites.filter((s) => snap.frames[s.stack[0]].name === 'leak_in_worker');
  assert.ok(sites.length >= 1, JSON.stringify(snap.sites.map((s) => s.key)));
  assert.equal(sites.reduce((a, s) => a + s.liveBytes, 0), LEAKED_BYTES);
}

describe('an app in a Web Worker, in headless Chromium', {skip: CHROMIUM_SKIP}, () => {
  const chrome = servedChromium({'/': SAMPLES});

  test("the page's Ctrl+Shift+H and the worker's own downloadSnapshot both download in the page", async () => {
    const {context, page, consoleMessages} = await newPage(chrome.browser);
    try {
      await page.goto(`${chrome.server.url}/worker-app/`);
      await page.waitForFunction((t) => document.title === t, READY);
      const [byKey] = await Promise.all([page.waitForEvent('download', {timeout: 15000}),
        page.keyboard.press('Control+Shift+H')]);
      assert.match(byKey.suggestedFilename(), /^memory-profile-.*\.speedscope\.json$/);
      const file = JSON.parse(fs.readFileSync(await byKey.path(), 'utf8'));
      assert.ok(leakLeaves(file).includes('leak_in_worker'), leakLeaves(file).join(', '));
      checkSnapshot(file.emheap);

      const [byApp] = await Promise.all([page.waitForEvent('download', {timeout: 15000}),
        page.evaluate(() => worker.postMessage({save: 'pprof'}))]);
      assert.match(byApp.suggestedFilename(), /^memory-profile-.*\.pb\.gz$/);
      const bytes = fs.readFileSync(await byApp.path());
      const profile = Profile.decode(zlib.gunzipSync(bytes));
      const strings = profile.stringTable.strings;
      const names = profile.function.map((f) => strings[Number(f.name)]);
      assert.ok(names.includes('leak_in_worker'), names.join(', '));

      assert.deepEqual(await page.evaluate(() => messages), ['ready'], "the app's own messages: its own only");
      assert.ok(consoleMessages.some((m) => /emheap: saved memory-profile-.*\.pb\.gz/.test(m.text)));
      const errors = consoleMessages.filter((m) => m.type === 'error' || m.type === 'pageerror');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});

const FIREFOX_SKIP = firefox.haveFirefox() ? false : `no Firefox at ${firefox.FIREFOX}`;

describe('an app in a Web Worker, in headless Firefox', {skip: FIREFOX_SKIP}, () => {
  let server;
  let browser;
  before(async () => {
    server = await serve({'/': SAMPLES});
    browser = await firefox.launch();
  });
  after(async () => {
    if (browser) await browser.close();
    if (server) await server.close();
  });

  test("the page's Ctrl+Shift+H and the worker's own downloadSnapshot both download in the page", async () => {
    const opened = await firefox.openPage(browser, `${server.url}/worker-app/`,
      (page) => page.waitForFunction((t) => document.title === t, {timeout: 20000}, READY));
    try {
      const byKey = await firefox.downloadFrom(opened, () => firefox.pressHotkey(opened.page));
      assert.match(byKey.name, /^memory-profile-.*\.speedscope\.json$/);
      assert.ok(leakLeaves(byKey.json).includes('leak_in_worker'), leakLeaves(byKey.json).join(', '));
      checkSnapshot(byKey.json.emheap);
      const byApp = await firefox.downloadFrom(opened, () => opened.page.evaluate(() => worker.postMessage({save: 'perfview'})));
      assert.match(byApp.name, /^memory-profile-.*\.PerfView\.json$/);
      assert.ok(byApp.text.includes('leak_in_worker'));
      assert.deepEqual(await opened.page.evaluate(() => messages), ['ready']);
    } finally {
      await opened.close();
    }
  });
});
