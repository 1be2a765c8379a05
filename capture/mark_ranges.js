// mark_ranges.js -- what each site held at each of the last marks, so that
// a snapshot can tell, for a range between two marks, what was made and
// freed in it, made in it and kept, made before and freed in it, and made
// before and kept through it (model/ranges.js).
//
// At a mark made on the main thread, under the runtime's lock (the same
// moment as the mark), two passes: one over the sites, recording those
// whose live blocks or allocations changed since the mark before (live and
// allocated bytes and blocks: a site with no entry at or before a mark had
// none then), and one over the live blocks, summing each site's by the
// kept mark they came after (what liveByMark is to a snapshot, at the
// mark), reading only those made after the oldest kept mark. A mark took
// 28-36 ms at 1M and 5M live blocks in 100,000 sites, 60 ms at 1M sites,
// with no block made since the oldest kept mark (make bench, headless
// Chromium); a mark after a million blocks were made since the one before
// 40 ms in 1,000 sites, 53 ms in 100,000, 200 ms in 1M (node,
// bench/timeline_cost.js). The last KEEP
// marks are kept; when one goes, the entries of sites that did not change
// at the next move there, so that "the latest entry at or before a mark"
// stays each site's values then.
//
// Exact mode only: sampled mode's sites are estimates, and its blocks a
// sample. A mark made on a worker gets no passes (this JS holds the main
// thread's record): a range can only end at or start from marks that have.
'use strict';

var layout = require('./layout');
var markLog = require('./mark_log');
var blockCopy = require('./block_copy');
var SITE = layout.SITE;
var grown = require('./typed_arrays').grown;

var KEEP = 16;
var ENTRY = 5; // site, liveBytes, liveBlocks, totalBytes, totalAllocs
var AFTER = 4; // site, after (a kept mark's number), bytes, blocks
var DENSE_BYTES = 64 << 20; // blocksPass's arrays per mark, at most

