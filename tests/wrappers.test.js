// wrappers.test.js -- model/wrappers.js without emcc (tests/e2e/wrappers.test.js
// runs it on a compiled program): wrapper lists and name matching, the C++
// standard library, LAYER_RULE at its thresholds, and removing the layer
// from hand-made snapshots (merging, what is recorded, idempotence, "none",
// and the raw sites of model/finish.js that merge by stack id).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { parseWrapperList, matcher, isStandardLibrary, detectLayer, LAYER_SHARE, LAYER_CALLERS } =
  require('../model/wrappers');
const { finishSnapshot } = require('../model/finish');
const { makeSnapshot, summary } = require('./lib/fixtures');

const counters = (liveBytes, liveBlocks) => ({ liveBytes, liveBlocks, totalAllocs: liveBlocks + 1, totalBytes: liveBytes + 10, peakLiveBytes: liveBytes });
const snap = (frames, sites) => Object.assign(makeSnapshot(), { frames, sites, heapGrowth: [], summary: summary() });
const leaves = (s) => s.sites.map((x) => s.frames[x.stack[0]] ? s.frames[x.stack[0]].name : '');

test('parseWrapperList: comma lists, nested arrays, "none"', () => {
  assert.deepEqual(parseWrapperList('l_alloc,luaM_*'), { names: ['l_alloc', 'luaM_*'], detect: true });
  assert.deepEqual(parseWrapperList(['l_alloc', ['luaM_*, l_alloc'], '']), { names: ['l_alloc', 'luaM_*'], detect: true });
  assert.deepEqual(parseWrapperList('none'), { names: [], detect: false });
  assert.deepEqual(parseWrapperList(' none , pool_get'), { names: ['pool_get'], detect: false });
  assert.deepEqual(parseWrapperList(undefined), { names: [], detect: true }, 'nothing said: detection alone');
});

test('matcher: exact names, globs (other characters literal), C++ names with or without parameters', () => {
  const is = matcher(['l_alloc', 'luaM_*', 'Pool::get', 'a.b*']);
  assert.ok(is('l_alloc') && is('luaM_') && is('luaM_realloc_'));
  assert.ok(is('Pool::get(unsigned long)') && is('Pool::get'), 'the text without its parameter list');
  assert.ok(is('luaM_grow(int)'), 'globs too');
  assert.ok(!is('l_alloc_x') && !is('my_luaM_x') && !is('Pool::getter(int)') && !is('Pool::get2'));
  assert.ok(is('a.b.c') && !is('axb'), '"." is not a regular-expression wildcard');
  assert.ok(!is(undefined) && !is(3));
  assert.equal(matcher([])('anything'), false);
});

test('isStandardLibrary: mangled and demangled std:: functions, not the app\'s that return std types', () => {
  for (const name of [
    '_ZNSt3__26vectorIiNS_9allocatorIiEEE21__push_back_slow_pathIRKiEEvOT_',
    '_ZNKSt3__212basic_stringIcNS_11char_traitsIcEENS_9allocatorIcEEE4sizeEv', // a const member
    '_ZSt11make_uniqueI3FooJEENSt3__210unique_ptrIT_NS1_14default_deleteIS3_EEEEDpOT0_',
    'void std::__2::vector<int, std::__2::allocator<int>>::__push_back_slow_path<int const&>(int const&)',
    'std::__2::basic_string<char>::__grow_by(unsigned long, unsigned long)',
    'std::__2::function<void ()>::operator()() const',
  ]) assert.equal(isStandardLibrary(name), true, name);
  for (const name of [
    'std::__2::vector<int, std::__2::allocator<int>> make_list<int>()', // the app's, returning a std type
    'std::__2::pair<int, int> Map::find(std::__2::basic_string<char> const&) const',
    '_Z9make_listIiENSt3__26vectorIT_NS0_9allocatorIS2_EEEEv', // the same, mangled
    'mystd::alloc(int)', 'make_tree', undefined,
  ]) assert.equal(isStandardLibrary(name), false, String(name));
});

// 2 x LAYER_CALLERS sites allocating through `wrap`, from `callers` functions
// (a frame per site: no two stacks alike), `pad` frames between; `others`
// sites allocating themselves, from main; `recursive`: one layer site's
// `wrap` is called by `wrap`. (LAYER_MIN_SITES, not exported, is 8 <= 16.)
function layered({ callers = LAYER_CALLERS, others = 0, recursive = false, pad = [] } = {}) {
  const frames = [{ name: 'wrap', offset: 1 }, { name: 'main', offset: 2 }, { name: 'wrap', offset: 3 }];
  const padIdx = pad.map((name, i) => frames.push({ name, offset: 10 + i }) - 1);
  const sites = [];
  const n = 2 * LAYER_CALLERS;
  for (let i = 0; i < n; i++) {
    const caller = frames.push({ name: `caller${i % callers}`, offset: 100 + i }) - 1;
    const stack = [0, ...(recursive && i === 0 ? [2] : []), ...padIdx, caller, 1];
    sites.push(Object.assign({ id: i + 1, key: `wrap+0x1`, stack }, counters(16, 1)));
  }
  for (let j = 0; j < others; j++) {
    const own = frames.push({ name: `own${j}`, offset: 1000 + j }) - 1;
    sites.push(Object.assign({ id: n + j + 1, key: `own${j}+0x${(1000 + j).toString(16)}`, stack: [own, 1] }, counters(8, 1)));
  }
  return snap(frames, sites);
}
const never = () => false;

