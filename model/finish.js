// finish.js -- the one pass from a raw snapshot to the snapshot every view
// and format reads, run once by the page on each snapshot it takes
// (capture/snapshot_taker.js, once the module's debug info is in) and by
// the CLI on each file it reads (a finished file passes through it
// unchanged unless --wrappers removes more):
//   1. frames named (model/frame_names.js), when names are given: here
//      only, once;
//   2. the allocation layer found (model/wrappers.js) and left out of
//      every stack;
//   3. the sites that became one stack merged (model/merge_sites.js:
//      counters, marks, series, growth events, heap data);
//   4. sorted by size, the heap graph's per-site totals made.
// Grouping for a view (model/grouping.js) comes after, on the finished
// snapshot.
//
// Raw or finished is told here, and only here: a raw snapshot
// (capture/raw_snapshot.js) is the one that carries `rawStackIds`, and
// this pass is its only holder.
'use strict';

var wrappers = require('./wrappers');
var nameFramesSteps = require('./frame_names').nameFramesSteps;
var mergeSitesSteps = require('./merge_sites').mergeSitesSteps;
var heapSection = require('./heap_section');
var sortSteps = require('./sliced_sort').sortSteps;
var bySize = require('./site_counters').bySize;
var runSteps = require('./steps').runSteps;

var STEP_SITES = require('./steps').STEP_ITEMS;

// options: {wrappers: {names, detect} (wrappers.parseWrapperList's; none:
// detection alone), names: model/frame_names.js's names, or none (a file's
// frames are named already)}. -> a generator of steps returning the
// finished snapshot: a raw one is changed in place; a finished one without
// names to give (the CLI's) is not changed, the result is a new snapshot
// where anything differs.
function* finishSnapshotSteps(snapshot, options) {
  options = options || {};
  if (options.names) yield* nameFramesSteps(snapshot, options.names);
  var layer = yield* wrappers.allocationLayerSteps(snapshot, options.wrappers || {names: [], detect: true});
  var finished = snapshot;
  if (Array.isArray(snapshot.rawStackIds)) {
    finished = yield* finishRawSteps(snapshot, layer);
  } else if (layer.removes) {
    finished = (yield* mergeSitesSteps(snapshot, function (s) { return shapeWithoutLayer(s, layer); })).snapshot;
  }
  var said = layer.wrappers();
  if (said !== undefined) {
    if (finished === snapshot) finished = copy(snapshot);
    finished.wrappers = said;
  }
  return finished;
}

// A raw snapshot holds one site per runtime site, as the runtime keyed
// them (by raw stack: several may have one cleaned stack), in the order of
// the runtime's table, and a heap graph without per-site totals. Its
// sites are its own: merged in place.
function* finishRawSteps(snapshot, layer) {
  var ids = snapshot.rawStackIds;
  var merged = yield* mergeSitesSteps(snapshot, function (s, i) {
    if (layer.removes) return shapeWithoutLayer(s, layer);
    // one site per stack id: the id itself is the identity (a number: no
    // text to build per site, no string to hash)
    return {identity: poolIdentity(s, ids[i] ? ids[i] : 'key:' + s.key), stack: s.stack, key: s.key};
  }, {inPlace: true});
  var finished = merged.snapshot;
  if (!merged.changed) yield* sortSteps(finished.sites, bySize, STEP_SITES * 4);
  if (finished.heap && !merged.merged) yield* heapSection.addSiteTotalsSteps(finished);
  delete finished.rawStackIds;
  return finished;
}

// A site's shape once the layer is left out of its stack: sites of one
// stack are one.
function shapeWithoutLayer(site, layer) {
  var shape = layer.strip(site);
  return {identity: poolIdentity(site, shape.stack.length ? shape.stack.join(',') : 'key:' + site.key),
    stack: shape.stack, key: shape.key};
}

// A site of a pool's objects stays apart from the heap blocks of the same
// stack (and from another pool's): a file keeps which is which (site.pool);
// the views by function add them up.
function poolIdentity(site, identity) {
  return site.pool ? 'pool ' + site.pool + ':' + identity : identity;
}

function copy(o) {
  var out = {};
  Object.keys(o).forEach(function (k) { out[k] = o[k]; });
  return out;
}

function finishSnapshot(snapshot, options) {
  return runSteps(finishSnapshotSteps(snapshot, options));
}

module.exports = {finishSnapshotSteps: finishSnapshotSteps, finishSnapshot: finishSnapshot};
