// snapshot.test.js -- the raw snapshot read from a runtime state
// (capture/raw_snapshot.js) and its finishing pass (model/finish.js): naming the
// frames (model/frame_names.js; also what the page does to a snapshot taken
// before the module's debug info arrived, tests/e2e/browser.test.js),
// merging the sites of one stack, the order of sites.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {nameFrames} = require('../model/frame_names');
const {finishSnapshot} = require('../model/finish');
const {placeSites} = require('../harness/fake_sites');

const completeFrames = nameFrames;

const info = {
  functionName: (i) => ({7: 'leak_memory', 9: 'main'})[i] || null,
  sourceLines: {lookup: (offset) => (offset === 0x1fb ? {file: 'leaky.c', line: 34} : null)},
};

test('placeholder wasm names get the real name; wasm offsets get file and line', () => {
  const snap = {sites: [{id: 1, stack: [0, 1]}], frames: [
    {name: 'wasm-function[7]', module: 'app.wasm', funcIndex: 7, offset: 0x1fb},
    {name: 'wasm-function[9]', module: 'app.wasm', funcIndex: 9}, // known by its function: no offset
  ]};
  completeFrames(snap, info);
  assert.deepEqual(snap.frames, [
    {name: 'leak_memory', module: 'app.wasm', funcIndex: 7, offset: 0x1fb, file: 'leaky.c', line: 34},
    {name: 'main', module: 'app.wasm', funcIndex: 9},
  ]);
  assert.deepEqual(snap.sites, [{id: 1, stack: [0, 1]}], 'sites untouched');
});

test('frames that already have names or lines, JS frames and unknown functions are kept', () => {
  const frames = [
    {name: 'draw', module: 'app.wasm', funcIndex: 7, offset: 0x1fb, file: 'game.c', line: 3},
    {name: 'onclick', file: 'http://h/', line: 1, col: 8},
    {name: 'wasm-function[12]', module: 'app.wasm', funcIndex: 12, offset: 0x10},
    {name: '(stack truncated)', url: '', wasm: false},
  ];
  const snap = completeFrames({sites: [], frames: frames.map((f) => ({...f}))}, info);
  assert.deepEqual(snap.frames, frames);
  // no debug info at all: nothing changes
  assert.deepEqual(completeFrames({sites: [], frames: frames.map((f) => ({...f}))}, {}).frames, frames);
});

test("a DWARF line filed under another function than the frame's is not given to the frame", () => {
  // binaryen (Emscripten 4.0.23, -O2) moves code without a record of the
  // call: its rows can name another function's line (symbolize/dwarf.js).
  const dwarf = {lookup: (offset) => ({
    0x10: {file: 'app.cpp', line: 64, function: 'use_new_array'},
    0x20: {file: 'c++/v1/__vector/vector.h', line: 452, function: 'push_back'},
    0x30: {file: 'app.cpp', line: 41, function: 'use_string'},
    0x40: {file: 'app.cpp', line: 59, function: 'main'},
    0x50: {file: 'app.cpp', line: 7, function: 'helper'},
  })[offset] || null};
  const frames = [
    {name: 'use_string(int)', offset: 0x10}, {name: 'use_vector(int)', offset: 0x20},
    {name: 'use_string(int)', offset: 0x30}, {name: '__original_main', offset: 0x40},
    {name: 'wasm-function[3]', offset: 0x50}, // nothing to compare with: kept
  ];
  const snap = completeFrames({sites: [], frames: frames.map((f) => ({...f}))}, {sourceLines: dwarf});
  assert.deepEqual(snap.frames.map((f) => f.line), [undefined, undefined, 41, 59, 7]);
  assert.deepEqual(snap.frames.map((f) => f.file), [undefined, undefined, 'app.cpp', 'app.cpp', 'app.cpp']);
});

// A runtime state in a plain buffer (capture/layout.js offsets): the given
// sites, JS stack references as the runtime stores them.
function stateWithSites(sites) {
  const layout = require('../capture/layout');
  const buffer = new ArrayBuffer(32768 + sites.length * layout.SITE_SIZE + 4096);
  const view = new DataView(buffer);
  const ptr = 1024;
  const S = layout.STATE;
  view.setUint32(ptr + S.magic, layout.MAGIC, true);
  view.setUint32(ptr + S.layout_version, layout.LAYOUT_VERSION, true);
  view.setUint32(ptr + S.mode, layout.MODE_EXACT, true);
  view.setUint32(ptr + S.counters + 96, sites.length, true); // siteCount
  const siteAt = placeSites(view, ptr, sites.length, 32768);
  sites.forEach((s, i) => {
    const at = siteAt(i);
    view.setFloat64(at + 8, s.liveBytes, true);
    view.setFloat64(at + 16, s.liveBytes, true);
    view.setFloat64(at + 24, s.liveBytes, true);
    view.setFloat64(at + 32, s.liveBlocks, true);
    view.setFloat64(at + 40, s.liveBlocks, true);
    view.setUint32(at + 48, s.ref ? layout.STACK_JS : 0, true);
    view.setUint32(at + 52, s.ref || 0, true);
  });
  return {buffer, ptr};
}

