// allocator_walk.test.js -- capture/allocator_walk.js on hand-built heaps laid
// out as Emscripten's dlmalloc and emmalloc leave them (3.1.6, 4.0.23,
// 5.0.7): the state struct in the static data with each lock layout, one
// and two segments, fenceposts and the top chunk; emmalloc's root and
// sentinel regions, one block and two with foreign memory between; and
// heaps that do not add up, which must give {error}, never a throw.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {walkAllocator, findDlmallocState} = require('../capture/allocator_walk');

const DATA = [1024, 3072]; // the static data: the state / listOfAllRegions live here
const STATE = 1032;
const SEG_WORD = {none: 112, spin: 113, pthread: 118};

function memory(bytes) {
  const view = new DataView(new ArrayBuffer(bytes));
  return {view, put: (a, v) => view.setUint32(a, v >>> 0, true), get: (a) => view.getUint32(a, true)};
}

// Chunks laid one after another from `at`, as dlmalloc keeps them: head =
// size | CINUSE (in use) | PINUSE (previous in use) | FLAG4 (emheap's
// mark, `flag`), a free chunk's size repeated in the next prev_foot.
// Returns the address after the last chunk and whether it was in use.
function putChunks(m, at, chunks, prevInUse = true) {
  for (const c of chunks) {
    m.put(at + 4, c.size | (c.free ? 0 : 2) | (prevInUse ? 1 : 0) | (c.flag ? 4 : 0));
    if (c.free) m.put(at + c.size, c.size);
    prevInUse = !c.free;
    at += c.size;
  }
  return {at, prevInUse};
}

// dlmalloc's bins as init_bins and insert_chunk leave them: every small
// bin's header pointing at itself when empty, each free chunk but dv in
// its bin (small: a ring from the header; large: a trie of rings, a node's
// children in child[0]/child[1], parent at 24), smallmap and treemap.
const SMALLBINS = 10;
const TREEBINS = 76;

function treeIndex(size) {
  const x = size >>> 8;
  if (x === 0) return 0;
  if (x > 0xFFFF) return 31;
  const k = 31 - Math.clz32(x);
  return (k << 1) + ((size >>> (k + 7)) & 1);
}

function linkBins(m, state, free) {
  const header = (i) => state + (SMALLBINS + 2 * i) * 4;
  for (let i = 0; i < 32; i++) { m.put(header(i) + 8, header(i)); m.put(header(i) + 12, header(i)); }
  let smallmap = 0;
  let treemap = 0;
  const nodes = {}; // tree bin -> [node addresses, in the order attached]
  for (const {at, size} of free) {
    if (size < 256) {
      const h = header(size >>> 3);
      const last = m.get(h + 12);
      m.put(last + 8, at); m.put(at + 12, last); m.put(at + 8, h); m.put(h + 12, at);
      smallmap |= 1 << (size >>> 3);
      continue;
    }
    const t = treeIndex(size);
    const slot = state + (TREEBINS + t) * 4;
    const list = nodes[t] || (nodes[t] = []);
    const same = list.find((n) => (m.get(n + 4) & ~7) === size);
    if (same) { // into the ring of the node of its size
      const next = m.get(same + 8);
      m.put(at + 8, next); m.put(at + 12, same); m.put(next + 12, at); m.put(same + 8, at); m.put(at + 24, 0);
      continue;
    }
    m.put(at + 8, at); m.put(at + 12, at); m.put(at + 16, 0); m.put(at + 20, 0);
    if (!list.length) {
      m.put(slot, at);
      m.put(at + 24, slot);
      treemap = (treemap | (1 << t)) >>> 0;
    } else { // the first node with a free child slot
      const parent = list.find((n) => !m.get(n + 16) || !m.get(n + 20));
      m.put(parent + (m.get(parent + 16) ? 20 : 16), at);
      m.put(at + 24, parent);
    }
    list.push(at);
  }
  m.put(state, smallmap);
  m.put(state + 4, treemap);
}

