// heap_graph.test.js -- model/dominators.js against a brute-force
// definition on random graphs, and model/heap_graph.js on a memory laid
// out by hand: roots, interior pointers, direct and indirect leaks, leaked
// cycles, the skip ranges, retained sizes.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {immediateDominators, retainedSizes} = require('../model/dominators');
const {buildHeapGraph, DIRECT, INDIRECT, REACHABLE} = require('../model/heap_graph');
const {toHeapSection} = require('../model/heap_section');

// xorshift: the same graphs on every run
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

function csr(n, edges) {
  const count = new Int32Array(n);
  for (const [a] of edges) count[a]++;
  const start = new Int32Array(n);
  for (let i = 1; i < n; i++) start[i] = start[i - 1] + count[i - 1];
  const fill = start.slice();
  const targets = new Int32Array(edges.length);
  for (const [a, b] of edges) targets[fill[a]++] = b;
  return {start, count, targets};
}

// d dominates v iff v is unreachable from the root once d is removed.
function bruteIdom(n, root, edges) {
  const reach = (without) => {
    const seen = new Uint8Array(n);
    if (root === without) return seen;
    const stack = [root];
    seen[root] = 1;
    while (stack.length) {
      const v = stack.pop();
      for (const [a, b] of edges) if (a === v && b !== without && !seen[b]) { seen[b] = 1; stack.push(b); }
    }
    return seen;
  };
  const all = reach(-1);
  const doms = Array.from({length: n}, () => []);
  for (let d = 0; d < n; d++) {
    if (!all[d]) continue;
    const r = reach(d);
    for (let v = 0; v < n; v++) if (v !== d && all[v] && !r[v]) doms[v].push(d);
  }
  // the immediate dominator is the dominator dominated by all the others
  return Array.from({length: n}, (_, v) => {
    if (v === root || !all[v]) return -1;
    return doms[v].find((d) => doms[v].every((o) => o === d || doms[d].includes(o)));
  });
}

test('dominators: Lengauer-Tarjan equals the definition on 300 random graphs', () => {
  const random = rng(7);
  for (let g = 0; g < 300; g++) {
    const n = 2 + Math.floor(random() * 25);
    const edges = [];
    const m = Math.floor(random() * n * 3);
    for (let i = 0; i < m; i++) edges.push([Math.floor(random() * n), Math.floor(random() * n)]);
    const {start, count, targets} = csr(n, edges);
    const {idom, order} = immediateDominators(n, 0, start, count, targets);
    assert.deepEqual(Array.from(idom), bruteIdom(n, 0, edges), `graph ${g}: ${JSON.stringify(edges)}`);
    // retained = own size + sizes of the nodes dominated (transitively)
    const self = Float64Array.from({length: n}, (_, i) => i + 1);
    const retained = retainedSizes(n, self, idom, order);
    for (let v = 0; v < n; v++) {
      if (idom[v] < 0 && v !== 0) continue;
      let want = self[v];
      for (let w = 0; w < n; w++) {
        for (let d = idom[w]; d >= 0 && w !== v; d = idom[d]) if (d === v) { want += self[w]; break; }
      }
      assert.equal(retained[v], want, `graph ${g} node ${v}`);
    }
  }
});

test('dominators: a path a million nodes deep (no recursion)', () => {
  const n = 1000000;
  const start = Int32Array.from({length: n}, (_, i) => i);
  const count = Int32Array.from({length: n}, (_, i) => (i < n - 1 ? 1 : 0));
  const targets = Int32Array.from({length: n}, (_, i) => i + 1);
  const {idom, order} = immediateDominators(n, 0, start, count, targets);
  assert.equal(idom[n - 1], n - 2);
  const retained = retainedSizes(n, new Float64Array(n).fill(1), idom, order);
  assert.equal(retained[0], n);
});

// A memory of 64 KiB with blocks placed by hand; pointers written as words.
function memory() {
  const words = new Uint32Array(16384);
  const blocks = {addr: [], size: [], site: [], serial: []};
  const put = (addr, size, site) => {
    blocks.addr.push(addr); blocks.size.push(size); blocks.site.push(site); blocks.serial.push(blocks.addr.length);
    return addr;
  };
  const point = (at, to) => { words[at >>> 2] = to; };
  return {words, blocks, put, point};
}