test('JS sites whose raw stacks clean to the same frames are one site; others stay apart', () => {
  const {buildSnapshot} = require('../capture/raw_snapshot');
  const {StackTable} = require('../capture/stack_table');
  const stacks = new StackTable('x.wasm');
  // Pure JS under node: no wasm frame, so both clean to the same (empty)
  // stack although their raw stacks differ.
  const fromA = (function a() { return stacks.capture(); })();
  const fromB = (function b() { return stacks.capture(); })();
  assert.notEqual(fromA, fromB, 'two raw stacks, two references');
  assert.equal(stacks.resolve(fromA), stacks.resolve(fromB), 'one stack once cleaned');
  assert.equal(stacks.resolve(0), 0, 'reference 0: no stack');
  assert.equal(stacks.resolve(1e6), 0, 'a reference this table never made: no stack');
  const {buffer, ptr} = stateWithSites([
    {liveBytes: 0, liveBlocks: 0}, // site 0, unattributed, never used
    {ref: fromA, liveBytes: 100, liveBlocks: 1},
    {ref: fromB, liveBytes: 50, liveBlocks: 2},
    {ref: 1e6, liveBytes: 7, liveBlocks: 1}, // unknown reference: unattributed
  ]);
  const raw = buildSnapshot(buffer, ptr, stacks, {source: '', preRunDone: true});
  assert.deepEqual(raw.sites.map((s, i) => [s.id, raw.rawStackIds[i]]), [[1, stacks.resolve(fromA)], [2, stacks.resolve(fromA)], [3, 0]],
    'raw: one site per runtime site, with its stack id beside it');
  const snap = finishSnapshot(raw);
  assert.equal(snap.sites.length, 2);
  assert.equal(snap.rawStackIds, undefined, 'stack ids are not in a finished snapshot');
  assert.deepEqual(snap.sites.map((s) => [s.id, s.liveBytes, s.liveBlocks, s.totalBytes]), [[1, 150, 3, 150], [3, 7, 1, 7]]);
  assert.equal(snap.sites[1].key, '(unattributed)');
});

test("the stack table's chain of a stack is model/grouping.js's: call sites of one function are one, a recursion apart", () => {
  const {StackTable} = require('../capture/stack_table');
  const {functionChain} = require('../model/grouping');
  const t = new StackTable('app.wasm');
  const wasm = (funcIndex, offset, name, recursive = false) => t.internFrame({wasm: true, url: 'wasm:', funcIndex, offset, name, recursive});
  const stack = (...frames) => t.internStack(frames);
  const a = stack(wasm(7, 0x10, 'grow'), wasm(9, 0x90, 'main'));
  const b = stack(wasm(7, 0x20, 'grow'), wasm(9, 0x94, 'main')); // other call sites of the same functions
  const c = stack(wasm(7, 0x10, 'grow', true), wasm(9, 0x90, 'main')); // grow called itself
  const d = stack(t.internFrame({wasm: false, url: 'http://h/page.js', line: 3, col: 1, name: 'grow'}), wasm(9, 0x90, 'main')); // a script's grow
  assert.notEqual(a, b, 'two stacks');
  assert.equal(t.functionChain(a), t.functionChain(b));
  assert.notEqual(t.functionChain(a), t.functionChain(c));
  assert.notEqual(t.functionChain(a), t.functionChain(d));
  assert.equal(t.functionChain(a), functionChain(t.stacks[a].frames, (i) => t.frames[i]));
  assert.equal(t.functionChain(0), '', 'no stack');
});

test("a worker's chain of functions, from its words: a function by its index, at any offset; a recursion apart; nothing interned", () => {
  const {workerFunctionChain} = require('../capture/raw_snapshot');
  const layout = require('../capture/layout');
  // (function, offset) pairs, root first
  const words = (...pairs) => new Uint32Array(pairs.flat());
  const a = workerFunctionChain(words([3, 0x300], [7, 0x10]), 'app.wasm');
  assert.equal(a, workerFunctionChain(words([3, 0x310], [7, 0x20]), 'app.wasm'), 'other call sites of the same functions');
  assert.notEqual(a, workerFunctionChain(words([3, 0x300], [layout.recursiveWord(7), 0x10]), 'app.wasm'));
  assert.notEqual(a, workerFunctionChain(words([3, 0x300], [8, 0x10]), 'app.wasm'));
  assert.notEqual(a, workerFunctionChain(words([layout.FRAME_JS, 0], [3, 0x300], [7, 0x10]), 'app.wasm'));
});