// One segment [heapBase, heapBase + segSize): chunks, then top up to
// TOP_FOOT_SIZE (40) before the end, whose head reads 40 (init_top).
function dlHeap({lock = 'none', heapBase = 4096, segSize = 8192, chunks, dv = -1, foreignAbove = 0}) {
  const m = memory(65536);
  const first = heapBase + ((8 - ((heapBase + 8) & 7)) & 7);
  const starts = [];
  let a = first;
  chunks.forEach((c) => { starts.push(a); a += c.size; });
  const end = putChunks(m, first, chunks);
  const top = end.at;
  const segEnd = heapBase + segSize;
  const topsize = segEnd - 40 - top;
  m.put(top + 4, topsize | 1);
  m.put(top + topsize + 4, 40);
  const w = (i, v) => m.put(STATE + i * 4, v);
  w(2, dv >= 0 ? chunks[dv].size : 0); // dvsize
  w(3, topsize);
  w(4, heapBase); // least_addr
  w(5, dv >= 0 ? starts[dv] : 0); // dv
  w(6, top);
  w(9, 0x58585858); // magic
  w(108, segSize); // footprint
  w(109, segSize);
  w(111, lock === 'none' ? 0 : 2); // mflags: USE_LOCK_BIT
  if (lock === 'pthread') { // a pthread_mutex_t held by thread 42 (type, lock, waiters, prev, next, count)
    [0, 42, 1, 0, 0, 0].forEach((v, i) => w(112 + i, v));
  }
  if (lock === 'spin') w(112, 1);
  linkBins(m, STATE, chunks.map((c, i) => ({at: starts[i], size: c.size, free: c.free && i !== dv})).filter((c) => c.free));
  const seg = SEG_WORD[lock];
  w(seg, heapBase);
  w(seg + 1, segSize);
  w(seg + 2, 0);
  w(seg + 3, 0);
  return {m, view: m.view, heapBase, breakNow: segEnd + foreignAbove, top, topsize, starts, segEnd};
}

const CHUNKS = [
  {size: 32}, {size: 48, free: true}, {size: 24}, {size: 16, flag: true}, {size: 64, free: true}, {size: 40},
];

function sums(r) { return r.inUseBytes + r.freeBytes + r.topFreeBytes + r.overheadBytes; }

test('dlmalloc: one segment, chunks in use and free, the top chunk; found with each lock layout', () => {
  for (const lock of ['none', 'spin', 'pthread']) {
    const h = dlHeap({lock, chunks: CHUNKS, dv: 4});
    assert.deepEqual(findDlmallocState(h.view, DATA, h.heapBase, h.breakNow), [STATE, STATE + (SEG_WORD[lock] + 6) * 4], lock);
    const r = walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA, null, 'chunks');
    assert.equal(r.error, undefined, lock);
    assert.equal(r.allocator, 'dlmalloc');
    assert.equal(r.how, 'chunks');
    assert.equal(r.freeBytes, 48 + 64);
    assert.equal(r.freeBlocks, 2);
    assert.equal(r.inUseBytes, 32 + 24 + 16 + 40);
    assert.equal(r.inUseBlocks, 4);
    // read through the free bins: the same, but for the blocks in use, not counted
    const {inUseBlocks, ...bins} = r;
    assert.deepEqual(walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA), {...bins, how: 'bins'}, lock);
    assert.equal(r.topFreeBytes, h.topsize);
    assert.equal(r.largestFreeBytes, h.topsize);
    assert.equal(r.segments, 1);
    assert.equal(r.topEndsAtBreak, true);
    assert.equal(r.stateAt, STATE);
    assert.equal(sums(r), 8192, 'in use + free + top + TOP_FOOT_SIZE = the segment');
    // the state's address given, as a number or as findDlmallocState's range
    assert.deepEqual(walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA, STATE, 'chunks'), r);
    assert.deepEqual(walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, null, [STATE, STATE + 472], 'chunks'), r);
    // a view that starts off a word boundary is read through a copy of its words
    const shifted = new Uint8Array(h.view.byteLength + 2);
    shifted.set(new Uint8Array(h.view.buffer), 2);
    assert.deepEqual(walkAllocator(new DataView(shifted.buffer, 2), 'dlmalloc', h.heapBase, h.breakNow, DATA, null, 'chunks'), r, lock);
  }
});

