// finish.js -- the one pass from a raw snapshot to the snapshot every view
// and format reads, run once by the page on each snapshot it takes and by
// the CLI on each file it reads (a finished file passes through it
// unchanged):
//   frames named (model/frame_names.js), when names are given;
//   the allocation layer removed and the sites that became one stack merged
//   (model/wrappers.js), with the sites of one raw stack id (a raw
//   snapshot's: capture/raw_snapshot.js) in the same merge
//   (model/merge_sites.js: counters, marks, series, growth events, heap
//   data);
//   sorted by size, the heap graph's per-site totals made.
// Grouping for a view (model/grouping.js) comes after, on the finished
// snapshot.
'use strict';

var wrappers = require('./wrappers');
var nameFramesSteps = require('./frame_names').nameFramesSteps;
var runSteps = require('./steps').runSteps;

// options: {wrappers: {names, detect} (wrappers.parseWrapperList's; none:
// detection alone), names: model/frame_names.js's names or none, raw: the
// snapshot is capture/raw_snapshot.js's, which no one else holds}. -> a
// generator of steps returning the finished snapshot.
function* finishSnapshotSteps(snapshot, options) {
  options = options || {};
  if (options.names) yield* nameFramesSteps(snapshot, options.names);
  return yield* wrappers.removeAllocationLayerSteps(snapshot, options.wrappers || {names: [], detect: true}, !!options.raw);
}

function finishSnapshot(snapshot, options) {
  return runSteps(finishSnapshotSteps(snapshot, options));
}

module.exports = {finishSnapshotSteps: finishSnapshotSteps, finishSnapshot: finishSnapshot};
