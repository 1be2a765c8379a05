// browser_threads.test.js -- a -pthread program in headless Chromium and
// Firefox, served cross-origin isolated: four threads allocating at once,
// sixteen more started and joined, then Ctrl+Shift+H. The page never
// crashes and the downloaded file names the worker threads' allocations:
// each worker takes its own JS stacks and hands the runtime their wasm
// positions (in Firefox through the text of its stacks,
// capture/gecko_stack.js).
'use strict';

const {describe, test, before, after} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {ROOT} = require('../lib/paths');
const {newPage, servedChromium, crashedIn, CHROMIUM_SKIP} = require('../lib/browser');
const {validateSnapshot} = require('../lib/schemas');
const {serve} = require('../../harness/serve');
const firefox = require('../lib/firefox');

const PAGES = path.join(ROOT, 'build', 'tests');
const skip = CHROMIUM_SKIP;

// main() prints its plan ("1..N") once the threads are joined.
const finished = (consoleMessages) => consoleMessages.some((m) => /^1\.\.\d+$/.test(m.text));
// a crash, or a failed check of the program's own
const troubles = (consoleMessages) => crashedIn(consoleMessages) || consoleMessages.some((m) => /not ok/.test(m.text));

// The downloaded speedscope file: the 4000 blocks the worker threads keep,
// named by their stacks; never the fallback of a worker whose stack could
// not be taken; sites add up.
function checkThreadsFile(file, mode) {
  const snap = file.emheap;
  assert.deepEqual(validateSnapshot(snap), []);
  assert.equal(snap.mode, mode);
  const names = (s) => s.stack.map((i) => snap.frames[i].name);
  const kept = snap.sites.filter((s) => /^worker/.test(names(s)[0]) && names(s).includes('worker'))
    .reduce((a, s) => a + s.liveBlocks, 0);
  assert.equal(kept, 4000, 'the 4000 blocks kept by the worker threads, named');
  assert.deepEqual(snap.sites.filter((s) => /^\(worker thread/.test(s.key)).map((s) => s.key), []);
  assert.equal(snap.sites.reduce((a, s) => a + s.liveBytes, 0), snap.summary.requestedLiveBytes, 'sites add up');
}

describe('threads in the page', {skip}, () => {
  const chrome = servedChromium({
    '/js/': path.join(PAGES, 'threads_page_js'),
  });

  for (const [dir, mode] of [['js', 'exact']]) {
    test(`a threaded page (${mode}): no crash, Ctrl+Shift+H downloads worker sites, named`, async () => {
      const {context, page, consoleMessages} = await newPage(chrome.browser);
      try {
        await page.goto(`${chrome.server.url}/${dir}/index.html`);
        assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'served cross-origin isolated');
        await page.waitForFunction(() => typeof emheap === 'object', null, {timeout: 30000});
        for (let i = 0; i < 600 && !finished(consoleMessages); i++) await page.waitForTimeout(100);
        assert.ok(finished(consoleMessages), consoleMessages.slice(-5).map((m) => m.text).join('\n'));
        assert.ok(!troubles(consoleMessages), consoleMessages.filter((m) => m.type !== 'log').map((m) => m.text).join('\n'));
        const [download] = await Promise.all([
          page.waitForEvent('download', {timeout: 20000}),
          page.keyboard.press('Control+Shift+H'),
        ]);
        assert.match(download.suggestedFilename(), /^memory-profile-.*\.speedscope\.json$/);
        checkThreadsFile(JSON.parse(fs.readFileSync(await download.path(), 'utf8')), mode);
      } finally {
        await context.close();
      }
    });
  }
});

describe('threads in the page, Firefox', {skip: firefox.haveFirefox() ? false
  : `no Firefox at ${firefox.FIREFOX} (apt-get install firefox-esr; ./setup.sh installs it)`}, () => {
  let server;
  let browser;
  before(async () => {
    server = await serve({'/js/': path.join(PAGES, 'threads_page_js')});
    browser = await firefox.launch();
  });
  after(async () => {
    if (browser) await browser.close();
    if (server) await server.close();
  });

  for (const [dir, mode] of [['js', 'exact']]) {
    test(`a threaded page (${mode}): no crash, Ctrl+Shift+H downloads worker sites, named`, async () => {
      const opened = await firefox.openPage(browser, `${server.url}/${dir}/index.html`,
        (page) => page.waitForFunction(() => typeof emheap === 'object', {timeout: 30000}));
      try {
        const {page, consoleMessages} = opened;
        assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'served cross-origin isolated');
        for (let i = 0; i < 600 && !finished(consoleMessages); i++) await new Promise((r) => setTimeout(r, 100));
        assert.ok(finished(consoleMessages), consoleMessages.slice(-5).map((m) => m.text).join('\n'));
        assert.ok(!troubles(consoleMessages), consoleMessages.filter((m) => m.type !== 'log').map((m) => m.text).join('\n'));
        const download = await firefox.downloadFrom(opened, () => firefox.pressHotkey(page));
        assert.match(download.name, /^memory-profile-.*\.speedscope\.json$/);
        checkThreadsFile(download.json, mode);
      } finally {
        await opened.close();
      }
    });
  }
});
