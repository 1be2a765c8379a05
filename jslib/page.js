// page.js -- emheap inside the profiled program, a page or a node program:
// the parts made and wired once at startup, from the small host object the
// Emscripten library hands over (jslib/library_emheap.js holds only what
// needs Emscripten's scope: the wasm imports, the patches of Emscripten's
// JS, the C struct offsets). This file is esbuild's entry for that library
// (jslib/bundle.js): its require() lines are the page's imports.
//
//   environment.js       page or node, chosen once; saving: output/sinks.js
//   config.js            settings, each read once
//   debug_info_loader.js names and source lines of the module
//   ../contexts/loader.js  calling contexts: whether, and the load-time rewrite
//   thread_starts.js     a pthread's entry point watched (its exit, runtime/thread_exit.c)
//   ../capture/          reading the runtime's memory: snapshot_taker.js
//                        (snapshots, at once or a slice at a time), timeline.js
//                        and site_series.js (live bytes over time, per site),
//                        mark_log.js (emheap.mark(name)), growth_log.js (a
//                        console line per growth), out_of_memory_moment.js
//                        (the report and snapshot when memory runs out)
//   exit_report.js       the leak report at exit
//   exit_snapshot.js     the snapshot at exit (EMHEAP_SNAPSHOT_AT_EXIT)
//   page_files.js        downloads, heap dumps, diffs
//   remote.js            snapshots sent to a collector (emheap serve)
//   check_runs.js        heap budgets for a run (emheap/testing, C's emheap_check_*)
//   api.js               Module.emheap
//   ../output/worker_channel.js  a worker's files saved by its page
'use strict';

var layout = require('../capture/layout');
var cText = require('../capture/c_text');
var blockCopy = require('../capture/block_copy');
var lock = require('../capture/lock');
var environment = require('./environment');
var config = require('./config');
var debugInfoLoader = require('./debug_info_loader').debugInfoLoader;
var sideModuleDebug = require('./debug_info_loader').sideModuleDebug;
var contextsLoader = require('../contexts/loader').contextsLoader;
var sideModules = require('../contexts/side_modules').sideModules;
var watchThreadStarts = require('./thread_starts').watchThreadStarts;
var snapshotTaker = require('../capture/snapshot_taker').snapshotTaker;
var timeline = require('../capture/timeline');
var siteTimeline = require('../capture/site_series');
var createAgeClock = require('../capture/age_clock').createAgeClock;
var createMarkRanges = require('../capture/mark_ranges').createMarkRanges;
var markMaker = require('../capture/mark_log').markMaker;
var ratioScales = require('../model/estimates').ratioScales;
var installExitReport = require('./exit_report').installExitReport;
var installExitSnapshot = require('./exit_snapshot').installExitSnapshot;
var pageFiles = require('./page_files');
var makeApi = require('./api').makeApi;
var outOfMemoryHandler = require('../capture/out_of_memory_moment').outOfMemoryHandler;
var impossibleRequestHandler = require('../capture/out_of_memory_moment').impossibleRequestHandler;
var poolMisuseHandler = require('./pool_misuse').poolMisuseHandler;
var growthLogger = require('../capture/growth_log').growthLogger;
var remoteTriggers = require('./remote').remoteTriggers;
var heapChecks = require('./check_runs').heapChecks;
var clock = require('../capture/clock');
var workerChannel = require('../output/worker_channel');
var saveFile = require('../output/save_file');

// Longest piece of work a page's snapshot or export does per task (ms).
var SLICE_MS = 30;

// Runs fn in a task of its own, soon: a timer, so that the page's own
// timers take turns with the slices. A MessageChannel message is not held
// 4 ms as a timer nested five deep is, but measured in headless Chromium
// 156 (100k sites, Ctrl+Shift+H), a chain of them starved a 10 ms interval
// timer for 182-212 ms where timers gave 95-126 ms, for no faster export.
// 1 ms, not 0: Chromium runs a 0 ms timer ahead of timers already due (a
// chain of slices starved the interval for two slices at a time, 60-112 ms
// at 5M live blocks); with 1 ms the longest gap was 60 ms, the export
// no slower.
function nextTask(fn) {
  setTimeout(fn, 1);
}

