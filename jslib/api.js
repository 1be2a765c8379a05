// api.js -- the console API, `Module.emheap` and `globalThis.emheap`: the
// names a page or a node program calls, each handed to the part that does
// the work (jslib/page.js wires them). docs/using.md is its manual.
'use strict';

var formats = require('../formats/index');
var peak = require('../model/peak');
var breakdownText = require('../model/memory_breakdown').breakdownText;
var snapshotOptions = require('../capture/snapshot_taker').snapshotOptions;
var marks = require('../model/marks');
var view = require('../model/view');
var sites = require('../model/sites');
var ranges = require('../model/ranges');
var lifetimes = require('../model/lifetimes');

var VERSION = '0.1.0';

// p: jslib/page.js's profiler ({taker, files, debugInfo, contexts,
// setPaused}). Property names are quoted: the page's JS is minified as a
// whole at -O2, and these names are the ones people type.
function makeApi(p) {
  var api = {};
  api['version'] = VERSION;
  // options: {heap: true} adds the heap graph (exact modes): what keeps
  // each block alive, leaks, retained sizes (model/heap_section.js)
  api['snapshot'] = function (options) { return p.taker.snapshot(snapshotOptions(options)); };
  api['snapshotAsync'] = function (options) { return p.taker.snapshotInSlices(snapshotOptions(options)); };
  // Names this moment (capture/mark_log.js): -> {number, name, t}. Snapshots
  // list the marks; liveSince ranks what was allocated after one.
  api['mark'] = function (name) { return p.mark(name); };
  // Where the live memory is, largest first, as `emheap top --json` ranks
  // it: options {by: 'function' (default) | 'line' | 'site' | 'module' | 'type',
  // sort: 'bytes' | 'count' | 'allocs' | 'retained' | 'shallow', top: N (0:
  // all, the default), focus, ignore, hide: regexes as pprof's (a string
  // or a RegExp; model/focus.js)}, of a snapshot taken now (or the one
  // given).
  api['top'] = function (options, snapshot) {
    var o = options || {};
    var sort = o['sort'] || 'bytes';
    if (!sites.SORTS[sort]) throw new Error('emheap.top: sort "' + sort + '" is not one of ' + Object.keys(sites.SORTS).join(', '));
    var grouped = view.view(snapshot || p.taker.snapshot(), view.viewOptions(o));
    var result = sites.topSites(grouped, {sort: sort, top: o['top'] || 0});
    result['by'] = grouped.groupedBy || 'site';
    if (grouped.focus) result['focus'] = grouped.focus;
    return result;
  };
  // What was allocated after mark `since` (a name, or '#N') and before
  // mark `until` (optional), still live (model/marks.js), in a snapshot
  // taken now (or the one given), grouped and filtered by options as
  // emheap.top.
  api['liveSince'] = function (since, until, snapshot, options) {
    return marks.liveSince(view.view(snapshot || p.taker.snapshot(), view.viewOptions(options)), since, until);
  };
  // What the range from mark `start` to mark `end` ('now', or nothing: a
  // snapshot taken now) did, by row, in four classes (model/ranges.js), as
  // `emheap top --between --json`; exact mode.
  api['between'] = function (start, end, snapshot, options) {
    return ranges.betweenRows(view.view(snapshot || p.taker.snapshot(), view.viewOptions(options)), start, end === undefined ? 'now' : end);
  };
  // The rows by their temporary allocations, and how long each row's
  // blocks lived (model/lifetimes.js), as `emheap top --temporary --json`
  // and `--lifetimes --json`; exact mode.
  api['temporary'] = function (snapshot, options) {
    return lifetimes.temporaryRows(countedView(snapshot, options));
  };
  api['lifetimes'] = function (snapshot, options) {
    return lifetimes.lifetimeRows(countedView(snapshot, options));
  };
  function countedView(snapshot, options) {
    var v = view.view(snapshot || p.taker.snapshot(), view.viewOptions(options));
    var why = lifetimes.notCountedText(v);
    if (why) throw new Error('emheap: ' + why);
    return v;
  }
  api['addRoot'] = p.taker.addRoot;
  api['removeRoot'] = p.taker.removeRoot;
  api['getSnapshotJson'] = p.taker.summaryJson;
  // why the wasm memory is this big, now (model/memory_breakdown.js), with
  // its text as `emheap top` prints it
  api['memory'] = function () {
    var b = p.taker.memoryNow();
    if (b) b['text'] = breakdownText(b);
    return b;
  };
  // The heap at its peak of live bytes (model/peak.js): a snapshot whose
  // live numbers are that moment's, for downloadSnapshot and toSpeedscope.
  api['atPeak'] = function (snapshot) {
    var view = peak.peakView(snapshot || p.taker.snapshot());
    if (!view) throw new Error('emheap.atPeak: this snapshot has no per-site numbers at the peak (taken by an older emheap)');
    return view;
  };
  api['toSpeedscope'] = function (snapshot) {
    return formats.formatByName('speedscope').object(snapshot || p.taker.snapshot());
  };
  api['toPerfView'] = function (snapshot) {
    return formats.formatByName('perfview').object(snapshot || p.taker.snapshot());
  };
  // A heap budget for one run (jslib/check_runs.js, model/heap_check.js):
  // checkBegin(name) marks the start, restarts the peak, -> a number;
  // checkEnd(number, limits, {warmups}) -> {ok, failures, text, ...}.
  // emheap/testing's heapCheck runs a function between the two.
  api['checkBegin'] = function (name) { return p.checks.begin(name); };
  api['checkEnd'] = function (number, limits, options) { return p.checks.end(number, limits, options); };
  api['downloadSnapshot'] = p.files.downloadSnapshot;
  api['dumpHeap'] = p.files.dumpHeap;
  api['diff'] = p.files.diff;
  api['downloadDiff'] = p.files.downloadDiff;
  api['pause'] = function () { p.setPaused(true); };
  api['resume'] = function () { p.setPaused(false); };
  // Resolves once function names and the source map (if any) are loaded,
  // so that the next snapshot has them; a page loads them in the
  // background from startup on.
  api['ready'] = function () {
    return new Promise(p.debugInfo.whenLoaded);
  };
  api['formats'] = Object.keys(formats.FORMATS);
  // How exact stacks are found: calling contexts (what the load-time
  // rewrite cost and did), or not (contexts/loader.js report).
  api['contexts'] = function () {
    return p.contexts.report(p.taker.stackCaptures());
  };
  // api['lastOutOfMemory']: the snapshot taken when the memory ran out,
  // set then (capture/out_of_memory_moment.js); absent until it does.
  return api;
}

module.exports = {makeApi: makeApi, VERSION: VERSION};
