// heapsnapshot.js: the C heap as a V8 heap snapshot (.heapsnapshot), the
// file Chrome DevTools' Memory panel opens with "Load profile". Needs the
// heap graph (snapshot.heap, model/heap_section.js): each live block is a
// "native" node named by its site (so DevTools' Summary is the constructor
// view with allocation sites as constructors), each pointer the scan found
// an "element" edge, and the roots synthetic nodes under the root. DevTools
// then computes retainers, dominators and retained sizes itself, from the
// same graph emheap computed them from: the numbers agree (tests).
// Pure CommonJS, embedded in the --js-library too: see formats/README.md.
//
// What DevTools' loader wants, read in chrome-devtools-frontend
// (entrypoints/heap_snapshot_worker/HeapSnapshotLoader.ts, HeapSnapshot.ts):
// the keys in the order snapshot, nodes, edges, trace_function_infos,
// trace_tree, samples, locations, strings (it scans for them in that order,
// and declared arrays must be there); `"snapshot":` with no space; node and
// edge counts exact; the root first; to_node a node index (ordinal times
// the node field count); only unsigned integers in the arrays. Ids: a
// block's is 2 * its serial + 1, odd and the same in every snapshot of a
// run, so the Comparison view matches blocks and "objects allocated between
// snapshots" works; synthetic nodes get even ids.

var CHUNK_CHARS = require('./json_stream').CHUNK_CHARS;
var UNATTRIBUTED = require('../model/snapshot_file').UNATTRIBUTED;

var NODE_FIELDS = ['type', 'name', 'id', 'self_size', 'edge_count', 'trace_node_id', 'detachedness'];
var NODE_TYPES = ['hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native',
  'synthetic', 'concatenated string', 'sliced string', 'symbol', 'bigint', 'object shape'];
var EDGE_FIELDS = ['type', 'name_or_index', 'to_node'];
var EDGE_TYPES = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'];
var NATIVE = NODE_TYPES.indexOf('native');
var SYNTHETIC = NODE_TYPES.indexOf('synthetic');
var ELEMENT = EDGE_TYPES.indexOf('element');
var F = NODE_FIELDS.length;
var STEP_NODES = 500; // nodes between two pause points (formats/index.js)

function missingHeap() {
  return new Error('a heap snapshot needs the heap graph: take the snapshot in exact mode with ' +
    'emheap.snapshot({heap: true}) (or downloadSnapshot("heapsnapshot"), which does)');
}

// Generator of the file's text in chunks of about CHUNK_CHARS.
function* heapSnapshotChunks(snapshot) {
  var heap = snapshot.heap;
  if (!heap || !heap.blocks || !heap.edgeCounts) throw missingHeap();
  var blocks = heap.blocks;
  var count = blocks.address.length;
  var groups = heap.groups.length;
  var first = groups + 1;
  var nodeCount = first + count;
  if (heap.edgeCounts.length !== nodeCount) throw new Error('emheap snapshot: heap.edgeCounts does not match its nodes');

  var strings = [''];
  var stringIds = new Map([['', 0]]);
  function str(s) {
    var id = stringIds.get(s);
    if (id === undefined) {
      id = strings.length;
      strings.push(s);
      stringIds.set(s, id);
    }
    return id;
  }
  var siteName = new Map();
  (snapshot.sites || []).forEach(function (s) { siteName.set(s.id, s.key || UNATTRIBUTED); });

  var parts = [];
  var size = 0;
  function push(s) {
    parts.push(s);
    size += s.length;
  }
  function take() {
    var s = parts.join('');
    parts = [];
    size = 0;
    return s;
  }

  push('{"snapshot":' + JSON.stringify({
    meta: {
      node_fields: NODE_FIELDS,
      node_types: [NODE_TYPES, 'string', 'number', 'number', 'number', 'number', 'number'],
      edge_fields: EDGE_FIELDS,
      edge_types: [EDGE_TYPES, 'string_or_number', 'node'],
      trace_function_info_fields: ['function_id', 'name', 'script_name', 'script_id', 'line', 'column'],
      trace_node_fields: ['id', 'function_info_index', 'count', 'size', 'children'],
      sample_fields: ['timestamp_us', 'last_assigned_id'],
      location_fields: ['object_index', 'script_id', 'line', 'column'],
    },
    node_count: nodeCount,
    edge_count: heap.edges.length,
    trace_function_count: 0,
  }) + ',\n"nodes":[');

  // the root, then the groups: synthetic, even ids, no size
  push([SYNTHETIC, str(''), 2, 0, heap.edgeCounts[0], 0, 0].join(','));
  for (var g = 0; g < groups; g++) {
    push(',\n' + [SYNTHETIC, str(heap.groups[g].name), 2 * (g + 2), 0, heap.edgeCounts[g + 1], 0, 0].join(','));
  }
  for (var k = 0; k < count; k++) {
    if (k % STEP_NODES === STEP_NODES - 1) yield '';
    var name = siteName.get(blocks.site[k]);
    push(',\n' + [NATIVE, str(name === undefined ? 'site ' + blocks.site[k] : name), blocks.id[k], blocks.size[k],
      heap.edgeCounts[first + k], 0, 0].join(','));
    if (size >= CHUNK_CHARS) yield take();
  }
  push('],\n"edges":[');
  var e = 0;
  for (var v = 0; v < nodeCount; v++) {
    if (v % STEP_NODES === STEP_NODES - 1) yield '';
    for (var i = 0; i < heap.edgeCounts[v]; i++, e++) {
      var to = heap.edges[e];
      if (!(to >= 0 && to < nodeCount)) throw new Error('emheap snapshot: heap edge to node ' + to + ' of ' + nodeCount);
      push((e ? ',\n' : '') + ELEMENT + ',' + i + ',' + to * F);
    }
    if (size >= CHUNK_CHARS) yield take();
  }
  push('],\n"trace_function_infos":[],\n"trace_tree":[],\n"samples":[],\n"locations":[],\n"strings":[');
  for (var s = 0; s < strings.length; s++) {
    push((s ? ',\n' : '') + JSON.stringify(strings[s]));
    if (size >= CHUNK_CHARS) yield take();
  }
  push(']}\n');
  yield take();
}

function toHeapSnapshot(snapshot) {
  return Array.from(heapSnapshotChunks(snapshot)).join('');
}

module.exports = { heapSnapshotChunks: heapSnapshotChunks, toHeapSnapshot: toHeapSnapshot };
