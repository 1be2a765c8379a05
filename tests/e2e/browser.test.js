// tests/e2e/browser.test.js: the leaky-canvas sample end to end in real headless
// Chromium. Drives the page like a user (buttons, Ctrl+Shift+H, the console
// function downloadSnapshot), captures the real downloads and checks the files.
//
// Needs `make samples` (build/samples/leaky-canvas{,-plain}/) and Debian's
// chromium; without /usr/bin/chromium every test is skipped with the reason.
// Run: node --test tests/e2e/browser.test.js
'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const samplePage = require('../lib/sample_page');
const { downloadFrom, downloadsBefore, consoleDownload, recordSaves, errorsIn, clickLeak } = samplePage;
const { newPage, nextFrames, servedChromium, CHROMIUM_SKIP } = require('../lib/browser');
const { validateSpeedscope, validatePerfView, validateSnapshot } = require('../lib/schemas');

const {SAMPLES} = require('../lib/paths');
const SKIP = CHROMIUM_SKIP;

const LEAK_BYTES = 64 * 16384;            // one click on #leak: 64 blocks x 16 KiB
const MIB = 1024 * 1024;
const SPEEDSCOPE_NAME = /^memory-profile-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d(\.\d+)?Z\.speedscope\.json$/;
const PERFVIEW_NAME = /^memory-profile-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d(\.\d+)?Z\.PerfView\.json$/;

let chrome; // {server, browser}: servedChromium, in the describe below
const openSample = (name, query) => samplePage.openSample(chrome.browser, chrome.server.url, name, query);

const pressHotkey = (page) => () => page.keyboard.press('Control+Shift+H');

function assertNoErrors(messages, where) {
  assert.deepEqual(errorsIn(messages), [], `console errors on ${where}`);
}

// speedscope samples are root first: the leaf is the last frame.
function speedscopeLeaves(file) {
  const frames = file.shared.frames;
  return file.profiles[0].samples.map((s) => frames[s[s.length - 1]].name);
}