test('a snapshot built in steps (snapshotAsync, downloads) is the snapshot built at once, and yields often', () => {
  const {buildSnapshot, snapshotSteps} = require('../capture/raw_snapshot');
  const {StackTable} = require('../capture/stack_table');
  const stacks = new StackTable('x.wasm');
  const refs = [0, (function a() { return stacks.capture(); })(), (function b() { return stacks.capture(); })()];
  // 100,000 sites in hash-table order: sizes shuffled, some stacks shared
  const sites = [{liveBytes: 0, liveBlocks: 0}];
  for (let i = 1; i < 100000; i++) sites.push({liveBytes: (i * 7919) % 100003, liveBlocks: 1 + (i % 3), ref: i % 50 === 0 ? refs[i % 3] : 0});
  const {buffer, ptr} = stateWithSites(sites);
  const info = {source: '', preRunDone: true};
  const atOnce = buildSnapshot(buffer, ptr, stacks, info);
  const steps = snapshotSteps(buffer, ptr, stacks, info);
  const first = steps.next();
  assert.equal(first.value.summary.siteCount, 100000, 'the first step has read the tables');
  // The heap may change after the first step: the snapshot is of that moment.
  new Uint8Array(buffer, 8192).fill(0xff);
  let next = first;
  let yields = 0;
  while (!(next = steps.next()).done) yields++;
  const stepped = next.value;
  assert.ok(yields >= 10, `${yields} steps for 100,000 sites`);
  assert.deepEqual({...stepped, capturedAt: 0}, {...atOnce, capturedAt: 0});
  // Copied into a copy area made and touched beforehand (a page's way): the
  // same snapshot; an area too small for the tables is left unused.
  const layout = require('../capture/layout');
  const {buffer: buffer2, ptr: ptr2} = stateWithSites(sites);
  const area = require('../capture/block_copy').copyArea(new DataView(buffer2), ptr2);
  let touches = 0;
  for (const _ of area.touchSteps()) touches++;
  assert.ok(area.sites.length >= 100000 * layout.SITE_SIZE, `copy area of ${area.sites.length} bytes`);
  assert.ok(touches >= 1, 'the area is touched in steps');
  const viaArea = buildSnapshot(buffer2, ptr2, stacks, info, area);
  assert.deepEqual({...viaArea, capturedAt: 0}, {...atOnce, capturedAt: 0});
  const small = {sites: new Uint8Array(64), pool: new Uint8Array(64)};
  assert.deepEqual({...buildSnapshot(buffer2, ptr2, stacks, info, small), capturedAt: 0}, {...atOnce, capturedAt: 0});
  assert.ok(small.sites.every((b) => b === 0), 'a small area is not written');
  const rawCount = stepped.sites.length;
  const rawBytes = stepped.sites.reduce((a, x) => a + x.liveBytes, 0);
  const finished = finishSnapshot(stepped); // (changes the raw sites: they are its own)
  assert.ok(finished.sites.length < rawCount, 'the sites of one stack merged');
  assert.equal(finished.sites.reduce((a, x) => a + x.liveBytes, 0), rawBytes);
  for (let i = 1; i < finished.sites.length; i++) {
    const a = finished.sites[i - 1];
    const b = finished.sites[i];
    assert.ok(a.liveBytes > b.liveBytes || (a.liveBytes === b.liveBytes && (a.totalBytes > b.totalBytes || a.id < b.id)), `order at ${i}`);
  }
});

