// snapshot.js -- builds the snapshot object (formats/README.md) from the
// runtime state in linear memory plus the JS stack table.
'use strict';

var layout = require('./layout');

var SNAPSHOT_VERSION = 1;

// buffer: the wasm memory's ArrayBuffer. statePtr: 0 if the runtime has not
// started yet (then the snapshot is of an empty heap). info: {source,
// preRunDone, sourceMap (optional: {lookup(offset)} from source_map.js)}.
function buildSnapshot(buffer, statePtr, stackTable, info) {
  var snapshot = {
    format: 'emheap-snapshot',
    version: SNAPSHOT_VERSION,
    capturedAt: new Date().toISOString(),
    source: info.source || '',
    mode: 'exact-js',
    samplingInterval: 0,
    summary: null,
    frames: stackTable.frames.map(function (f) { return withSource(f, info.sourceMap); }),
    sites: [],
    heapGrowth: [],
  };
  snapshot.summary = readSummary(buffer, statePtr, info);
  if (!statePtr) return snapshot;
  var view = new DataView(buffer);
  snapshot.mode = layout.readMode(view, statePtr);
  var counters = snapshot.summary;
  layout.forEachSite(view, statePtr, counters.siteCount, function (id, site) {
    if (id === 0 && site.totalAllocs === 0) return; // no unattributed blocks ever
    var stack = id === 0 ? null : stackTable.stacks[site.stackRef];
    snapshot.sites.push({
      id: id,
      key: stack ? stack.key : '(unattributed)',
      stack: stack ? stack.frames : [],
      liveBytes: site.liveBytes,
      liveBlocks: site.liveBlocks,
      totalAllocs: site.totalAllocs,
      totalBytes: site.totalBytes,
      peakLiveBytes: site.peakLiveBytes,
    });
  });
  snapshot.sites.sort(function (a, b) {
    return b.liveBytes - a.liveBytes || b.totalBytes - a.totalBytes || a.id - b.id;
  });
  snapshot.heapGrowth = layout.readGrowth(view, statePtr, counters.heapGrowths);
  return snapshot;
}

// Adds file and line to a wasm frame when a source map knows its offset.
function withSource(frame, sourceMap) {
  if (!sourceMap || frame.offset === undefined || frame.file !== undefined) return frame;
  var where = sourceMap.lookup(frame.offset);
  if (!where) return frame;
  var out = {};
  Object.keys(frame).forEach(function (k) { out[k] = frame[k]; });
  out.file = where.file;
  out.line = where.line;
  return out;
}

// Global counters only: cheap at any heap size (getSnapshotJson uses it).
function readSummary(buffer, statePtr, info) {
  if (!statePtr) return emptySummary(buffer, info);
  var view = new DataView(buffer);
  layout.checkState(view, statePtr);
  var counters = layout.readCounters(view, statePtr);
  counters.preRunDone = !!info.preRunDone;
  return counters;
}

function emptySummary(buffer, info) {
  return {
    liveBytes: 0, peakLiveBytes: 0, totalBytes: 0, liveBlocks: 0, peakLiveBlocks: 0,
    mallocCalls: 0, callocCalls: 0, reallocCalls: 0, memalignCalls: 0, freeCalls: 0,
    failedAllocs: 0, invalidFrees: 0, untrackedBlocks: 0, siteCount: 0, heapGrowths: 0,
    heapSize: buffer ? buffer.byteLength : 0, preRunDone: !!info.preRunDone,
  };
}

module.exports = {buildSnapshot: buildSnapshot, readSummary: readSummary, SNAPSHOT_VERSION: SNAPSHOT_VERSION};