describe('emheap sample in headless Chromium', { skip: SKIP }, () => {
  chrome = servedChromium({ '/': SAMPLES }, () => {
    for (const dir of ['leaky-canvas', 'leaky-canvas-plain', 'leaky-canvas-module']) {
      assert.ok(fs.existsSync(path.join(SAMPLES, dir, 'index.html')),
        `build/samples/${dir}/index.html is missing: run \`make samples\` first`);
    }
  });

  test('Ctrl+Shift+H downloads a valid speedscope file that blames leak_memory, and free removes it', async () => {
    const { context, page, consoleMessages } = await openSample('leaky-canvas');
    try {
      await clickLeak(page, 3);
      const first = await downloadFrom(page, pressHotkey(page));

      assert.match(first.name, SPEEDSCOPE_NAME);
      assert.ok(!first.name.includes(':'), `file name has a ':': ${first.name}`);
      assert.deepEqual(validateSpeedscope(first.json), []);
      assert.deepEqual(validateSnapshot(first.json.emheap), []);

      const profile = first.json.profiles[0];
      const leaves = speedscopeLeaves(first.json);
      assert.equal(leaves[0], 'leak_memory', `top sample's leaf; all leaves: ${leaves.join(', ')}`);
      assert.ok(profile.weights[0] >= 3 * LEAK_BYTES, `top weight ${profile.weights[0]} < ${3 * LEAK_BYTES}`);
      for (let i = 1; i < profile.weights.length; i++) {
        assert.ok(profile.weights[i - 1] >= profile.weights[i], 'weights sorted heaviest first');
      }
      const snap = first.json.emheap;
      assert.ok(snap.sites[0].key.startsWith('leak_memory'), `sites[0].key = ${snap.sites[0].key}`);
      assert.equal(snap.sites[0].liveBytes, profile.weights[0], 'top weight = top site live bytes');
      assert.ok(snap.sites[0].liveBlocks >= 3 * 64, `sites[0].liveBlocks = ${snap.sites[0].liveBlocks}`);
      assert.ok(snap.summary.liveBytes >= 3 * LEAK_BYTES);

      // The sample is built with -gsource-map: the leaf frame points into
      // leak_memory's body in leaky.c, in the snapshot and in speedscope.
      const leafFrame = snap.frames[snap.sites[0].stack[0]];
      assert.match(leafFrame.file || '', /samples\/leaky-canvas\/leaky\.c$/);
      const [bodyStart, bodyEnd] = samplePage.leakMemoryLines();
      assert.ok(leafFrame.line >= bodyStart && leafFrame.line <= bodyEnd,
        `line ${leafFrame.line} outside leak_memory (${bodyStart}-${bodyEnd})`);
      const ssFrame = first.json.shared.frames[profile.samples[0].at(-1)];
      assert.equal(ssFrame.file, leafFrame.file);
      assert.equal(ssFrame.line, leafFrame.line);

      await page.click('#free');
      assert.equal(await page.evaluate(() => Module._leaked_blocks()), 0);
      const second = await downloadFrom(page, pressHotkey(page));

      assert.match(second.name, SPEEDSCOPE_NAME);
      assert.notEqual(second.name, first.name, 'each download has its own time stamp');
      assert.deepEqual(validateSpeedscope(second.json), []);
      assert.deepEqual(validateSnapshot(second.json.emheap), []);
      const leavesAfter = speedscopeLeaves(second.json);
      assert.ok(!leavesAfter.includes('leak_memory'), `leak_memory still drawn after free: ${leavesAfter.join(', ')}`);
      const drop = snap.summary.liveBytes - second.json.emheap.summary.liveBytes;
      assert.ok(drop >= 3 * MIB, `liveBytes dropped by only ${drop}`);
      // the site stays in the snapshot (for diffs) with nothing live
      const site = second.json.emheap.sites.find((s) => s.id === snap.sites[0].id);
      assert.ok(site, 'the freed site is kept in the snapshot');
      assert.equal(site.liveBytes, 0);
      assert.equal(site.liveBlocks, 0);

      assertNoErrors(consoleMessages, 'the emheap sample');
    } finally {
      await context.close();
    }
  });

  test('downloadSnapshot("perfview") from the console downloads a valid PerfView file', async () => {
    const { context, page, consoleMessages } = await openSample('leaky-canvas');
    try {
      await clickLeak(page, 3);
      let returned;
      const first = await downloadFrom(page, async () => {
        returned = await page.evaluate(() => downloadSnapshot('perfview'));
      });
      assert.equal(returned, first.name, 'downloadSnapshot returns the file name');
      assert.match(first.name, PERFVIEW_NAME);
      assert.ok(first.name.endsWith('.PerfView.json'));
      assert.deepEqual(validatePerfView(first.json), []);
      assert.deepEqual(validateSnapshot(first.json.emheap), []);

      const samples = first.json.StackSource.Samples;
      assert.ok(samples.length > 0, 'PerfView file has samples');
      assert.ok(samples[0].Stack[0].includes('leak_memory'), `Samples[0].Stack[0] = ${samples[0].Stack[0]}`);
      assert.ok(samples[0].Metric >= 3 * LEAK_BYTES, `Samples[0].Metric = ${samples[0].Metric}`);
      for (let i = 1; i < samples.length; i++) {
        assert.ok(samples[i - 1].Metric >= samples[i].Metric,
          `Samples not sorted by Metric descending at ${i}: ${samples.map((s) => s.Metric).join(', ')}`);
      }

      await page.click('#free');
      const second = await downloadFrom(page, () => page.evaluate(() => downloadSnapshot('perfview')));
      assert.match(second.name, PERFVIEW_NAME);
      assert.deepEqual(validatePerfView(second.json), []);
      const leaves = second.json.StackSource.Samples.map((s) => s.Stack[0]);
      assert.ok(!leaves.some((l) => l.includes('leak_memory')), `leak_memory still there after free: ${leaves.join(', ')}`);
      const drop = first.json.emheap.summary.liveBytes - second.json.emheap.summary.liveBytes;
      assert.ok(drop >= 3 * MIB, `liveBytes dropped by only ${drop}`);

      assertNoErrors(consoleMessages, 'the emheap sample');
    } finally {
      await context.close();
    }
  });

  test('the hotkey still works after the app replaces the body', async (t) => {
    const variants = {
      'body.innerHTML rewritten': () => { document.body.innerHTML = '<p>rewritten</p>'; },
      'body element replaced': () => {
        const body = document.createElement('body');
        body.innerHTML = '<p>new body</p>';
        document.documentElement.replaceChild(body, document.body);
      },
      'body removed': () => { document.body.remove(); },
    };
    for (const [label, rewrite] of Object.entries(variants)) {
      await t.test(label, async () => {
        const { context, page, consoleMessages } = await openSample('leaky-canvas');
        try {
          await page.evaluate(rewrite);
          assert.equal(await page.locator('#leak').count(), 0, 'the buttons are gone');
          // leak from code: the buttons are gone, the C functions are not.
          // One call site (a loop): each JS call position is a site of its own.
          await page.evaluate(() => { for (let i = 0; i < 2; i++) Module._leak_memory(); });
          await nextFrames(page, 3);   // a few frames of the render loop on the new DOM
          const got = await downloadFrom(page, pressHotkey(page));
          assert.match(got.name, SPEEDSCOPE_NAME);
          assert.deepEqual(validateSpeedscope(got.json), []);
          assert.deepEqual(validateSnapshot(got.json.emheap), []);
          assert.equal(speedscopeLeaves(got.json)[0], 'leak_memory');
          assert.ok(got.json.profiles[0].weights[0] >= 2 * LEAK_BYTES);
          // the temporary <a> the download used is not left behind
          assert.equal(await page.evaluate(() => document.querySelectorAll('a[download]').length), 0);
          assertNoErrors(consoleMessages, `the sample after "${label}"`);
        } finally {
          await context.close();
        }
      });
    }
  });

  test('Cmd+Shift+H (macOS) downloads too; plain H, Ctrl+H and Ctrl+Alt+Shift+H do not', async () => {
    const { context, page, consoleMessages } = await openSample('leaky-canvas');
    try {
      const savesSince = await recordSaves(page);
      const got = await downloadFrom(page, () => page.keyboard.press('Meta+Shift+H'));
      assert.match(got.name, /\.speedscope\.json$/);
      assert.deepEqual(validateSpeedscope(got.json), []);
      assert.deepEqual(await savesSince(), ['downloadSnapshot'], 'the key\'s save is seen');
      for (const keys of ['h', 'Control+H', 'Control+Alt+Shift+H']) {
        // The shell's keydown handler has run once the press is done: the
        // evaluate after it reads every save the key began. And a download
        // of the key's would come ahead of downloadSnapshot()'s, asked for
        // after it.
        const { before, result } = await downloadsBefore(page, async () => {
          await page.keyboard.press(keys);
          return savesSince();
        }, consoleDownload(page));
        assert.deepEqual(result, [], `${keys} must not save`);
        assert.deepEqual(before, [], `${keys} must not download`);
        await savesSince(); // the sentinel's
      }
      assertNoErrors(consoleMessages, 'the emheap sample');
    } finally {
      await context.close();
    }
  });

  test('downloadSnapshot with an unknown format logs an error, returns null and downloads nothing', async () => {
    const { context, page, consoleMessages } = await openSample('leaky-canvas');
    try {
      // a file the call began would be built ahead of downloadSnapshot()'s,
      // asked for after it, by the same steps: its download would come first
      const { before, result } = await downloadsBefore(page, () => page.evaluate(() => downloadSnapshot('xml')),
        consoleDownload(page));
      assert.equal(result, null);
      assert.deepEqual(before, [], 'no download for an unknown format');
      const errors = errorsIn(consoleMessages);
      assert.equal(errors.length, 1, `one console error: ${JSON.stringify(consoleMessages)}`);
      const text = errors[0].text;
      assert.ok(text.startsWith('emheap:'), text);
      assert.ok(text.includes('xml'), text);
      assert.ok(text.includes('speedscope') && text.includes('perfview'), `valid names missing: ${text}`);

      // names inherited from Object.prototype are unknown formats too
      // (the download checked as above)
      const odd = await downloadsBefore(page, () => page.evaluate(() =>
        [downloadSnapshot('toString'), downloadSnapshot('__proto__'), emheap.downloadSnapshot('constructor')]),
        consoleDownload(page));
      assert.deepEqual(odd.result, [null, null, null]);
      assert.deepEqual(odd.before, []);
      assert.equal(errorsIn(consoleMessages).length, 4);
      assert.equal(consoleMessages.filter((m) => m.type === 'pageerror').length, 0, 'nothing thrown');
    } finally {
      await context.close();
    }
  });

  test('on a page built without emheap the hotkey does nothing and logs nothing', async () => {
    const { context, page, consoleMessages } = await openSample('leaky-canvas-plain');
    try {
      assert.equal(await page.evaluate(() => typeof globalThis.emheap), 'undefined', 'plain build has no emheap');
      await page.click('#leak');
      // Nothing on this page builds a file in the background: whatever the
      // key's handlers did, they did before the press was done, so a
      // download of theirs would come ahead of one the page begins after.
      const { before } = await downloadsBefore(page, pressHotkey(page), () => page.evaluate(() => {
        const a = document.createElement('a');
        a.href = URL.createObjectURL(new Blob(['after the key']));
        a.download = 'after-the-key.txt';
        document.body.appendChild(a);
        a.click();
        a.remove();
        return a.download;
      }));
      assert.deepEqual(before, [], 'no download on a page without emheap');
      assert.deepEqual(errorsIn(consoleMessages), []);
      assert.deepEqual(consoleMessages.filter((m) => /emheap/i.test(m.text)), [], 'nothing from emheap');
    } finally {
      await context.close();
    }
  });

  test('a whole session on the emheap page logs no console errors', async () => {
    const { context, page, consoleMessages } = await openSample('leaky-canvas');
    try {
      const names = [];
      await clickLeak(page, 3);
      names.push((await downloadFrom(page, pressHotkey(page))).name);
      names.push((await downloadFrom(page, () => page.evaluate(() => downloadSnapshot('perfview')))).name);
      names.push((await downloadFrom(page, () => page.evaluate(() => downloadSnapshot()))).name);  // default
      await page.keyboard.press('l');    // the app's own keys keep working next to the hotkey
      await page.keyboard.press('l');
      assert.equal(await page.evaluate(() => Module._leaked_blocks()), 5 * 64);
      await page.click('#free');
      names.push((await downloadFrom(page, pressHotkey(page))).name);
      // page-side API used by hand
      const info = await page.evaluate(() => {
        const snap = emheap.snapshot();
        return { json: JSON.parse(emheap.getSnapshotJson()), perf: emheap.toPerfView(snap), snap };
      });
      assert.deepEqual(validateSnapshot(info.snap), []);
      assert.deepEqual(validatePerfView(info.perf), []);
      assert.equal(typeof info.json.liveBytes, 'number');
      await nextFrames(page, 5);    // the render loop runs on after the API's calls

      assert.match(names[0], SPEEDSCOPE_NAME);
      assert.match(names[1], PERFVIEW_NAME);
      assert.match(names[2], SPEEDSCOPE_NAME);
      assert.match(names[3], SPEEDSCOPE_NAME);
      // every download is announced in the console
      const saved = consoleMessages.filter((m) => m.type === 'log' && m.text.startsWith('emheap: saved '));
      assert.deepEqual(saved.map((m) => m.text.slice('emheap: saved '.length)), names);
      assertNoErrors(consoleMessages, 'the emheap sample');
      assert.deepEqual(consoleMessages.filter((m) => m.type === 'warning'), [], 'no warnings either');
    } finally {
      await context.close();
    }
  });

  // V8 writes frames of eval'd code (eval, new Function, page.evaluate) as
  //   at eval (eval at evaluate (:370:30), <anonymous>:1:8)
  // which once split into the frame name "eval (eval at evaluate".
  test('frames of eval\'d JS callers get clean names', async () => {
    const { context, page } = await openSample('leaky-canvas');
    try {
      const snap = await page.evaluate(() => { Module._leak_memory(); return emheap.snapshot(); });
      const site = snap.sites.find((s) => s.key.startsWith('leak_memory'));
      assert.ok(site, 'leak_memory site');
      const names = site.stack.map((i) => snap.frames[i]);
      for (const f of names) {
        assert.ok(!/\(eval at|\), </.test(`${f.name} ${f.file || ''}`), `mangled frame ${JSON.stringify(f)}`);
      }
    } finally {
      await context.close();
    }
  });

  test('?emheap_depth=N cuts JS stacks at N frames, leaf end kept; a bad N is reported', async () => {
    const { context, page } = await openSample('leaky-canvas', '?emheap=exact&emheap_depth=5');
    try {
      const snap = await page.evaluate(() => { Module._leak_memory(); return emheap.snapshot(); });
      const site = snap.sites.find((s) => s.key.startsWith('leak_memory'));
      assert.ok(site, 'leak_memory site');
      const names = site.stack.map((i) => snap.frames[i].name);
      assert.equal(names[0], 'leak_memory', names.join(' < '));
      assert.equal(names.at(-1), '(stack truncated)', names.join(' < '));
      assert.ok(names.length <= 6, names.join(' < '));
    } finally {
      await context.close();
    }
    const bad = await openSample('leaky-canvas', '?emheap=exact&emheap_depth=many');
    try {
      const snap = await bad.page.evaluate(() => { Module._leak_memory(); return emheap.snapshot(); });
      const site = snap.sites.find((s) => s.key.startsWith('leak_memory'));
      assert.ok(!site.stack.some((i) => snap.frames[i].name === '(stack truncated)'), 'default depth: whole stack');
      assert.ok(bad.consoleMessages.some((m) => /ignoring stack depth "many" from the page URL/.test(m.text)),
        JSON.stringify(bad.consoleMessages));
    } finally {
      await bad.context.close();
    }
  });

  test('an ES module build (-sMODULARIZE -sEXPORT_ES6): Ctrl+Shift+H works, frames have lines', async () => {
    const { context, page, consoleMessages } = await openSample('leaky-canvas-module');
    try {
      assert.equal(await page.evaluate(() => typeof Module), 'undefined', 'no global Module in this build');
      for (let i = 0; i < 2; i++) await page.click('#leak');
      assert.equal(await page.evaluate(() => app._leaked_blocks()), 2 * 64, 'the clicks reached the app');
      const file = await downloadFrom(page, pressHotkey(page));
      assert.match(file.name, SPEEDSCOPE_NAME);
      assert.deepEqual(validateSpeedscope(file.json), []);
      const snap = file.json.emheap;
      assert.equal(snap.mode, 'exact');
      assert.equal(await page.evaluate(() => app.emheap.contexts().rewritten), true, 'the default mode rewrote the module');
      assert.ok(snap.sites[0].key.startsWith('leak_memory'), `sites[0].key = ${snap.sites[0].key}`);
      assert.ok(snap.sites[0].liveBytes >= 2 * LEAK_BYTES, `sites[0].liveBytes = ${snap.sites[0].liveBytes}`);
      const leaf = snap.frames[snap.sites[0].stack[0]];
      assert.match(leaf.file || '', /samples\/leaky-canvas\/leaky\.c$/, JSON.stringify(leaf));
      assert.equal(await page.evaluate(() => app.emheap === globalThis.emheap), true, 'one API, on the instance too');
      assertNoErrors(consoleMessages, 'the ES module sample');
    } finally {
      await context.close();
    }
  });

  // The page loads the module's names and source map in the background from
  // startup on. A key pressed before they arrive must still give a file with
  // lines, of the heap as it was at the press.
  test('Ctrl+Shift+H before the source map has arrived: heap read at the press, file saved with lines', async () => {
    const { context, page, consoleMessages } = await newPage(chrome.browser);
    let releaseMap;
    const mapHeld = new Promise((resolve) => { releaseMap = resolve; });
    let mapRequested = false;
    let mapAsked;
    const mapAskedFor = new Promise((resolve) => { mapAsked = resolve; });
    await page.route('**/*.wasm.map', async (route) => {
      mapRequested = true;
      mapAsked();
      await mapHeld;
      await route.continue();
    });
    try {
      await page.goto(`${chrome.server.url}/leaky-canvas/?emheap=exact`);
      await page.waitForFunction((t) => document.title === t, samplePage.READY_TITLE, { timeout: 20000 });
      await clickLeak(page, 2);
      const downloads = [];
      page.on('download', (d) => downloads.push(d));
      await pressHotkey(page)();
      await page.click('#free'); // after the press: must not show in the file
      // the press's file waits for the map, which the page has asked for:
      // a file saved without it would have no lines (checked below)
      await mapAskedFor;
      assert.ok(mapRequested, 'the page asked for the source map');
      assert.equal(downloads.length, 0, 'nothing saved while the source map is held back');
      const saved = page.waitForEvent('download', { timeout: 10000 });
      releaseMap();
      const download = await saved;
      const json = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
      assert.match(download.suggestedFilename(), SPEEDSCOPE_NAME);
      assert.deepEqual(validateSpeedscope(json), []);
      const top = json.emheap.sites[0];
      assert.ok(top.key.startsWith('leak_memory'), `sites[0].key = ${top.key}`);
      assert.ok(top.liveBytes >= 2 * LEAK_BYTES, `the leak freed after the press is in the file: ${top.liveBytes}`);
      const leaf = json.emheap.frames[top.stack[0]];
      assert.match(leaf.file || '', /samples\/leaky-canvas\/leaky\.c$/, JSON.stringify(leaf));
      const [bodyStart, bodyEnd] = samplePage.leakMemoryLines();
      assert.ok(leaf.line >= bodyStart && leaf.line <= bodyEnd, `line ${leaf.line} outside leak_memory`);
      assertNoErrors(consoleMessages, 'the emheap sample');
    } finally {
      releaseMap();
      await context.close();
    }
  });

  test('emheap.snapshotAsync() resolves to what snapshot() gives', async () => {
    const { context, page, consoleMessages } = await openSample('leaky-canvas');
    try {
      await clickLeak(page, 1);
      // The sample allocates at every frame, and a frame may run before
      // snapshotAsync() reads the heap: a pair that differs is taken again
      // (at most 5 times); the last pair must agree.
      const [now, later] = await page.evaluate(async () => {
        const bare = (s) => JSON.stringify({ ...s, capturedAt: 0, timeline: undefined, siteTimeline: undefined });
        let a, b;
        for (let i = 0; i < 5; i++) {
          a = emheap.snapshot();
          b = await emheap.snapshotAsync();
          if (bare(a) === bare(b)) break;
        }
        return [a, b];
      });
      assert.deepEqual(validateSnapshot(later), []);
      // (each snapshot adds a point to the timelines)
      const bare = (s) => ({ ...s, capturedAt: 0, timeline: undefined, siteTimeline: undefined });
      assert.deepEqual(bare(later), bare(now));
      assert.ok(later.sites.some((site) => later.frames[site.stack[0]].name === 'leak_memory'));
      assertNoErrors(consoleMessages, 'the emheap sample');
    } finally {
      await context.close();
    }
  });

  test('emheap.toSpeedscope() right after load is a valid speedscope file', async () => {
    const { context, page, consoleMessages } = await openSample('leaky-canvas');
    try {
      const file = await page.evaluate(() => emheap.toSpeedscope());
      assert.deepEqual(validateSpeedscope(file), []);
      assert.deepEqual(validateSnapshot(file.emheap), []);
      assert.equal(file.emheap.summary.preRunDone, true);
      assert.ok(!speedscopeLeaves(file).includes('leak_memory'), 'nothing leaked yet');
      const perf = await page.evaluate(() => emheap.toPerfView());
      assert.deepEqual(validatePerfView(perf), []);
      assertNoErrors(consoleMessages, 'the emheap sample');
    } finally {
      await context.close();
    }
  });
});