// Free chunks in every kind of bin: small bins, a tree bin whose node has
// a ring of two chunks of its size and a child, another tree bin, and dv.
const BINNED = [
  {size: 32}, {size: 48, free: true}, {size: 24}, {size: 304, free: true}, {size: 16}, {size: 304, free: true},
  {size: 40}, {size: 352, free: true}, {size: 32}, {size: 512, free: true}, {size: 24}, {size: 64, free: true}, {size: 16},
];

test('dlmalloc: read through its free bins, a heap gives what the walk of every chunk gives', () => {
  const h = dlHeap({chunks: BINNED, dv: 11});
  const chunks = walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA, null, 'chunks');
  assert.equal(chunks.error, undefined);
  const bins = walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA);
  assert.equal(bins.how, 'bins');
  assert.equal(bins.freeBlocks, 6);
  assert.equal(bins.freeBytes, 48 + 304 + 304 + 352 + 512 + 64);
  assert.equal(bins.largestFreeBytes, Math.max(512, h.topsize));
  const {inUseBlocks, how, ...same} = chunks;
  assert.deepEqual({...bins, how: undefined}, {...same, how: undefined});
  assert.equal(sums(bins), 8192);
});

test('dlmalloc: a small bin whose bit smallmap clears is empty, whatever its header still points at', () => {
  // malloc took the last chunk of bin 6 (48 bytes): dlmalloc cleared the
  // bit and left the header's fd and bk on that chunk, in use now
  const h = dlHeap({chunks: BINNED, dv: 11});
  const taken = h.starts[1];
  h.m.put(taken + 4, 48 | 3);
  h.m.put(h.starts[2] + 4, h.m.get(h.starts[2] + 4) | 1); // the next chunk's PINUSE
  h.m.put(STATE, h.m.get(STATE) & ~(1 << 6));
  assert.equal(h.m.get(STATE + (10 + 2 * 6) * 4 + 8), taken, 'the header still points at it');
  const bins = walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA);
  assert.equal(bins.error, undefined, bins.error);
  const chunks = walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA, null, 'chunks');
  assert.equal(chunks.error, undefined, chunks.error);
  assert.equal(bins.freeBlocks, 5);
  assert.equal(bins.freeBytes, 304 + 304 + 352 + 512 + 64);
  assert.equal(bins.freeBytes, chunks.freeBytes);
  assert.equal(bins.inUseBytes, chunks.inUseBytes);
});

test('dlmalloc: free bins that do not hold together give {error}', () => {
  const at = (i) => dlHeap({chunks: BINNED, dv: 11}).starts[i];
  const treeSlot = (t) => STATE + (76 + t) * 4;
  const cases = {
    'a ring\'s back link wrong': [/broken ring/, (h) => h.m.put(h.starts[5] + 12, h.starts[1])],
    'smallmap with a bin that holds nothing': [/smallmap says small bin 4 holds chunks, and it holds none/,
      (h) => h.m.put(STATE, h.m.get(STATE) | (1 << 4))],
    'treemap without its bins': [/treemap/, (h) => h.m.put(STATE + 4, 0)],
    'a tree in the bin of another size': [/512 bytes in tree bin 3/, (h) => {
      h.m.put(treeSlot(3), h.m.get(treeSlot(2)));
      h.m.put(STATE + 4, h.m.get(STATE + 4) | 8);
    }],
    'a child whose parent is another': [/another parent/, (h) => h.m.put(h.starts[7] + 24, h.starts[9])],
    'a free chunk\'s foot wrong': [/no matching foot/, (h) => h.m.put(h.starts[3] + 304, 8)],
    'a binned chunk in use': [/has head/, (h) => h.m.put(h.starts[1] + 4, 48 | 3)],
    'dv in use': [/has head/, (h) => h.m.put(h.starts[11] + 4, 64 | 3)],
    'a ring that does not come back': [/broken ring|too many/, (h) => h.m.put(h.starts[5] + 8, h.starts[5])],
    'top foot missing': [/top foot/, (h) => h.m.put(h.top + h.topsize + 4, 0)],
  };
  assert.equal(at(3) + 304 + 16, at(5), 'the layout the cases spoil');
  for (const [name, [reason, spoil]] of Object.entries(cases)) {
    const h = dlHeap({chunks: BINNED, dv: 11});
    spoil(h);
    const r = walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA, STATE);
    assert.match(r.error || '', reason, name);
  }
});

