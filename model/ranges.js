// ranges.js: what a range between two marks did, row by row, in four
// classes (Windows Performance Analyzer's split of a selected range):
//   inFreedIn          made in the range and freed in it
//   inLiveAtEnd        made in the range and live at its end
//   beforeFreedIn      made before it and freed in it
//   beforeLiveThrough  made before it and live through it
// each {bytes, blocks}, from what each site held at the marks
// (capture/mark_ranges.js: site.rangeMarks, site.rangeLiveAfter) or, for a
// range that ends now, at the snapshot (its live and allocated counts and
// site.liveByMark):
//   inLiveAtEnd       = live at the end, made after the start
//   beforeLiveThrough = live at the end - inLiveAtEnd
//   beforeFreedIn     = live at the start - beforeLiveThrough
//   inFreedIn         = allocated in between - inLiveAtEnd
// Exact in exact mode (a block realloc moves counts as freed, its new
// place as made). Read by `emheap top --between` and emheap.between in the
// page.
//
// A range runs between marks: what each site held is recorded there and
// nowhere else, and from the timeline's totals alone "made and freed in
// it" cannot be told from "made before and freed in it". Times ("1.5s",
// "300ms", on the timeline's clock) pick the kept marks around them, as a
// drag over the report's chart does (formats/report/page.js pickRange):
// the last at or before the start (else the first), the first after that
// at or after the end (else now); the result says which, and the times
// asked for.
'use strict';

var userError = require('./user_error').userError;

var findMark = require('./marks').findMark;
var sites = require('./sites');

var CLASSES = ['inFreedIn', 'inLiveAtEnd', 'beforeFreedIn', 'beforeLiveThrough'];
// ... in words, as the CLI's and the report's columns say them
var CLASS_TITLES = {inFreedIn: 'made and freed in it', inLiveAtEnd: 'made in it, live at its end',
  beforeFreedIn: 'made before, freed in it', beforeLiveThrough: 'made before, live through it'};


// A site's [liveBytes, liveBlocks, totalBytes, totalAllocs] at kept mark
// `number`: its latest entry at or before it, zeros before its first.
function valuesAt(site, number) {
  var rows = site.rangeMarks || [];
  var out = [0, 0, 0, 0];
  for (var i = 0; i + 4 < rows.length && rows[i] <= number; i += 5) out = rows.slice(i + 1, i + 5);
  return out;
}

// A site's live [bytes, blocks] at the end (a kept mark, or null: now)
// made after mark `start`.
function liveAfter(site, start, end) {
  var bytes = 0;
  var blocks = 0;
  var i;
  if (end === null) {
    var rows = site.liveByMark || [];
    for (i = 0; i + 3 < rows.length; i += 4) {
      if (rows[i] >= start) { bytes += rows[i + 1]; blocks += rows[i + 2]; }
    }
  } else {
    var after = site.rangeLiveAfter || [];
    for (i = 0; i + 3 < after.length; i += 4) {
      if (after[i] === end && after[i + 1] >= start) { bytes += after[i + 2]; blocks += after[i + 3]; }
    }
  }
  return [bytes, blocks];
}

// A time as --between takes it ("1.5s", "300ms") -> ms, or null.
function timeMs(spec) {
  var m = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(String(spec));
  return m ? Number(m[1]) * (m[2] === 's' ? 1000 : 1) : null;
}

// A spec that is a time and no mark's name -> ms, or null.
function asTime(snapshot, spec) {
  var ms = timeMs(spec);
  var named = (snapshot.marks || []).some(function (m) { return m.name === String(spec); });
  return ms === null || named ? null : ms;
}

// The kept marks around ms (as the top of this file says): the start's
// (after: null) or the end's (after: the start mark). -> a mark, or null
// (now).
function keptMarkAt(snapshot, ms, after) {
  var kept = new Set(snapshot.markRanges.marks);
  var marks = (snapshot.marks || []).filter(function (m) { return kept.has(m.number); });
  if (!marks.length) throw userError('--between: no mark around ' + ms / 1000 + ' s records what each site held');
  return after ? endMarkAfter(marks, after, ms) : startMarkAt(marks, ms);
}

// The rule of a range given by times, here and in the report's page (which
// gets these two as their text, so they use nothing else): it starts at
// the last mark at or before t0, else the first, and ends at the first
// mark after its start at or after t1, else now (null). marks: [{number,
// t}] in order, t in any one unit.
function startMarkAt(marks, t0) {
  var start = marks[0];
  for (var i = 0; i < marks.length; i++) if (marks[i].t <= t0) start = marks[i];
  return start;
}
function endMarkAfter(marks, start, t1) {
  for (var i = 0; i < marks.length; i++) if (marks[i].number > start.number && marks[i].t >= t1) return marks[i];
  return null;
}

// A mark the range can start or end at: one whose sites were recorded.
function recordedMark(snapshot, spec, which) {
  var mark = findMark(snapshot, spec);
  var kept = snapshot.markRanges ? snapshot.markRanges.marks : [];
  if (kept.indexOf(mark.number) < 0) {
    throw userError('--between: the range cannot ' + which + ' at mark #' + mark.number + ' "' + mark.name + '": what ' +
      'each site held then was not recorded (' + (kept.length ? 'the runtime keeps it for the last ' + kept.length +
      ' marks made on the main thread after the profiler started: #' + kept.join(', #') : 'no mark has it') + ')');
  }
  return mark;
}