test('LAYER_RULE: LAYER_SHARE of the sites, just met and just missed', () => {
  const n = 2 * LAYER_CALLERS;
  // the most sites of their own the layer's n sites can stand beside: n >= LAYER_SHARE * (n + others)
  let most = 0;
  while (n >= LAYER_SHARE * (n + most + 1)) most++;
  assert.deepEqual(detectLayer(layered({ others: most }), never), ['wrap']);
  assert.deepEqual(detectLayer(layered({ others: most + 1 }), never), []);
});

test('LAYER_RULE: LAYER_CALLERS different functions within three frames above, just met and just missed', () => {
  // [wrap, caller, main]: main, two frames above, is one of the different functions
  assert.deepEqual(detectLayer(layered({ callers: LAYER_CALLERS - 1 }), never), ['wrap']);
  assert.deepEqual(detectLayer(layered({ callers: LAYER_CALLERS - 2 }), never), []);
  // two frames between: they count, the callers are still within three (main is not)
  // (then p goes too: above it q, the callers and main are LAYER_CALLERS again)
  assert.deepEqual(detectLayer(layered({ callers: LAYER_CALLERS - 2, pad: ['p', 'q'] }), never), ['wrap', 'p']);
  assert.deepEqual(detectLayer(layered({ callers: LAYER_CALLERS - 3, pad: ['p', 'q'] }), never), []);
  // three frames between: the callers are out of reach
  assert.deepEqual(detectLayer(layered({ callers: 2 * LAYER_CALLERS, pad: ['p', 'q', 'r'] }), never), []);
});

test('LAYER_RULE: a function that calls itself there is not a layer; layers peel one function at a time', () => {
  assert.deepEqual(detectLayer(layered(), never), ['wrap']);
  assert.deepEqual(detectLayer(layered({ recursive: true }), never), [], 'the same, with one site\'s wrap called by wrap');
  // [wrap, p, caller]: wrap first, then p, whose callers are the same many
  assert.deepEqual(detectLayer(layered({ pad: ['p'] }), never), ['wrap', 'p']);
  // what is declared is looked past, not found again
  assert.deepEqual(detectLayer(layered({ pad: ['p'] }), (name) => name === 'wrap'), ['p']);
});

// l_alloc at two offsets under luaM_realloc_: the two stacks differ only in the layer
function lua() {
  const frames = [{ name: 'l_alloc', offset: 1 }, { name: 'l_alloc', offset: 2 }, { name: 'luaM_realloc_', offset: 3 },
    { name: 'parse', offset: 4 }, { name: 'load', offset: 5 }, { name: 'main', offset: 6 }];
  const s = snap(frames, [
    Object.assign({ id: 1, key: 'l_alloc+0x1', stack: [0, 2, 3, 5] }, counters(100, 1)),
    Object.assign({ id: 2, key: 'l_alloc+0x2', stack: [1, 2, 3, 5] }, counters(50, 2)),
    Object.assign({ id: 3, key: 'l_alloc+0x1', stack: [0, 4, 5] }, counters(30, 1)),
    Object.assign({ id: 4, key: 'luaM_realloc_+0x3', stack: [2] }, counters(20, 1)), // the layer alone: it stays
    Object.assign({ id: 0, key: '', stack: [] }, counters(5, 1)),
  ]);
  s.heapGrowth = [{ fromBytes: 1, toBytes: 2, siteId: 2 }];
  return s;
}

test('declared names leave the leaf end; sites that become one stack are one, their counters summed', () => {
  const s = lua();
  const before = structuredClone(s);
  const r = finishSnapshot(s, {wrappers: parseWrapperList('l_alloc,luaM_*')});
  // (5 sites: too few for detection)
  assert.deepEqual(r.wrappers, { declared: ['l_alloc', 'luaM_*'], detected: [] });
  // sites 1 and 2: parse<main both, 100+50 bytes; site 3: load<main; sorted by live bytes
  assert.deepEqual(r.sites.map((x) => [x.id, x.key, leaves(r)[r.sites.indexOf(x)], x.liveBytes, x.liveBlocks]),
    [[1, 'parse+0x4', 'parse', 150, 3], [3, 'load+0x5', 'load', 30, 1], [4, 'luaM_realloc_+0x3', 'luaM_realloc_', 20, 1], [0, '', '', 5, 1]]);
  const merged = r.sites[0];
  assert.equal(merged.totalAllocs, (1 + 1) + (2 + 1));
  assert.equal(merged.totalBytes, (100 + 10) + (50 + 10));
  assert.equal(r.heapGrowth[0].siteId, 1, 'what pointed at site 2 points at the site it became');
  assert.equal(r.frames, s.frames, 'frames are shared');
  assert.deepEqual(s, before, 'the snapshot given is not changed');
});