test('dlmalloc: a free chunk larger than top is the largest; a 4-aligned heap base (3.1.6 sbrk) starts the first chunk 4 bytes in', () => {
  const h = dlHeap({heapBase: 4100, segSize: 2044, chunks: [{size: 16}, {size: 1600, free: true}, {size: 24}]});
  const r = walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA);
  assert.equal(r.error, undefined);
  assert.equal(h.starts[0], 4104);
  assert.equal(r.largestFreeBytes, 1600);
  assert.equal(r.freeBytes, 1600);
  assert.equal(r.topFreeBytes, h.topsize);
  assert.ok(h.topsize < 1600);
  assert.equal(r.overheadBytes, 4 + 40);
  assert.equal(sums(r), 2044);
});

test('dlmalloc: memory sbrk\'d by someone else above the segment: top no longer ends at the break', () => {
  const h = dlHeap({chunks: CHUNKS, foreignAbove: 4096});
  const r = walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA);
  assert.equal(r.error, undefined);
  assert.equal(r.topEndsAtBreak, false);
  assert.equal(r.topFreeBytes, h.topsize);
});

// Two segments, as sys_alloc leaves them when something else moved the
// break between two of its sbrk calls: add_segment ends the old segment
// with the rest of old top (free), a 24-byte chunk holding the old
// segment's record, and fenceposts (head 7) up to the old end; the new
// segment above the foreign memory holds top.
function twoSegments() {
  const h = dlHeap({segSize: 4096, chunks: [{size: 32}]});
  const m = h.m;
  const oldEnd = 8192;
  // add_segment's arithmetic: rawsp = old_end - (24 + 16 + 7), aligned so that chunk2mem is
  const rawsp = oldEnd - 47;
  const sp = rawsp + ((8 - ((rawsp + 8) & 7)) & 7);
  assert.equal(sp, 8152);
  const oldTop = h.top;
  putChunks(m, oldTop, [{size: sp - oldTop, free: true}, {size: 24}], true);
  const ss = sp + 8;
  m.put(ss, 4096); m.put(ss + 4, 4096); m.put(ss + 8, 0); m.put(ss + 12, 0); // *ss = old m->seg
  for (let p = sp + 24; p + 8 <= oldEnd; p += 4) m.put(p + 4, 7); // fenceposts
  // the new segment, after 512 foreign bytes
  const base = oldEnd + 512;
  const size = 4096;
  const end = putChunks(m, base, [{size: 48}, {size: 80, free: true}, {size: 16}]);
  const top = end.at;
  const topsize = base + size - 40 - top;
  m.put(top + 4, topsize | 1);
  m.put(top + topsize + 4, 40);
  const w = (i, v) => m.put(STATE + i * 4, v);
  w(3, topsize); w(6, top); w(108, 8192);
  w(112, base); w(113, size); w(114, ss); w(115, 0);
  return {...h, breakNow: base + size, top, topsize, oldTop, sp, ss};
}

