// snapshot_taker.js -- takes the profiled program's snapshot: the runtime's
// tables read (capture/raw_snapshot.js), the heap graph when asked
// (capture/heap_scan.js) and the timeline added, then finished once
// (model/finish.js: frames named, the program's allocation layer left out,
// sites merged and sorted). At once (snapshot), or in a page a slice at a
// time (snapshotInSlices), finished once the module's debug info is in, so
// that a million sites never block the page for seconds and a snapshot
// taken early still names its frames.
//
// host (from the library): {buffer(), stateAddress(), rootsNow(), runtimeCodeExports(),
// pthreads(), runtimeInitialized(), onWorker, wasmBinaryFile()};
// parts: {env, settings, debugInfo (debug_info_loader.js), contexts
// (contexts/loader.js), timeline() (timeline.js startTimeline's, or null),
// markRanges() (mark_ranges.js createMarkRanges's, or null),
// sliceMs, nextTask}.
'use strict';

var layout = require('./layout');
var blockCopy = require('./block_copy');
var snapshotModule = require('./raw_snapshot');
var heapScan = require('./heap_scan');
var StackTable = require('./stack_table').StackTable;
var moduleSource = require('./module_source');
var runtimeCode = require('./runtime_code').runtimeCode;
var finish = require('../model/finish');
var steps = require('../model/steps');
var memoryBreakdown = require('../model/memory_breakdown').memoryBreakdown;

// A pointer a program's JS hands over: a wasm32 one may come signed, a
// wasm64 one as a BigInt or a Number past 4 GiB (>>> 0 would cut it).
function unsignedAddress(ptr) {
  var n = Number(ptr);
  return n < 0 ? n + 4294967296 : n;
}