test('heap graph: roots, interior pointers, direct and indirect leaks, cycles, skipped ranges', () => {
  const m = memory();
  // static data [1024, 2048), a stack [4096, 8192), the heap above 16384
  const A = m.put(20000, 64, 1);   // from a global
  const B = m.put(20100, 32, 2);   // from A, by an interior pointer (A's 2nd word -> B+12)
  const C = m.put(20200, 16, 3);   // from the stack
  const D = m.put(20300, 48, 4);   // directly leaked
  const E = m.put(20400, 24, 5);   // indirectly leaked: only D points to it
  const F = m.put(20500, 40, 6);   // leaked cycle F <-> G
  const G = m.put(20600, 40, 6);
  const H = m.put(20700, 8, 7);    // pointed to only from a skipped range: leaked
  const J = m.put(20800, 16, 8);   // a JS-registered pointer value
  const K = m.put(20900, 16, 9);   // pointed to by B and by C: dominated by the root
  m.point(1024, A);
  m.point(A + 4, B + 12);
  m.point(A + 8, A);               // a pointer to itself: no edge
  m.point(4096 + 40, C);
  m.point(D, E + 23);              // the last byte of E
  m.point(F + 8, G);
  m.point(G, F);
  m.point(1500, H);                // inside the skipped range
  m.point(B + 4, K);
  m.point(C + 4, K);
  m.point(1028, 20064);            // A + 64: one past A's end, inside no block
  const roots = [
    {name: '(C globals)', ranges: [[1024, 2048]]},
    {name: '(C stack: main thread)', ranges: [[4096, 8192]]},
    {name: '(JS roots)', ranges: [], values: [J]},
  ];
  const g = buildHeapGraph(m.words, {addr: Uint32Array.from(m.blocks.addr), size: Uint32Array.from(m.blocks.size),
    site: Uint32Array.from(m.blocks.site), serial: Uint32Array.from(m.blocks.serial)}, roots, [[1400, 1600]]);
  const idx = (addr) => g.blocks.addr.indexOf(addr);
  const node = (addr) => g.firstBlockNode + idx(addr);
  const stateOf = (addr) => g.state[idx(addr)];
  for (const x of [A, B, C, J, K]) assert.equal(stateOf(x), REACHABLE, `block ${x}`);
  assert.equal(stateOf(D), DIRECT);
  assert.equal(stateOf(E), INDIRECT);
  assert.equal(stateOf(F), INDIRECT);
  assert.equal(stateOf(G), INDIRECT);
  assert.equal(stateOf(H), DIRECT);
  assert.deepEqual(g.leaked, {direct: 2, indirect: 3});
  assert.deepEqual(g.groupNames, ['(C globals)', '(C stack: main thread)', '(JS roots)', '(leaked)']);
  const edgesOf = (v) => Array.from(g.targets.subarray(g.edgeStart[v], g.edgeStart[v] + g.edgeCount[v]));
  assert.deepEqual(edgesOf(node(A)), [node(B)], 'no self edge; the interior pointer is an edge');
  assert.deepEqual(edgesOf(1), [node(A)], 'globals: A only (one past the end is no pointer)');
  assert.deepEqual(edgesOf(4), [node(D), node(H), node(F)], '(leaked): direct leaks, then a cycle start');
  // dominators and retained sizes
  assert.equal(g.idom[node(B)], node(A));
  assert.equal(g.idom[node(K)], 0, 'K is reached from the globals and the stack');
  assert.equal(g.retained[node(A)], 64 + 32);
  assert.equal(g.retained[node(D)], 48 + 24);
  assert.equal(g.retained[node(F)], 80, 'the cycle hangs from its first block');
  assert.equal(g.retained[4], 48 + 24 + 8 + 80, '(leaked) retains every leaked byte');
  const total = m.blocks.size.reduce((a, x) => a + x, 0);
  assert.equal(g.retained[0], total);
  // the section's edges: every node's, in node order, and nothing else
  // (the "(leaked)" list the cycle moved is not left behind)
  const section = toHeapSection(g);
  assert.equal(section.edges.length, section.edgeCounts.reduce((a, x) => a + x, 0));
  const inOrder = [];
  for (let v = 0; v < g.nodeCount; v++) inOrder.push(...edgesOf(v));
  assert.deepEqual(Array.from(section.edges), inOrder);
});

