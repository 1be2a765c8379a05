// peak.test.js -- model/peak.js without emcc: peakView (a snapshot whose
// live numbers are those of the global peak of live bytes) and memoryUse
// (the wasm memory, the allocator's part, live and free, now and at the
// peak), on hand-made snapshots.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { peakView, memoryUse } = require('../model/peak');
const { makeSnapshot, site, summary } = require('./lib/fixtures');

// A cache built and dropped (the peak), then a table kept: now the table is
// live and the cache is not; at the peak it was the other way round.
function peaked() {
  const s = makeSnapshot();
  s.mode = 'exact';
  const at = (x, bytes, blocks, extra) => Object.assign(x, { liveBytesAtPeak: bytes, liveBlocksAtPeak: blocks }, extra);
  // the heap graph's per-site numbers (of the moment the snapshot was taken)
  const heapFields = { heapBlocks: 3, shallowBytes: 300, retainedBytes: 300, reachableBlocks: 3, directBlocks: 0,
    indirectBlocks: 0, liveByMark: [0, 300, 3, 0] };
  s.sites = [
    at(site(1, 'keep_table+0x10', [0, 4], 300, 3), 0, 0, heapFields),
    at(site(2, 'misc+0x20', [2, 4], 100, 1), 100, 1),
    at(site(3, 'build_cache+0x30', [3, 4], 0, 0), 4000, 4, { estimatedLiveBytes: 0, estimatedLiveBytesAtPeak: 1000 }),
    at(site(4, 'other+0x40', [1, 4], 50, 1), 100, 1), // same bytes at the peak as misc, more allocated (fixture: +100)
    at(site(0, '', [], 0, 0), 0, 0),
  ];
  s.sites[3].totalBytes = 900;
  s.sites[4].totalBytes = 400; // as much allocated as keep_table (fixture: 300 + 100)
  // the summary: requested bytes plus the allocator's rounding are the usable (global) numbers
  s.summary = summary({
    liveBytes: 466, liveBlocks: 5, requestedLiveBytes: 450, allocatorRoundingBytes: 16,
    peakLiveBytes: 4232, peakLiveBlocks: 9, // the most blocks live at once came at another moment
    requestedBytesAtPeak: 4200, allocatorRoundingAtPeak: 32, liveBlocksAtPeak: 6,
    totalBytes: 5000, mallocCalls: 12, freeCalls: 7, siteCount: 5,
    heapBase: 1000, breakNow: 9000, breakAtPeak: 7000, tableBytes: 2000,
  });
  s.heap = { blocks: { id: [1], address: [2000], size: [300], site: [1] } };
  return s;
}

const sum = (sites, k) => sites.reduce((t, x) => t + x[k], 0);

test('peakView: every site with its numbers at the peak, heaviest then first', () => {
  const s = peaked();
  const copy = structuredClone(s);
  const v = peakView(s);
  assert.equal(v.view, 'peak');
  const byId = new Map(v.sites.map((x) => [x.id, x]));
  for (const x of s.sites) {
    assert.equal(byId.get(x.id).liveBytes, x.liveBytesAtPeak, `site ${x.id}`);
    assert.equal(byId.get(x.id).liveBlocks, x.liveBlocksAtPeak, `site ${x.id}`);
    assert.equal(byId.get(x.id).totalAllocs, x.totalAllocs, 'what is not a live number stays');
  }
  // model/site_counters.js bySize: live bytes (4000, 100, 100, 0, 0), then bytes ever
  // allocated (site 4's 900 before site 2's 200), then id (0 before 1: both 0 then, 400 in all)
  assert.deepEqual(v.sites.map((x) => x.id), [3, 4, 2, 0, 1]);
  // the estimated part at the peak replaces the one of now
  assert.equal(byId.get(3).estimatedLiveBytes, 1000);
  assert.deepEqual(s, copy, 'the snapshot itself is not changed');
});

test('peakView: the summary is the peak\'s, and the sites add up to it as they add up to the live numbers', () => {
  const s = peaked();
  const v = peakView(s);
  assert.equal(v.summary.liveBytes, s.summary.peakLiveBytes);
  assert.equal(v.summary.liveBlocks, s.summary.liveBlocksAtPeak);
  assert.equal(v.summary.requestedLiveBytes, s.summary.requestedBytesAtPeak);
  assert.equal(v.summary.allocatorRoundingBytes, s.summary.allocatorRoundingAtPeak);
  // sites count requested bytes (exact mode): in the snapshot they add up to requestedLiveBytes
  // (300+100+0+50), in the view to the peak's (0+100+4000+100)
  assert.equal(sum(s.sites, 'liveBytes'), s.summary.requestedLiveBytes);
  assert.equal(sum(v.sites, 'liveBytes'), v.summary.requestedLiveBytes);
  assert.equal(sum(v.sites, 'liveBlocks'), v.summary.liveBlocks);
  assert.equal(v.summary.requestedLiveBytes + v.summary.allocatorRoundingBytes, v.summary.liveBytes);
  // the rest of the summary stays
  assert.equal(v.summary.totalBytes, s.summary.totalBytes);
  assert.equal(v.summary.peakLiveBytes, s.summary.peakLiveBytes);
});

