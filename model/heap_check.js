// heap_check.js: heap budgets for one run of a piece of code, the checks
// behind emheap/testing's heapCheck (testing/index.js) and the C API's
// emheap_check_end (runtime/heap_check.c): given the snapshot taken when
// the run began, the one taken when it ended and the mark made at its
// start, which limits the run passed, and the text that says so, naming the
// functions responsible (grouped as `emheap top` groups by default).
//
// Each limit says what it measures:
//   leaks          leaked: blocks the run allocated and did not free (true:
//                  none allowed; a number: at most that many bytes); exact
//                  mode only, where every block is recorded
//   maxLiveBytes   live:  the whole heap's live bytes when the run ended
//   maxPeakBytes   peak:  the whole heap's highest live bytes during the run
//                  (the runtime's peak, restarted when the run began)
//   maxAllocs      total: allocations (malloc, calloc, realloc, memalign
//                  and their C++ forms) the run made
//   maxTotalBytes  total: bytes the run allocated
// Bytes are the bytes the program asked for, as the rows that name
// functions count them, so that the rows add up to the number checked.
// Exact mode knows them for every block: the sites' totals, the recorded
// blocks' sum, and its highest (the runtime's recorded_peak). The rows of
// a peak are those of the moment every view calls the peak, when the
// heap's usable bytes were highest; what was asked for then can be a few
// bytes under the highest, and the text says both when they differ. Where
// some blocks are not recorded (sampled mode, exact mode thinned or out of
// room) requested bytes are only estimates: the byte limits then count the
// allocator's usable sizes, the exact global counters, and say so. The
// allocation count is exact in every mode; the rows are estimates in
// sampled mode, and say so.
'use strict';

var view = require('./view');
var marks = require('./marks');
var sites = require('./sites');
var peak = require('./peak');
var diff = require('./diff');
var numbers = require('./numbers');
var groupings = require('./grouping');
var frameText = require('./names').frameText;
var shortName = require('./names').shortName;
var plural = numbers.plural;

var LIMITS = ['leaks', 'maxLiveBytes', 'maxPeakBytes', 'maxAllocs', 'maxTotalBytes'];
var ROWS = 5; // functions named per failed limit

// limits as given -> {leaks (false or bytes allowed), max...: number or
// undefined}; a bad one throws, naming it.
function checkLimits(limits) {
  if (!limits || typeof limits !== 'object') throw new Error('heap check: give the limits as an object: {' + LIMITS.join(', ') + '}');
  Object.keys(limits).forEach(function (k) {
    if (LIMITS.indexOf(k) < 0 && k !== 'warmups' && k !== 'by' && k !== 'name') {
      throw new Error('heap check: unknown limit "' + k + '" (limits: ' + LIMITS.join(', ') + ')');
    }
  });
  if (limits.by !== undefined) groupings.checkGrouping(limits.by); // (said before the run, not after it)
  var out = {};
  var leaks = limits.leaks;
  if (leaks === undefined || leaks === false || leaks === null) out.leaks = false;
  else if (leaks === true) out.leaks = 0;
  else if (typeof leaks === 'number' && leaks >= 0 && Math.floor(leaks) === leaks) out.leaks = leaks;
  else throw new Error('heap check: leaks: give true (no leak allowed), false, or the bytes allowed');
  LIMITS.slice(1).forEach(function (k) {
    var v = limits[k];
    if (v === undefined || v === null) return;
    if (typeof v !== 'number' || !(v >= 0) || Math.floor(v) !== v) throw new Error('heap check: ' + k + ': give a whole number >= 0');
    out[k] = v;
  });
  if (out.leaks === false && LIMITS.slice(1).every(function (k) { return out[k] === undefined; })) {
    throw new Error('heap check: no limit given: set at least one of ' + LIMITS.join(', '));
  }
  return out;
}

// "1.50 KiB in 3 blocks  leak_here < parse < run", a row per line.
function rowLines(rows) {
  return rows.map(function (r) {
    var left = r.amount;
    return '    ' + left + ' '.repeat(Math.max(1, 28 - left.length)) + r.stack;
  });
}

// How stacks are shown: up to the frame named `cutAt` (the checking
// function, whose callers are the test framework's), that one left out;
// the JS function just above it is the test's own, shown by `testName`
// (its name, or "(test function)"): V8 names an anonymous function by
// where it was written, and an arrow function written as heapCheck's
// argument reads "heapCheck.warmups", as if emheap's warm-up leaked.
// -> {cutAt, testName, testFrames: the names V8 gave that function}.
function stackCut(snapshot, cutAt, testName) {
  var testFrames = new Set();
  if (cutAt) {
    snapshot.sites.forEach(function (site) {
      for (var i = 1; i < site.stack.length; i++) {
        var f = snapshot.frames[site.stack[i - 1]];
        // (a JS frame: a file, no wasm function; a wasm export passed as
        // the function keeps its own name)
        if (snapshot.frames[site.stack[i]].name === cutAt && f.funcIndex === undefined && f.file !== undefined) {
          testFrames.add(f.name);
        }
      }
    });
  }
  return {cutAt: cutAt, testName: testName || '(test function)', testFrames: testFrames};
}