function snapshotTaker(host, parts) {
  var stacks = null;
  // A threaded runtime with other threads (a worker sees the main thread):
  // one of them may be inside malloc at any moment.
  var threadsMayAllocate = function () {
    var state = host.stateAddress();
    if (!state || !layout.readMode(new DataView(host.buffer()), state).threaded) return false;
    return host.onWorker || host.pthreads().threads.length > 0;
  };
  var jsRoots = new Map(); // pointer -> times added (emheap.addRoot)

  var taker = {
    // The JS stacks this realm took (exact mode without contexts, and
    // workers): made on first use.
    table: function () {
      if (!stacks) {
        stacks = new StackTable(moduleSource.moduleName(host), parts.settings.config().stackDepth);
        stacks.contexts = parts.contexts.contexts;
        stacks.sideModules = parts.sideModules || null;
        if (host.runtimeCodeExports) {
          stacks.runtimeCodeSource = function () { return runtimeCode(host.runtimeCodeExports()); };
        }
      }
      return stacks;
    },
    stackCaptures: function () {
      return stacks ? stacks.captures : 0;
    },

    // The chain of functions of a runtime site (layout.readSite's), which
    // the site timeline follows (capture/site_series.js), as the views by
    // function tell chains apart: a JS stack resolved as a snapshot
    // resolves it (raw_snapshot.js siteStack, stack_table.js
    // functionChain); a worker's read from its words, without interning
    // frames that a snapshot would name (raw_snapshot.js
    // workerFunctionChain). '' where its stack cannot be read on this
    // thread.
    functionChain: function (site) {
      var table = taker.table();
      if (site.stackKind === layout.STACK_WASM) return snapshotModule.workerFunctionChain(site.frames, table.moduleName);
      var stack = snapshotModule.siteStack(site, table, null, {onWorker: host.onWorker}).stackId;
      return stack ? table.functionChain(stack) : '';
    },

    // What capture/raw_snapshot.js needs to know of the program, with the
    // names and lines loaded so far (loadNames begins loading them).
    // allocatorHeld: this thread is inside the allocator, holding its lock
    // (an out-of-memory abort), so no other thread can change its heap.
    info: function (allocatorHeld) {
      return {
        source: parts.env.source(),
        preRunDone: host.runtimeInitialized(),
        sourceLines: parts.debugInfo.sourceLines(),
        functionName: parts.debugInfo.functionName,
        // a snapshot taken on a pthread (EM_ASM under -sPROXY_TO_PTHREAD)
        // cannot read the main thread's JS stack table
        onWorker: host.onWorker,
        // whether another thread may be inside the allocator now: then its
        // heap is not walked (capture/allocator_walk.js)
        threadsRunning: !allocatorHeld && threadsMayAllocate(),
      };
    },

    // The module's names and source lines as loaded so far
    // (model/frame_names.js).
    names: function () {
      return {functionName: parts.debugInfo.functionName, sourceLines: parts.debugInfo.sourceLines(),
        allocTypeName: parts.debugInfo.allocTypeName,
        sideSourceLines: parts.sideModules ? parts.sideModules.sourceLines : null};
    },

    // A pointer JS keeps (a malloc'd buffer held by a JS object, an embind
    // handle) that the heap scan counts as a root; counted: added twice,
    // removed twice.
    addRoot: function (ptr) {
      ptr = unsignedAddress(ptr);
      jsRoots.set(ptr, (jsRoots.get(ptr) || 0) + 1);
    },
    removeRoot: function (ptr) {
      ptr = unsignedAddress(ptr);
      var n = jsRoots.get(ptr) || 0;
      if (n <= 1) jsRoots.delete(ptr);
      else jsRoots.set(ptr, n - 1);
    },

    // Whether the runtime has started (its first allocation attaches it).
    attached: function () {
      return !!host.stateAddress();
    },
    // The runtime's mode now: 'exact', 'sampled', 'off' (no state: 'off').
    modeNow: function () {
      var state = host.stateAddress();
      return state ? layout.readMode(new DataView(host.buffer()), state).mode : 'off';
    },
    isExact: function () {
      return /^exact/.test(taker.modeNow());
    },
    // Throws unless every block is recorded now (what the heap graph needs).
    needExact: function () {
      if (!taker.isExact()) {
        throw new Error('emheap: the heap graph needs every block recorded: take the profile in exact mode ' +
          '(?emheap=exact, EMHEAP_MODE=exact or emheap-config --mode=exact); this one is ' + taker.modeNow());
      }
    },

    // The heap graph now (capture/heap_scan.js), for a snapshot taken at the
    // same moment. Exact modes only: sampled mode records one block in many.
    // The blocks, roots and the memory they cover are read at the call; the
    // generator returned builds the graph from that copy, in steps.
    scanHeapSteps: function (copyArea) {
      taker.needExact();
      var ptrs = [];
      jsRoots.forEach(function (n, ptr) { ptrs.push(ptr); });
      parts.debugInfo.load(); // under node, loaded now; in a page, usually by now
      return heapScan.scanHeapSteps(host.buffer(), host.stateAddress(), host.rootsNow(), ptrs, host.pthreads(), copyArea,
        parts.debugInfo.readOnlyData(), parts.sideModules ? parts.sideModules.dataRanges() : []);
    },

    // The raw snapshot (capture/raw_snapshot.js) as steps (model/steps.js).
    // The first yield gives the snapshot being built, the heap read.
    // options: {heap}; moment: {allocatorHeld} (see info).
    rawSnapshotSteps: function* (copyArea, options, moment) {
      taker.loadNames(); // (a snapshot names its frames: in a page, usually loaded by now)
      var timeline = parts.timeline();
      var timelines = null;
      if (timeline) {
        timeline.sample(true); // the last point is the snapshot's own totals (and a pass over the sites)
        timelines = {points: timeline.points(), siteSeries: timeline.siteSeries(),
          ageResolutionMs: timeline.ageResolutionMs ? timeline.ageResolutionMs() : null};
      }
      var ranges = parts.markRanges ? parts.markRanges() : null;
      if (ranges) {
        timelines = timelines || {};
        timelines.markRanges = ranges.read();
      }
      // the heap graph first, in the same task as the tables' copy: the
      // same moment for a program without threads (one synchronous scan; a
      // page's slices come after). With threads, blocks and roots are read
      // under one lock and the site tables under the next: a block made in
      // between is in the sites' totals and not in the graph.
      var heapSteps = options && options.heap ? taker.scanHeapSteps(copyArea) : null;
      return yield* snapshotModule.snapshotSteps(host.buffer(), host.stateAddress(), taker.table(),
        taker.info(!!(moment && moment.allocatorHeld)), copyArea, heapSteps, timelines);
    },

    // A raw snapshot finished (model/finish.js), its frames named with the
    // names and lines loaded by now: the one place the page names a
    // snapshot's frames.
    finishSteps: function (raw) {
      return finish.finishSnapshotSteps(raw, {wrappers: parts.settings.wrapperList(), names: taker.names()});
    },

    // The snapshot of now, at once, named with what is loaded (all of it
    // under node, which loads the debug info at the first call).
    snapshot: function (options, moment) {
      return steps.runSteps(taker.finishSteps(steps.runSteps(taker.rawSnapshotSteps(null, options, moment))));
    },

    // Begins loading the module's names and lines, once (a page fetches
    // them in the background; node reads them now). -> whether they are in
    // (or known to be absent).
    loadNames: function () {
      parts.debugInfo.load();
      return parts.debugInfo.loaded();
    },

    // Why the wasm memory is this big, now (model/memory_breakdown.js):
    // the summary and a walk of the allocator's heap, no sites.
    memoryNow: function () {
      var info = taker.info(false);
      var summary = snapshotModule.readSummary(host.buffer(), host.stateAddress(), info);
      var state = host.stateAddress();
      var heap = state ? snapshotModule.allocatorHeapNow(new DataView(host.buffer()), state, summary, info) : null;
      var pools = snapshotModule.poolsNow(host.buffer(), state);
      return memoryBreakdown({summary: summary, allocatorHeap: heap || undefined, pools: pools.length ? pools : undefined});
    },

    // The snapshot built a slice at a time (sliceMs of work per task), as
    // a Promise. First the memory the tables are copied into is touched
    // (block_copy.js copyArea: at 1M sites new memory costs a quarter of a
    // second on first write), then the tables are copied under the lock
    // (the moment of the snapshot, a few ms), then the sites are made while
    // the page runs on; then, once the module's debug info is in (a page
    // fetches it from attach time on: a snapshot asked for in the first
    // tens of ms waits for it), the snapshot is finished, its frames named
    // once with every name and line. At 1M sites snapshot() blocks the page
    // for about 2 s; this never for long. atCall: the heap read before this
    // returns, without a copy area (a C program's call, which goes on
    // running until it yields), not a task later.
    snapshotInSlices: function (options, atCall) {
      var read;
      if (atCall) {
        var reading = taker.rawSnapshotSteps(null, options);
        var first = reading.next(); // the read, now
        read = first.done ? Promise.resolve(first.value) : steps.runInSlices(reading, parts.sliceMs, parts.nextTask);
      } else {
        var state = host.stateAddress();
        var area = state ? blockCopy.copyArea(new DataView(host.buffer()), state, !!(options && options.heap)) : null;
        read = steps.runInSlices((function* () {
          if (area) yield* area.touchSteps();
          yield steps.FRESH_TASK; // the read and the walk, at once: a task of their own, unless the touch was quick
          return yield* taker.rawSnapshotSteps(area, options);
        })(), parts.sliceMs, parts.nextTask);
      }
      return read.then(function (raw) {
        return new Promise(function (resolve) {
          parts.debugInfo.whenLoaded(function () {
            if (parts.sideModules) parts.sideModules.whenLoaded(function () { resolve(raw); });
            else resolve(raw);
          });
        });
      }).then(function (raw) {
        return steps.runInSlices(taker.finishSteps(raw), parts.sliceMs, parts.nextTask);
      });
    },

    // emheap.getSnapshotJson(): the summary alone, as JSON text.
    summaryJson: function () {
      var summary = snapshotModule.readSummary(host.buffer(), host.stateAddress(), taker.info());
      summary['capturedAt'] = new Date().toISOString();
      var state = host.stateAddress();
      var mode = state ? layout.readMode(new DataView(host.buffer()), state) : null;
      summary['mode'] = mode ? mode.mode : 'sampled';
      if (mode) summary['allocator'] = mode.allocator;
      if (mode) summary['footers'] = mode.footers; // where the records are: in the blocks, or the block table
      summary['samplingInterval'] = mode ? mode.samplingInterval : 0;
      return JSON.stringify(summary);
    },
  };
  return taker;
}

// {heap} from what a caller of emheap.snapshot passed, checked: a bad
// option is an Error with a clear message, not a silent default.
function snapshotOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') throw new Error('emheap.snapshot(options): options must be an object such as {heap: true}');
  return {heap: !!options['heap']};
}

module.exports = {snapshotTaker: snapshotTaker, snapshotOptions: snapshotOptions};
