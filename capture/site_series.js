// site_series.js -- the live bytes of what matters, over time: one series
// per followed group of call sites, a value at every point of the timeline
// (timeline.js), so that a snapshot shows which code grows by the same
// amount every round and which one levels off (model/growing.js).
//
// A group is the call sites of one chain of functions (keyOf, given by the
// page: capture/stack_table.js functionChain): at -O2 a loop unrolled or a
// function inlined twice makes one line of source many call sites, and
// only their sum grows the way the code does. A site is given its group
// once, when first seen, within a time budget (GROUP_SHARE of the time,
// GROUP_MS_PER_POINT at most per point); a site not grouped yet is in no
// series.
//
// Cost, bounded on both sides:
//  - per point (every 100 ms, and at each mark): one read per site of each
//    followed group, at most MAX_SERIES groups of MAX_SITES_PER_SERIES;
//  - which groups are followed is decided by a pass over every site (the
//    largest groups now, and those that grew the most since the last pass),
//    taken at most every SCAN_MIN_MS from the timer (at a mark sooner), and
//    only while all passes so far took at most SCAN_SHARE of the time since
//    the first plus SCAN_ALLOWANCE_MS (so a program's first marks, ms
//    apart, each get one over a small table; over a million sites they come
//    every second or so). Measured by `make bench` (bench/README.md).
// Memory: MAX_SERIES rings of the timeline's length; per site its group
// and the next site of its group (8 bytes); per group about 60 bytes (its
// list's head and size, when it was made, its bytes at the last pass, its
// key's hash), all in typed arrays: no JS object per site or group.
//
// A series starts at the point its group was first followed; before that
// it is unknown (its bytes are in the rest: the timeline's total less the
// series), except for a group all of whose sites were made since the point
// before: it held nothing before, and its series says so (newAtFrom). A
// site that joins a followed group later was made since the point before
// (it held nothing before either), or, grouped late, restarts the series
// at this point. When every series is taken, a group larger than the
// smallest followed one takes its place.
'use strict';

var layout = require('./layout');
var IntHash = require('./int_hash').IntHash;
var grown = require('./typed_arrays').grown;

var MAX_SERIES = require('../model/site_timeline').MAX_SERIES;
var MAX_SITES_PER_SERIES = require('../model/site_timeline').MAX_SITES_PER_SERIES;
var TOP_BY_SIZE = 8;
var TOP_BY_GROWTH = 4;
var SCAN_MIN_MS = 1000;
var SCAN_SHARE = 0.01;
var SCAN_ALLOWANCE_MS = 5;
var GROUP_SHARE = 0.02;
var GROUP_ALLOWANCE_MS = 20;
var GROUP_MS_PER_POINT = 4;
var GROUP_CHECK_EVERY = 64; // sites grouped between two looks at the clock
// Sites grouped at every point whatever the clock says, so that what a
// program of a few hundred call sites is followed as does not hang on the
// machine's load: tests/e2e/grouping.test.js's 120 unrolled call sites, put
// in their group over several points of a loaded machine, restarted their
// series and lost grow_list's verdict. ~0.2 ms a point (timeline_cost:
// 0.4-0.7 ms per 1,000 sites).
var GROUP_SITES_ALWAYS = 256;

