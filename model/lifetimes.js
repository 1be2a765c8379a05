// lifetimes.js -- how long a row's blocks lived, and its temporary
// allocations, as every view shows them (emheap top --lifetimes and
// --temporary, the page's API, the report).
//
// The runtime counts, per site, each block that ended (freed, or moved or
// resized by realloc) in two sets of buckets (runtime/record.c
// count_ended): by the blocks recorded after it, on any thread, in powers
// of 16; and by time, in decades of seconds, from the timeline's points
// (capture/age_clock.js). A temporary allocation is a block freed before its
// thread allocated again (heaptrack's definition). Counted in exact mode,
// until it thins (a fixed heap full of emheap's tables); the snapshot says
// which (snapshot.lifetimes).
'use strict';

var sites = require('./sites');

// Lower bounds of the buckets (runtime/state_layout.h EMHEAP_AGE_BUCKETS,
// EMHEAP_TIME_BUCKETS); the last bucket has none above.
var AGE_BOUNDS = [0, 1, 16, 256, 4096, 65536, 1048576, 16777216];
var TIME_BOUNDS_MS = [0, 1000, 10000, 100000];

// What a snapshot says of its lifetimes (snapshot.lifetimes), from the
// mode, the summary and the age clock's resolution (ms, or null: no clock).
function lifetimesInfo(mode, summary, resolutionMs) {
  if (mode !== 'exact') {
    return {counted: false, why: mode === 'off' ? 'mode off records nothing' :
      'lifetimes are counted in exact mode only: in sampled mode most blocks have no record'};
  }
  var info = {counted: true, ageBounds: AGE_BOUNDS, timeBoundsMs: TIME_BOUNDS_MS};
  if (typeof resolutionMs === 'number') info.timeResolutionMs = Math.round(resolutionMs);
  if (summary && summary.thinnedAtBytes !== undefined) info.untilBytes = summary.thinnedAtBytes;
  return info;
}

function count(n) {
  return n >= 1048576 ? n / 1048576 + 'M' : n >= 1024 ? n / 1024 + 'K' : String(n);
}

// "0", "1-16", "16-256", ..., "16M+": blocks recorded after the one that
// ended, from the first number and under the second.
function ageLabel(i) {
  if (i === 0) return '0';
  if (i === AGE_BOUNDS.length - 1) return count(AGE_BOUNDS[i]) + '+';
  return count(AGE_BOUNDS[i]) + '-' + count(AGE_BOUNDS[i + 1]);
}

function timeLabel(i) {
  var s = function (ms) { return ms / 1000 + ' s'; };
  if (i === 0) return 'under ' + s(TIME_BOUNDS_MS[1]);
  if (i === TIME_BOUNDS_MS.length - 1) return s(TIME_BOUNDS_MS[i]) + ' or more';
  return TIME_BOUNDS_MS[i] / 1000 + '-' + s(TIME_BOUNDS_MS[i + 1]);
}

// The bucket of the smallest, the median and the largest of counts
// (indices), or null when all are 0. The median is the bucket that holds
// the (n+1)/2-th smallest.
function spread(counts) {
  var n = 0;
  counts.forEach(function (c) { n += c; });
  if (!n) return null;
  var min = -1;
  var max = -1;
  var median = -1;
  var seen = 0;
  for (var i = 0; i < counts.length; i++) {
    if (!counts[i]) continue;
    if (min < 0) min = i;
    max = i;
    seen += counts[i];
    if (median < 0 && seen >= (n + 1) / 2) median = i;
  }
  return {min: min, median: median, max: max};
}

// One row's lifetimes: {ended, live, byAge: [{bucket, blocks}], byTime, min,
// median, max (bucket labels, of the ended blocks by age), temporary,
// atLeast}. Rows whose blocks all live have ended 0.
function rowLifetimes(site, withTime) {
  var byAge = site.endedByAge || AGE_BOUNDS.map(function () { return 0; });
  var byTime = site.endedByTime || TIME_BOUNDS_MS.map(function () { return 0; });
  var ended = 0;
  byAge.forEach(function (c) { ended += c; });
  var s = spread(byAge);
  var out = {
    ended: ended,
    live: site.liveBlocks,
    temporary: site.temporaryAllocs || 0,
    byAge: byAge.map(function (c, i) { return {bucket: ageLabel(i), from: AGE_BOUNDS[i], blocks: c}; }),
    min: s ? ageLabel(s.min) : null,
    median: s ? ageLabel(s.median) : null,
    max: s ? ageLabel(s.max) : null,
  };
  if (withTime) out.byTime = byTime.map(function (c, i) { return {bucket: timeLabel(i), fromMs: TIME_BOUNDS_MS[i], blocks: c}; });
  if (site.lifetimesAtLeast) out.atLeast = true;
  return out;
}

