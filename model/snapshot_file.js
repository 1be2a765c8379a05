// snapshot_file.js -- the snapshot contract, in one place: the format name
// and version every file carries (schemas/emheap-snapshot.schema.json says
// the rest), the site that holds what no stack names, the summary of an
// empty heap, and how the snapshot comes out of a file emheap wrote. The
// page (jslib/) and the CLI (cli/) both read files through unwrapSnapshot,
// so both accept and refuse the same files with the same words.
'use strict';

var SNAPSHOT_FORMAT = 'emheap-snapshot';
var SNAPSHOT_VERSION = 1;
// The site (and the frame name) for what no stack names.
var UNATTRIBUTED = '(unattributed)';
// ... and why a site is, where a reader has room to say it
var UNATTRIBUTED_WHY = '(unattributed: allocated while tracking was paused, or no stack could be taken)';
var READS = 'emheap reads the files it writes: *.speedscope.json, *.PerfView.json or a snapshot .json';

// A file that holds no snapshot this emheap can read; its message is one
// line for a person.
class SnapshotFileError extends Error {
  constructor(message) {
    super(message);
    this.name = 'SnapshotFileError';
  }
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// The parsed JSON of a file -> {snapshot, container}: a *.speedscope.json
// or *.PerfView.json file holds the snapshot in its top-level "emheap"
// field; a bare snapshot JSON is the snapshot itself. Throws a
// SnapshotFileError for another tool's file, another format or version.
// The snapshot's contents are checked by the caller (the CLI against the
// schema).
function unwrapSnapshot(obj) {
  if (!isObject(obj)) {
    throw new SnapshotFileError('JSON, but not an emheap file (the top level is ' +
      (Array.isArray(obj) ? 'an array' : typeof obj === 'object' ? 'null' : 'a ' + typeof obj) + '); ' + READS);
  }
  var snapshot;
  var container;
  if (Object.prototype.hasOwnProperty.call(obj, 'emheap')) {
    snapshot = obj.emheap;
    container = obj.StackSource ? 'perfview' : (obj.profiles || obj.shared) ? 'speedscope' : 'json';
    if (!isObject(snapshot)) throw new SnapshotFileError('its "emheap" field is not a snapshot object');
  } else if (obj.format === SNAPSHOT_FORMAT || (typeof obj.format === 'string' && /emheap/.test(obj.format)) ||
      (obj.summary !== undefined && obj.sites !== undefined)) {
    snapshot = obj;
    container = 'snapshot';
  } else {
    throw new SnapshotFileError(otherTool(obj));
  }
  if (snapshot.format !== SNAPSHOT_FORMAT) {
    throw new SnapshotFileError('unknown snapshot format ' + JSON.stringify(snapshot.format) +
      ' (expected "' + SNAPSHOT_FORMAT + '")');
  }
  if (snapshot.version !== SNAPSHOT_VERSION) {
    var v = snapshot.version;
    throw new SnapshotFileError(typeof v === 'number' && v > SNAPSHOT_VERSION
      ? 'snapshot version ' + v + ' is newer than this emheap reads (version ' + SNAPSHOT_VERSION + '): update emheap'
      : 'unknown snapshot version ' + JSON.stringify(v) + ' (this emheap reads version ' + SNAPSHOT_VERSION + ')');
  }
  return {snapshot: snapshot, container: container};
}

// What a JSON file without a snapshot is, in words.
function otherTool(obj) {
  var noField = 'it has no "emheap" field, so it carries no emheap snapshot (only files emheap writes do)';
  if (typeof obj.$schema === 'string' && /speedscope/.test(obj.$schema) || Array.isArray(obj.profiles)) {
    var by = typeof obj.exporter === 'string' && obj.exporter ? ' written by ' + obj.exporter : '';
    return 'a speedscope file' + by + ', not by emheap: ' + noField;
  }
  if (obj.StackSource) return 'a PerfView file not written by emheap: ' + noField;
  if (Array.isArray(obj.traceEvents)) {
    return "a Chrome trace (emheap's chrome-trace output or another tool's): it carries no emheap snapshot; " +
      'give the .speedscope.json or .PerfView.json file';
  }
  return 'JSON, but not an emheap file: no "emheap" field and no "format": "' + SNAPSHOT_FORMAT + '"; ' + READS;
}

// The summary of a heap with nothing in it (the runtime not started yet).
function emptySummary(heapSize, preRunDone) {
  return {
    liveBytes: 0, peakLiveBytes: 0, totalBytes: 0, liveBlocks: 0, peakLiveBlocks: 0,
    mallocCalls: 0, callocCalls: 0, reallocCalls: 0, memalignCalls: 0, freeCalls: 0,
    failedAllocs: 0, invalidFrees: 0, sampledAllocs: 0, siteCount: 0, heapGrowths: 0,
    lostAllocs: 0, lostBytes: 0, lostSites: 0, truncatedStacks: 0, tableBytes: 0,
    requestedLiveBytes: 0, allocatorRoundingBytes: 0, requestedBytesAtPeak: 0, allocatorRoundingAtPeak: 0,
    requestedPeakBytes: 0, tableBytesAtPeak: 0,
    heapBase: 0, breakNow: 0, breakAtPeak: 0, liveBlocksAtPeak: 0, totalBytesAtPeak: 0,
    unseenFrees: 0, unseenFreedBytes: 0,
    heapSize: heapSize, preRunDone: preRunDone,
  };
}

module.exports = {
  SNAPSHOT_FORMAT: SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION: SNAPSHOT_VERSION,
  UNATTRIBUTED: UNATTRIBUTED,
  UNATTRIBUTED_WHY: UNATTRIBUTED_WHY,
  READS: READS,
  SnapshotFileError: SnapshotFileError,
  unwrapSnapshot: unwrapSnapshot,
  emptySummary: emptySummary,
};
