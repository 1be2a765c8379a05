// heap_section.js -- the heap graph (model/heap_graph.js) as a snapshot
// carries it (`heap`, schemas/emheap-snapshot.schema.json), and what is
// read from it: WARPO's / DevTools' constructor view with allocation sites
// as the constructors.
//
// snapshot.heap = {
//   groups: [{name, retainedBytes}]   the root groups, "(leaked)" last
//   leaked: {directBlocks, directBytes, indirectBlocks, indirectBytes}
//   blocks: {address, size, site, id, state, retained, dominator}: one
//           array per field, blocks in address order; site is a snapshot
//           site id; id is odd and stable for a block across the snapshots
//           of one run (2 * its serial + 1); state 0 reachable, 1 directly
//           leaked, 2 indirectly leaked; dominator is a node index
//   edgeCounts, edges: the graph, V8 heap snapshot style: node v's edges
//           are the next edgeCounts[v] entries of edges, nodes in order:
//           0 the root, 1..G the groups, then the blocks
// }
'use strict';

var runSteps = require('./steps').runSteps;
var plural = require('./numbers').plural;

// Blocks (or nodes) handled between two yields of the steps below.
var STEP_WORK = 100000;

// graph (buildHeapGraph's) -> snapshot.heap, with runtime site ids. The
// long arrays stay typed arrays (2M blocks: turning them into plain arrays
// took 1.3 s); formats/json_stream.js writes them as JSON arrays, and the
// section's toJSON gives JSON.stringify plain ones.
function* toHeapSectionSteps(graph) {
  var b = graph.blocks;
  var count = b.addr.length;
  var first = graph.firstBlockNode;
  var groups = graph.groupNames.map(function (name, i) {
    return {name: name, retainedBytes: graph.retained[i + 1]};
  });
  var leaked = {directBlocks: 0, directBytes: 0, indirectBlocks: 0, indirectBytes: 0};
  var id = new Float64Array(count);
  for (var k = 0; k < count; k++) {
    if (k % STEP_WORK === STEP_WORK - 1) yield;
    id[k] = b.serial[k] * 2 + 1;
    if (graph.state[k] === 1) {
      leaked.directBlocks++;
      leaked.directBytes += b.size[k];
    } else if (graph.state[k] === 2) {
      leaked.indirectBlocks++;
      leaked.indirectBytes += b.size[k];
    }
  }
  return withPlainJSON({
    groups: groups,
    leaked: leaked,
    blocks: {address: b.addr, size: b.size, site: b.site, id: id, state: graph.state,
      retained: graph.retained.slice(first), dominator: graph.idom.slice(first)},
    edgeCounts: graph.edgeCount,
    edges: yield* edgeListSteps(graph),
  });
}

function toHeapSection(graph) {
  return runSteps(toHeapSectionSteps(graph));
}

// The targets in node order (the graph keeps them in scan order, and the
// "(leaked)" group's first list stays behind in targets when cycles moved
// it: only what edgeCount covers is taken).
function* edgeListSteps(graph) {
  var total = 0;
  for (var n = 0; n < graph.nodeCount; n++) total += graph.edgeCount[n];
  var out = new Int32Array(total);
  var at = 0;
  for (var v = 0; v < graph.nodeCount; v++) {
    if (v % STEP_WORK === STEP_WORK - 1) yield;
    for (var e = graph.edgeStart[v], end = e + graph.edgeCount[v]; e < end; e++) out[at++] = graph.targets[e];
  }
  return out;
}

