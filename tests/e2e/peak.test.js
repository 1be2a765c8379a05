// peak.test.js -- what was live at the peak of live bytes (model/peak.js,
// runtime/record.c): tests/runtime/peak.c builds a cache of large blocks
// and drops it (the peak), keeps a smaller table, then churns below the
// peak. Built exact with both allocators, in Emscripten's default setup
// (sampled mode, fixed 16 MB heap) and with -pthread; read by the JS
// snapshot, the page API (emheap.atPeak) and the CLI (--at peak).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {validateSnapshot} = require('../lib/schemas');
const {peakView, memoryUse} = require('../../model/peak');

const {BUILD} = require('../lib/paths');
const {runCli} = require('../lib/cli');
const {formatBytes} = require('../../model/numbers');

const siteOf = (snap, fn) => snap.sites.find((s) => s.stack.some((i) => snap.frames[i].name === fn));

for (const build of ['dlmalloc', 'emmalloc', 'sampled', 'threads']) {
  test(`the peak: each site's bytes and blocks at the moment of the global high (${build})`, () => {
    const r = runWasmProgram(path.join(BUILD, `peak.${build}.js`));
    assert.equal(r.status, 0, r.stderr);
    const {KNOWN: known, SNAPSHOT: snap} = r.tagged;
    assert.ok(known && snap, r.stdout + r.stderr);
    assert.deepEqual(validateSnapshot(snap), []);
    assert.equal(snap.mode, build === 'sampled' ? 'sampled' : 'exact');
    const cache = siteOf(snap, 'build_cache');
    const table = siteOf(snap, 'keep_table');
    assert.ok(cache && table, snap.sites.map((s) => s.key).join(', '));
    // now: the cache is gone, the table is live
    assert.equal(cache.liveBytes, 0);
    assert.equal(table.liveBytes, known.tableBytes);
    // at the peak: the cache was live, the table not yet made
    assert.equal(cache.liveBytesAtPeak, known.cacheBytes);
    assert.equal(cache.liveBlocksAtPeak, known.cacheBlocks);
    assert.equal(table.liveBytesAtPeak, 0);
    assert.equal(table.liveBlocksAtPeak, 0);
    // each site's own high, in blocks (DHAT's "max blocks")
    assert.equal(cache.blocksAtPeakLiveBytes, known.cacheBlocks);
    assert.equal(table.blocksAtPeakLiveBytes, known.tableBlocks);
    // when the peak came, in bytes allocated: after the whole cache, before
    // the table and the churn
    assert.ok(snap.summary.totalBytesAtPeak >= known.cacheBytes, `${snap.summary.totalBytesAtPeak}`);
    assert.ok(snap.summary.totalBytes - snap.summary.totalBytesAtPeak >= known.tableBytes, `${snap.summary.totalBytesAtPeak}`);
    const s = snap.summary;
    assert.ok(s.peakLiveBytes >= known.cacheBytes && s.peakLiveBytes < known.cacheBytes + 65536, `peak ${s.peakLiveBytes}`);
    if (build !== 'sampled') {
      // exact: the sites at the peak add up to the peak, blocks and bytes
      // (the bytes asked for; with the allocator's rounding, the usable peak)
      const sum = (k) => snap.sites.reduce((a, x) => a + x[k], 0);
      assert.equal(sum('liveBytesAtPeak'), s.requestedBytesAtPeak);
      assert.equal(s.requestedBytesAtPeak + s.allocatorRoundingAtPeak, s.peakLiveBytes);
      assert.equal(sum('liveBlocksAtPeak'), s.liveBlocksAtPeak);
    }
    // the memory: the allocator's break at the peak held the peak's bytes
    assert.ok(s.heapBase > 0 && s.heapBase < s.heapSize, `heap base ${s.heapBase}`);
    assert.ok(s.breakAtPeak - s.heapBase >= s.peakLiveBytes, `break at peak ${s.breakAtPeak}`);
    assert.ok(s.breakNow >= s.heapBase && s.breakNow <= s.heapSize, `break now ${s.breakNow}`);
    const use = memoryUse(snap);
    assert.equal(use.peak.liveBytes, s.peakLiveBytes);
    assert.equal(use.peak.allocatorBytes, s.breakAtPeak - s.heapBase);
    assert.equal(use.now.liveBytes, s.liveBytes);
    // emheap's own tables come from the same allocator: not counted as free
    assert.equal(use.now.emheapBytes, s.tableBytes);
    assert.ok(s.tableBytes > 0);
    assert.equal(use.now.freeInAllocator, Math.max(0, s.breakNow - s.heapBase - s.liveBytes - s.tableBytes));
    // at the peak too, each part once: live, emheap's tables then (a record
    // of at least 8 bytes for each block live then), and the rest
    assert.equal(use.peak.emheapBytes, s.tableBytesAtPeak);
    if (build !== 'sampled') assert.ok(s.tableBytesAtPeak >= 8 * s.liveBlocksAtPeak, `${s.tableBytesAtPeak} B of tables at the peak`);
    assert.equal(use.peak.liveBytes + use.peak.emheapBytes + use.peak.freeInAllocator, use.peak.allocatorBytes);

    // the peak view: the same sites with that moment's numbers, heaviest first
    const view = peakView(snap);
    assert.deepEqual(validateSnapshot(view), []);
    assert.equal(view.view, 'peak');
    assert.equal(view.sites[0].id, cache.id);
    assert.equal(view.sites[0].liveBytes, known.cacheBytes);
    assert.equal(view.summary.liveBytes, s.peakLiveBytes);
    assert.equal(view.summary.liveBlocks, s.liveBlocksAtPeak);
    assert.equal(peakView(view), view, 'a view is its own peak view');
    assert.equal(memoryUse(view).now, null);
    assert.equal(snap.sites[0].liveBytes, known.tableBytes, 'the snapshot itself is unchanged');
    // the page's emheap.atPeak() (a snapshot of its own, a moment later)
    const api = r.tagged.PEAKVIEW;
    assert.equal(api.view, 'peak');
    assert.deepEqual(api.sites.map((x) => [x.key, x.liveBytes]), view.sites.map((x) => [x.key, x.liveBytes]));
  });
}