// A stack, leaf first, as `how` (stackCut's) shows it: names (cut where
// the name how.cutAt is), and what is shown of each frame (places: with
// its file:line by line or by site, where the names alone would make the
// rows look alike; else the names).
function cut(names, how, places) {
  var withPlaces = !!(how.withPlaces && places);
  var shown = (withPlaces ? places : names).slice();
  var at = how.cutAt ? names.indexOf(how.cutAt) : -1;
  if (at <= 0) return sites.stackText(shown);
  shown = shown.slice(0, at);
  if (how.testFrames.has(names[at - 1])) {
    // the test's own name, and where in it by line (which call it was)
    var name = shortName(names[at - 1]);
    var place = withPlaces && shown[at - 1].indexOf(name) === 0 ? shown[at - 1].slice(name.length) : '';
    shown[at - 1] = how.testName + place;
  }
  return sites.stackText(shown);
}

function placesOf(snapshot, site) {
  return site.stack.map(function (i) { return frameText(snapshot.frames[i], true); });
}

// items: [{site, liveBytes, liveBlocks}] of `snapshot` -> the rows shown.
function liveRows(snapshot, items, estimated, how) {
  return items.slice(0, ROWS).map(function (item) {
    return {label: sites.siteLabel(snapshot, item.site), bytes: item.liveBytes, blocks: item.liveBlocks,
      amount: (estimated ? '~' : '') + numbers.formatBytes(item.liveBytes) + ' in ' + plural(Math.round(item.liveBlocks), 'block'),
      stack: cut(sites.stackNames(snapshot, item.site), how, placesOf(snapshot, item.site))};
  });
}

// The bytes the limits count (see the top of this file): {requested (true:
// the bytes asked for; false: usable sizes), live, peak, total}.
function countedBytes(before, after) {
  var s = after.summary;
  var live = sites.budgetLiveBytes(after);
  if (!live.requested || typeof s.requestedPeakBytes !== 'number') {
    return {requested: false, live: s.liveBytes, peak: s.peakLiveBytes,
      total: s.totalBytes - before.summary.totalBytes};
  }
  var sum = function (snapshot) {
    return snapshot.sites.reduce(function (t, site) { return t + site.totalBytes; }, 0);
  };
  return {requested: true, live: live.bytes, peak: s.requestedPeakBytes, atPeak: s.requestedBytesAtPeak,
    total: sum(after) - sum(before)};
}

// The sites of `snapshot` holding live bytes, the most first.
function ranked(snapshot) {
  return sites.sortBy(snapshot.sites, ['liveBytes', 'liveBlocks']).filter(function (s) { return s.liveBytes > 0; })
    .map(function (s) { return {site: s, liveBytes: s.liveBytes, liveBlocks: s.liveBlocks}; });
}

