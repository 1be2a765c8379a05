// raw_snapshot.js -- reads the raw snapshot from the runtime state in linear
// memory plus the JS stack table: one site per runtime site, as the
// runtime keyed it (by raw stack), its stack as the stack table cleaned it
// (`rawStackIds[i]`: site i's stack id, 0 for none; sites of one stack id
// are one site once finished), frames as
// captured, the timeline's series and the heap graph as read. Nothing is
// merged, named or sorted here: model/finish.js does that once, for the
// page and for every file the CLI reads.
'use strict';


var layout = require('./layout');
var markLog = require('./mark_log');
var blockCopy = require('./block_copy');
var lock = require('./lock');
var TRUNCATED = require('./stack_table').TRUNCATED;
var siteCounters = require('../model/site_counters');
var lifetimesInfo = require('../model/lifetimes').lifetimesInfo;
var runSteps = require('../model/steps').runSteps;
var ratioScales = require('../model/estimates').ratioScales;
var snapshotFile = require('../model/snapshot_file');
var allocatorWalk = require('./allocator_walk');
var liveByMarkSteps = require('./mark_log').liveByMarkSteps;
var chunkRowLabel = require('../model/pools').chunkRowLabel;
var functionChain = require('../model/grouping').functionChain;

// buffer: the wasm memory's ArrayBuffer. statePtr: 0 if the runtime has not
// started yet (then the snapshot is of an empty heap). info: {source,
// preRunDone, sourceLines: {lookup(offset)} (source map or DWARF) or null,
// functionName: fn(funcIndex) -> name or null}.
function buildSnapshot(buffer, statePtr, stackTable, info, copyArea, heapSteps, timelines) {
  return runSteps(snapshotSteps(buffer, statePtr, stackTable, info, copyArea, heapSteps, timelines));
}

// Sites read and resolved between two yields of snapshotSteps.
var STEP_SITES = require('../model/steps').STEP_ITEMS;

