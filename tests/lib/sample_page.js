// sample_page.js -- driving the leaky-canvas sample in headless Chromium:
// open it, click its buttons, catch the downloads the page makes. Shared by
// the browser test files.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {newPage} = require('./browser');

const LEAKY_C = path.join(__dirname, '..', '..', 'samples', 'leaky-canvas', 'leaky.c');

const READY_TITLE = 'emheap sample: ready';

// Opens a sample page in a fresh context and waits until its runtime is up.
// Exact mode by default: tests check exact byte counts. The query string is
// also how a user picks the mode at page load.
async function openSample(browser, serverUrl, name, query = '?emheap=exact') {
  const opened = await newPage(browser);
  await opened.page.goto(`${serverUrl}/${name}/${query}`);
  await opened.page.waitForFunction((t) => document.title === t, READY_TITLE, {timeout: 20000});
  return opened;
}

// Runs `action` and returns the download it causes, read and parsed.
async function downloadFrom(page, action) {
  const [download] = await Promise.all([
    page.waitForEvent('download', {timeout: 10000}),
    action(),
  ]);
  const file = await download.path(); // waits until the download finished
  assert.ok(file, `download ${download.suggestedFilename()} failed: ${await download.failure()}`);
  const text = fs.readFileSync(file, 'utf8');
  return {name: download.suggestedFilename(), text, json: JSON.parse(text), download};
}

// Runs `action`, which must download nothing, then `sentinel`, which asks
// the page for one file and resolves to its name, and waits for that
// file's download. -> {before: names of the downloads that came ahead of
// it, result: what action returned}. The wait ends on the sentinel's
// download, not after a time. The sentinel is asked for once action is
// done, so a file action began would be begun (or built by the same steps)
// ahead of the sentinel's, and a page's downloads reach the browser in the
// order the page begins them: it would be in `before`.
async function downloadsBefore(page, action, sentinel) {
  const names = [];
  const onDownload = (d) => { names.push(d.suggestedFilename()); };
  page.on('download', onDownload);
  try {
    const result = await action();
    const name = await sentinel();
    // (onDownload, added first, has seen each download before this wakes)
    while (!names.includes(name)) await page.waitForEvent('download', {timeout: 10000});
    return {before: names.slice(0, names.indexOf(name)), result};
  } finally {
    page.off('download', onDownload);
  }
}

// A sentinel for downloadsBefore on a page with emheap: downloadSnapshot()
// from the console, which returns the name of the file it saves.
const consoleDownload = (page) => () => page.evaluate(() => downloadSnapshot());

// Records the page's calls to emheap's functions that save a file
// (downloadSnapshot, downloadDiff, dumpHeap: what the shell's keys call,
// in the key's handler). -> an async function that returns the names
// called since the last time it was called, or since this.
async function recordSaves(page) {
  await page.evaluate(() => {
    window.emheapSaveCalls = [];
    for (const name of ['downloadSnapshot', 'downloadDiff', 'dumpHeap']) {
      const call = emheap[name];
      emheap[name] = function (...args) {
        window.emheapSaveCalls.push(name);
        return call.apply(this, args);
      };
    }
  });
  return () => page.evaluate(() => window.emheapSaveCalls.splice(0));
}

const errorsIn = (messages) => messages.filter((m) => m.type === 'error' || m.type === 'pageerror');

// [first, last] line numbers of leak_memory in the sample's leaky.c (its
// body ends at the next line that is just "}"): where source-mapped frames
// of the leak must point.
function leakMemoryLines() {
  const lines = fs.readFileSync(LEAKY_C, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.includes('void leak_memory(void)')) + 1;
  const end = lines.findIndex((l, i) => i >= start && l === '}') + 1;
  assert.ok(start > 0 && end > start, `leak_memory not found in ${LEAKY_C}`);
  return [start, end];
}

// Clicks #leak `times` times and checks the app saw every click (playwright
// and puppeteer pages alike).
async function clickLeak(page, times) {
  const before = await page.evaluate(() => Module._leaked_blocks());
  for (let i = 0; i < times; i++) await page.click('#leak');
  assert.equal(await page.evaluate(() => Module._leaked_blocks()), before + 64 * times,
    'the #leak clicks reached the app');
}

module.exports = {READY_TITLE, openSample, downloadFrom, downloadsBefore, consoleDownload, recordSaves, errorsIn, clickLeak,
  leakMemoryLines};