test('heap graph: a root range that lies inside a live block keeps that block', () => {
  const m = memory();
  const S = m.put(30000, 4096, 1); // a thread stack Emscripten took from malloc
  const T = m.put(40000, 32, 2);   // pointed to from that stack
  m.point(S + 100, T);
  const g = buildHeapGraph(m.words, {addr: Uint32Array.from(m.blocks.addr), size: Uint32Array.from(m.blocks.size),
    site: Uint32Array.from(m.blocks.site), serial: Uint32Array.from(m.blocks.serial)},
  [{name: '(C stack: thread 2)', ranges: [[S, S + 4096]]}], []);
  assert.deepEqual(Array.from(g.state), [REACHABLE, REACHABLE]);
  assert.equal(g.idom[g.firstBlockNode], 1, 'the stack block hangs from its group');
});

test('heap graph: a root with ignoreTail skips words into a block\'s last bytes, never its start', () => {
  const m = memory();
  const A = m.put(30000, 32, 1); // a global points at its last 4 bytes (a dlmalloc chunk header after it)
  const B = m.put(30100, 4, 2);  // a 4-byte block: a global points at its start (Emscripten 4's proxying queue array)
  const C = m.put(30200, 2, 3);  // the same, 2 bytes
  m.point(1024, A + 28);
  m.point(1028, B);
  m.point(1032, C);
  const g = buildHeapGraph(m.words, {addr: Uint32Array.from(m.blocks.addr), size: Uint32Array.from(m.blocks.size),
    site: Uint32Array.from(m.blocks.site), serial: Uint32Array.from(m.blocks.serial)},
  [{name: '(C globals)', ranges: [[1024, 2048]], ignoreTail: 4}], []);
  assert.deepEqual(Array.from(g.state), [DIRECT, REACHABLE, REACHABLE]);
});

test('heap graph in steps, on a copy of the memory: the same graph as at once, with pauses', () => {
  const {buildHeapGraphSteps} = require('../model/heap_graph');
  const heapMemory = require('../model/heap_memory');
  // a list of 100,000 blocks of 16 bytes from a global, and free memory between them
  const n = 100000;
  const words = new Uint32Array((1 << 20) + n * 8);
  const base = 4096;
  const blocks = {addr: new Uint32Array(n), size: new Uint32Array(n).fill(16), site: new Uint32Array(n).fill(1),
    serial: Uint32Array.from({length: n}, (_, i) => i + 1)};
  for (let i = 0; i < n; i++) {
    const addr = base + i * 32; // 16 bytes used, 16 free
    blocks.addr[i] = addr;
    words[addr >>> 2] = i + 1 < n ? base + (i + 1) * 32 : 0;
    words[(addr + 16) >>> 2] = 0xdead; // free memory: never read
  }
  words[256] = base; // the global at 1024
  const roots = [{name: '(C globals)', ranges: [[1024, 2048]]}];
  const whole = buildHeapGraph(words, blocks, roots, []);
  const memory = heapMemory.copyRanges(words.buffer, [[1024, 2048]].concat(Array.from(blocks.addr, (a) => [a, a + 16])));
  assert.equal(memory.words.length, (1024 + n * 16) / 4, 'only the roots and the blocks are copied');
  const steps = buildHeapGraphSteps(memory, blocks, roots, []);
  let pauses = 0;
  let r = steps.next();
  while (!r.done) {
    pauses++;
    r = steps.next();
  }
  assert.ok(pauses >= 4, `${pauses} pauses`);
  assert.deepEqual(Array.from(r.value.retained), Array.from(whole.retained));
  assert.deepEqual(Array.from(r.value.idom), Array.from(whole.idom));
  assert.equal(r.value.retained[r.value.firstBlockNode], n * 16, 'the head retains the list');
  // segments: whole words, merged, ordered; a lookup finds each
  assert.deepEqual(heapMemory.segmentsOf([[10, 13], [12, 21], [40, 41], [0, 2]], 100), [[0, 4], [8, 24], [40, 44]]);
  const m = heapMemory.fromSegments([[8, 16], [40, 4]], new Uint8Array(20));
  assert.deepEqual([0, 8, 20, 23, 40, 44].map((a) => heapMemory.segmentAt(m, a)), [-1, 0, 0, 0, 1, -1]);
});