// The same snapshot as a generator: the first step reads the runtime's
// tables (a copy, under the lock: the moment the snapshot is of); the
// others build sites and resolve their stacks, STEP_SITES at a time,
// so that a page can run between steps (emheap.snapshotAsync, downloads).
// The first yield gives the snapshot being built; returns it complete.
// copyArea: memory for the copy, from capture/block_copy.js copyArea (optional). heapSteps:
// the heap graph of the same moment (capture/heap_scan.js scanHeapSteps: its
// memory already copied, the graph still to make, in steps), or none.
// timelines: {points (the timeline's), siteSeries (site_series.js
// read's, or null), ageResolutionMs (age_clock.js), markRanges
// (mark_ranges.js read's)}, or none; points may be absent.
function* snapshotSteps(buffer, statePtr, stackTable, info, copyArea, heapSteps, timelines) {
  var snapshot = {
    format: snapshotFile.SNAPSHOT_FORMAT,
    version: snapshotFile.SNAPSHOT_VERSION,
    capturedAt: new Date().toISOString(),
    source: info.source || '',
    mode: 'sampled',
    samplingInterval: 0,
    summary: statePtr ? null : emptySummary(buffer, info),
    frames: [],
    sites: [],
    heapGrowth: [],
  };
  if (!statePtr) return finishFrames(snapshot, stackTable);
  var view = new DataView(buffer);
  var mode = layout.readMode(view, statePtr);
  snapshot.mode = mode.mode;
  snapshot.samplingInterval = mode.samplingInterval;
  var tables;
  var scales;
  var marks;
  var pools;
  var blocks = null; // with marks: the blocks, to tell which mark each came after
  lock.withLock(buffer, statePtr, function () {
    snapshot.summary = readSummaryUnlocked(view, statePtr, info);
    scales = ratioScales(snapshot.summary, layout.readEstimateSums(view, statePtr));
    tables = layout.copySiteTables(view, statePtr, snapshot.summary.siteCount, copyArea);
    snapshot.heapGrowth = layout.readGrowth(view, statePtr, snapshot.summary.heapGrowths);
    marks = markLog.readMarks(view, statePtr);
    pools = layout.readPools(view, statePtr);
    if (marks.marks.length && mode.mode !== 'off') blocks = blockCopy.copyBlocks(view, statePtr, copyArea && copyArea.markBlocks, true, 0, true);
  });
  if (marks.marks.length) {
    snapshot.marks = marks.marks.map(function (m) {
      return {number: m.number, name: m.name, t: Math.round(m.t * 1000) / 1000}; // a microsecond, as the timeline's
    });
    if (marks.dropped) snapshot.marksDropped = marks.dropped;
  }
  snapshot.lifetimes = lifetimesInfo(mode.mode, snapshot.summary, timelines ? timelines.ageResolutionMs : null);
  var heap = allocatorHeapNow(view, statePtr, snapshot.summary, info);
  if (heap) snapshot.allocatorHeap = heap;
  yield snapshot; // read: capturedAt, mode and summary are final
  var workerFrames = new Map(); // function index * 2^32 + offset -> frame index
  // beside the sites, not on them: a property deleted from a million
  // objects later would turn each into a slow dictionary
  var stackIds = [];
  // what each site held at the last marks (capture/mark_ranges.js)
  var ranges = timelines && timelines.markRanges && timelines.markRanges.marks.length ? timelines.markRanges : null;
  if (ranges) {
    snapshot.markRanges = {marks: ranges.marks};
    if (ranges.estimated.length) snapshot.markRanges.estimated = ranges.estimated;
  }
  // the stacks that made pools (runtime/pools.c): a site of its own each,
  // which holds no block
  var creators = new Set(pools.pools.map(function (p) { return p.site; }).filter(Boolean));
  var creatorStacks = new Map();
  for (var id = 0; id < tables.count; id++) {
    if (id % STEP_SITES === STEP_SITES - 1) yield;
    var site = layout.readSite(tables, id, scales);
    if (id === 0 && site.totalAllocs === 0) continue; // nothing was ever unattributed
    var named = site.stackKind === layout.STACK_POOL ? {stackId: 0, label: '(pool #' + site.pool + ')'} // (named below)
      : siteStack(site, stackTable, workerFrames, info);
    var out = {id: id, key: named.label, stack: [], liveBytes: 0, liveBlocks: 0, totalAllocs: 0, totalBytes: 0,
      peakLiveBytes: 0, blocksAtPeakLiveBytes: 0, liveBytesAtPeak: 0, liveBlocksAtPeak: 0, estimatedLiveBytes: 0,
      estimatedLiveBytesAtPeak: 0};
    if (named.stackId) {
      // raw stacks that clean to the same frames are one stack id: the
      // finishing pass merges their sites (model/finish.js)
      out.stack = stackTable.stacks[named.stackId].frames;
      out.key = stackTable.stacks[named.stackId].key;
    }
    if (site.pool) out.pool = site.pool;
    siteCounters.copyAllocType(out, site);
    siteCounters.addSiteCounters(out, site);
    if (creators.has(id)) creatorStacks.set(id, out.stack);
    // a site that never held a block (a pool's maker; one whose only block
    // became a pool's chunk, which takes its totals too) is no row
    if (!out.totalAllocs && !out.liveBlocks && site.stackKind !== layout.STACK_POOL) continue;
    var range = ranges && ranges.bySite.get(id);
    if (range) {
      out.rangeMarks = range.marks;
      out.rangeLiveAfter = range.after;
    }
    snapshot.sites.push(out);
    stackIds.push(named.stackId || 0);
  }
  snapshot.rawStackIds = stackIds;
  tables = null;
  if (blocks) {
    // what each site's live blocks came after
    var byMark = yield* liveByMarkSteps(blocks, marks.marks, mode.interval, scales.bytes);
    blocks = null;
    yield;
    // (a pool's chunks: what came after a mark is the objects in them, not
    // the chunks too; their row is the room inside)
    snapshot.sites.forEach(function (s) { s.liveByMark = s.pool && !s.stack.length ? [] : byMark[s.id] || []; });
  }
  if (pools.pools.length) snapshot.pools = poolsOut(pools, snapshot.sites, stackTable.frames, creatorStacks);
  if (pools.misuse.some(Boolean)) snapshot.poolMisuse = pools.misuse;
  snapshot.heapGrowth.forEach(function (g) {
    g.t = Math.round(g.t * 1000) / 1000; // a microsecond, as the timeline's
  });
  if (timelines && timelines.points) {
    snapshot.timeline = timelines.points;
    if (timelines.siteSeries) snapshot.siteTimeline = timelines.siteSeries;
  }
  if (heapSteps) snapshot.heap = yield* heapSteps;
  return finishFrames(snapshot, stackTable);
}