// Why a snapshot has no lifetimes to show, or null when it has them.
function notCountedText(snapshot) {
  var info = snapshot.lifetimes;
  if (!info) return 'this snapshot has no lifetimes: it was taken by an emheap older than this one';
  if (!info.counted) return info.why;
  if (snapshot.view === 'peak') return 'lifetimes are counted over the whole run, not at the peak: leave --at peak out';
  return null;
}

// Whether the time buckets can be shown: a clock ran, and its points came
// often enough that a block under 1 s is told from one of 10 s.
function timeShown(snapshot) {
  var info = snapshot.lifetimes || {};
  return typeof info.timeResolutionMs === 'number' && info.timeResolutionMs < TIME_BOUNDS_MS[2] - TIME_BOUNDS_MS[1];
}

// One line on what the lifetimes are and how good.
function lifetimesNote(snapshot) {
  var info = snapshot.lifetimes || {};
  var text = 'lifetimes: blocks that ended (freed, or moved by realloc), by the allocations made after them (any ' +
    'thread; a range runs from its first number to under its second); exact';
  if (info.untilBytes !== undefined) {
    text += ' for the blocks that ended before exact mode began to sample (after ' + info.untilBytes +
      ' bytes allocated): later ones are not counted';
  }
  if (typeof info.timeResolutionMs !== 'number') {
    text += '; in time: not measured (no timeline ran)';
  } else if (!timeShown(snapshot)) {
    text += '; in time: not shown, the timeline\'s points came up to ' + info.timeResolutionMs / 2 +
      ' ms apart (the program did not return to its event loop)';
  } else {
    text += '; in time, from the timeline\'s points: a block counted at least N s old lived that long, one counted ' +
      'under it lived at most ' + info.timeResolutionMs + ' ms more';
  }
  return text;
}

// The rows of `emheap top --temporary --json` and emheap.temporary():
// {temporaryAllocs, totalAllocs (all rows'), sites: [{rank, id, label,
// stack, temporaryAllocs, totalAllocs, shareOfAllocs, atLeast?}]}.
// Rows with none are left out; most first, ties by site id.
function temporaryRows(snapshot) {
  var temporary = 0;
  var allocs = 0;
  var ranked = [];
  snapshot.sites.forEach(function (s) {
    allocs += s.totalAllocs || 0;
    if (!s.temporaryAllocs) return;
    temporary += s.temporaryAllocs;
    ranked.push(s);
  });
  ranked.sort(function (a, b) { return b.temporaryAllocs - a.temporaryAllocs || a.id - b.id; });
  return {
    temporaryAllocs: temporary, totalAllocs: allocs,
    sites: ranked.map(function (s, i) {
      var row = {rank: i + 1, id: s.id, label: sites.siteLabel(snapshot, s), stack: sites.stackFrames(snapshot, s),
        temporaryAllocs: s.temporaryAllocs, totalAllocs: s.totalAllocs, shareOfAllocs: s.totalAllocs ? s.temporaryAllocs / s.totalAllocs : 0};
      if (s.lifetimesAtLeast) row.atLeast = true;
      return row;
    }),
  };
}

// The rows of `emheap top --lifetimes --json` and emheap.lifetimes(): every
// row that allocated, most allocations first, with rowLifetimes' fields;
// {note, timeShown, sites}.
function lifetimeRows(snapshot) {
  var withTime = timeShown(snapshot);
  var rows = snapshot.sites.filter(function (s) { return s.totalAllocs > 0; })
    .sort(function (a, b) { return b.totalAllocs - a.totalAllocs || a.id - b.id; });
  return {
    note: lifetimesNote(snapshot), timeShown: withTime,
    sites: rows.map(function (s, i) {
      var row = {rank: i + 1, id: s.id, label: sites.siteLabel(snapshot, s), stack: sites.stackFrames(snapshot, s), totalAllocs: s.totalAllocs};
      var l = rowLifetimes(s, withTime);
      Object.keys(l).forEach(function (k) { row[k] = l[k]; });
      return row;
    }),
  };
}

module.exports = {temporaryRows: temporaryRows, lifetimeRows: lifetimeRows,AGE_BOUNDS: AGE_BOUNDS, TIME_BOUNDS_MS: TIME_BOUNDS_MS, lifetimesInfo: lifetimesInfo, ageLabel: ageLabel,
  timeLabel: timeLabel, spread: spread, rowLifetimes: rowLifetimes, notCountedText: notCountedText, timeShown: timeShown,
  lifetimesNote: lifetimesNote};
