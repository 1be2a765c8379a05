// site_timeline.js -- the live bytes of what matters, over time: one series
// per followed group of call sites, a value at every point of the timeline
// (timeline.js), so that a snapshot shows which code grows by the same
// amount every round and which one levels off (model/growing.js).
//
// A group is the call sites of one chain of functions (keyOf, given by the
// page: jslib/stack_table.js functionChain): at -O2 a loop unrolled or a
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
// (4 bytes) and its place in its group's list; per group one number for
// the growth between passes.
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

// points: the timeline's ring length. now(): ms, for timing the passes.
// keyOf(tables, site) -> the site's group key (a string), or undefined
// when it cannot be told yet (the site waits); none: each site its own.
function createSiteTimeline(points, now, keyOf) {
  var series = new Map(); // group -> {from: point index, values: Float64Array(points), peak, estimated, newAtFrom}
  var groupOf = new Int32Array(1024); // site -> its group + 1 (0: not grouped yet)
  var grouped = 0; // sites 0..grouped-1 have their group
  var groupNumber = new Map(); // key -> group
  var members = []; // group -> its sites, in the order they were grouped
  var bornAt = []; // group -> the point its first site was grouped at, and whether that site was new then
  var lastBytes = new Float64Array(0); // each group's live bytes at the last pass
  var groupLive = new Float64Array(0);
  var firstPassAt = null;
  var seenCount = 0; // sites there were at the last point
  var minOkAt = -Infinity; // the timer's points pass from here
  var passes = 0;
  var passMs = 0;
  var groupMs = 0;

  // Groups the sites not grouped yet, oldest first, within the budget.
  // made: sites from here on were made since the last point.
  function groupSites(tables, index, at, made) {
    if (grouped >= tables.count) return;
    var allowed = firstPassAt === null ? GROUP_ALLOWANCE_MS : GROUP_SHARE * (at - firstPassAt) + GROUP_ALLOWANCE_MS;
    if (groupMs > allowed) return;
    var started = now();
    var until = started + Math.min(GROUP_MS_PER_POINT, allowed - groupMs);
    if (groupOf.length < tables.count) {
      var longer = new Int32Array(Math.max(tables.count, groupOf.length * 2));
      longer.set(groupOf);
      groupOf = longer;
    }
    while (grouped < tables.count) {
      var s = grouped;
      var key = keyOf ? keyOf(tables, s) : s;
      if (key === undefined) break;
      var g = groupNumber.get(key);
      if (g === undefined) {
        g = members.length;
        groupNumber.set(key, g);
        members.push([]);
        bornAt.push({index: index, isNew: s >= made});
      }
      members[g].push(s);
      groupOf[s] = g + 1;
      grouped++;
      var followed = series.get(g);
      if (followed) {
        if (members[g].length > MAX_SITES_PER_SERIES) series.delete(g);
        else if (s < made) restart(followed, index); // held something before: unknown there
      }
      if (grouped % GROUP_CHECK_EVERY === 0 && now() >= until) break;
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
    var n = members.length;
    if (groupLive.length < n) groupLive = new Float64Array(Math.max(n, groupLive.length * 2));
    groupLive.fill(0, 0, n);
    for (var s = 0; s < grouped && s < tables.count; s++) groupLive[groupOf[s] - 1] += layout.siteRawLiveBytes(tables, s);
    return groupLive;
  }

  function scan(tables, index) {
    var started = now();
    if (firstPassAt === null) firstPassAt = started;
    var live = liveByGroup(tables);
    var n = members.length;
    var bigger = [];
    var grew = [];
    if (lastBytes.length < n) {
      var longer = new Float64Array(Math.max(n, lastBytes.length * 2));
      longer.set(lastBytes);
      lastBytes = longer;
    }
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
    for (var g = members.length - 1; g >= 0 && bornAt[g].index === index; g--) {
      if (!bornAt[g].isNew || series.has(g)) continue;
      insertTop(top, TOP_BY_SIZE, g, groupBytes(tables, g));
    }
    top.forEach(function (e) { follow(e.site, e.value, index, new Set()); });
  }

  function groupBytes(tables, g) {
    var sum = 0;
    var list = members[g];
    for (var i = 0; i < list.length; i++) sum += layout.siteRawLiveBytes(tables, list[i]);
    return sum;
  }

  // Starts following group g (live bytes now: `bytes`) unless it is
  // followed, holds nothing, has too many sites, or every series is taken
  // by a larger group or one in `keep`.
  function follow(g, bytes, index, keep) {
    if (series.has(g) || !(bytes > 0) || members[g].length > MAX_SITES_PER_SERIES) return;
    if (series.size >= MAX_SERIES && !dropSmallest(bytes, keep)) return;
    var isNew = bornAt[g].index === index && bornAt[g].isNew;
    series.set(g, {from: index, values: new Float64Array(points), peak: 0, estimated: false, newAtFrom: isNew});
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
      var before = members.length;
      groupSites(tables, index, at, made);
      seenCount = tables.count;
      var budget = firstPassAt === null ? Infinity : SCAN_SHARE * (at - firstPassAt) + SCAN_ALLOWANCE_MS;
      // (a pass looks at every group, new ones too)
      if (passMs <= budget && (atMark || at >= minOkAt)) scan(tables, index);
      else if (members.length > before) newGroups(tables, index);
      var slot = index % points;
      series.forEach(function (s, g) {
        var sum = 0;
        var list = members[g];
        for (var i = 0; i < list.length; i++) {
          var v = layout.siteLiveBytes(tables, list[i], scale);
          sum += v.bytes;
          if (v.estimated) s.estimated = true;
        }
        s.values[slot] = sum;
        if (sum > s.peak) s.peak = sum;
      });
    },
    // The series over the timeline's points first..count-1 (the ones
    // still in its ring): [{siteId or siteIds (the sites summed), from
    // (index in those points), liveBytes: [...], estimated?, newAtFrom?}],
    // plus how they were chosen.
    read: function (first, count) {
      var out = [];
      series.forEach(function (s, g) {
        var from = Math.max(first, s.from);
        if (from >= count) return;
        var values = [];
        for (var k = from; k < count; k++) values.push(s.values[k % points]);
        var sites = members[g];
        var one = sites.length === 1 ? {siteId: sites[0]} : {siteIds: sites.slice()};
        one.from = from - first;
        one.liveBytes = values;
        if (s.estimated) one.estimated = true;
        if (s.newAtFrom && from === s.from) one.newAtFrom = true;
        out.push(one);
      });
      return {series: out, passes: passes, passMs: round3(passMs), groups: members.length, groupedSites: grouped,
        groupMs: round3(groupMs)};
    },
  };
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
  SCAN_SHARE: SCAN_SHARE, SCAN_ALLOWANCE_MS: SCAN_ALLOWANCE_MS, insertTop: insertTop};