// The page's way (capture/snapshot_taker.js): the heap read at once, the
// snapshot finished, its frames named, only once the module's debug info
// is in.
test('snapshotInSlices reads the heap at once and finishes, naming the frames once, when the debug info is in', async () => {
  const {snapshotTaker} = require('../capture/snapshot_taker');
  let loaded = false;
  const waiting = [];
  const debugInfo = {
    load() {}, loaded: () => loaded, whenLoaded: (fn) => (loaded ? fn() : waiting.push(fn)),
    sourceLines: () => (loaded ? info.sourceLines : null), functionName: (i) => (loaded ? info.functionName(i) : null),
    allocTypeName: () => null, readOnlyData: () => ({unknown: 'not here'}),
  };
  const host = {buffer: () => state.buffer, stateAddress: () => state.ptr, runtimeInitialized: () => true, onWorker: false,
    pthreads: () => ({structSize: 0, threads: []}), wasmBinaryFile: () => 'app.wasm', wasmBinary: () => undefined};
  const taker = snapshotTaker(host, {env: {source: () => 'app.js'}, debugInfo, contexts: {contexts: null},
    settings: {config: () => ({}), wrapperList: () => ({names: [], detect: true})},
    timeline: () => null, markRanges: () => null, sliceMs: 5, nextTask: (fn) => setTimeout(fn, 0)});
  // a stack of the table: leak_memory (unnamed yet, wasm-function[7]) called by main
  const table = taker.table();
  const frame = (funcIndex, offset) => table.internFrame({wasm: true, url: 'wasm:', funcIndex, offset, name: `wasm-function[${funcIndex}]`});
  const ref = table.newNode(0, 0);
  table.nodeStack[ref] = table.internStack([frame(7, 0x1fb), frame(9, 0x300)]);
  const state = stateWithSites([{liveBytes: 0, liveBlocks: 0}, {ref, liveBytes: 100, liveBlocks: 1}, {ref, liveBytes: 50, liveBlocks: 1}]);
  const building = taker.snapshotInSlices({}, true);
  state.buffer = new ArrayBuffer(8); // read at the call: what the memory holds later is not the snapshot's
  let finished = null;
  building.then((s) => { finished = s; });
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(finished, null, 'not finished before the debug info is in');
  loaded = true;
  waiting.splice(0).forEach((fn) => fn());
  const snap = await building;
  assert.deepEqual(snap.sites.map((s) => [s.liveBytes, s.stack.map((i) => snap.frames[i].name)]), [[150, ['leak_memory', 'main']]]);
  assert.deepEqual(snap.frames[snap.sites[0].stack[0]], {name: 'leak_memory', module: 'app.wasm', funcIndex: 7, offset: 0x1fb,
    file: 'leaky.c', line: 34});
  assert.equal(snap.rawStackIds, undefined);
  assert.equal(table.frames[snap.sites[0].stack[0]].name, 'wasm-function[7]', "the table's frames are not renamed");
});

test('sortSteps: a stable sort in steps, equal to Array.prototype.sort', () => {
  const {sortSteps} = require('../model/sliced_sort');
  for (const n of [0, 1, 2, 15, 16, 17, 31, 33, 100, 1000, 50021]) {
    const a = Array.from({length: n}, (_, i) => ({k: (i * 7919) % 37, i}));
    const want = a.slice().sort((x, y) => x.k - y.k);
    const steps = sortSteps(a, (x, y) => x.k - y.k, 1000);
    let count = 0;
    while (!steps.next().done) count++;
    assert.ok(a.every((x, i) => x === want[i]), `n=${n}`);
    if (n >= 50000) assert.ok(count > 100, `${count} steps`);
  }
  // an array in order costs one pass, and that pass yields as the sort does
  const sorted = Array.from({length: 1000}, (_, i) => i);
  const steps = sortSteps(sorted, (x, y) => x - y, 10);
  let count = 0;
  while (!steps.next().done) count++;
  assert.ok(count >= 99 && count <= 100, `${count} steps for 1,000 in order`);
  assert.ok(sorted.every((x, i) => x === i));
});

test('liveHeaviestFirstSteps: live sites heaviest first, ties in snapshot order, in steps', () => {
  const {liveHeaviestFirst, liveHeaviestFirstSteps} = require('../model/site_counters');
  const sites = Array.from({length: 20000}, (_, i) => ({id: i, liveBytes: (i * 7919) % 23}));
  const want = sites.filter((x) => x.liveBytes > 0).sort((a, b) => b.liveBytes - a.liveBytes);
  const steps = liveHeaviestFirstSteps(sites);
  let count = 0;
  let next;
  while (!(next = steps.next()).done) count++;
  assert.deepEqual(next.value.map((x) => x.id), want.map((x) => x.id));
  assert.ok(count >= 20, `${count} steps for 20,000 sites`);
  assert.deepEqual(liveHeaviestFirst(sites).map((x) => x.id), want.map((x) => x.id));
  assert.deepEqual(liveHeaviestFirst(undefined), []);
});

test('ShardedMap: get, set, has and size as a Map, for strings and any numbers', () => {
  const {ShardedMap} = require('../model/sharded_map');
  const m = new ShardedMap();
  const plain = new Map();
  const keys = [];
  for (let i = 0; i < 30000; i++) keys.push(`12,${i % 97},${i}`, i, i * 2654435761.5, -i, 2 ** 52 + i);
  keys.push('', 0, -0, NaN, 'NaN', '0');
  for (const [i, k] of keys.entries()) {
    m.set(k, i);
    plain.set(k, i);
  }
  m.set('12,5,5', 'again');
  plain.set('12,5,5', 'again');
  assert.equal(m.size, plain.size);
  for (const k of keys) assert.equal(m.get(k), plain.get(k), `key ${String(k)}`);
  assert.equal(m.has('nope'), false);
  assert.equal(m.get(1.25), undefined);
  const sizes = m.shards.map((x) => x.size);
  assert.ok(Math.max(...sizes) < 4 * plain.size / m.shards.length, `shards ${Math.min(...sizes)}..${Math.max(...sizes)}`);
});