// A site read by layout.readSite -> {stackId: its stack in stackTable, or
// 0 with label saying why it has none; mainThread: a main-thread site read
// on a worker}. A worker's stack is interned here like the main thread's,
// so that one stack seen on both is one site. workerFrames: a Map the
// worker frames found are kept in (function index * 2^32 + offset ->
// frame index); info: {onWorker, functionName} (snapshotSteps's).
function siteStack(site, stackTable, workerFrames, info) {
  if (site.stackKind === layout.STACK_JS && site.thread) {
    // A worker whose stack could not be taken (runtime/stack_capture.c).
    return {stackId: 0, label: '(worker thread ' + site.thread + ': no JS stack could be taken there)'};
  }
  if (site.stackKind === layout.STACK_JS && info.onWorker) {
    // The main thread's stack ids mean nothing in this worker's table.
    return {stackId: 0, label: '(main thread: its JS stacks can be read there only; take the snapshot on the main thread)',
      mainThread: true};
  }
  var id = 0;
  if (site.stackKind === layout.STACK_JS) id = stackTable.resolve(site.stackRef);
  else if (site.stackKind === layout.STACK_WASM) id = workerStack(stackTable, workerFrames, site.frames, info);
  return {stackId: id, label: snapshotFile.UNATTRIBUTED};
}

// The stack of runtime site `siteId`, read where the table is (the caller
// holds the lock, or no thread can change it): as siteStack.
function oneSiteStack(buffer, statePtr, stackTable, siteId, info) {
  var tables = layout.siteTablesInPlace(new DataView(buffer), statePtr);
  if (siteId >= tables.count) return {stackId: 0, label: '(site ' + siteId + ')'};
  return siteStack(layout.readSite(tables, siteId, null), stackTable, new Map(), info);
}

// JS frames on a worker (its words say no more of them).
var WORKER_JS = {name: '(JS on a worker)'};

// A worker's stack (runtime/stack_capture.c): (function index, module
// offset) pairs, root first -> stack id in stackTable. Its wasm frames are
// the frames the main thread's own stacks have at those offsets.
function workerStack(stackTable, cache, words, info) {
  var indices = [];
  for (var i = words.length - 2; i >= 0; i -= 2) {
    var fn = words[i];
    var offset = words[i + 1];
    var code = fn * 4294967296 + offset;
    var index = cache.get(code);
    if (index === undefined) {
      if (fn === layout.FRAME_TRUNCATED) {
        index = stackTable.internFrame(TRUNCATED);
      } else if (fn === layout.FRAME_JS) {
        index = stackTable.internFunction(-1, WORKER_JS.name);
      } else {
        var recursive = layout.isRecursiveWord(fn);
        if (recursive) fn = layout.functionOfWord(fn);
        var name = info.functionName ? info.functionName(fn) : null;
        index = stackTable.internFrame({wasm: true, url: 'wasm:', funcIndex: fn, offset: offset,
          name: name || 'wasm-function[' + fn + ']', recursive: recursive});
      }
      cache.set(code, index);
    }
    indices.push(index);
  }
  return indices.length ? stackTable.internStack(indices) : 0;
}

// The chain of functions of a worker's stack (its words, read as
// workerStack reads them; model/grouping.js functionChain), its frames
// made for the chain alone, not kept: each wasm function is known by its
// index, since the name a snapshot gives it may not be loaded yet (two
// functions are never one here that the views keep apart, and a function
// is always the same one). moduleName: the stack table's.
function workerFunctionChain(words, moduleName) {
  var frames = [];
  for (var i = words.length - 2; i >= 0; i -= 2) {
    var fn = words[i];
    if (fn === layout.FRAME_TRUNCATED) frames.push(TRUNCATED);
    else if (fn === layout.FRAME_JS) frames.push(WORKER_JS);
    else {
      frames.push({name: 'wasm-function[' + layout.functionOfWord(fn) + ']', module: moduleName,
        recursive: layout.isRecursiveWord(fn)});
    }
  }
  return functionChain(frames.map(function (f, i) { return i; }), function (i) { return frames[i]; });
}

