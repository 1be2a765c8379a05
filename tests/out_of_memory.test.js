// out_of_memory.test.js -- model/out_of_memory.js's lines and
// capture/out_of_memory_moment.js's handling, on hand-made snapshots and a fake
// profiler: the stack from the caller on, one report however many
// failures, and an error in the report never thrown into the program. The
// whole path in real programs and Chromium: tests/e2e/out_of_memory.test.js.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {outOfMemoryLines} = require('../model/out_of_memory');
const {outOfMemoryHandler, callerFrames} = require('../capture/out_of_memory_moment');
const {makeSnapshot} = require('./lib/fixtures');

const MiB = 1024 * 1024;

function oomSnapshot(oom) {
  const snap = makeSnapshot();
  Object.assign(snap.summary, {heapBase: 1 * MiB, breakNow: 15 * MiB, tableBytes: 65536});
  snap.outOfMemory = Object.assign({how: 'abort', requestedBytes: 0, neededMemoryBytes: 16 * MiB + 65536,
    memoryBytes: 16 * MiB, memoryLimitBytes: 16 * MiB, stack: [0, 2, 3, 4, 5]}, oom);
  return snap;
}

test('the lines: what could not be met, where, what the memory holds, the sites by share', () => {
  const lines = outOfMemoryLines(oomSnapshot());
  assert.equal(lines[0], 'out of memory: the wasm memory (16.00 MiB, its limit) could not grow to 16.06 MiB: Emscripten aborted the program');
  assert.equal(lines[1], '  the allocation: leak_memory app.c:42 < parse_chunk parser.c:7 < load_level < main app.c:100 < ...');
  assert.equal(lines[2], "  wasm memory 16.00 MiB: 1.00 MiB static data and stacks, 5.79 KiB live in 10 blocks, 64.00 KiB emheap's " +
    "tables, 13.93 MiB free or the allocator's own, 1.00 MiB never handed to the allocator");
  assert.equal(lines[3], '  top functions by live bytes (5 functions):');
  assert.equal(lines[4], '     69.0%    4.00 KiB  leak_memory app.c < parse_chunk parser.c < load_level < main app.c');
  const bySite = outOfMemoryLines(oomSnapshot(), 'site');
  assert.equal(bySite[3], '  top sites by live bytes (5 sites):');
  assert.equal(bySite[4], '     69.0%    4.00 KiB  leak_memory app.c:42 < parse_chunk parser.c:7 < load_level < main app.c:100');
  assert.equal(lines.length, 4 + 4, 'sites with no live bytes are left out');
  const grown = outOfMemoryLines(oomSnapshot({how: 'null', requestedBytes: 123456, neededMemoryBytes: 0, memoryLimitBytes: 2048 * MiB}));
  assert.equal(grown[0], 'out of memory: a request of 123,456 bytes returned NULL (wasm memory 16.00 MiB, its limit 2.00 GiB)');
  assert.deepEqual(outOfMemoryLines(makeSnapshot()), [], 'nothing for another snapshot');
});

test("the failed allocation's stack starts at its caller: the allocator's own frames go", () => {
  const frames = ['sbrk', 'dlmalloc', 'malloc', '_Znwm', 'make_node', 'main'].map((name) => ({name}));
  assert.deepEqual(callerFrames([0, 1, 2, 3, 4, 5], frames), [4, 5]);
  assert.deepEqual(callerFrames([4, 5], frames), [4, 5], 'no allocator frame: kept whole');
  const unnamed = [{name: 'wasm-function[3]'}, {name: 'wasm-function[9]'}];
  assert.deepEqual(callerFrames([0, 1], unnamed), [0, 1]);
  // a worker's start-up JS at the root end goes; a page's JS caller stays
  const onWorker = [{name: 'malloc', funcIndex: 1}, {name: 'leak', funcIndex: 2}, {name: 'run', funcIndex: 3},
    {name: 'self.onmessage', file: 'app.worker.js'}, {name: 'MessagePort.<anonymous>', file: 'app.worker.js'}];
  assert.deepEqual(callerFrames([0, 1, 2, 3, 4], onWorker, true), [1, 2]);
  assert.deepEqual(callerFrames([0, 1, 2, 3, 4], onWorker, false), [1, 2, 3, 4]);
  // cleaned by the runtime's function range already: a wrapper's name
  // further down (an allocator<T>::allocate at -O0) is the program's frame
  const layered = ['make_node', 'std::__2::allocator<int>::allocate(unsigned long)', 'main'].map((name) => ({name}));
  assert.deepEqual(callerFrames([0, 1, 2], layered, false, true), [0, 1, 2]);
  assert.deepEqual(callerFrames([0, 1, 2], layered, false, false), [2], 'by name alone');
});

// A profiler whose snapshot is `snapshot`, and what its parts were asked.
function fakeProfiler(snapshot, over) {
  const said = [];
  const saved = [];
  const table = {frames: snapshot.frames, stacks: [null, {frames: [0, 2, 3, 4]}], capture: () => 7, resolve: (ref) => (ref === 7 ? 1 : 0)};
  const p = Object.assign({
    api: {},
    settings: {config: () => ({outOfMemoryReport: true})},
    taker: {table: () => table, snapshot: () => snapshot, attached: () => true, modeNow: () => 'exact'},
    files: {saveSnapshotNow: (format, snap) => { saved.push([format, snap]); return 'f.json'; }},
  }, over);
  const host = {err: (t) => said.push(t), buffer: () => new ArrayBuffer(4096), heapMax: () => 16 * MiB};
  return {p, host, said, saved};
}

test('the first out-of-memory is reported and saved, later ones are not', () => {
  const snapshot = makeSnapshot();
  Object.assign(snapshot.summary, {heapBase: MiB, breakNow: 4 * MiB, tableBytes: 0});
  const {p, host, said, saved} = fakeProfiler(snapshot);
  const handle = outOfMemoryHandler(p, host);
  handle('null', 100, null);
  handle('null', 200, null);
  assert.equal(saved.length, 1);
  assert.equal(saved[0][0], 'speedscope');
  assert.equal(p.api.lastOutOfMemory, snapshot);
  assert.deepEqual(snapshot.outOfMemory, {how: 'null', requestedBytes: 100, alignment: 0, neededMemoryBytes: 0, memoryBytes: 4096,
    memoryLimitBytes: 16 * MiB, stack: [0, 2, 3, 4]});
  assert.equal(said.length, 1);
  assert.match(said[0], /^emheap: out of memory: a request of 100 bytes returned NULL/);
  assert.match(said[0], /\nemheap: {3}the allocation: leak_memory app.c:42 < parse_chunk parser.c:7 < load_level < main app.c:100\n/);
});

test('turned off: nothing; a report that fails says so in a line and never throws', () => {
  const off = fakeProfiler(makeSnapshot(), {settings: {config: () => ({outOfMemoryReport: false})}});
  outOfMemoryHandler(off.p, off.host)('abort', 1, null);
  assert.deepEqual([off.said, off.saved], [[], []]);
  const failing = fakeProfiler(makeSnapshot(), {taker: {attached: () => true, modeNow: () => 'exact', table: () => { throw new Error('memory gone'); }}});
  assert.doesNotThrow(() => outOfMemoryHandler(failing.p, failing.host)('abort', 1, null));
  assert.deepEqual(failing.said, ['emheap: out of memory, and no report could be made: memory gone']);
});