test('copyForScan: sparse blocks in any order and roots among them; memory made beforehand is used when large enough', () => {
  const heapMemory = require('../model/heap_memory');
  // 24 MB of memory whose every word holds its own index
  const words = new Uint32Array(6 << 20);
  for (let i = 0; i < words.length; i++) words[i] = i;
  // 1,000 blocks of 8 bytes, 20,000 bytes apart (too far to join; the span
  // is too sparse to be copied whole), listed backwards
  const n = 1000;
  const blocks = {addr: new Uint32Array(n), size: new Uint32Array(n).fill(8)};
  for (let i = 0; i < n; i++) blocks.addr[n - 1 - i] = 65536 + i * 20000;
  const roots = [[3000000, 3000100], [100, 200], [65536 + 7 * 20000 + 4, 65536 + 7 * 20000 + 40]];
  const check = (memory) => {
    const segs = heapMemory.segmentList(memory);
    for (let i = 1; i < segs.length; i++) assert.ok(segs[i - 1][0] + segs[i - 1][1] < segs[i][0], 'ordered, apart');
    for (const [lo, hi] of roots.concat(Array.from(blocks.addr, (a) => [a, a + 8]))) {
      for (let a = lo & ~3; a < hi; a += 4) {
        const s = heapMemory.segmentAt(memory, a);
        assert.ok(s >= 0, `address ${a} copied`);
        assert.equal(memory.words[(memory.offsets[s] + a - memory.starts[s]) >>> 2], a >>> 2);
      }
    }
    return segs.length;
  };
  const fresh = heapMemory.copyForScan(words.buffer, blocks, roots);
  assert.equal(check(fresh), n + 2, 'a segment per block, the overlapping root merged, two more roots');
  const area = new Uint8Array(1 << 20);
  const into = heapMemory.copyForScan(words.buffer, blocks, roots, area);
  check(into);
  assert.equal(into.words.buffer, area.buffer, 'the copy is in the memory given');
  const small = heapMemory.copyForScan(words.buffer, blocks, roots, new Uint8Array(64));
  check(small);
  assert.notEqual(small.words.buffer.byteLength, 64, 'too small: a copy of its own');
});

// A wasm64 memory: the heap above 4 GiB, only its segments copied
// (model/heap_memory.js fromSegments with 8-byte pointers), addresses in a
// Float64Array; blocks at the same low 32 bits 4 GiB apart, so that a
// sort or a read of 32 bits would mix them up.
test('heap graph, wasm64: 8-byte pointers above 4 GiB, blocks 4 GiB apart, a low word that alone would point elsewhere', () => {
  const heapMemory = require('../model/heap_memory');
  const G4 = 2 ** 32;
  const data = [1024, 1024 + 64];   // the globals
  const low = [8192, 8192 + 256];   // blocks below 4 GiB
  const high = [G4 + 8192, G4 + 8192 + 256]; // and above: the same low words
  const bytes = new Uint8Array(64 + 256 + 256);
  const view = new DataView(bytes.buffer);
  const at = (a) => (a < low[0] ? a - data[0] : a < high[0] ? 64 + a - low[0] : 320 + a - high[0]);
  const point = (from, to) => {
    view.setUint32(at(from), to % G4, true);
    view.setUint32(at(from) + 4, Math.floor(to / G4), true);
  };
  const A = high[0];        // from a global: a wasm64 pointer whose low word is L's address
  const B = high[0] + 64;   // from A, by an interior pointer
  const L = low[0];         // below 4 GiB, pointed to by nothing: leaked
  const M = low[0] + 64;    // only a 4-byte half of a pointer holds its address: leaked
  point(data[0], A);
  point(A + 8, B + 40);
  view.setUint32(at(A + 16) + 4, M, true); // the high half of the pointer at A + 16: no pointer to M
  const memory = heapMemory.fromSegments([[data[0], 64], [low[0], 256], [high[0], 256]], bytes, 8);
  const blocks = {addr: Float64Array.from([B, M, A, L]), size: Uint32Array.from([48, 32, 64, 32]),
    site: Uint32Array.from([2, 4, 1, 3]), serial: Uint32Array.from([2, 4, 1, 3])};
  const g = buildHeapGraph(memory, blocks, [{name: '(C globals)', ranges: [data]}], []);
  assert.ok(g.blocks.addr instanceof Float64Array);
  assert.deepEqual(Array.from(g.blocks.addr), [L, M, A, B], 'in address order, the high ones after');
  assert.deepEqual(Array.from(g.state), [DIRECT, DIRECT, REACHABLE, REACHABLE]);
  assert.equal(g.retained[g.firstBlockNode + 2], 64 + 48, 'A holds B');
  // the same memory read as wasm32 finds A's low word, L's address
  const as32 = buildHeapGraph(Object.assign({}, memory, {pointerBytes: 4}), blocks, [{name: '(C globals)', ranges: [data]}], []);
  assert.notDeepEqual(Array.from(as32.state), Array.from(g.state));
});
