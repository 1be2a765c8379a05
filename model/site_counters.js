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

module.exports = {SITE_COUNTERS: SITE_COUNTERS, addSiteCounters: addSiteCounters, bySize: bySize};
