// site_counters.js: the counters every snapshot site carries, how two sites
// that turn out to be one are added up, and the order sites are listed in.
// Shared by the snapshot builder (jslib/snapshot.js: raw stacks that clean to
// the same frames) and the allocation-layer pass (model/wrappers.js: stacks
// that differed only inside the layer).
'use strict';

var SITE_COUNTERS = ['liveBytes', 'liveBlocks', 'totalAllocs', 'totalBytes', 'peakLiveBytes'];

// Adds `from`'s counters to `into` (rounded: the runtime's are doubles in
// sampled mode). The peak of merged sites is the sum of their peaks: an
// upper bound, since their peaks may not have been at the same moment.
function addSiteCounters(into, from) {
  for (var i = 0; i < SITE_COUNTERS.length; i++) into[SITE_COUNTERS[i]] += Math.round(from[SITE_COUNTERS[i]] || 0);
}

// Largest live bytes first, then bytes ever allocated, then site id.
function bySize(a, b) {
  return b.liveBytes - a.liveBytes || b.totalBytes - a.totalBytes || a.id - b.id;
}

// The sites with live bytes, heaviest first, ties in snapshot order: the
// order the formats draw them in. Snapshots emheap makes are in that order
// already (bySize), and then no sort runs: at 2M sites the sort was most of
// a second of the page's main thread before the first slice of a file.
function liveHeaviestFirst(sites) {
  var live = (sites || []).filter(function (s) { return s.liveBytes > 0; });
  var i = 1;
  while (i < live.length && live[i].liveBytes <= live[i - 1].liveBytes) i++;
  // Array.prototype.sort is stable since ES2019: ties keep snapshot order.
  if (i < live.length) live.sort(function (a, b) { return b.liveBytes - a.liveBytes; });
  return live;
}

module.exports = {SITE_COUNTERS: SITE_COUNTERS, addSiteCounters: addSiteCounters, bySize: bySize, liveHeaviestFirst: liveHeaviestFirst};