test('dlmalloc: two segments, the older closed by its segment record and fenceposts', () => {
  const h = twoSegments();
  assert.deepEqual(findDlmallocState(h.view, DATA, h.heapBase, h.breakNow), [STATE, STATE + 118 * 4]);
  const r = walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA);
  assert.equal(r.error, undefined);
  assert.equal(r.segments, 2);
  assert.equal(r.inUseBytes, 32 + 48 + 16, 'the segment record is overhead, not a block');
  assert.equal(r.inUseBlocks, 3);
  assert.equal(r.freeBytes, (h.sp - h.oldTop) + 80);
  assert.equal(r.freeBlocks, 2);
  assert.equal(r.largestFreeBytes, h.sp - h.oldTop);
  assert.equal(r.topFreeBytes, h.topsize);
  assert.equal(r.overheadBytes, 24 + 16 + 40, 'record, fences, top foot');
  assert.equal(sums(r), 8192);
});

test('dlmalloc: onFlagged names every chunk in use with FLAG4 (emheap\'s footers), in address order, in every segment', () => {
  const one = dlHeap({chunks: [{size: 32, flag: true}, {size: 48, free: true}, {size: 24}, {size: 16, flag: true}, {size: 40, flag: true}]});
  const seen = [];
  const r = walkAllocator(one.view, 'dlmalloc', one.heapBase, one.breakNow, DATA, null, 'bins', (q, size) => seen.push([q, size]));
  assert.equal(r.error, undefined);
  assert.equal(r.how, 'chunks', 'a walk of every chunk, whatever was asked');
  assert.deepEqual(seen, [[one.starts[0], 32], [one.starts[3], 16], [one.starts[4], 40]]);
  // two segments: flags in both; the old segment's record is no block
  const two = twoSegments();
  putChunks(two.m, two.heapBase + ((8 - ((two.heapBase + 8) & 7)) & 7), [{size: 32, flag: true}]);
  const newBase = 8192 + 512;
  putChunks(two.m, newBase, [{size: 48, flag: true}, {size: 80, free: true}, {size: 16, flag: true}]);
  const both = [];
  const r2 = walkAllocator(two.view, 'dlmalloc', two.heapBase, two.breakNow, DATA, null, 'chunks', (q, size) => both.push([q, size]));
  assert.equal(r2.error, undefined);
  assert.deepEqual(both.map((b) => b[1]), [32, 48, 16]);
  assert.ok(both.every((b, i) => !i || b[0] > both[i - 1][0]), 'address order');
  // a heap that does not hold together: {error}, whatever was named before
  const bad = dlHeap({chunks: [{size: 32, flag: true}, {size: 24, flag: true}]});
  bad.m.put(bad.starts[1] + 4, 0x7ff8 | 2 | 1 | 4);
  assert.match(walkAllocator(bad.view, 'dlmalloc', bad.heapBase, bad.breakNow, DATA, null, 'chunks', () => {}).error, /runs past/);
});

test('dlmalloc: inconsistent heaps give {error}', () => {
  const cases = {
    'zero size': [/has size 0/, (h) => h.m.put(h.starts[0] + 4, 3)],
    'size off by 8 (walks into a free chunk)': [/PINUSE clear/, (h) => h.m.put(h.starts[0] + 4, 40 | 3)],
    'misaligned top': [/misaligned/, (h) => h.m.put(STATE + 6 * 4, h.top + 4)],
    'size past the segment and the break': [/runs past its segment/, (h) => h.m.put(h.starts[5] + 4, 0x10000 | 2)],
    'free chunk foot wrong': [/no matching foot/, (h) => h.m.put(h.starts[1] + 48, 40)],
    'in-use chunk then PINUSE clear': [/PINUSE clear/, (h) => h.m.put(h.starts[3] + 4, 16 | 2)],
    'top size disagrees with topsize': [/top/, (h) => h.m.put(STATE + 12, h.topsize - 8)],
    'top foot missing': [/top foot/, (h) => h.m.put(h.top + h.topsize + 4, 0)],
    'footprint disagrees': [/footprint/, (h) => h.m.put(STATE + 108 * 4, 4096)],
    'dv not a free chunk': [/dv/, (h) => h.m.put(STATE + 5 * 4, h.starts[0])],
    'segment past the break': [/no malloc_state/, (h) => h.m.put(STATE + 113 * 4, 1 << 20)],
  };
  for (const [name, [reason, spoil]] of Object.entries(cases)) {
    const h = dlHeap({chunks: CHUNKS, dv: 4});
    spoil(h);
    const r = walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA, STATE, 'chunks');
    assert.match(r.error, reason, name);
  }
  // a segment list that loops back on itself
  const h = twoSegments();
  h.m.put(h.ss + 8, h.ss);
  assert.equal(typeof walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA).error, 'string');
  // no state in the data (dlmalloc not initialized), no state at a given address
  const empty = memory(65536);
  assert.equal(findDlmallocState(empty.view, DATA, 4096, 8192), null);
  assert.match(walkAllocator(empty.view, 'dlmalloc', 4096, 8192, DATA).error, /not found/);
  assert.equal(typeof walkAllocator(empty.view, 'dlmalloc', 4096, 8192, DATA, STATE).error, 'string');
});