test('applied again to its own result, nothing changes; "none" keeps the layer and is recorded', () => {
  const once = finishSnapshot(lua(), {wrappers: parseWrapperList('l_alloc,luaM_*')});
  assert.equal(finishSnapshot(once, {wrappers: parseWrapperList('l_alloc,luaM_*')}), once);
  assert.equal(finishSnapshot(once, {wrappers: parseWrapperList('')}), once);
  const found = finishSnapshot(layered(), {wrappers: parseWrapperList('')});
  assert.deepEqual(found.wrappers, { declared: [], detected: ['wrap'] });
  assert.ok(leaves(found).every((n) => /^caller\d$/.test(n)), leaves(found).join(' '));
  assert.equal(found.sites[0].key, `${leaves(found)[0]}+0x${found.frames[found.sites[0].stack[0]].offset.toString(16)}`);
  assert.equal(finishSnapshot(found, {wrappers: parseWrapperList('')}), found);
  // "none": the layer that would be found stays, and the file says detection was off
  const kept = finishSnapshot(layered(), {wrappers: parseWrapperList('none')});
  assert.deepEqual(kept.wrappers, { declared: [], detected: [], detect: false });
  assert.ok(leaves(kept).includes('wrap'));
  assert.equal(finishSnapshot(kept, {wrappers: parseWrapperList('')}), kept, 'off where it was taken: off wherever it is read');
  // "none" with names: those go, nothing is detected
  const some = finishSnapshot(lua(), {wrappers: parseWrapperList('none,l_alloc')});
  assert.deepEqual(some.wrappers, { declared: ['l_alloc'], detected: [], detect: false });
  assert.deepEqual(leaves(some).sort(), ['', 'load', 'luaM_realloc_', 'luaM_realloc_']);
});

test('C++ standard library frames at the leaf end always go, counted', () => {
  const frames = [{ name: 'void std::__2::vector<int, std::__2::allocator<int>>::__push_back_slow_path<int>(int&&)', offset: 1 },
    { name: 'add_item(int)', offset: 2 }, { name: 'main', offset: 3 }];
  const r = finishSnapshot(snap(frames, [Object.assign({ id: 1, key: 'x', stack: [0, 1, 2] }, counters(40, 1))]),
    {wrappers: parseWrapperList('none')});
  assert.deepEqual(r.wrappers, { declared: [], detected: [], standardLibrary: 1, detect: false });
  assert.equal(r.sites[0].key, 'add_item(int)+0x2');
});

test('finishSnapshot of a raw snapshot (it carries rawStackIds): sites of one stack id are one, and lose the id', () => {
  const frames = [{ name: 'draw', offset: 1 }, { name: 'main', offset: 2 }];
  const raw = () => Object.assign(snap(frames, [
    Object.assign({ id: 1, key: 'draw+0x1', stack: [0, 1] }, counters(10, 1)),
    Object.assign({ id: 2, key: 'draw+0x1', stack: [0, 1] }, counters(30, 2)),
    Object.assign({ id: 3, key: 'main+0x2', stack: [1] }, counters(5, 1)),
  ]), { rawStackIds: [7, 7, 8] });
  const f = finishSnapshot(raw());
  // sites 1 and 2 (stack id 7): 10+30 bytes, 1+2 blocks; sorted by live bytes
  assert.deepEqual(f.sites.map((x) => [x.id, x.liveBytes, x.liveBlocks]), [[1, 40, 3], [3, 5, 1]]);
  assert.equal(f.rawStackIds, undefined);
  assert.equal(f.wrappers, undefined, 'no layer: nothing said');
  // with a layer removed too: the stack ids still go
  const g = finishSnapshot(raw(), { wrappers: parseWrapperList('draw') });
  assert.deepEqual(g.sites.map((x) => [x.key, x.liveBytes]), [['main+0x2', 45]]);
  assert.equal(g.rawStackIds, undefined);
  // a finished file (no stack ids): one site per site, as the file has them, the snapshot itself
  const file = raw();
  delete file.rawStackIds;
  assert.equal(finishSnapshot(file), file);
  assert.equal(file.sites.length, 3);
});

test('matcher: a C++ name matches without its parameter list, found from the end (anonymous namespaces, function types)', () => {
  const {matcher} = require('../model/wrappers');
  assert.ok(matcher(['(anonymous namespace)::pool_alloc'])('(anonymous namespace)::pool_alloc(unsigned long)'));
  assert.ok(matcher(['Pool<void (int)>::get'])('Pool<void (int)>::get(unsigned long) const'));
  assert.ok(matcher(['Pool<int>::get'])('Pool<int>::get(unsigned long)'));
  assert.ok(!matcher(['(anonymous namespace)'])('(anonymous namespace)::pool_alloc(unsigned long)'));
  assert.ok(matcher(['pool_*'])('pool_alloc(int)'));
});