// A section (typed arrays or, read from a file, plain ones) whose toJSON
// gives plain arrays; marked streamable so that json_stream walks it.
function withPlainJSON(heap) {
  Object.defineProperty(heap, 'toJSON', {value: sectionJSON, enumerable: false, configurable: true});
  return heap;
}
function sectionJSON() {
  var plainArray = function (a) { return Array.isArray(a) ? a : Array.prototype.slice.call(a); };
  var out = {};
  for (var k in this) if (Object.prototype.hasOwnProperty.call(this, k)) out[k] = this[k];
  out.blocks = {};
  for (var f in this.blocks) if (Object.prototype.hasOwnProperty.call(this.blocks, f)) out.blocks[f] = plainArray(this.blocks[f]);
  out.edgeCounts = plainArray(this.edgeCounts);
  out.edges = plainArray(this.edges);
  return out;
}
sectionJSON.streamable = true;

// A copy of the section that a pass may change the sites of.
function copyWithSites(heap) {
  var out = {};
  for (var k in heap) if (Object.prototype.hasOwnProperty.call(heap, k)) out[k] = heap[k];
  out.blocks = {};
  for (var f in heap.blocks) if (Object.prototype.hasOwnProperty.call(heap.blocks, f)) out.blocks[f] = heap.blocks[f];
  out.blocks.site = heap.blocks.site.slice();
  // what the scan read (capture/heap_scan.js), for a heap dump
  if (heap.scan) Object.defineProperty(out, 'scan', {value: heap.scan, enumerable: false, configurable: true});
  return withPlainJSON(out);
}

// Sites merged into others (mergedInto: site id -> id, a Map or ShardedMap)
// leave their blocks to the site they were merged into. In place.
function* remapSitesSteps(heap, mergedInto) {
  var site = heap.blocks.site;
  for (var k = 0; k < site.length; k++) {
    if (k % STEP_WORK === STEP_WORK - 1) yield;
    var to = mergedInto.get(site[k]);
    if (to !== undefined) site[k] = to;
  }
}

// The constructor view: per site, from the blocks of snapshot.heap,
// {blocks, shallowBytes, retainedBytes, reachableBlocks, directBlocks,
// indirectBlocks}, as fields of each site (retainedBytes counts a block
// once: blocks dominated by another block of the same site are in that
// block's retained size, as DevTools' Summary counts). In place.
function* addSiteTotalsSteps(snapshot) {
  var heap = snapshot.heap;
  if (!heap) return snapshot;
  var sites = snapshot.sites;
  var b = heap.blocks;
  var count = b.address.length;
  // site id -> index in sites, and the totals in typed arrays (a Map of a
  // million sites rehashed in one 230 ms step: model/sharded_map.js)
  var maxId = 0;
  for (var i = 0; i < sites.length; i++) if (sites[i].id > maxId) maxId = sites[i].id;
  for (var j = 0; j < count; j++) if (b.site[j] > maxId) maxId = b.site[j];
  var index = new Int32Array(maxId + 1).fill(-1);
  for (var i2 = 0; i2 < sites.length; i2++) index[sites[i2].id] = i2;
  var heapBlocks = new Float64Array(sites.length);
  var shallow = new Float64Array(sites.length);
  var retained = new Float64Array(sites.length);
  var classes = [new Float64Array(sites.length), new Float64Array(sites.length), new Float64Array(sites.length)];
  yield;
  var first = heap.groups.length + 1;
  var n = first + count;
  // the dominator tree's children, then a DFS that knows, for each site,
  // how many blocks of it are above the node
  var childCount = new Int32Array(n);
  for (var k = 0; k < count; k++) if (b.dominator[k] >= 0) childCount[b.dominator[k]]++;
  var childStart = new Int32Array(n + 1);
  for (var v = 0; v < n; v++) childStart[v + 1] = childStart[v] + childCount[v];
  var fill = childStart.slice(0, n);
  var children = new Int32Array(count);
  for (var k2 = 0; k2 < count; k2++) if (b.dominator[k2] >= 0) children[fill[b.dominator[k2]]++] = first + k2;
  yield;
  var inside = new Int32Array(maxId + 1); // site id -> blocks of it on the current path
  var stack = new Int32Array(2 * n + 1);
  var sp = 0;
  var visited = new Uint8Array(n);
  var work = 0;
  for (var top = first - 1; top >= 0; top--) stack[sp++] = top; // the root and the groups
  while (sp > 0) {
    if (++work === STEP_WORK) { work = 0; yield; }
    var x = stack[--sp];
    if (x < 0) { // leaving block node ~x
      inside[b.site[~x - first]]--;
      continue;
    }
    if (visited[x]) continue;
    visited[x] = 1;
    if (x >= first) {
      var kk = x - first;
      var siteId = b.site[kk];
      var at = index[siteId];
      if (at >= 0) {
        heapBlocks[at]++;
        shallow[at] += b.size[kk];
        if (!inside[siteId]) retained[at] += b.retained[kk];
        classes[b.state[kk]][at]++;
      }
      inside[siteId]++;
      stack[sp++] = ~x;
    }
    for (var c = childStart[x]; c < childStart[x + 1]; c++) stack[sp++] = children[c];
  }
  for (var s = 0; s < sites.length; s++) {
    if (s % STEP_WORK === STEP_WORK - 1) yield;
    var site = sites[s];
    site.heapBlocks = heapBlocks[s];
    site.shallowBytes = shallow[s];
    site.retainedBytes = retained[s];
    site.reachableBlocks = classes[0][s];
    site.directBlocks = classes[1][s];
    site.indirectBlocks = classes[2][s];
  }
  return snapshot;
}