test('emheap top/check/convert --at peak', () => {
  const r = runWasmProgram(path.join(BUILD, 'peak.dlmalloc.js'));
  const {KNOWN: known, SNAPSHOT: snap} = r.tagged;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-peak-'));
  try {
    const file = path.join(tmp, 'peak.json');
    fs.writeFileSync(file, JSON.stringify(snap));
    const cli = (...args) => runCli(args, {cwd: tmp});
    const now = cli('top', file, '--json');
    assert.equal(now.status, 0, now.stderr);
    assert.equal(JSON.parse(now.stdout).sites[0].label.split('+')[0], 'keep_table');
    const peak = cli('top', file, '--at', 'peak', '--json');
    assert.equal(peak.status, 0, peak.stderr);
    const top = JSON.parse(peak.stdout);
    assert.match(top.sites[0].label, /^build_cache/);
    assert.equal(top.sites[0].liveBytes, known.cacheBytes);
    const text = cli('top', file, '--at', 'peak');
    assert.match(text.stdout, /at the peak of live bytes: /);
    assert.match(text.stdout, /\nwasm memory [\d.]+ MiB; at the peak: allocator [\d.]+ MiB \([\d.]+ MiB live, /);
    const topText = cli('top', file).stdout;
    assert.match(topText, /\nwasm memory [\d.]+ MiB: [\d.]+ [KM]iB static data and stacks, .* live in .*\nat the peak: allocator [\d.]+ MiB \(/);
    // the peak's parts, emheap's tables named apart from what is free
    const peakLine = /^at the peak: allocator ([\d.]+ [KM]iB) \(([\d.]+ [KM]iB) live, ([\d.]+ [KM]iB) emheap's tables, ([\d.]+ [KM]iB|\d+ B) free or the allocator's own\)$/m.exec(topText);
    assert.ok(peakLine, topText);
    const use = memoryUse(snap);
    assert.deepEqual(peakLine.slice(1), [use.peak.allocatorBytes, use.peak.liveBytes, use.peak.emheapBytes, use.peak.freeInAllocator].map(formatBytes));
    // a budget the end meets and the peak does not
    const budget = String(Math.round((known.tableBytes + known.cacheBytes) / 2));
    assert.equal(cli('check', file, '--max-live-bytes', budget).status, 0);
    const over = cli('check', file, '--max-live-bytes', budget, '--at', 'peak');
    assert.equal(over.status, 1, over.stdout + over.stderr);
    assert.match(over.stdout + over.stderr, /at the peak of live bytes/);
    assert.match(over.stdout + over.stderr, /build_cache/);
    // the file of the peak: speedscope's profile is named for it
    const out = path.join(tmp, 'p.speedscope.json');
    const conv = cli('convert', file, '--to', 'speedscope', '--at', 'peak', '-o', out);
    assert.equal(conv.status, 0, conv.stderr);
    const written = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.match(written.profiles[0].name, /^live bytes at the peak/);
    assert.equal(written.profiles[0].endValue, snap.summary.requestedBytesAtPeak, 'the sites at the peak, in bytes asked for');
    // bad input: one line, exit 2
    const bad = cli('top', file, '--at', 'yesterday');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^emheap: --at: "yesterday" is not one of now, peak\n$/);
    const old = JSON.parse(JSON.stringify(snap));
    for (const s of old.sites) { delete s.liveBytesAtPeak; delete s.liveBlocksAtPeak; }
    const oldFile = path.join(tmp, 'old.json');
    fs.writeFileSync(oldFile, JSON.stringify(old));
    const none = cli('top', oldFile, '--at', 'peak');
    assert.equal(none.status, 2);
    assert.match(none.stderr, /no per-site numbers at the peak/);
  } finally {
    fs.rmSync(tmp, {recursive: true, force: true});
  }
});