test('peakView: the heap graph, of another moment, is left out with its per-site numbers', () => {
  const s = peaked();
  const v = peakView(s);
  assert.equal('heap' in v, false);
  const table = v.sites.find((x) => x.id === 1);
  for (const f of ['heapBlocks', 'shallowBytes', 'retainedBytes', 'reachableBlocks', 'directBlocks', 'indirectBlocks', 'liveByMark']) {
    assert.equal(f in table, false, f);
  }
  assert.equal(table.peakLiveBytes, s.sites[0].peakLiveBytes, 'the site\'s own peak is not a heap number: it stays');
  assert.ok(s.heap && 'retainedBytes' in s.sites[0], 'the snapshot keeps its own');
});

test('peakView: a view is returned as it is; a file without per-site peak numbers has none', () => {
  const v = peakView(peaked());
  assert.equal(peakView(v), v);
  // files before layout 4: no liveBytesAtPeak on the sites
  assert.equal(peakView(makeSnapshot()), null);
  // one site without it is enough: the others cannot add up to the peak
  const s = peaked();
  delete s.sites[2].liveBytesAtPeak;
  assert.equal(peakView(s), null);
  // files before layout 8: no requested bytes at the peak; the usable ones still are the peak's
  const old = peaked();
  delete old.summary.requestedBytesAtPeak;
  delete old.summary.allocatorRoundingAtPeak;
  delete old.summary.requestedLiveBytes;
  const ov = peakView(old);
  assert.equal(ov.summary.liveBytes, old.summary.peakLiveBytes);
  assert.equal('requestedLiveBytes' in ov.summary, false);
});

test('memoryUse: the allocator\'s part of the memory, live, emheap\'s tables and free, now and at the peak', () => {
  const s = peaked();
  const u = memoryUse(s);
  const m = s.summary;
  assert.equal(u.heapSize, m.heapSize);
  // now: the allocator holds break - base = 8000 bytes, of which 466 live and 2000 emheap's tables
  assert.deepEqual(u.now, { liveBytes: m.liveBytes, allocatorBytes: m.breakNow - m.heapBase, emheapBytes: m.tableBytes,
    freeInAllocator: m.breakNow - m.heapBase - m.liveBytes - m.tableBytes });
  // a file before layout 20 does not say the tables' size at the peak:
  // null, their bytes are in freeInAllocator
  assert.deepEqual(u.peak, { liveBytes: m.peakLiveBytes, allocatorBytes: m.breakAtPeak - m.heapBase, emheapBytes: null,
    freeInAllocator: m.breakAtPeak - m.heapBase - m.peakLiveBytes });
  // one that does names them at the peak too, apart from what is free
  const withTables = peaked();
  withTables.summary.tableBytesAtPeak = 1500;
  assert.deepEqual(memoryUse(withTables).peak, { liveBytes: m.peakLiveBytes, allocatorBytes: m.breakAtPeak - m.heapBase,
    emheapBytes: 1500, freeInAllocator: m.breakAtPeak - m.heapBase - m.peakLiveBytes - 1500 });
  // a peak view: its live numbers are the peak's, it has no `now`; the peak is the same
  const v = memoryUse(peakView(s));
  assert.equal(v.now, null);
  assert.deepEqual(v.peak, u.peak);
});

test('memoryUse: free never below 0; no tables said: 0; null without the numbers', () => {
  const s = peaked();
  s.summary.breakAtPeak = s.summary.heapBase + s.summary.peakLiveBytes - 1; // live more than the allocator holds
  delete s.summary.tableBytes;
  const u = memoryUse(s);
  assert.equal(u.peak.freeInAllocator, 0);
  assert.equal(u.now.emheapBytes, 0);
  assert.equal(u.now.freeInAllocator, s.summary.breakNow - s.summary.heapBase - s.summary.liveBytes);
  assert.equal(memoryUse(makeSnapshot()), null, 'files before layout 4: no heap base');
  for (const [k, value] of [['heapBase', 0], ['breakNow', 999], ['breakAtPeak', 999]]) {
    const x = peaked();
    x.summary[k] = value; // base 0, or a break below the base (1000)
    assert.equal(memoryUse(x), null, k);
  }
  assert.equal(memoryUse({ sites: [] }), null, 'no summary');
});