// keep: how many marks (KEEP); denseBytes: blocksPass's arrays at most
// (DENSE_BYTES; a test makes it small).
function createMarkRanges(keep, denseBytes) {
  keep = keep || KEEP;
  denseBytes = denseBytes === undefined ? DENSE_BYTES : denseBytes;
  var lastAllocs = new Float64Array(1024); // per site, at its latest entry
  var lastBlocks = new Float64Array(1024);
  var known = 0; // sites seen so far
  var kept = []; // oldest first: {number, entries: [], after: []}

  function sitesPass(view, statePtr) {
    var tables = layout.siteTablesInPlace(view, statePtr);
    var sites = tables.sites;
    while (lastAllocs.length < tables.count) {
      lastAllocs = grown(lastAllocs);
      lastBlocks = grown(lastBlocks);
    }
    var entries = [];
    for (var s = 0; s < tables.count; s++) {
      var at = layout.sitesAt(tables, s);
      var allocs = sites.getFloat64(at + SITE.total_allocs, true);
      var blocks = sites.getFloat64(at + SITE.live_blocks, true);
      if (s < known && allocs === lastAllocs[s] && blocks === lastBlocks[s]) continue;
      if (s >= known && allocs === 0 && blocks === 0) continue;
      entries.push(s, sites.getFloat64(at + SITE.live_bytes, true), blocks, sites.getFloat64(at + SITE.total_bytes, true), allocs);
      lastAllocs[s] = allocs;
      lastBlocks[s] = blocks;
    }
    known = Math.max(known, tables.count);
    return entries;
  }

  // The live blocks by the kept mark they came after (numbers: the kept
  // marks with passes, this one last), for those after the oldest. Summed
  // in an array per mark indexed by site (a Map of (site, mark) took ~1 s
  // for a million blocks in 100,000 sites, the arrays ~50 ms), as many
  // arrays as DENSE_BYTES holds; the marks past those in a Map.
  function blocksPass(view, statePtr, numbers, siteCount) {
    var serials = {};
    markLog.readMarks(view, statePtr).marks.forEach(function (m) { serials[m.number] = m.serial; });
    var bounds = numbers.map(function (n) { return serials[n]; });
    if (bounds[0] === undefined) return []; // (a kept mark is always in the ring)
    var blocks = blockCopy.copyBlocks(view, statePtr, null, false, bounds[0], true);
    var dense = []; // by index in numbers: {bytes, blocks} indexed by site, or null
    var denseLeft = Math.floor(denseBytes / (8 * Math.max(1, siteCount)));
    var sums = new Map(); // the rest: site * 64 + index in numbers -> [bytes, blocks]
    for (var i = 0; i < blocks.serial.length; i++) {
      var serial = blocks.serial[i]; // (above bounds[0])
      var k = bounds.length - 1;
      while (k > 0 && !(bounds[k] < serial)) k--;
      var d = dense[k];
      if (d === undefined) d = dense[k] = denseLeft-- > 0 ? {bytes: new Uint32Array(siteCount), blocks: new Uint32Array(siteCount)} : null;
      var site = blocks.site[i];
      if (d && site < siteCount) {
        d.bytes[site] += blocks.size[i]; // (live bytes fit 32 bits: a wasm32 memory holds them)
        d.blocks[site]++;
        continue;
      }
      var key = site * 64 + k;
      var sum = sums.get(key);
      if (!sum) sums.set(key, (sum = [0, 0]));
      sum[0] += blocks.size[i];
      sum[1]++;
    }
    var after = [];
    dense.forEach(function (d, k) {
      if (!d) return;
      for (var s = 0; s < siteCount; s++) if (d.blocks[s]) after.push(s, numbers[k], d.bytes[s], d.blocks[s]);
    });
    sums.forEach(function (sum, key) { after.push(Math.floor(key / 64), numbers[key % 64], sum[0], sum[1]); });
    return after;
  }

  // The oldest kept mark goes: entries of sites that do not change at the
  // next one move there.
  function dropOldest() {
    var gone = kept.shift();
    var next = kept[0];
    var has = new Set();
    for (var i = 0; i < next.entries.length; i += ENTRY) has.add(next.entries[i]);
    for (var j = 0; j < gone.entries.length; j += ENTRY) {
      if (!has.has(gone.entries[j])) next.entries.push.apply(next.entries, gone.entries.slice(j, j + ENTRY));
    }
  }

  return {
    KEEP: keep,
    // Under the lock, on the main thread, at mark `number` just made.
    atMark: function (view, statePtr, number) {
      var entries = sitesPass(view, statePtr);
      var numbers = kept.map(function (m) { return m.number; }).concat([number]);
      // exact mode thinned (a fixed heap full of emheap's tables): sites
      // hold estimates from then on
      var thinned = layout.readMode(view, statePtr).samplingInterval > 0;
      kept.push({number: number, entries: entries, after: blocksPass(view, statePtr, numbers, known), thinned: thinned});
      if (kept.length > keep) dropOldest();
    },
    // For a snapshot: {marks: the kept marks' numbers, oldest first;
    // estimated: those taken after exact mode thinned;
    // bySite: site id -> {marks: [mark, liveBytes, liveBlocks, totalBytes,
    // totalAllocs, ...], after: [mark, after, bytes, blocks, ...]}, both by
    // mark ascending}.
    read: function () {
      var bySite = new Map();
      var of = function (s) {
        var d = bySite.get(s);
        if (!d) bySite.set(s, (d = {marks: [], after: []}));
        return d;
      };
      kept.forEach(function (m) {
        for (var i = 0; i < m.entries.length; i += ENTRY) {
          of(m.entries[i]).marks.push(m.number, m.entries[i + 1], m.entries[i + 2], m.entries[i + 3], m.entries[i + 4]);
        }
        var rows = [];
        for (var j = 0; j < m.after.length; j += AFTER) rows.push(m.after.slice(j, j + AFTER));
        rows.sort(function (a, b) { return a[1] - b[1]; });
        rows.forEach(function (r) { of(r[0]).after.push(m.number, r[1], r[2], r[3]); });
      });
      return {marks: kept.map(function (m) { return m.number; }), bySite: bySite,
        estimated: kept.filter(function (m) { return m.thinned; }).map(function (m) { return m.number; })};
    },
  };
}

module.exports = {createMarkRanges: createMarkRanges};
