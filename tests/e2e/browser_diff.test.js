// tests/e2e/browser_diff.test.js: several snapshots in one page session, in real
// headless Chromium on the leaky-canvas sample: emheap.diff(a, b) in the page
// is the comparison `emheap diff` makes (the same model/diff.js), and
// Ctrl+Shift+D downloads the diff against the previous Ctrl+Shift+D.
// Also the timeline: live bytes and blocks sampled every 100 ms.
//
// Needs `make samples` and Debian's chromium (skipped without it).
// Run: node --test tests/e2e/browser_diff.test.js
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const samplePage = require('../lib/sample_page');
const { downloadFrom, downloadsBefore, consoleDownload, recordSaves, errorsIn, clickLeak } = samplePage;
const { newPage, servedChromium, CHROMIUM_SKIP } = require('../lib/browser');
const { diffSnapshots } = require('../../model/diff');
const { groupSnapshot } = require('../../model/grouping');
const { validateSnapshot } = require('../lib/schemas');
const { toChromeTrace } = require('../../formats/chrome_trace');

const {SAMPLES} = require('../lib/paths');
const SKIP = CHROMIUM_SKIP;

// One click on #leak: 64 blocks of a 4-byte list link + 16 KiB payload.
const LEAK_BLOCKS = 64;
const LEAK_BYTES = 64 * (4 + 16384);
const DIFF_NAME = /^memory-diff-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d(\.\d+)?Z\.json$/;

let chrome; // {server, browser}: servedChromium, in the describe below
const openSample = (name, query) => samplePage.openSample(chrome.browser, chrome.server.url, name, query);

// Rows of a diff whose call site is leak_memory, added up.
function leakRows(rows) {
  const mine = rows.filter((r) => r.label.startsWith('leak_memory'));
  assert.ok(mine.length >= 1, `no leak_memory row in: ${rows.map((r) => r.label).join(', ')}`);
  const sum = (k) => mine.reduce((a, r) => a + r[k], 0);
  return { sizeDelta: sum('sizeDelta'), countDelta: sum('countDelta'), newAllocs: sum('newAllocs'), allocBytes: sum('allocBytes'), first: mine[0] };
}

