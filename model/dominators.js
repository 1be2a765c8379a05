// dominators.js -- the dominator tree of a graph and the retained size of
// each node: what Chrome DevTools computes for a heap snapshot (its
// HeapSnapshot.ts uses Lengauer-Tarjan too), computed here for the C heap.
//
// Node v is dominated by d if every path from the root to v passes d; the
// retained size of d is its own size plus that of every node it dominates:
// the bytes that would be freed with d.
//
// Graph: n nodes 0..n-1, root `root`; the successors of v are
// targets[start[v] .. start[v] + count[v]). Everything in typed arrays,
// iterative (no recursion: a linked list of a million blocks is a path a
// million deep).
'use strict';

var runSteps = require('./steps').runSteps;

// -> Int32Array idom: the immediate dominator of each node, -1 for the
// root and for nodes the root does not reach. Lengauer and Tarjan's
// algorithm, the simple version (path compression only), O(E log V).
// Work done between two yields of the steps below (loop turns; a turn is
// a few array reads): ~5-10 ms in V8.
var STEP_WORK = 200000;

function* immediateDominatorsSteps(n, root, start, count, targets) {
  var work = 0;
  var dfnum = new Int32Array(n).fill(-1); // DFS number, -1 = unreached
  var vertex = new Int32Array(n);         // DFS number -> node
  var parent = new Int32Array(n).fill(-1);
  var reached = 0;
  // iterative DFS in preorder: stack of (node, next edge)
  var stackNode = new Int32Array(n);
  var stackEdge = new Int32Array(n);
  var sp = 0;
  dfnum[root] = reached;
  vertex[reached++] = root;
  stackNode[0] = root;
  stackEdge[0] = start[root];
  sp = 1;
  while (sp > 0) {
    if (++work === STEP_WORK) { work = 0; yield; }
    var v = stackNode[sp - 1];
    var e = stackEdge[sp - 1];
    if (e < start[v] + count[v]) {
      stackEdge[sp - 1] = e + 1;
      var w = targets[e];
      if (dfnum[w] < 0) {
        dfnum[w] = reached;
        vertex[reached++] = w;
        parent[w] = v;
        stackNode[sp] = w;
        stackEdge[sp] = start[w];
        sp++;
      }
    } else {
      sp--;
    }
  }
  // predecessors of the reached nodes (reverse graph, CSR)
  var predCount = new Int32Array(n);
  yield;
  for (var a = 0; a < n; a++) {
    if (++work >= STEP_WORK) { work = 0; yield; }
    if (dfnum[a] < 0) continue;
    for (var x = start[a], xe = start[a] + count[a]; x < xe; x++) predCount[targets[x]]++;
  }
  var predStart = new Int32Array(n + 1);
  for (var b = 0; b < n; b++) predStart[b + 1] = predStart[b] + predCount[b];
  var preds = new Int32Array(predStart[n]);
  var fill = predStart.slice(0, n);
  for (var c = 0; c < n; c++) {
    if (++work >= STEP_WORK) { work = 0; yield; }
    if (dfnum[c] < 0) continue;
    for (var y = start[c], ye = start[c] + count[c]; y < ye; y++) preds[fill[targets[y]]++] = c;
  }

  var semi = new Int32Array(n);     // semidominator, as a DFS number
  var ancestor = new Int32Array(n).fill(-1);
  var label = new Int32Array(n);
  var idom = new Int32Array(n).fill(-1);
  var samedom = new Int32Array(n).fill(-1);
  var bucketHead = new Int32Array(n).fill(-1); // bucket lists, linked through bucketNext
  var bucketNext = new Int32Array(n).fill(-1);
  yield;
  for (var i = 0; i < n; i++) {
    semi[i] = dfnum[i];
    label[i] = i;
  }
  yield;
  var path = new Int32Array(n); // for the iterative compression

  // The node of least semidominator on the forest path above v (compressed).
  function evaluate(v) {
    if (ancestor[v] < 0) return v;
    // collect the path up to the forest root, then compress top-down
    var len = 0;
    var u = v;
    while (ancestor[ancestor[u]] >= 0) {
      path[len++] = u;
      u = ancestor[u];
    }
    for (var k = len - 1; k >= 0; k--) {
      var p = path[k];
      var anc = ancestor[p];
      if (semi[label[anc]] < semi[label[p]]) label[p] = label[anc];
      ancestor[p] = ancestor[anc];
    }
    return label[v];
  }

  for (var num = reached - 1; num >= 1; num--) {
    if (++work >= STEP_WORK) { work = 0; yield; }
    var node = vertex[num];
    var par = parent[node];
    var s = dfnum[par];
    for (var q = predStart[node]; q < predStart[node + 1]; q++) {
      var pred = preds[q];
      var sPrime = dfnum[pred] <= dfnum[node] ? dfnum[pred] : semi[evaluate(pred)];
      if (sPrime < s) s = sPrime;
    }
    semi[node] = s;
    var sv = vertex[s];
    bucketNext[node] = bucketHead[sv];
    bucketHead[sv] = node;
    ancestor[node] = par; // link
    for (var m = bucketHead[par]; m >= 0; m = bucketNext[m]) {
      var yv = evaluate(m);
      if (semi[yv] === semi[m]) idom[m] = par;
      else samedom[m] = yv;
    }
    bucketHead[par] = -1;
  }
  for (var k2 = 1; k2 < reached; k2++) {
    var nd = vertex[k2];
    if (samedom[nd] >= 0) idom[nd] = idom[samedom[nd]];
  }
  idom[root] = -1;
  return {idom: idom, order: vertex.subarray(0, reached)};
}

// -> Float64Array: the retained size of each node (its own size and all
// it dominates). Nodes the root does not reach retain their own size.
// `order` is the DFS preorder of immediateDominators: children after parents.
// As steps (a page runs between them: model/steps.js runSteps).
function immediateDominators(n, root, start, count, targets) {
  return runSteps(immediateDominatorsSteps(n, root, start, count, targets));
}

function retainedSizes(n, selfSize, idom, order) {
  var retained = new Float64Array(n);
  for (var i = 0; i < n; i++) retained[i] = selfSize[i];
  for (var k = order.length - 1; k >= 1; k--) {
    var v = order[k];
    if (idom[v] >= 0) retained[idom[v]] += retained[v];
  }
  return retained;
}

module.exports = {immediateDominators: immediateDominators, immediateDominatorsSteps: immediateDominatorsSteps,
  retainedSizes: retainedSizes};