// points: the timeline's ring length. now(): ms, for timing the passes.
// keyOf(tables, site) -> the site's group key (a string), or undefined
// when it cannot be told yet (the site waits); none: each site its own.
function createSiteTimeline(points, now, keyOf) {
  var series = new Map(); // group -> {from: point index, values, totalBytes, totalAllocs: Float64Array(points), peak,
  //                                  estimated, newAtFrom}
  // Typed arrays only, grown by doubling: a million sites and groups cost
  // no JS object each (the collector would walk them at every pass).
  var groupOf = new Int32Array(1024); // site -> its group + 1 (0: not grouped yet)
  var nextSite = new Int32Array(1024); // site -> the next site of its group, -1 at the end
  var grouped = 0; // sites 0..grouped-1 have their group
  var keys = new IntHash(); // a key's hash (three words) -> its group + 1
  var groupCount = 0;
  var firstSite = new Int32Array(256); // group -> its newest site
  var groupSize = new Int32Array(256); // group -> how many sites
  var bornIndex = new Float64Array(256); // group -> the point its first site was grouped at
  var bornNew = new Uint8Array(256); // group -> 1 if that site was made since the point before
  var lastBytes = new Float64Array(256); // each group's live bytes at the last pass
  var groupLive = new Float64Array(256);
  var firstPassAt = null;
  var seenCount = 0; // sites there were at the last point
  var minOkAt = -Infinity; // the timer's points pass from here
  var passes = 0;
  var passMs = 0;
  var groupMs = 0;

  // The group of a key, made if new.
  function groupOfKey(key, index, isNew) {
    var h = keyWords(key);
    var g = keys.get(h[0], h[1], h[2]) - 1;
    if (g >= 0) return g;
    g = groupCount++;
    if (g === firstSite.length) {
      firstSite = grown(firstSite);
      groupSize = grown(groupSize);
      bornIndex = grown(bornIndex);
      bornNew = grown(bornNew);
      lastBytes = grown(lastBytes);
      groupLive = grown(groupLive);
    }
    firstSite[g] = -1;
    bornIndex[g] = index;
    bornNew[g] = isNew ? 1 : 0;
    keys.add(h[0], h[1], h[2], g + 1);
    return g;
  }

  // Groups the sites not grouped yet, oldest first, within the budget.
  // made: sites from here on were made since the last point.
  function groupSites(tables, index, at, made) {
    if (grouped >= tables.count) return;
    var allowed = firstPassAt === null ? GROUP_ALLOWANCE_MS : GROUP_SHARE * (at - firstPassAt) + GROUP_ALLOWANCE_MS;
    var started = now();
    // past the budget: GROUP_SITES_ALWAYS and no more
    var until = started + Math.max(0, Math.min(GROUP_MS_PER_POINT, allowed - groupMs));
    var floor = grouped + GROUP_SITES_ALWAYS;
    while (groupOf.length < tables.count) {
      groupOf = grown(groupOf);
      nextSite = grown(nextSite);
    }
    while (grouped < tables.count) {
      var s = grouped;
      var key = keyOf ? keyOf(tables, s) : s;
      if (key === undefined) break;
      var g = groupOfKey(key, index, s >= made);
      nextSite[s] = firstSite[g];
      firstSite[g] = s;
      groupSize[g]++;
      groupOf[s] = g + 1;
      grouped++;
      var followed = series.get(g);
      if (followed) {
        if (groupSize[g] > MAX_SITES_PER_SERIES) series.delete(g);
        else if (s < made) restart(followed, index); // held something before: unknown there
      }
      if (grouped >= floor && grouped % GROUP_CHECK_EVERY === 0 && now() >= until) break;
    }
    groupMs += now() - started;
  }

  function restart(s, index) {
    s.from = index;
    s.newAtFrom = false;
    s.peak = 0;
  }

  // Live bytes per group now (groups of the sites grouped so far).
  function liveByGroup(tables) {
    groupLive.fill(0, 0, groupCount);
    var end = Math.min(grouped, tables.count);
    for (var s = 0; s < end; s++) groupLive[groupOf[s] - 1] += layout.siteRawLiveBytes(tables, s);
    return groupLive;
  }

  function scan(tables, index) {
    var started = now();
    if (firstPassAt === null) firstPassAt = started;
    var live = liveByGroup(tables);
    var n = groupCount;
    var bigger = [];
    var grew = [];
    for (var g = 0; g < n; g++) {
      insertTop(bigger, TOP_BY_SIZE, g, live[g]);
      insertTop(grew, TOP_BY_GROWTH, g, live[g] - lastBytes[g]);
      lastBytes[g] = live[g];
    }
    var wanted = bigger.concat(grew.filter(function (e) { return e.value > 0; }));
    var keep = new Set(wanted.map(function (e) { return e.site; }));
    wanted.forEach(function (e) { follow(e.site, live[e.site], index, keep); });
    passes++;
    passMs += now() - started;
    minOkAt = started + SCAN_MIN_MS;
  }

  // The largest of the groups born at this point (all of whose sites were
  // made since the last point) get a series that starts here, with nothing
  // before it.
  function newGroups(tables, index) {
    var top = [];
    for (var g = groupCount - 1; g >= 0 && bornIndex[g] === index; g--) {
      if (!bornNew[g] || series.has(g)) continue;
      insertTop(top, TOP_BY_SIZE, g, groupBytes(tables, g));
    }
    top.forEach(function (e) { follow(e.site, e.value, index, new Set()); });
  }

  function groupBytes(tables, g) {
    var sum = 0;
    for (var s = firstSite[g]; s >= 0; s = nextSite[s]) sum += layout.siteRawLiveBytes(tables, s);
    return sum;
  }

  // Starts following group g (live bytes now: `bytes`) unless it is
  // followed, holds nothing, has too many sites, or every series is taken
  // by a larger group or one in `keep`.
  function follow(g, bytes, index, keep) {
    if (series.has(g) || !(bytes > 0) || groupSize[g] > MAX_SITES_PER_SERIES) return;
    if (series.size >= MAX_SERIES && !dropSmallest(bytes, keep)) return;
    var isNew = bornIndex[g] === index && bornNew[g] === 1;
    series.set(g, {from: index, values: new Float64Array(points), totalBytes: new Float64Array(points),
      totalAllocs: new Float64Array(points), peak: 0, estimated: false, newAtFrom: isNew});
  }

  // Frees the series of the followed group whose highest value is the
  // lowest, if that is below `bytes` and the group is not wanted now.
  function dropSmallest(bytes, keep) {
    var victim = -1;
    var lowest = Infinity;
    series.forEach(function (s, g) {
      if (!keep.has(g) && s.peak < lowest) {
        lowest = s.peak;
        victim = g;
      }
    });
    if (victim < 0 || !(lowest < bytes)) return false;
    series.delete(victim);
    return true;
  }

  return {
    // Point `index` (the timeline's count) of the sites, at `at` (ms);
    // under the lock. view/statePtr: the runtime's state. atMark: the
    // point of a mark, which passes over the sites whenever their share of
    // the time allows (a program's rounds can be milliseconds apart).
    sample: function (view, statePtr, index, at, atMark, scale) {
      var tables = layout.siteTablesInPlace(view, statePtr);
      var made = seenCount;
      var before = groupCount;
      groupSites(tables, index, at, made);
      seenCount = tables.count;
      var budget = firstPassAt === null ? Infinity : SCAN_SHARE * (at - firstPassAt) + SCAN_ALLOWANCE_MS;
      // (a pass looks at every group, new ones too)
      if (passMs <= budget && (atMark || at >= minOkAt)) scan(tables, index);
      else if (groupCount > before) newGroups(tables, index);
      var slot = index % points;
      series.forEach(function (s, g) {
        var sum = 0;
        var bytes = 0;
        var allocs = 0;
        for (var site = firstSite[g]; site >= 0; site = nextSite[site]) {
          var v = layout.siteLiveBytes(tables, site, scale);
          sum += v.bytes;
          if (v.estimated) s.estimated = true;
          bytes += layout.siteRawTotals(tables, site, 0);
          allocs += layout.siteRawTotals(tables, site, 1);
        }
        s.values[slot] = sum;
        s.totalBytes[slot] = bytes;
        s.totalAllocs[slot] = allocs;
        if (sum > s.peak) s.peak = sum;
      });
    },
    // The series over the timeline's points first..count-1 (the ones
    // still in its ring): [{siteId or siteIds (the sites summed), from
    // (index in those points), liveBytes: [...], totalBytes: [...] and
    // totalAllocs: [...] (allocated so far, for the allocation rate),
    // estimated?, newAtFrom?}],
    // plus how they were chosen.
    read: function (first, count) {
      var out = [];
      series.forEach(function (s, g) {
        var from = Math.max(first, s.from);
        if (from >= count) return;
        var values = [];
        var bytes = [];
        var allocs = [];
        for (var k = from; k < count; k++) {
          values.push(s.values[k % points]);
          bytes.push(s.totalBytes[k % points]);
          allocs.push(s.totalAllocs[k % points]);
        }
        var sites = [];
        for (var site = firstSite[g]; site >= 0; site = nextSite[site]) sites.push(site);
        sites.sort(function (a, b) { return a - b; });
        var one = sites.length === 1 ? {siteId: sites[0]} : {siteIds: sites};
        one.from = from - first;
        one.liveBytes = values;
        one.totalBytes = bytes;
        one.totalAllocs = allocs;
        if (s.estimated) one.estimated = true;
        if (s.newAtFrom && from === s.from) one.newAtFrom = true;
        out.push(one);
      });
      return {series: out, passes: passes, passMs: round3(passMs), groups: groupCount, groupedSites: grouped,
        groupMs: round3(groupMs)};
    },
  };
}

