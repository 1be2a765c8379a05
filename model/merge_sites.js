// merge_sites.js -- the one way a snapshot's sites become fewer: sites
// whose stacks become one (the allocation layer removed, model/wrappers.js;
// grouped by function or line, model/grouping.js) merge into one site, and
// all a snapshot says per site follows: the counters (summed: the values at
// the global peak add up exactly; a merged site's own peak is the sum of
// its parts' peaks, an upper bound), live bytes by mark, growth events, the
// site timeline's series and the heap graph's blocks and per-site totals.
'use strict';

var siteCounters = require('./site_counters');
var sortSteps = require('./sliced_sort').sortSteps;
var ShardedMap = require('./sharded_map').ShardedMap;
var heapSection = require('./heap_section');
var withMergedSites = require('./growth').withMergedSites;
var regroupSeries = require('./site_timeline').regroupSeries;

var STEP_SITES = require('./steps').STEP_ITEMS;

// reshape(site, index) -> null (the site stays as it is, merged with nothing) or
// {identity: a string or a number (sites of one identity merge), stack,
// key}.
// options.frames: the new snapshot's frames (when reshape's stacks index
// another frame table); options.countParts: merged sites carry `parts`,
// how many sites each holds (2 or more); options.inPlace: the snapshot is
// the caller's own, which no one else holds (model/finish.js's raw
// snapshot): its sites and heap graph are changed where they are rather
// than copied. -> a generator of steps returning {snapshot, changed,
// merged}: a new snapshot whose sites are sorted by size; changed: whether
// any site changed at all (if not, the snapshot given, as it was); merged:
// whether sites became one (then the heap graph's per-site totals were
// made again).
function* mergeSitesSteps(snapshot, reshape, options) {
  options = options || {};
  var byIdentity = new ShardedMap(); // identity -> its (merged) site
  var mergedInto = new ShardedMap(); // site id -> the site id it was merged into
  var parts = new Map(); // a site id kept -> how many sites it holds (2 or more)
  var sites = [];
  var changed = false;
  for (var i = 0; i < snapshot.sites.length; i++) {
    if (i % STEP_SITES === STEP_SITES - 1) yield;
    var s = snapshot.sites[i];
    var shape = reshape(s, i);
    var identity = shape ? shape.identity : 'site:' + s.id;
    var same = byIdentity.get(identity);
    if (same) {
      siteCounters.addSiteCounters(same, s);
      mergedInto.set(s.id, same.id);
      parts.set(same.id, (parts.get(same.id) || 1) + 1);
      changed = true;
      continue;
    }
    var out = options.inPlace ? s : copy(s);
    if (shape) {
      if (shape.stack !== s.stack || shape.key !== s.key) changed = true;
      out.stack = shape.stack;
      out.key = shape.key;
    }
    byIdentity.set(identity, out);
    sites.push(out);
  }
  var result = copy(snapshot);
  if (options.frames) {
    result.frames = options.frames;
    changed = true;
  }
  if (!changed) return {snapshot: snapshot, changed: false, merged: false};
  if (options.countParts) sites.forEach(function (s) { if (parts.has(s.id)) s.parts = parts.get(s.id); });
  yield* sortSteps(sites, siteCounters.bySize, STEP_SITES * 4);
  result.sites = sites;
  var kept = function (id) { return mergedInto.has(id) ? mergedInto.get(id) : id; };
  if (Array.isArray(snapshot.heapGrowth)) {
    result.heapGrowth = snapshot.heapGrowth.map(function (g) {
      return withMergedSites(g, kept, function (id) { return parts.get(id) || 1; });
    });
  }
  if (snapshot.siteTimeline) {
    result.siteTimeline = regroupSeries(snapshot.siteTimeline, kept, function (id) { return parts.get(id) || 1; });
  }
  if (snapshot.heap && parts.size) {
    // the blocks of merged sites go to the merged site; the per-site heap
    // totals are made again for the merged sites (where none merged, each
    // site keeps its id, its blocks and its totals)
    result.heap = options.inPlace ? snapshot.heap : heapSection.copyWithSites(snapshot.heap);
    yield* heapSection.remapSitesSteps(result.heap, mergedInto);
    yield* heapSection.addSiteTotalsSteps(result);
  }
  return {snapshot: result, changed: true, merged: parts.size > 0};
}

function copy(o) {
  var out = {};
  Object.keys(o).forEach(function (k) { out[k] = o[k]; });
  return out;
}

module.exports = {mergeSitesSteps: mergeSitesSteps};