// emmalloc: regions from the root region at `at`, each with its size at
// the bottom and at the top (| 1 when free), then the end sentinel.
function putRegions(m, at, regions) {
  for (const r of regions) {
    m.put(at, r.size);
    m.put(at + r.size - 4, r.size | (r.free ? 1 : 0));
    at += r.size;
  }
  return at;
}

// A root block: root region (16, or 20 once the first aligned allocation
// pushed its end up), the regions, a sentinel; returns its end.
function putRoot(m, at, regions, next, {rootSize = 20, sentinel = 16} = {}) {
  const end = putRegions(m, at, [{size: rootSize}, ...regions, {size: sentinel}]);
  m.put(at + 4, next);
  m.put(at + 8, end);
  return end;
}

const REGIONS = [{size: 24}, {size: 32, free: true}, {size: 16}, {size: 40}, {size: 876, free: true}];

test('emmalloc: one block from the heap base: root, regions, top free region, sentinel', () => {
  const m = memory(65536);
  const end = putRoot(m, 4096, REGIONS, 0);
  assert.equal(end, 5120);
  const r = walkAllocator(m.view, 'emmalloc', 4096, end, DATA);
  assert.deepEqual(r, {allocator: 'emmalloc', freeBytes: 32, freeBlocks: 1, largestFreeBytes: 876, topFreeBytes: 876,
    inUseBytes: 24 + 16 + 40, inUseBlocks: 3, overheadBytes: 20 + 16, segments: 1, topEndsAtBreak: true});
  assert.equal(sums(r), 1024);
  // a fresh heap (claim_more_memory(3 * sizeof(Region))): root 16, free 16, sentinel 16
  const f = memory(8192);
  putRoot(f, 4096, [{size: 16, free: true}], 0, {rootSize: 16});
  assert.deepEqual(walkAllocator(f.view, 'emmalloc', 4096, 4144, null), {allocator: 'emmalloc', freeBytes: 0, freeBlocks: 0,
    largestFreeBytes: 16, topFreeBytes: 16, inUseBytes: 0, inUseBlocks: 0, overheadBytes: 32, segments: 1, topEndsAtBreak: true});
});

test('emmalloc: the last region in use (no top span), and 4.x malloc_trim\'s longer sentinel', () => {
  const m = memory(65536);
  const end = putRoot(m, 4096, [{size: 24}, {size: 64, free: true}, {size: 40}], 0, {sentinel: 28});
  const r = walkAllocator(m.view, 'emmalloc', 4096, end, DATA);
  assert.equal(r.error, undefined);
  assert.equal(r.topFreeBytes, 0);
  assert.equal(r.topEndsAtBreak, false);
  assert.equal(r.freeBytes, 64);
  assert.equal(r.largestFreeBytes, 64);
  assert.equal(r.overheadBytes, 20 + 28);
});