// host, from the library: {Module, onWorker, require (node's, or null),
// buffer(), stateAddress(), rootsNow(), holdAllocator(hold), restartPeak(), pthreads(), wasmBinary(),
// wasmBinaryFile(), runtimeInitialized(), addOnExit(fn), err(text),
// heapMax()}.
// g: the global object. -> the profiler the library's imports use.
// The site timeline's group of a site (capture/site_series.js): the chain
// of functions of its stack (capture/snapshot_taker.js functionChain); a
// site whose stack cannot be read here is a group of its own.
function siteGroupKey(taker) {
  return function (tables, s) {
    return taker.functionChain(layout.readSite(tables, s, null)) || 'site:' + s;
  };
}

function createProfiler(host, g) {
  if (host.holdAllocator) lock.holdAllocatorWith(host.holdAllocator);
  watchThreadStarts(host);
  var env = environment.chooseEnvironment(g, host.require, pageFiles.reportError, SLICE_MS, nextTask);
  // An app that runs in a Web Worker (not one of its pthreads) gets the
  // page's keys and saves its files only through a page that has emheap's
  // page code (output/worker_channel.js): said once, with what to add, when
  // no such page answers (or where no channel can reach one).
  var workerApp = env.inWorker && !host.onWorker;
  var workerAdvice = 'emheap: this program runs in a Web Worker, and no page with emheap\'s page code answered: ' +
    'the page\'s keys (Ctrl+Shift+H...) do not reach it and its files are not saved; load emheap_page.js in the page ' +
    'that starts the worker (<script src="emheap_page.js">)';
  if (workerApp && !env.channel) {
    host.err('emheap: this program runs in a Web Worker without BroadcastChannel: the page\'s keys (Ctrl+Shift+H...) do ' +
      'not reach it and it cannot save files; take emheap.snapshot() (or emheap.toSpeedscope()) in the worker and ' +
      'post it to the page');
  }
  var warn = function (message) { console.warn(message); };
  var settings = config.settingsOf({
    moduleOptions: function () { return host.Module['emheapOptions']; },
    linkMode: function () { return host.Module['emheapLinkMode']; },
    linkWrappers: function () { return host.Module['emheapLinkWrappers']; },
    search: env.settings.search, env: env.settings.env, crypto: g.crypto, warn: warn,
  });
  var debugInfo = debugInfoLoader(host, env, warn);
  var contexts = contextsLoader(host, env, settings);
  var sides = sideModules(warn, sideModuleDebug(host, env, warn));
  var liveTimeline = null;
  var markRanges = null; // exact mode, main thread (mark_ranges.js)
  var pendingPause; // pause() before the runtime attached

  var p = {
    env: env,
    settings: settings,
    debugInfo: debugInfo,
    contexts: contexts,
    // Emscripten's loader is about to compile a side module
    // (library_emheap.js); symbols: where the program's symbols are. ->
    // what to compile (contexts/side_modules.js).
    prepareSideModule: function (binary, file, symbols) {
      return sides.prepare(binary, file, contexts.contexts, symbols);
    },
    // ... has placed its static data ...
    sideModuleData: function (at, size) {
      sides.dataPlaced(at, size);
    },
    // ... and has instantiated it: its exports, relocated.
    sideModuleLoaded: function (exports) {
      sides.loaded(exports, contexts.contexts ? contexts.contexts.table : null);
    },
    taker: snapshotTaker(host, {env: env, settings: settings, debugInfo: debugInfo, contexts: contexts, sideModules: sides,
      timeline: function () { return liveTimeline; }, markRanges: function () { return markRanges; }, sliceMs: SLICE_MS, nextTask: nextTask}),

    setPaused: function (paused) {
      var state = host.stateAddress();
      if (!state) pendingPause = paused;
      else layout.setPaused(new DataView(host.buffer()), state, paused);
    },

    // The runtime's first allocation (emheap_js_attach): checks the
    // state's layout, writes the settings into it, and settles the mode.
    // Never throws into wasm: a bad state is said on the console, and the
    // runtime keeps its defaults. -> layout.readMode's, or null.
    attach: function (state) {
      var view = new DataView(host.buffer());
      var mode = null;
      try {
        layout.checkState(view, state);
        layout.writeConfig(view, state, settings.config());
        if (pendingPause !== undefined) layout.setPaused(view, state, pendingPause);
        mode = layout.readMode(view, state);
        var fallback = contexts.defaultModeFallback(mode);
        if (fallback) {
          layout.writeConfig(view, state, {mode: fallback});
          mode = layout.readMode(view, state);
        }
        if (mode.mode === 'exact' && settings.config().footers) blockCopy.noteDlmallocState(view, state);
        var shared = typeof SharedArrayBuffer !== 'undefined' && view.buffer instanceof SharedArrayBuffer;
        if (shared && !mode.threaded && mode.mode !== 'off') {
          console.warn('emheap: this program has threads (-pthread) but the single-threaded emheap runtime is linked: ' +
            'its counts can be wrong when threads allocate at once; link with $(emheap-config --pthread --ldflags)');
        }
      } catch (e) {
        console.error(String(e && e.message || e));
      }
      // Off counts nothing and names no site: no timer, and no second
      // download of the .wasm for its names.
      if (mode && mode.mode === 'off') return mode;
      if (mode && mode.mode === 'exact' && !host.onWorker && !markRanges) markRanges = createMarkRanges();
      if (!liveTimeline && settings.options().timeline !== false && typeof g.setInterval === 'function') {
        var sites = siteTimeline.createSiteTimeline(timeline.POINTS, clock.now, siteGroupKey(p.taker));
        // lifetimes in time are counted in exact mode only (runtime/record.c)
        var ageClock = mode && mode.mode === 'exact' ? createAgeClock() : null;
        liveTimeline = timeline.startTimeline(function (index, now, atMark) {
          var at = host.stateAddress();
          if (!at) return null;
          var buffer = host.buffer();
          var v = new DataView(buffer);
          // under the lock: a thread's fold of its counts is never seen
          // half done, and the sites are of the same moment
          return lock.withLock(buffer, at, function () {
            var counters = layout.readCounters(v, at);
            if (mode && mode.mode !== 'off') {
              sites.sample(v, at, index, now, atMark, ratioScales(counters, layout.readEstimateSums(v, at)).bytes);
            }
            if (ageClock) ageClock.tick(v, at, now);
            return counters;
          });
        }, {now: clock.now, setInterval: function (fn, ms) { return g.setInterval(fn, ms); }},
        // the runtime's start (a state whose layout checked): the origin
        // of its growths' times too
        mode && layout.readStartMs(view, state) > 0 ? layout.readStartMs(view, state) : clock.now(), sites);
        liveTimeline.ageResolutionMs = ageClock ? function () { return ageClock.resolutionMs(clock.now()); } : null;
      }
      if (!env.node) debugInfo.load(); // node loads on first snapshot
      return mode;
    },

    // The checking mode of calling contexts says its verdict at a node
    // program's exit.
    sayContextsVerdictAtExit: function () {
      contexts.sayVerdictAtExit(function () { return contexts.report(p.taker.stackCaptures()); });
    },
  };
  // A mark made on this thread (from JS, or emheap_mark in C: marked)
  // adds a point to the timelines: a program that runs its rounds without
  // yielding to the timer still gets one per round.
  p.marked = function (number) {
    if (liveTimeline && !host.onWorker) liveTimeline.sample(true);
    if (p.remote) p.remote.marked(number);
  };
  // The same mark, still under the runtime's lock (this thread holds it):
  // what each site holds at that moment (mark_ranges.js).
  p.markLocked = function (number) {
    if (!markRanges) return;
    try {
      markRanges.atMark(new DataView(host.buffer()), host.stateAddress(), number);
    } catch (e) {
      console.error('emheap: mark ' + number + ' keeps no range: ' + String(e && e.message || e));
    }
  };
  p.mark = markMaker(host, p.marked, p.markLocked);
  // A collector (?emheap_remote=): the program's main thread sends to it.
  var remote = host.onWorker ? null : settings.remote();
  var sender = remote ? env.sendTo(remote.url) : null;
  if (remote && !sender) host.err('emheap: cannot send to the collector: this JS engine has no fetch() and is not node');
  p.files = pageFiles.pageFiles({taker: p.taker, env: env});
  p.checks = heapChecks(p, host);
  // emheap_save_snapshot(format) in C (runtime/save_snapshot.c), on the
  // main thread: -> 0 when the save began, -1 after saying why not
  p.saveSnapshotFromC = function (formatPtr) {
    var format = formatPtr ? cText.cString(host.buffer(), formatPtr) : 'speedscope';
    return p.files.saveSnapshotAtCall(format) === null ? -1 : 0;
  };
  if (sender) {
    p.remote = remoteTriggers(p.files, sender, remote.everySeconds, function () {
      return p.taker.attached() && p.taker.modeNow() !== 'off';
    }, g, pageFiles.reportError);
    // node waits for a file on its way unless the program ends it at once
    // (-sEXIT_RUNTIME, process.exit): then the file is lost, and said so
    env.onExit(function () {
      if (p.remote.busy()) {
        host.err('emheap: the program ended while a snapshot was on its way to the collector: it did not arrive ' +
          '(a program built with -sEXIT_RUNTIME, or that calls process.exit, ends node at once: docs/remote.md)');
      }
    });
  }
  p.api = makeApi(p);
  // a worker app answers the page's keys (its pthreads do not: one answer)
  if (env.channel && workerApp) env.channel.answerRequests(p.api, workerAdvice);
  // outOfMemory(how, bytes, above, alignment), impossibleRequest(bytes,
  // alignment, count, above): see capture/out_of_memory_moment.js
  p.outOfMemory = outOfMemoryHandler(p, host);
  p.impossibleRequest = impossibleRequestHandler(p, host);
  // poolMisuse(kind, anchor, addr): see pool_misuse.js
  p.poolMisuse = poolMisuseHandler(host);
  // growthLog(serial, above): see growth_log.js
  p.growthLog = growthLogger(p, host);
  p.now = clock.now;
  var leakConfig = settings.leakConfig();
  if (leakConfig) installExitReport(leakConfig, host, env, p.taker);
  var exitSnapshot = settings.snapshotAtExit();
  if (exitSnapshot) installExitSnapshot(exitSnapshot, host, env, p.files);
  return p;
}

// In a page (emheap_page.js's key bindings call it): saves the files that
// programs in its workers hand over, and asks a worker app for one when the
// page has no emheap of its own. -> worker_channel.js pageEnd's, or null
// where there is no BroadcastChannel.
function receiveWorkerFiles(g) {
  if (typeof g.BroadcastChannel !== 'function' || !g.document) return null;
  return workerChannel.pageEnd(g, function (name, blob) {
    return saveFile.saveBlob({document: g.document, URL: g.URL, log: function (m) { g.console.log(m); },
      setTimeout: function (fn, ms) { return g.setTimeout(fn, ms); }}, name, blob);
  });
}

module.exports = {createProfiler: createProfiler, receiveWorkerFiles: receiveWorkerFiles, SLICE_MS: SLICE_MS};