// before, after: snapshots (after: taken when the run ended, with the mark
// `mark` (its number) made when it began and the peak restarted then);
// limits: checked by checkLimits. options: {by (grouping, default
// function), warmups (runs before, for the text), name, cutAt (a function
// name: stacks are shown up to it), testName (the name of the function
// checked, shown for the frame above cutAt)}. -> {ok, allocs, totalBytes,
// liveBytes, peakBytes, bytes ('requested' | 'usable': which bytes those
// count), failures: [{limit, measures ('leaked' | 'live' | 'peak' |
// 'total'), value, max, rows: [{label, bytes, blocks, allocs, stack}]}],
// text}.
function checkRun(before, after, mark, limits, options) {
  options = options || {};
  var grouping = view.viewOptions({by: options.by});
  var a = view.view(after, grouping);
  var exact = /^exact/.test(after.mode || '') && !after.summary.thinnedAtBytes;
  var how = stackCut(after, options.cutAt, options.testName);
  how.withPlaces = grouping.by === 'line' || grouping.by === 'site';
  var bytes = countedBytes(before, after);
  var failures = [];
  // rowsWhen: when the rows were, if not when the value was
  var fail = function (limit, measures, value, max, rows, what, rowsWhen) {
    failures.push({limit: limit, measures: measures, value: value, max: max, rows: rows, what: what, rowsWhen: rowsWhen});
  };
  // "7.32 KiB (7,500 B)", or with usable sizes "... (usable sizes)"
  var counted = function (n) { return numbers.formatBytesExact(n) + (bytes.requested ? '' : ' (usable sizes)'); };

  if (limits.leaks !== false) {
    if (!exact) {
      throw new Error('heap check: leaks are counted exactly only in exact mode, where every block is recorded ' +
        '(this snapshot: ' + (after.mode || 'no mode') + (after.summary.thinnedAtBytes ? ', thinned for want of room' : '') +
        '); leave leaks out, or run in exact mode');
    }
    var since = marks.liveSince(a, '#' + mark);
    if (since.liveBytes > limits.leaks || (limits.leaks === 0 && since.liveBlocks > 0)) {
      var ids = new Map(a.sites.map(function (site) { return [site.id, site]; }));
      fail('leaks', 'leaked', since.liveBytes, limits.leaks, liveRows(a, since.sites.map(function (s) {
        return {site: ids.get(s.id), liveBytes: s.liveBytes, liveBlocks: s.liveBlocks};
      }), false, how), plural(since.liveBlocks, 'block') + ' (' + numbers.formatBytesExact(since.liveBytes) + ') allocated by the run ' +
        (since.liveBlocks === 1 ? 'is' : 'are') + ' still live after it');
    }
  }
  if (limits.maxLiveBytes !== undefined && bytes.live > limits.maxLiveBytes) {
    fail('maxLiveBytes', 'live', bytes.live, limits.maxLiveBytes, liveRows(a, ranked(a), !exact, how),
      'the heap held ' + counted(bytes.live) + ' live when the run ended');
  }
  if (limits.maxPeakBytes !== undefined && bytes.peak > limits.maxPeakBytes) {
    var atPeak = peak.peakView(a);
    fail('maxPeakBytes', 'peak', bytes.peak, limits.maxPeakBytes, atPeak ? liveRows(atPeak, ranked(atPeak), !exact, how) : [],
      'the heap\'s live bytes rose to ' + counted(bytes.peak) + ' during the run',
      bytes.atPeak !== undefined && bytes.atPeak !== bytes.peak
        ? 'at the peak of its usable sizes, when ' + numbers.formatBytesExact(bytes.atPeak) + ' were live' : '');
  }
  // what the run made, by row, and in all
  var made = diff.diffSnapshots(view.view(before, grouping), a);
  var allocRows = function (key) {
    return made.rows.filter(function (r) { return r[key] > 0; })
      .sort(function (x, y) { return y[key] - x[key]; }).slice(0, ROWS).map(function (r) {
        return {label: r.label, allocs: r.newAllocs, bytes: r.allocBytes,
          amount: (exact ? '' : '~') + plural(r.newAllocs, 'allocation') + ', ' + numbers.formatBytes(r.allocBytes),
          stack: cut(r.stack, how, r.places)};
      });
  };
  var allocs = made.totals.allocCalls.delta;
  if (limits.maxAllocs !== undefined && allocs > limits.maxAllocs) {
    fail('maxAllocs', 'total', allocs, limits.maxAllocs, allocRows('newAllocs'), 'the run made ' + plural(allocs, 'allocation'));
  }
  if (limits.maxTotalBytes !== undefined && bytes.total > limits.maxTotalBytes) {
    fail('maxTotalBytes', 'total', bytes.total, limits.maxTotalBytes, allocRows('allocBytes'),
      'the run allocated ' + counted(bytes.total));
  }
  return {ok: failures.length === 0, failures: failures, allocs: allocs, totalBytes: bytes.total,
    liveBytes: bytes.live, peakBytes: bytes.peak, bytes: bytes.requested ? 'requested' : 'usable',
    text: failures.length ? failureText(failures, options) : ''};
}

var LIMIT_WORDS = {
  leaks: function (max) { return max === 0 ? 'no leak allowed' : 'at most ' + numbers.formatBytesExact(max) + ' may leak'; },
  maxLiveBytes: function (max) { return 'maxLiveBytes ' + numbers.formatBytesExact(max); },
  maxPeakBytes: function (max) { return 'maxPeakBytes ' + numbers.formatBytesExact(max); },
  maxAllocs: function (max) { return 'maxAllocs ' + numbers.formatCount(max); },
  maxTotalBytes: function (max) { return 'maxTotalBytes ' + numbers.formatBytesExact(max); },
};

function failureText(failures, options) {
  var head = 'heap check' + (options.name ? ' "' + options.name + '"' : '') + ' failed' +
    (options.warmups ? ' (after ' + plural(options.warmups, 'warm-up run') + ')' : '') + ':';
  var lines = [head];
  failures.forEach(function (f) {
    lines.push('  ' + f.measures + ': ' + f.what + ' (' + LIMIT_WORDS[f.limit](f.max) + ')' +
      (f.rows.length ? '; by ' + (options.by || 'function') + (f.rowsWhen ? ', ' + f.rowsWhen : '') + ':' : ''));
    lines.push.apply(lines, rowLines(f.rows));
  });
  return lines.join('\n');
}

module.exports = {checkLimits: checkLimits, checkRun: checkRun, LIMITS: LIMITS};
