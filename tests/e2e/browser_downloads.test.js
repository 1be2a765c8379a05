// browser_downloads.test.js -- the page downloads every format, binary and
// text ones included, as files their own readers accept: pprof (gzip'd
// protobuf, decoded by pprof-format), collapsed stacks (plain text).
'use strict';

const {describe, test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const {Profile} = require('pprof-format');
const {newPage, servedChromium, CHROMIUM_SKIP} = require('../lib/browser');
const {devtoolsLoad} = require('../lib/devtools');
const os = require('node:os');

const {SAMPLES} = require('../lib/paths');
const skip = CHROMIUM_SKIP;

describe('page downloads of binary and text formats', {skip}, () => {
  const chrome = servedChromium({'/': SAMPLES});

  async function download(page, format) {
    const [d] = await Promise.all([
      page.waitForEvent('download', {timeout: 10000}),
      page.evaluate((f) => downloadSnapshot(f), format),
    ]);
    return {name: d.suggestedFilename(), bytes: fs.readFileSync(await d.path())};
  }

  test('pprof and collapsed downloads are real files, not JSON dumps', async () => {
    const {context, page, consoleMessages} = await newPage(chrome.browser);
    try {
      await page.goto(`${chrome.server.url}/leaky-canvas/?emheap=exact`);
      await page.waitForFunction(() => document.title === 'emheap sample: ready');
      await page.click('#leak');

      const pprof = await download(page, 'pprof');
      assert.match(pprof.name, /^memory-profile-.*\.pb\.gz$/);
      assert.equal(pprof.bytes[0], 0x1f, 'gzip magic');
      const profile = Profile.decode(zlib.gunzipSync(pprof.bytes));
      const strings = profile.stringTable.strings;
      const types = profile.sampleType.map((t) => strings[Number(t.type)]);
      assert.deepEqual(types, ['alloc_objects', 'alloc_space', 'inuse_objects', 'inuse_space']);
      const fnName = new Map(profile.function.map((f) => [Number(f.id), strings[Number(f.name)]]));
      const locFn = new Map(profile.location.map((l) => [Number(l.id), Number(l.line[0].functionId)]));
      const leafOf = (s) => fnName.get(locFn.get(Number(s.locationId[0])));
      const top = profile.sample.slice().sort((a, b) => Number(b.value[3]) - Number(a.value[3]))[0];
      assert.equal(leafOf(top), 'leak_memory');
      assert.ok(Number(top.value[3]) >= 64 * 16384, 'inuse_space of the leak');

      const collapsed = await download(page, 'collapsed');
      assert.match(collapsed.name, /\.collapsed\.txt$/);
      const first = collapsed.bytes.toString('utf8').split('\n')[0];
      assert.match(first, /leak_memory \d+$/);
      assert.ok(!first.startsWith('"'), 'plain text, not a JSON string');

      // DHAT: the leak's stack holds its bytes at the end (dh_view itself
      // is run on a file in tests/e2e/dhat.test.js)
      const dhat = await download(page, 'dhat');
      assert.match(dhat.name, /^memory-profile-.*\.dhat\.json$/);
      const file = JSON.parse(dhat.bytes.toString('utf8'));
      assert.equal(file.dhatFileVersion, 2);
      const leak = file.pps.filter((pp) => /^leak_memory/.test(file.ftbl[pp.fs[0]]));
      assert.ok(leak.length >= 1 && leak.reduce((a, pp) => a + pp.eb, 0) >= 64 * 16384, JSON.stringify(leak));

      assert.deepEqual(consoleMessages.filter((m) => m.type === 'error' || m.type === 'pageerror'), []);
    } finally {
      await context.close();
    }
  });

  test('Ctrl+Shift+X saves the C heap as a .heapsnapshot that DevTools\' own code opens (exact mode)', async () => {
    const {context, page, consoleMessages} = await newPage(chrome.browser);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-hs-page-'));
    try {
      await page.goto(`${chrome.server.url}/leaky-canvas/?emheap=exact`);
      await page.waitForFunction(() => document.title === 'emheap sample: ready');
      await page.click('#leak');
      const [d] = await Promise.all([page.waitForEvent('download', {timeout: 20000}), page.keyboard.press('Control+Shift+X')]);
      assert.match(d.suggestedFilename(), /^memory-profile-.*\.heapsnapshot$/);
      const file = path.join(tmp, d.suggestedFilename());
      await d.saveAs(file);
      const dt = devtoolsLoad(file);
      assert.equal(dt.ok, true);
      assert.deepEqual(dt.warnings, []);
      // the 64 blocks the leak keeps, one class; the newest holds the list:
      // the class retains exactly its own bytes, all through one block
      const [name, leak] = Object.entries(dt.aggregates).find(([n]) => /^leak_memory/.test(n)) || [];
      assert.ok(leak, Object.keys(dt.aggregates).join(', '));
      assert.equal(leak.count, 64);
      assert.ok(leak.self >= 64 * 16384, `${leak.self} bytes`);
      assert.equal(leak.maxRet, leak.self);
      const heads = dt.nodes.filter((n) => n.name === name && n.retainedSize === leak.self);
      assert.equal(heads.length, 1, 'one block (the list head) retains the whole list');
      assert.match(dt.nodes.find((n) => n.id === heads[0].dominatorId).name, /^\(C globals\)$/);
      assert.deepEqual(consoleMessages.filter((m) => m.type === 'error' || m.type === 'pageerror'), []);

      // sampled mode records one block in many: no file, one clear line
      await page.goto(`${chrome.server.url}/leaky-canvas/?emheap=sampled`);
      await page.waitForFunction(() => document.title === 'emheap sample: ready');
      const downloads = [];
      page.on('download', (d) => downloads.push(d.suggestedFilename()));
      const refused = page.waitForEvent('console', (m) => m.type() === 'error' &&
        /the heap graph needs every block recorded: take the profile in exact mode/.test(m.text()));
      await page.keyboard.press('Control+Shift+X');
      await refused;
      // then a key that does save: downloads come in order, so the first one
      // is that file if the heap dump's key saved nothing
      const next = page.waitForEvent('download');
      await page.keyboard.press('Control+Shift+H');
      await next;
      assert.equal(downloads.length, 1, downloads.join(', '));
      assert.match(downloads[0], /\.speedscope\.json$/);
    } finally {
      await context.close();
      fs.rmSync(tmp, {recursive: true, force: true});
    }
  });

  test('a --closure 1 build: Ctrl+Shift+H and downloadSnapshot() save profiles that name the leak', async () => {
    const {context, page, consoleMessages} = await newPage(chrome.browser);
    try {
      await page.goto(`${chrome.server.url}/leaky-canvas-closure/?emheap=exact`);
      await page.waitForFunction(() => document.title === 'emheap sample: ready');
      // Closure did rename the module's JS (the library's EMHEAP is gone); the
      // page code outside it kept its names
      const js = fs.readFileSync(path.join(SAMPLES, 'leaky-canvas-closure', 'index.js'), 'utf8');
      assert.ok(!js.includes('EMHEAP.profiler') && js.includes('downloadSnapshot'));
      await page.click('#leak');
      const [d] = await Promise.all([page.waitForEvent('download', {timeout: 10000}), page.keyboard.press('Control+Shift+H')]);
      assert.match(d.suggestedFilename(), /^memory-profile-.*\.speedscope\.json$/);
      const file = JSON.parse(fs.readFileSync(await d.path(), 'utf8'));
      const frames = file.shared.frames;
      const leaves = file.profiles[0].samples.map((st) => frames[st[st.length - 1]].name);
      assert.ok(leaves.includes('leak_memory'), leaves.join(', '));
      const perfview = await download(page, 'perfview');
      assert.match(perfview.name, /\.PerfView\.json$/i);
      assert.ok(perfview.bytes.toString('utf8').includes('leak_memory'));
      const snapshot = await page.evaluate(() => emheap.snapshot());
      const top = snapshot.sites.slice().sort((a, b) => b.liveBytes - a.liveBytes)[0];
      assert.equal(snapshot.frames[top.stack[0]].name, 'leak_memory');
      assert.deepEqual(consoleMessages.filter((m) => m.type === 'error' || m.type === 'pageerror'), []);
    } finally {
      await context.close();
    }
  });
});
