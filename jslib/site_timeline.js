// site_timeline.js -- the live bytes of the sites that matter, over time:
// one series per tracked site, a value at every point of the timeline
// (timeline.js), so that a snapshot shows which site grows by the same
// amount every round and which one levels off (model/growing.js).
//
// Cost, bounded on both sides:
//  - per point (every 100 ms, and at each mark): one read per tracked
//    site, at most MAX_SERIES;
//  - which sites are tracked is decided by a pass over every site (the
//    largest now, and those that grew the most since the last pass), taken
//    at most every SCAN_MIN_MS from the timer (at a mark sooner), and only
//    while all passes so far took at most SCAN_SHARE of the time since the
//    first plus SCAN_ALLOWANCE_MS (so a program's first marks, ms apart,
//    each get one over a small table; over a million sites, ~6 ms each,
//    they come every 0.6 s at most). Measured by `make bench`
//    (bench/README.md).
// Memory: MAX_SERIES rings of the timeline's length, and one number per
// site for the growth between passes.
//
// A site's series starts at the point it was first tracked; before that it
// is unknown (its bytes are in the rest: the timeline's total less the
// series), except for a site made since the point before (site numbers
// only grow: each point looks at the sites made since the last one, once
// each, the largest first): it held nothing before, and its series says so
// (newAtFrom). That matters where the snapshot adds up runtime sites that
// clean to one stack (a click handler's stack, raw, differs at each click):
// their sum is known from the first part's start. When every series is
// taken, a site larger than the smallest tracked one takes its place, and
// the smaller one's series goes (its bytes join the rest).
'use strict';

var layout = require('./layout');

var MAX_SERIES = require('../model/site_timeline').MAX_SERIES;
var TOP_BY_SIZE = 8;
var TOP_BY_GROWTH = 4;
var SCAN_MIN_MS = 1000;
var SCAN_SHARE = 0.01;
var SCAN_ALLOWANCE_MS = 5;

// points: the timeline's ring length. now(): ms, for timing the passes.
function createSiteTimeline(points, now) {
  var series = new Map(); // site id -> {from: point index, values: Float64Array(points), peak, estimated}
  var lastBytes = new Float64Array(0); // each site's live bytes at the last pass
  var firstPassAt = null;
  var seenCount = 0; // sites there were at the last point
  var minOkAt = -Infinity; // the timer's points pass from here
  var passes = 0;
  var passMs = 0;

  // tables: layout.siteTablesInPlace's (read under the lock).
  function scan(tables, index) {
    var started = now();
    var made = seenCount; // sites from here on were made since the last point
    if (firstPassAt === null) firstPassAt = started;
    var n = tables.count;
    var live = liveBytesOf(tables);
    var bigger = [];
    var grew = [];
    if (lastBytes.length < n) {
      var longer = new Float64Array(Math.max(n, lastBytes.length * 2));
      longer.set(lastBytes);
      lastBytes = longer;
    }
    for (var s = 0; s < n; s++) {
      var b = live(s);
      insertTop(bigger, TOP_BY_SIZE, s, b);
      insertTop(grew, TOP_BY_GROWTH, s, b - lastBytes[s]);
      lastBytes[s] = b;
    }
    seenCount = n; // (a pass looks at every site)
    var wanted = bigger.concat(grew.filter(function (e) { return e.value > 0; }));
    var keep = new Set(wanted.map(function (e) { return e.site; }));
    wanted.forEach(function (e) {
      if (series.has(e.site) || !(live(e.site) > 0)) return;
      if (series.size >= MAX_SERIES && !dropSmallest(live(e.site), keep)) return;
      series.set(e.site, {from: index, values: new Float64Array(points), peak: 0, estimated: false, newAtFrom: e.site >= made});
    });
    passes++;
    passMs += now() - started;
    minOkAt = started + SCAN_MIN_MS;
  }

  // The largest of the sites made since the last point get a series that
  // starts at this point, with nothing before it.
  function newSites(tables, index) {
    var live = liveBytesOf(tables);
    var top = [];
    for (var s = seenCount; s < tables.count; s++) insertTop(top, TOP_BY_SIZE, s, live(s));
    seenCount = tables.count;
    top.forEach(function (e) {
      if (!(e.value > 0) || series.has(e.site)) return;
      if (series.size >= MAX_SERIES && !dropSmallest(e.value, new Set())) return;
      series.set(e.site, {from: index, values: new Float64Array(points), peak: 0, estimated: false, newAtFrom: true});
    });
  }

  // Frees the series of the tracked site whose highest value is the
  // lowest, if that is below `bytes` and the site is not wanted now.
  function dropSmallest(bytes, keep) {
    var victim = -1;
    var lowest = Infinity;
    series.forEach(function (s, site) {
      if (!keep.has(site) && s.peak < lowest) {
        lowest = s.peak;
        victim = site;
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
      var budget = firstPassAt === null ? Infinity : SCAN_SHARE * (at - firstPassAt) + SCAN_ALLOWANCE_MS;
      if (passMs <= budget && (atMark || at >= minOkAt)) scan(tables, index);
      if (tables.count > seenCount) newSites(tables, index);
      var slot = index % points;
      series.forEach(function (s, site) {
        var v = site < tables.count ? layout.siteLiveBytes(tables, site, scale) : null;
        s.values[slot] = v ? v.bytes : 0;
        if (s.values[slot] > s.peak) s.peak = s.values[slot];
        if (v && v.estimated) s.estimated = true;
      });
    },
    // The series over the timeline's points first..count-1 (the ones
    // still in its ring): [{siteId, from (index in those points), liveBytes:
    // [...], estimated?}], plus how they were chosen.
    read: function (first, count) {
      var out = [];
      series.forEach(function (s, site) {
        var from = Math.max(first, s.from);
        if (from >= count) return;
        var values = [];
        for (var k = from; k < count; k++) values.push(s.values[k % points]);
        var one = {siteId: site, from: from - first, liveBytes: values};
        if (s.estimated) one.estimated = true;
        if (s.newAtFrom && from === s.from) one.newAtFrom = true;
        out.push(one);
      });
      return {series: out, passes: passes, passMs: Math.round(passMs * 1000) / 1000};
    },
  };
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

// site -> its live bytes, read straight from the table.
function liveBytesOf(tables) {
  return function (s) { return layout.siteRawLiveBytes(tables, s); };
}

module.exports = {createSiteTimeline: createSiteTimeline, MAX_SERIES: MAX_SERIES, SCAN_MIN_MS: SCAN_MIN_MS,
  SCAN_SHARE: SCAN_SHARE, SCAN_ALLOWANCE_MS: SCAN_ALLOWANCE_MS, insertTop: insertTop};
