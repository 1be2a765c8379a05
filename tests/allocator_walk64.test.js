// allocator_walk64.test.js -- capture/allocator_walk.js on a hand-built
// wasm64 dlmalloc heap above 4 GiB: 8-byte chunk heads and links, the
// malloc_state laid out as dlmalloc.c's struct is with 8-byte size_t and
// pointers (its offsets written here from that struct, not taken from
// capture/layout_generated.js), a free chunk of more than 4 GiB, and seg
// behind each lock: none, 6.x's 40-byte pthread mutex, 3.1.6's 48-byte
// one. Every chunk walked and the free bins read must give the plan's
// numbers. And an emmalloc heap above 4 GiB. (The memory is a 4.3 GiB
// ArrayBuffer: its pages are never touched but where the heap lies.)
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {walkAllocator, findDlmallocState} = require('../capture/allocator_walk');

const GIB4 = 2 ** 32;
const DATA = [1024, 4096];
const STATE = 1024;
// struct malloc_state, wasm64: smallmap, treemap (4 bytes each), then
// dvsize, topsize, least_addr, dv, top, trim_check, release_checks, magic,
// smallbins[66], treebins[32], footprint, max_footprint, footprint_limit
// (8 bytes each), mflags (4), the lock, seg
const S = {dvsize: 8, topsize: 16, least: 24, dv: 32, top: 40, magic: 64, smallbins: 72, treebins: 600, footprint: 856, mflags: 880};
const SEG_AT = {none: 888, pthread6: 928, pthread3: 936};
const TOP_FOOT = 72; // pad_request(sizeof(msegment)) 40 + MIN_CHUNK_SIZE 32

function memory(bytes) {
  const view = new DataView(new ArrayBuffer(bytes));
  const put = (a, v) => { view.setUint32(a, v % GIB4, true); view.setUint32(a + 4, Math.floor(v / GIB4), true); };
  const get = (a) => view.getUint32(a, true) + view.getUint32(a + 4, true) * GIB4;
  return {view, put, get};
}

// The plan: chunks from the heap base (in use, free, one free chunk of
// more than 4 GiB), then top, then TOP_FOOT_SIZE.
const BIG_FREE = GIB4 + 4096;
const CHUNKS = [{size: 48, flag: true}, {size: 64, free: true}, {size: 32}, {size: BIG_FREE, free: true}, {size: 40, flag: true}];
const TOPSIZE = 1024;

function heap(lock) {
  const heapBase = GIB4 + 65536;
  const segSize = CHUNKS.reduce((a, c) => a + c.size, 0) + TOPSIZE + TOP_FOOT;
  const m = memory(heapBase + segSize + 4096);
  let at = heapBase;
  let prevInUse = true;
  const starts = [];
  for (const c of CHUNKS) {
    starts.push(at);
    m.put(at + 8, c.size + (c.free ? 0 : 2) + (prevInUse ? 1 : 0) + (c.flag ? 4 : 0));
    if (c.free) m.put(at + c.size, c.size); // the next chunk's prev_foot
    prevInUse = !c.free;
    at += c.size;
  }
  const top = at;
  m.put(top + 8, TOPSIZE + 1);
  m.put(top + TOPSIZE + 8, TOP_FOOT);
  const w = (offset, v) => m.put(STATE + offset, v);
  w(S.topsize, TOPSIZE);
  w(S.least, heapBase);
  w(S.top, top);
  w(S.magic, 0x5858585858);
  w(S.footprint, segSize);
  m.view.setUint32(STATE + S.mflags, lock === 'none' ? 0 : 2, true);
  if (lock !== 'none') m.view.setUint32(STATE + 888 + 4, 42, true); // a mutex held by thread 42
  // the free bins: 64 bytes in small bin 8 (a ring of one from its
  // header, the chunk at smallbins[16]); 4 GiB + 4 KiB in tree bin 31
  // (2^24 and more), the bin's root, its own ring, its parent the slot
  const header = STATE + S.smallbins + 2 * 8 * 8;
  const small = starts[1];
  m.put(header + 16, small); m.put(header + 24, small);
  m.put(small + 16, header); m.put(small + 24, header);
  m.view.setUint32(STATE, 1 << 8, true); // smallmap
  const slot = STATE + S.treebins + 31 * 8;
  const large = starts[3];
  m.put(slot, large);
  m.put(large + 16, large); m.put(large + 24, large); m.put(large + 48, slot);
  m.view.setUint32(STATE + 4, 2 ** 31, true); // treemap: bin 31
  const seg = STATE + SEG_AT[lock];
  m.put(seg, heapBase);
  m.put(seg + 8, segSize);
  return {view: m.view, heapBase, breakNow: heapBase + segSize, seg, starts};
}