function addSiteTotals(snapshot) {
  return runSteps(addSiteTotalsSteps(snapshot));
}

var STATES = ['reachable', 'directly leaked', 'indirectly leaked'];

// The instances to drill into: site id -> its `n` blocks that retain the
// most, [{address, size, retained, state, id}], largest first.
function instancesBySite(snapshot, n) {
  var out = new Map();
  var heap = snapshot.heap;
  if (!heap || !(n > 0)) return out;
  var b = heap.blocks;
  for (var k = 0; k < b.address.length; k++) {
    var list = out.get(b.site[k]);
    if (!list) out.set(b.site[k], list = []);
    list.push({address: b.address[k], size: b.size[k], retained: b.retained[k], state: STATES[b.state[k]], id: b.id[k]});
  }
  out.forEach(function (list, site) {
    list.sort(function (x, y) { return y.retained - x.retained || x.address - y.address; });
    if (list.length > n) out.set(site, list.slice(0, n));
  });
  return out;
}

// What the scan could not see (heap.notScanned) or could not tell apart
// (heap.readOnlyData unknown), as one sentence for a
// person, or '' when it saw everything it was given. Blocks the runtime
// could not record (its table had no room in a fixed heap) are neither
// nodes nor scanned: a block only they point to reads as leaked.
function scanCaveat(heap) {
  var n = (heap && heap.notScanned) || {};
  var parts = [];
  if (n.blocks) {
    parts.push(plural(n.blocks, 'live block') + (n.blocks === 1 ? ' was' : ' were') + ' not recorded (no room for ' +
      "emheap's table in a fixed heap): a block only they point to shows as leaked");
  }
  if (n.threads) parts.push(plural(n.threads, 'thread') + ' past the first 256 not scanned');
  if (n.regions) parts.push(plural(n.regions, 'emheap_add_root region') + ' past the first 1024 not scanned');
  var ro = heap && heap.readOnlyData;
  var unknown = ro && ro.unknown ? 'read-only data scanned as roots (' + ro.unknown + '): a leaked block whose ' +
    'address a constant holds shows as still reachable' : '';
  if (!parts.length) return unknown;
  return 'incomplete scan: ' + parts.join('; ') + (unknown ? '; ' + unknown : '');
}

module.exports = {toHeapSection: toHeapSection, toHeapSectionSteps: toHeapSectionSteps, remapSitesSteps: remapSitesSteps, addSiteTotals: addSiteTotals, addSiteTotalsSteps: addSiteTotalsSteps,
  instancesBySite: instancesBySite, copyWithSites: copyWithSites, scanCaveat: scanCaveat};