// The four classes of each site (grouped as the snapshot is) for the range
// from mark `startSpec` to mark `endSpec` ("now", or absent: when the
// snapshot was taken); either may be a time instead. -> {start, end (a
// mark, or null: now), totals: {class: {bytes, blocks}}, sites: [{id,
// class: {bytes, blocks}, ...}] (sites with none left out), estimated
// (true: the sites held estimates: exact mode thinned), times ({fromMs,
// toMs}, null where a mark was named: only when a time was)}. Throws
// (userError) when the snapshot cannot say.
function between(snapshot, startSpec, endSpec) {
  if (snapshot.view === 'peak') throw userError('--between reads what the sites held at marks, not at the peak: leave --at peak out');
  if (snapshot.mode !== 'exact') {
    throw userError('--between needs exact mode: in ' + snapshot.mode + ' mode the sites hold estimates and ' +
      'blocks no record of when they ended');
  }
  if (!snapshot.markRanges) {
    throw userError('--between: this snapshot records nothing at its marks (' + ((snapshot.marks || []).length
      ? 'they were all made on a worker, or it was taken by an emheap older than this one)' : 'it has no marks)'));
  }
  var startMs = asTime(snapshot, startSpec);
  var endMs = endSpec === undefined || endSpec === null || endSpec === 'now' ? null : asTime(snapshot, endSpec);
  if (startMs !== null && endMs !== null && endMs <= startMs) {
    throw userError('--between: ' + endSpec + ' is not after ' + startSpec);
  }
  var start = startMs === null ? recordedMark(snapshot, startSpec, 'start') : keptMarkAt(snapshot, startMs, null);
  var end = endSpec === undefined || endSpec === null || endSpec === 'now' ? null
    : endMs === null ? recordedMark(snapshot, endSpec, 'end') : keptMarkAt(snapshot, endMs, start);
  if (end && end.number <= start.number) {
    throw userError('--between: mark #' + end.number + ' "' + end.name + '" is not after mark #' + start.number +
      ' "' + start.name + '"');
  }
  var totals = {};
  CLASSES.forEach(function (k) { totals[k] = {bytes: 0, blocks: 0}; });
  var sites = [];
  snapshot.sites.forEach(function (site) {
    var a = valuesAt(site, start.number);
    var b = end ? valuesAt(site, end.number) : [site.liveBytes, site.liveBlocks, site.totalBytes, site.totalAllocs];
    var kept = liveAfter(site, start.number, end && end.number);
    var row = {id: site.id};
    row.inLiveAtEnd = {bytes: kept[0], blocks: kept[1]};
    row.beforeLiveThrough = {bytes: b[0] - kept[0], blocks: b[1] - kept[1]};
    row.beforeFreedIn = {bytes: a[0] - row.beforeLiveThrough.bytes, blocks: a[1] - row.beforeLiveThrough.blocks};
    row.inFreedIn = {bytes: b[2] - a[2] - kept[0], blocks: b[3] - a[3] - kept[1]};
    var any = false;
    CLASSES.forEach(function (k) {
      if (row[k].bytes < 0 || row[k].blocks < 0) {
        throw new Error('emheap: site ' + site.id + ' reads ' + row[k].blocks + ' blocks ' + k + ': the marks\' records ' +
          'do not agree with the snapshot (please report this)');
      }
      if (row[k].blocks) any = true;
      totals[k].bytes += row[k].bytes;
      totals[k].blocks += row[k].blocks;
    });
    if (any) sites.push(row);
  });
  var estimated = (snapshot.markRanges.estimated || []).some(function (n) { return n === start.number || (end && n === end.number); }) ||
    (!end && snapshot.summary && snapshot.summary.thinnedAtBytes !== undefined);
  var result = {start: start, end: end, totals: totals, sites: sites, estimated: estimated};
  if (startMs !== null || endMs !== null) result.times = {fromMs: startMs, toMs: endMs};
  return result;
}

// The result of between() as `emheap top --between --json` and
// emheap.between() give it: its rows with a rank, label and stack, by the
// bytes the range made and freed.
function betweenRows(snapshot, startSpec, endSpec) {
  var result = between(snapshot, startSpec, endSpec);
  var byId = new Map(snapshot.sites.map(function (s) { return [s.id, s]; }));
  var moved = function (r) { return r.inFreedIn.bytes + r.inLiveAtEnd.bytes + r.beforeFreedIn.bytes; };
  result.sites.sort(function (a, b) { return moved(b) - moved(a) || b.beforeLiveThrough.bytes - a.beforeLiveThrough.bytes || a.id - b.id; });
  result.sites = result.sites.map(function (r, i) {
    var site = byId.get(r.id);
    var row = {rank: i + 1, id: r.id, label: sites.siteLabel(snapshot, site), stack: sites.stackFrames(snapshot, site),
      callSites: site.parts || 1};
    CLASSES.forEach(function (k) { row[k] = r[k]; });
    return row;
  });
  return result;
}

module.exports = {startMarkAt: startMarkAt, endMarkAfter: endMarkAfter, betweenRows: betweenRows, CLASSES: CLASSES, CLASS_TITLES: CLASS_TITLES, between: between, valuesAt: valuesAt};