describe('snapshot diffs in headless Chromium', { skip: SKIP }, () => {
  chrome = servedChromium({ '/': SAMPLES }, () => {
    assert.ok(fs.existsSync(path.join(SAMPLES, 'leaky-canvas', 'index.html')),
      'build/samples/leaky-canvas/index.html is missing: run `make samples` first');
  });

  test('Ctrl+Shift+D: first press is the baseline, the second downloads the diff that shows the leak', async () => {
    const { context, page, consoleMessages } = await openSample('leaky-canvas');
    try {
      await clickLeak(page, 1);
      // First press: no download, a console line saying the baseline is kept.
      // The shell's keydown handler has run once the press is done: the
      // evaluate after it reads every save the key began. A download of the
      // key's would come ahead of downloadSnapshot()'s, asked for after it.
      const savesSince = await recordSaves(page);
      const baseline = page.waitForEvent('console', { predicate: (m) => /baseline snapshot taken/.test(m.text()),
        timeout: 10000 }).catch(() => {});   // (a missing line fails below, with the console's lines)
      const first = await downloadsBefore(page, async () => {
        await page.keyboard.press('Control+Shift+D');
        await baseline;
        return savesSince();
      }, consoleDownload(page));
      assert.deepEqual(first.result, [], 'the first Ctrl+Shift+D saves nothing');
      assert.deepEqual(first.before, [], 'the first Ctrl+Shift+D downloads nothing');
      assert.ok(consoleMessages.some((m) => /baseline snapshot taken/.test(m.text)),
        consoleMessages.map((m) => m.text).join('\n'));

      await clickLeak(page, 2);
      const file = await downloadFrom(page, () => page.keyboard.press('Control+Shift+D'));
      assert.match(file.name, DIFF_NAME);
      const diff = file.json;
      const leak = leakRows(diff.sites);
      assert.equal(leak.sizeDelta, 2 * LEAK_BYTES, 'leak_memory grew by two clicks');
      assert.equal(leak.countDelta, 2 * LEAK_BLOCKS);
      assert.equal(leak.newAllocs, 2 * LEAK_BLOCKS);
      assert.equal(leak.allocBytes, 2 * LEAK_BYTES);
      assert.equal(diff.sites[0].label.startsWith('leak_memory'), true, `largest growth first: ${diff.sites[0].label}`);
      assert.ok(diff.sites[0].stack.includes('leak_memory'));
      // Totals are the exact global counters: at least the leak's growth
      // (the frame loop's scratch blocks come and go).
      assert.ok(diff.totals.liveBytes.delta >= 2 * LEAK_BYTES - 65536, JSON.stringify(diff.totals.liveBytes));
      assert.ok(Date.parse(diff.after.capturedAt) >= Date.parse(diff.before.capturedAt));
      assert.equal(diff.before.mode, 'exact');

      // A third press diffs against the second: free everything, the site shrinks.
      await page.click('#free');
      const third = await downloadFrom(page, () => page.keyboard.press('Control+Shift+D'));
      assert.equal(leakRows(third.json.sites).sizeDelta, -3 * LEAK_BYTES);
      assert.deepEqual(errorsIn(consoleMessages), []);
    } finally {
      await context.close();
    }
  });

  test('emheap.diff(a, b) in the page returns what model/diff.js computes, and prints a table', async () => {
    const { context, page, consoleMessages } = await openSample('leaky-canvas');
    try {
      await page.evaluate(() => { window.__a = emheap.snapshot(); });
      await clickLeak(page, 1);
      const { inPage, a, b } = await page.evaluate(() => {
        const b = emheap.snapshot();
        const d = emheap.diff(window.__a, b);
        return { inPage: d, a: window.__a, b };
      });
      // The same comparison as node's model/diff.js on the same two
      // snapshots, grouped by function as both group by default.
      const inNode = diffSnapshots(groupSnapshot(a, 'function'), groupSnapshot(b, 'function'));
      assert.deepEqual(inPage.totals, inNode.totals);
      assert.deepEqual(inPage.sum, inNode.sum);
      assert.deepEqual(new Set(inPage.rows.map((r) => JSON.stringify(r))), new Set(inNode.rows.map((r) => JSON.stringify(r))));
      const leak = leakRows(inPage.rows);
      assert.equal(leak.sizeDelta, LEAK_BYTES);
      assert.equal(inPage.rows[0].label.startsWith('leak_memory'), true, 'sorted by size delta');
      // console.table output and the summary line.
      assert.ok(consoleMessages.some((m) => /^emheap diff: live bytes/.test(m.text)));
      assert.ok(consoleMessages.some((m) => m.type === 'table' || /Size Delta/.test(m.text)),
        consoleMessages.map((m) => `${m.type}: ${m.text}`).join('\n'));

      // Files work too (a downloaded speedscope file carries the snapshot);
      // with one argument the diff runs against now. Bad input: one console
      // error, null, in the words `emheap diff` uses (model/snapshot_file.js).
      const again = await page.evaluate(() => {
        const file = JSON.stringify(emheap.toSpeedscope(window.__a));
        const d = emheap.diff(file);
        return { rows: d.rows.length, bad: emheap.diff({ hello: 1 }),
          newer: emheap.diff(Object.assign({}, window.__a, { version: 99 })) };
      });
      assert.ok(again.rows >= 1);
      assert.equal(again.bad, null);
      assert.equal(again.newer, null);
      const errors = errorsIn(consoleMessages).map((m) => m.text).join('\n');
      assert.match(errors, /before: JSON, but not an emheap file: no "emheap" field/);
      assert.match(errors, /before: snapshot version 99 is newer than this emheap reads \(version 1\): update emheap/);
    } finally {
      await context.close();
    }
  });

  test('snapshot.timeline: live bytes over time, sampled by a timer, ring of 3000 points', async () => {
    // The page's 100 ms timers counted as they fire (the timeline's is one):
    // the test waits for its ticks, not for a time.
    const { context, page, consoleMessages } = await newPage(chrome.browser);
    await page.addInitScript(() => {
      const setIntervalOfPage = window.setInterval;
      window.timerTicks = 0;
      window.setInterval = function (fn, ms, ...rest) {
        const counted = ms === 100 && typeof fn === 'function' ? function (...a) { window.timerTicks++; return fn.apply(this, a); } : fn;
        return setIntervalOfPage.call(this, counted, ms, ...rest);
      };
    });
    const ticks = (n) => page.waitForFunction((k) => window.timerTicks >= k, n, { timeout: 20000 });
    try {
      await page.goto(`${chrome.server.url}/leaky-canvas/?emheap=exact`);
      await page.waitForFunction((t) => document.title === t, samplePage.READY_TITLE, { timeout: 20000 });
      await ticks(3);
      const before = await page.evaluate(() => emheap.snapshot().summary.liveBytes);
      await clickLeak(page, 2);
      await ticks(await page.evaluate(() => window.timerTicks) + 3);
      const snap = await page.evaluate(() => emheap.snapshot());
      assert.deepEqual(validateSnapshot(snap), []);
      const tl = snap.timeline;
      assert.ok(Array.isArray(tl) && tl.length >= 6, `timeline of ${tl && tl.length} points`);
      for (let i = 1; i < tl.length; i++) assert.ok(tl[i].t >= tl[i - 1].t, 'oldest first');
      // The timer ran on its own: points about 100 ms apart.
      const gaps = tl.slice(1).map((p, i) => p.t - tl[i].t).filter((g) => g > 50);
      assert.ok(gaps.length >= 4, `timer gaps: ${gaps.join(', ')}`);
      // The last point is the snapshot's own totals; the leak shows as a step.
      assert.equal(tl.at(-1).liveBytes, snap.summary.liveBytes);
      assert.equal(tl.at(-1).liveBlocks, snap.summary.liveBlocks);
      assert.ok(tl.some((p) => p.liveBytes <= before + 65536), 'a point before the leak');
      assert.ok(tl.at(-1).liveBytes >= before + 2 * LEAK_BYTES - 65536, 'the leak is on the timeline');
      // The Chrome trace has one counter event per point and quantity.
      const counters = toChromeTrace(snap).traceEvents.filter((e) => e.ph === 'C' && e.name === 'live bytes');
      assert.equal(counters.length, tl.length);

      // The ring keeps the last 3000 points (each snapshot adds one).
      const ring = await page.evaluate(() => {
        for (let i = 0; i < 3100; i++) emheap.snapshot();
        const t = emheap.snapshot().timeline;
        return { length: t.length, sorted: t.every((p, i) => i === 0 || p.t >= t[i - 1].t) };
      });
      assert.equal(ring.length, 3000);
      assert.equal(ring.sorted, true);
      assert.deepEqual(errorsIn(consoleMessages), []);
    } finally {
      await context.close();
    }
  });
});
