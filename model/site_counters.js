// site_counters.js: the counters every snapshot site carries, how two sites
// that turn out to be one are added up, and the order sites are listed in.
// Shared by the snapshot builder (capture/raw_snapshot.js: raw stacks that clean to
// the same frames) and the allocation-layer pass (model/wrappers.js: stacks
// that differed only inside the layer).
'use strict';

var STEP_ITEMS = require('./steps').STEP_ITEMS;
var sortSteps = require('./sliced_sort').sortSteps;
var runSteps = require('./steps').runSteps;

// The *AtPeak ones are at the global peak, absent from files of emheap
// before layout 4 (then absent from their merged sites too);
// blocksAtPeakLiveBytes is absent before layout 5, the estimated parts
// before layout 9.
var SITE_COUNTERS = ['liveBytes', 'liveBlocks', 'totalAllocs', 'totalBytes', 'peakLiveBytes', 'blocksAtPeakLiveBytes',
  'liveBytesAtPeak', 'liveBlocksAtPeak', 'estimatedLiveBytes', 'estimatedLiveBytesAtPeak'];

// Adds `from`'s counters to `into` (rounded: the runtime's are doubles in
// sampled mode), those `into` has. The peak of merged sites is the sum of
// their peaks: an upper bound, since their peaks may not have been at the
// same moment; the values at the global peak add up exactly.
function addSiteCounters(into, from) {
  for (var i = 0; i < SITE_COUNTERS.length; i++) {
    var k = SITE_COUNTERS[i];
    if (into[k] !== undefined) into[k] += Math.round(from[k] || 0);
  }
  if (into.liveByMark && from.liveByMark) into.liveByMark = addLiveByMark(into.liveByMark, from.liveByMark);
  addLifetimes(into, from);
  if (from.rangeMarks) into.rangeMarks = into.rangeMarks ? addRangeMarks(into.rangeMarks, from.rangeMarks) : from.rangeMarks;
  if (from.rangeLiveAfter) {
    into.rangeLiveAfter = into.rangeLiveAfter ? addRangeLiveAfter(into.rangeLiveAfter, from.rangeLiveAfter) : from.rangeLiveAfter;
  }
  addAllocType(into, from);
}

// The type of a site's allocations (capture/layout.js readAllocType; named
// by model/frame_names.js): allocToken, allocType (its name, when found),
// allocTokenMixed (they came with different tokens). `into` is a new site
// that has none yet.
function copyAllocType(into, from) {
  if (from.allocToken !== undefined) into.allocToken = from.allocToken;
  if (from.allocType !== undefined) into.allocType = from.allocType;
  if (from.allocTokenMixed) into.allocTokenMixed = true;
}

// Two sites that are one: of one type if both were, else mixed (a site of
// typed and untyped allocations is mixed too).
function addAllocType(into, from) {
  if (into.allocToken === from.allocToken && !from.allocTokenMixed) return;
  if (into.allocToken !== undefined) {
    delete into.allocToken;
    delete into.allocType;
  }
  into.allocTokenMixed = true;
}

// What two sites held at the kept marks (site.rangeMarks: [mark, liveBytes,
// liveBlocks, totalBytes, totalAllocs, ...] ascending by mark; a site's
// values at a mark are those of its latest entry at or before it, zeros
// before its first), added up: an entry at every mark either has, each the
// sum of both sites' values then. A new array.
var RANGE_ENTRY = 5;
function addRangeMarks(a, b) {
  var out = [];
  var i = 0;
  var j = 0;
  var va = [0, 0, 0, 0];
  var vb = [0, 0, 0, 0];
  while (i < a.length || j < b.length) {
    var mark = Math.min(i < a.length ? a[i] : Infinity, j < b.length ? b[j] : Infinity);
    if (i < a.length && a[i] === mark) { va = a.slice(i + 1, i + RANGE_ENTRY); i += RANGE_ENTRY; }
    if (j < b.length && b[j] === mark) { vb = b.slice(j + 1, j + RANGE_ENTRY); j += RANGE_ENTRY; }
    out.push(mark, va[0] + vb[0], va[1] + vb[1], va[2] + vb[2], va[3] + vb[3]);
  }
  return out;
}