// The pools as a snapshot keeps them (schemas/emheap-snapshot.schema.json):
// each one's objects and bytes, where it was made, and its chunks from its
// chunk site's counters (whose live bytes are the chunks' less the objects
// placed in them, runtime/pools.c), whose row gets the pool's name.
function poolsOut(pools, sites, frames, creatorStacks) {
  var byId = new Map();
  sites.forEach(function (s) { byId.set(s.id, s); });
  return pools.pools.map(function (p) {
    var chunk = p.chunkSite ? byId.get(p.chunkSite) : null;
    var out = {number: p.number, name: p.name, live: p.live, objects: p.objects, bytes: p.bytes,
      chunks: chunk ? chunk.liveBlocks : 0, chunkBytes: chunk ? chunk.liveBytes + p.placedBytes : 0,
      outsideObjects: p.objects - p.placedObjects, outsideBytes: p.bytes - p.placedBytes};
    if (p.malloclike) out.malloclike = true;
    if (p.site && byId.has(p.site)) out.createdBy = p.site;
    var made = p.site && creatorStacks.get(p.site);
    if (made && made.length) out.createdIn = frames[made[0]].name;
    if (p.chunkSite) out.chunkSite = p.chunkSite;
    if (p.lost) out.lost = p.lost;
    if (chunk && chunk.key !== undefined) chunk.key = chunkRowLabel(out);
    return out;
  });
}

function finishFrames(snapshot, stackTable) {
  snapshot.frames = stackTable.frames.slice();
  return snapshot;
}

// The allocator's heap walked now (capture/allocator_walk.js): its free
// blocks, the largest, the free span at the top, its blocks in use (for
// dlmalloc read through its free bins: what they cost is the free chunks'
// number, not the live blocks', in the step a page runs at once); or
// {error} saying why not; or null for an allocator that is not walked
// (mimalloc, a custom one). Not while another thread may be inside malloc
// (info.threadsRunning): a heap read half way through a change could pass
// the walk's checks and be wrong.
function allocatorHeapNow(view, statePtr, summary, info) {
  var allocator = layout.readMode(view, statePtr).allocator;
  if (allocator !== 'dlmalloc' && allocator !== 'emmalloc') return null;
  if (info.threadsRunning) return {error: 'not walked: other threads may be allocating'};
  var walk = allocatorWalk.walkAllocator(view, allocator, summary.heapBase, summary.breakNow, blockCopy.readDataRange(view, statePtr),
    null, null, null, layout.pointerBytes(view, statePtr));
  if (walk.error) return {error: walk.error};
  var heap = {freeBytes: walk.freeBytes, freeBlocks: walk.freeBlocks, largestFreeBytes: walk.largestFreeBytes,
    topFreeBytes: walk.topFreeBytes, inUseBytes: walk.inUseBytes};
  if (walk.inUseBlocks !== undefined) heap.inUseBlocks = walk.inUseBlocks; // not where read through dlmalloc's bins
  return heap;
}

// Global counters only: cheap at any heap size (getSnapshotJson uses it).
function readSummary(buffer, statePtr, info) {
  if (!statePtr) return emptySummary(buffer, info);
  var view = new DataView(buffer);
  return lock.withLock(buffer, statePtr, function () { return readSummaryUnlocked(view, statePtr, info); });
}

function readSummaryUnlocked(view, statePtr, info) {
  layout.checkState(view, statePtr);
  var counters = layout.readCounters(view, statePtr);
  counters.preRunDone = !!info.preRunDone;
  return counters;
}

function emptySummary(buffer, info) {
  return snapshotFile.emptySummary(buffer ? buffer.byteLength : 0, !!info.preRunDone);
}

// The pools now (as a snapshot has them, without where each was made), for
// the memory's breakdown (emheap.memory()); [] when there are none.
function poolsNow(buffer, statePtr) {
  if (!statePtr) return [];
  var view = new DataView(buffer);
  return lock.withLock(buffer, statePtr, function () {
    var read = layout.readPools(view, statePtr);
    if (!read.pools.length) return [];
    var tables = layout.siteTablesInPlace(view, statePtr);
    var chunkSites = read.pools.filter(function (p) { return p.chunkSite && p.chunkSite < tables.count; }).map(function (p) {
      var site = layout.readSite(tables, p.chunkSite, null);
      return {id: p.chunkSite, stack: [], liveBytes: site.liveBytes, liveBlocks: site.liveBlocks};
    });
    return poolsOut(read, chunkSites, [], new Map());
  });
}

module.exports = {
  poolsNow: poolsNow,
  buildSnapshot: buildSnapshot, snapshotSteps: snapshotSteps, readSummary: readSummary,
  siteStack: siteStack, oneSiteStack: oneSiteStack, workerFunctionChain: workerFunctionChain, allocatorHeapNow: allocatorHeapNow,
};