test('dlmalloc, wasm64: a heap above 4 GiB with a free chunk of more than 4 GiB, every chunk walked and through the bins', () => {
  for (const lock of Object.keys(SEG_AT)) {
    const h = heap(lock);
    assert.deepEqual(findDlmallocState(h.view, DATA, h.heapBase, h.breakNow, 8), [STATE, h.seg + 48], lock);
    assert.equal(findDlmallocState(h.view, DATA, h.heapBase, h.breakNow), null, `${lock}: not a wasm32 state`);
    const flagged = [];
    const chunks = walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA, null, 'chunks',
      (q, size) => flagged.push([q, size]), 8);
    assert.equal(chunks.error, undefined, lock);
    const plan = {freeBytes: 64 + BIG_FREE, freeBlocks: 2, largestFreeBytes: BIG_FREE, topFreeBytes: TOPSIZE, inUseBytes: 48 + 32 + 40};
    for (const [k, v] of Object.entries(plan)) assert.equal(chunks[k], v, `${lock}: ${k} (chunks)`);
    assert.equal(chunks.inUseBlocks, 3);
    assert.equal(chunks.overheadBytes, TOP_FOOT);
    assert.deepEqual(flagged, [[h.starts[0], 48], [h.starts[4], 40]]);
    const bins = walkAllocator(h.view, 'dlmalloc', h.heapBase, h.breakNow, DATA, null, null, null, 8);
    assert.equal(bins.how, 'bins', bins.error);
    for (const [k, v] of Object.entries(plan)) assert.equal(bins[k], v, `${lock}: ${k} (bins)`);
  }
});

test('dlmalloc, wasm64: a broken ring or head gives {error}', () => {
  const h = heap('none');
  const view = h.view;
  view.setUint32(h.starts[3] + 16, 12345, true); // the big chunk's fd
  assert.match(walkAllocator(view, 'dlmalloc', h.heapBase, h.breakNow, DATA, null, null, null, 8).error, /free chunk at 4294979641 outside/);
  view.setUint32(h.starts[2] + 8, 8 + 2, true); // a head below the minimum chunk
  assert.match(walkAllocator(view, 'dlmalloc', h.heapBase, h.breakNow, DATA, null, 'chunks', null, 8).error, /has size 8/);
});

// emmalloc, wasm64 (system/lib/emmalloc.c, 4.0.23 and 6.0.8 alike): a
// region's size_t size at both ends (the closing one | 1 when free), at
// least sizeof(Region) = 32 bytes; a block from sbrk opens with a root
// region whose words 1 and 2 (8 bytes each) are next and endPtr, and
// closes with a used sentinel of 32 bytes.
test('emmalloc, wasm64: a block above 4 GiB, regions in use and free, the top span', () => {
  const heapBase = GIB4 + 65536;
  const regions = [{size: 32, root: true}, {size: 48}, {size: 64, free: true}, {size: 32}, {size: 128, free: true}, {size: 32}];
  const end = heapBase + regions.reduce((a, r) => a + r.size, 0);
  const m = memory(end + 4096);
  let at = heapBase;
  for (const r of regions) {
    m.put(at, r.size);
    m.put(at + r.size - 8, r.size + (r.free ? 1 : 0));
    if (r.root) { m.put(at + 8, 0); m.put(at + 16, end); }
    at += r.size;
  }
  const got = walkAllocator(m.view, 'emmalloc', heapBase, end, DATA, null, null, null, 8);
  assert.equal(got.error, undefined);
  assert.deepEqual({free: got.freeBytes, freeBlocks: got.freeBlocks, top: got.topFreeBytes, largest: got.largestFreeBytes,
    inUse: got.inUseBytes, inUseBlocks: got.inUseBlocks, overhead: got.overheadBytes, atBreak: got.topEndsAtBreak},
  {free: 64, freeBlocks: 1, top: 128, largest: 128, inUse: 48 + 32, inUseBlocks: 2, overhead: 32 + 32, atBreak: true});
  // read as wasm32 it is no heap
  assert.ok(walkAllocator(m.view, 'emmalloc', heapBase, end, DATA).error);
  // a closing size that disagrees
  m.put(heapBase + 32 + 48 - 8, 40);
  assert.match(walkAllocator(m.view, 'emmalloc', heapBase, end, DATA, null, null, null, 8).error, /has 48 at the bottom, 40 at the top/);
});
