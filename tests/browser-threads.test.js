// browser-threads.test.js -- a -pthread program in headless Chromium, served
// cross-origin isolated: four threads allocating at once, sixteen more
// started and joined, then Ctrl+Shift+H. The page never crashes and the
// downloaded file names the worker threads' allocations, with shadow stacks
// (they live in linear memory) and with JS stacks (each worker takes its
// own and hands the runtime their wasm positions).
'use strict';

const {describe, test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {newPage, servedChromium, haveChromium, CHROMIUM} = require('./lib/browser');
const {validateSnapshot} = require('./lib/schemas');

const PAGES = path.join(__dirname, '..', 'build', 'tests');
const skip = haveChromium() ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium; CI installs it)`;

describe('threads in the page', {skip}, () => {
  const chrome = servedChromium({
    '/shadow/': path.join(PAGES, 'threads_page'),
    '/js/': path.join(PAGES, 'threads_page_js'),
  });

  for (const [dir, mode] of [['shadow', 'exact-shadow'], ['js', 'exact-js']]) {
    test(`a threaded page (${mode}): no crash, Ctrl+Shift+H downloads worker sites, named`, async () => {
      const {context, page, consoleMessages} = await newPage(chrome.browser);
      try {
        await page.goto(`${chrome.server.url}/${dir}/index.html`);
        assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'served cross-origin isolated');
        // main() prints its plan ("1..N") once the threads are joined.
        await page.waitForFunction(() => typeof emheap === 'object', null, {timeout: 30000});
        const done = () => consoleMessages.some((m) => /^1\.\.\d+$/.test(m.text));
        for (let i = 0; i < 600 && !done(); i++) await page.waitForTimeout(100);
        assert.ok(done(), consoleMessages.slice(-5).map((m) => m.text).join('\n'));
        assert.ok(!consoleMessages.some((m) => m.type === 'pageerror' || /not ok|RuntimeError|Aborted/.test(m.text)),
          consoleMessages.filter((m) => m.type !== 'log').map((m) => m.text).join('\n'));
        const [download] = await Promise.all([
          page.waitForEvent('download', {timeout: 20000}),
          page.keyboard.press('Control+Shift+H'),
        ]);
        assert.match(download.suggestedFilename(), /^memory-profile-.*\.speedscope\.json$/);
        const file = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
        const snap = file.emheap;
        assert.deepEqual(validateSnapshot(snap), []);
        assert.equal(snap.mode, mode);
        const names = (s) => s.stack.map((i) => snap.frames[i].name);
        const kept = snap.sites.filter((s) => /^worker/.test(names(s)[0]) && names(s).includes('worker'))
          .reduce((a, s) => a + s.liveBlocks, 0);
        assert.equal(kept, 4000, 'the 4000 blocks kept by the worker threads, named');
        assert.deepEqual(snap.sites.filter((s) => /^\(worker thread/.test(s.key)).map((s) => s.key), []);
        assert.equal(snap.sites.reduce((a, s) => a + s.liveBytes, 0), snap.summary.liveBytes, 'sites add up');
      } finally {
        await context.close();
      }
    });
  }
});