test('emmalloc: two blocks with foreign sbrk memory between, found through listOfAllRegions', () => {
  const m = memory(65536);
  const end1 = putRoot(m, 4096, [{size: 24}, {size: 100, free: true}], 0);
  const root2 = end1 + 1000; // someone else's sbrk
  const end2 = putRoot(m, root2, [{size: 48}, {size: 16}, {size: 200, free: true}], 4096, {rootSize: 16});
  m.put(2000, 4096); // a stale or unrelated pointer to the old root: a shorter chain
  m.put(2004, 4096 + 20 + 4); // a pointer to a user block's payload: no chain
  m.put(2400, root2); // listOfAllRegions
  const r = walkAllocator(m.view, 'emmalloc', 4096, end2, DATA);
  assert.equal(r.error, undefined);
  assert.equal(r.segments, 2);
  assert.equal(r.inUseBytes, 24 + 48 + 16);
  assert.equal(r.inUseBlocks, 3);
  assert.equal(r.freeBytes, 100, 'the first block\'s last free region ends at its sentinel, not at the break');
  assert.equal(r.freeBlocks, 1);
  assert.equal(r.topFreeBytes, 200);
  assert.equal(r.largestFreeBytes, 200);
  assert.equal(r.overheadBytes, 20 + 16 + 16 + 16);
  assert.equal(sums(r), (end1 - 4096) + (end2 - root2));
  // without the static data the second block cannot be found
  assert.match(walkAllocator(m.view, 'emmalloc', 4096, end2, null).error, /listOfAllRegions/);
  // memory sbrk'd after emmalloc's only block: listOfAllRegions is that block
  const o = memory(65536);
  const end = putRoot(o, 4096, REGIONS, 0);
  o.put(2400, 4096);
  const t = walkAllocator(o.view, 'emmalloc', 4096, end + 4096, DATA);
  assert.equal(t.error, undefined);
  assert.equal(t.topFreeBytes, 0);
  assert.equal(t.freeBytes, 32 + 876);
  assert.equal(t.freeBlocks, 2);
});

test('emmalloc: inconsistent heaps give {error}', () => {
  const cases = {
    'zero size': [/has size 0/, (m) => m.put(4096 + 20, 0)],
    'size past the break': [/runs past its block/, (m) => m.put(4096 + 20, 0x10000)],
    'misaligned size': [/has size 26/, (m) => m.put(4096 + 20, 26)],
    'sizes at the two ends disagree': [/at the bottom/, (m) => m.put(4096 + 20 + 20, 28)],
    'two free regions side by side': [/two free regions/, (m) => putRegions(m, 4096 + 20 + 24 + 32, [{size: 16, free: true}])],
    'sentinel free': [/no sentinel/, (m) => { putRegions(m, 5104 - 876, [{size: 876}]); m.put(5120 - 4, 17); }],
  };
  for (const [name, [reason, spoil]] of Object.entries(cases)) {
    const m = memory(65536);
    putRoot(m, 4096, REGIONS, 0);
    spoil(m);
    const r = walkAllocator(m.view, 'emmalloc', 4096, 5120, DATA);
    assert.match(r.error, reason, name);
  }
  const empty = memory(65536);
  assert.equal(typeof walkAllocator(empty.view, 'emmalloc', 4096, 5120, DATA).error, 'string');
});

test('bad inputs give {error}, never a throw', () => {
  const m = memory(8192);
  assert.equal(typeof walkAllocator(m.view, 'mimalloc', 4096, 5120, DATA).error, 'string');
  assert.equal(typeof walkAllocator(m.view, 'emmalloc', 4096, 1 << 20, DATA).error, 'string');
  assert.equal(typeof walkAllocator(m.view, 'dlmalloc', 5120, 4096, DATA).error, 'string');
  assert.equal(typeof walkAllocator(null, 'dlmalloc', 4096, 5120, DATA).error, 'string');
  assert.equal(findDlmallocState(m.view, [1024, 1 << 20], 4096, 5120), null);
});