// Two sites' live blocks at each kept mark by the mark they came after
// (site.rangeLiveAfter: [mark, after, bytes, blocks, ...] ascending by
// mark, then after), added up. A new array.
function addRangeLiveAfter(a, b) {
  var out = [];
  var i = 0;
  var j = 0;
  var before = function (x, k, y, l) { return x[k] < y[l] || (x[k] === y[l] && x[k + 1] < y[l + 1]); };
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && before(a, i, b, j))) {
      out.push(a[i], a[i + 1], a[i + 2], a[i + 3]);
      i += 4;
    } else if (i >= a.length || before(b, j, a, i)) {
      out.push(b[j], b[j + 1], b[j + 2], b[j + 3]);
      j += 4;
    } else {
      out.push(a[i], a[i + 1], a[i + 2] + b[j + 2], a[i + 3] + b[j + 3]);
      i += 4;
      j += 4;
    }
  }
  return out;
}

// How long the blocks lived (capture/layout.js readLifetimes: present on a
// site some of whose blocks ended, layout 15 on): added up into new arrays,
// for `into`'s may be shared with the snapshot it was copied from.
var LIFETIME_ARRAYS = ['endedByAge', 'endedByTime'];
function addLifetimes(into, from) {
  if (!from.endedByAge) return;
  for (var i = 0; i < LIFETIME_ARRAYS.length; i++) {
    var k = LIFETIME_ARRAYS[i];
    var a = into[k];
    var b = from[k] || [];
    into[k] = b.map(function (n, j) { return n + (a ? a[j] || 0 : 0); });
  }
  into.temporaryAllocs = (into.temporaryAllocs || 0) + (from.temporaryAllocs || 0);
  if (from.lifetimesAtLeast) into.lifetimesAtLeast = true;
}

// Two sites' live bytes by mark (site.liveByMark: [after, bytes, blocks,
// estimatedBytes, after, ...], ascending by `after`, the mark the blocks
// came after) added up, as a new array: the sites' own arrays are shared
// with the snapshot they were copied from.
function addLiveByMark(a, b) {
  var out = [];
  var i = 0;
  var j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) {
      out.push(a[i], a[i + 1], a[i + 2], a[i + 3]);
      i += 4;
    } else if (i >= a.length || b[j] < a[i]) {
      out.push(b[j], b[j + 1], b[j + 2], b[j + 3]);
      j += 4;
    } else {
      out.push(a[i], a[i + 1] + b[j + 1], a[i + 2] + b[j + 2], a[i + 3] + b[j + 3]);
      i += 4;
      j += 4;
    }
  }
  return out;
}

// Largest live bytes first, then bytes ever allocated, then site id.
function bySize(a, b) {
  return b.liveBytes - a.liveBytes || b.totalBytes - a.totalBytes || a.id - b.id;
}

// The sites with live bytes, heaviest first, ties in snapshot order: the
// order the formats draw them in. Snapshots emheap makes are in that order
// already (bySize), and then no sort runs. As steps (steps.js): at 1M
// sites the one pass over them took ~0.2 s of a page's main thread.
function* liveHeaviestFirstSteps(sites) {
  sites = sites || [];
  var live = [];
  var ordered = true;
  for (var i = 0; i < sites.length; i++) {
    if (i % STEP_ITEMS === STEP_ITEMS - 1) yield;
    var s = sites[i];
    if (!(s.liveBytes > 0)) continue;
    if (ordered && live.length && s.liveBytes > live[live.length - 1].liveBytes) ordered = false;
    live.push(s);
  }
  // stable, like Array.prototype.sort: ties keep snapshot order
  if (!ordered) yield* sortSteps(live, function (a, b) { return b.liveBytes - a.liveBytes; }, STEP_ITEMS * 4);
  return live;
}

function liveHeaviestFirst(sites) {
  return runSteps(liveHeaviestFirstSteps(sites));
}

module.exports = { addSiteCounters: addSiteCounters, copyAllocType: copyAllocType, addLiveByMark: addLiveByMark,
  addRangeMarks: addRangeMarks, addRangeLiveAfter: addRangeLiveAfter, bySize: bySize, liveHeaviestFirst: liveHeaviestFirst,
  liveHeaviestFirstSteps: liveHeaviestFirstSteps};