// A group key (a string, or a number) as three 32-bit words for IntHash:
// two hashes of a string and its length (two chains that collide in all
// three would be summed as one series; the views then find it spans two
// groups and give it to neither: model/site_timeline.js).
var WORDS = new Int32Array(3);
function keyWords(key) {
  if (typeof key === 'number') {
    WORDS[0] = key | 0;
    WORDS[1] = (key / 4294967296) | 0;
    WORDS[2] = -1;
    return WORDS;
  }
  var a = 0x811c9dc5;
  var b = 0x2545f491;
  for (var i = 0; i < key.length; i++) {
    var c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  WORDS[0] = a;
  WORDS[1] = b;
  WORDS[2] = key.length;
  return WORDS;
}

function round3(ms) {
  return Math.round(ms * 1000) / 1000;
}

// Keeps `top` (at most n entries {site, value}, largest first) as the n
// largest values seen.
function insertTop(top, n, site, value) {
  if (top.length === n && !(value > top[n - 1].value)) return;
  var k = top.length < n ? top.length : n - 1;
  while (k > 0 && value > top[k - 1].value) {
    if (k < n) top[k] = top[k - 1];
    k--;
  }
  top[k] = {site: site, value: value};
}

module.exports = {createSiteTimeline: createSiteTimeline, MAX_SERIES: MAX_SERIES, SCAN_MIN_MS: SCAN_MIN_MS,
  SCAN_SHARE: SCAN_SHARE, insertTop: insertTop};
