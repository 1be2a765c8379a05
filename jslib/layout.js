// layout.js -- reads the runtime's state out of linear memory, and writes
// the few fields JS may set (mode, sampling interval, seed, paused).
//
// Mirrors runtime/state_layout.h (its version: LAYOUT_VERSION below); the C side pins
// these offsets with static asserts, tests/e2e/runtime.test.js checks that both
// sides read the same numbers. Never calls into wasm. In a threaded program
// (runtime built with -pthread) every read of the tables happens under the
// runtime's own lock (withLock), taken with Atomics on the same word,
// so a snapshot never sees a half-made change.
'use strict';

var copiesWholeSpan = require('../model/heap_memory').copiesWholeSpan;
var allocatorWalk = require('./allocator_walk');

var LAYOUT_VERSION = 21;
var MAGIC = 0x50484d45;

var STATE = {magic: 0, layoutVersion: 4, mode: 8, paused: 12, counters: 16,
  siteChunks: 160, framePool: 176, samplingInterval: 188, blockRegions: 192, blockRegionCount: 196,
  blockCount: 200, allocator: 204, lock: 208, threaded: 212, hugeBlocks: 216, hugeSlots: 220, seed: 224, countSlots: 236, growth: 240, peakEpoch: 4336, peakBreak: 4340,
  heapBase: 4344, sbrkPtrAddr: 4348, blocksAtPeak: 4352, blockSerial: 4356, roots: 4360, countSlotCount: 4364,
  totalAtPeak: 4368, contextChecks: 4376, logGrowths: 4380, recordedBytes: 4384, recordedUsable: 4392,
  recordedAtPeak: 4400, usableAtPeak: 4408, estimates: 4416, estimatesAtPeak: 4448, thinnedAt: 4480,
  unseenFrees: 4488, unseenBytes: 4496, startMs: 4504, markCount: 4512, serialRenumbers: 4516, marks: 4520,
  ageSerial: 12712, agePointCount: 12724, agePoints: 12728, siteBase: 16824, footers: 16876, dlState: 16880, dlSeg: 16884,
  peakSinceMark: 16888, recordedPeak: 16896, tablesAtPeak: 16904, poolRegions: 16912, poolRegionCount: 16916,
  poolObjectCount: 16920, poolHuge: 16924, poolHugeSlots: 16928, pools: 16932, poolCount: 16936, poolMisuse: 16940};
// The block table (runtime/block_table.c): per 4 KiB region, a table of
// 12-byte entries, 8 bytes in: (offset / 4 | site << 10, size | slack << 27,
// serial | sampled << 31), serial 0 = empty; huge blocks in 16-byte slots
// (addr, site | slack << 20, size, serial | sampled << 31), addr 0 = empty.
var REGION_SHIFT = 12;
var ALIGN_SHIFT = 2; // blocks are 4-aligned at least
var OFFSET_MASK = (1 << (REGION_SHIFT - ALIGN_SHIFT)) - 1;
var ENTRY_WORDS = 3;
var BLOCK_SITE_MASK = 0xFFFFF;
var BLOCK_SIZE_MASK = 0x7FFFFFF;
var SITE_SIZE = 184;
var SITE_POOL_AT = 176; // emheap_site.pool
// The site table's chunks (runtime/state_layout.h): chunk 0 holds sites
// 0-255, chunk k >= 1 sites 2^(k+7) to 2^(k+8) - 1.
var SITE_CHUNK0_BITS = 8;
function siteChunk(s) { return (32 - SITE_CHUNK0_BITS) - Math.clz32(s | ((1 << SITE_CHUNK0_BITS) - 1)); }
function siteChunkFirst(k) { return k ? 1 << (k + SITE_CHUNK0_BITS - 1) : 0; }
// A site's lifetime counts (emheap_site.ended_by_age, ended_by_time, temporary)
var AGE_BUCKETS = 8;
var TIME_BUCKETS = 4;
var AGE_POINTS = 1024;
var COUNT_SATURATED = 0xFFFFFFFF;
// ... as one run of 32-bit words at 120: the age buckets, the time buckets, temporary
var LIFETIMES_AT = 120;
var LIFETIME_WORDS = AGE_BUCKETS + TIME_BUCKETS + 1;
var GROWTH_LOG = 64;
var GROWTH_SIZE = 64;
var GROWTH_TOP = 3;
var GROWTH_ESTIMATED = 1;
var MARK_LOG = 128;
var MARK_SIZE = 64;
var MARK_NAME = 48; // bytes, the NUL included
var MODE_EXACT = 1;
var MODE_SAMPLED = 2;
var MODE_OFF = 3;
var STACK_JS = 1;
var STACK_WASM = 3; // a worker's JS stack: (function index, module offset) pairs
var STACK_POOL = 4; // no stack: a pool's chunks (runtime/pools.c)
var FRAME_TRUNCATED = 0xFFFFFFFF;
var FRAME_JS = 0xFFFFFFFE; // in a worker stack's function word: JS code (state_layout.h)
var ALLOCATORS = ['generic', 'dlmalloc', 'emmalloc', 'mimalloc'];

// [name, offset within emheap_counters, byte width]
var COUNTERS = [
  ['liveBytes', 0, 8], ['peakLiveBytes', 8, 8], ['totalBytes', 16, 8],
  ['liveBlocks', 24, 4], ['peakLiveBlocks', 28, 4],
  ['mallocCalls', 32, 8], ['callocCalls', 40, 8], ['reallocCalls', 48, 8],
  ['memalignCalls', 56, 8], ['freeCalls', 64, 8], ['failedAllocs', 72, 8],
  ['invalidFrees', 80, 8], ['sampledAllocs', 88, 8],
  ['siteCount', 96, 4], ['heapGrowths', 100, 4],
  ['lostAllocs', 112, 8], ['lostBytes', 120, 8], ['lostSites', 128, 4],
  ['truncatedStacks', 132, 4], ['tableBytes', 136, 8],
];

function u64(view, at) {
  return view.getUint32(at, true) + view.getUint32(at + 4, true) * 4294967296;
}

// Throws a readable Error if statePtr does not hold a state this code knows.
function checkState(view, statePtr) {
  var magic = view.getUint32(statePtr + STATE.magic, true);
  if (magic !== MAGIC) throw new Error('emheap: the runtime state is not initialized (bad magic)');
  var version = view.getUint32(statePtr + STATE.layoutVersion, true);
  if (version !== LAYOUT_VERSION) {
    throw new Error('emheap: the runtime uses memory layout ' + version +
      ' but this JS library reads layout ' + LAYOUT_VERSION + '; rebuild with one emheap version');
  }
}

// In a threaded program with footers (runtime/footer.h), the allocator's
// heap must hold still while a walk reads its chunks: hold(1) takes
// dlmalloc's mutex, hold(0) lets it go (the runtime's export
// emheap_hold_allocator, a no-op without footers). Set once per realm by
// the page code (jslib/page.js), which has the library's host.
var allocatorHold = null;
function holdAllocatorWith(hold) { allocatorHold = hold; }

// Runs fn() from inside the allocator, which this thread holds (an
// out-of-memory abort inside dlmalloc, jslib/out_of_memory.js): withLock
// then does not take its mutex (it would wait for itself), and waits for
// the runtime's lock a bounded time only: a thread that holds that lock
// while it waits for the allocator (growing a table of emheap's) would
// wait for this one forever.
var allocatorHeldHere = false;
function whileAllocatorHeld(fn) {
  var before = allocatorHeldHere;
  allocatorHeldHere = true;
  try {
    return fn();
  } finally {
    allocatorHeldHere = before;
  }
}
var HELD_SPIN_MS = 1000;

// Runs fn() holding the runtime's lock when the memory is shared (a
// threaded program), else just runs it. The lock is only ever held for a
// few stores by an allocating thread, so spinning is short. With it, the
// allocator's mutex (allocatorHold), taken inside it as the runtime does.
function withLock(buffer, statePtr, fn) {
  if (typeof SharedArrayBuffer === 'undefined' || !(buffer instanceof SharedArrayBuffer) || !statePtr) return fn();
  var word = new Int32Array(buffer, statePtr + STATE.lock, 1);
  var until = allocatorHeldHere ? Date.now() + HELD_SPIN_MS : Infinity;
  while (Atomics.compareExchange(word, 0, 0, 1) !== 0) {
    // another thread is inside an allocation's bookkeeping
    if (until !== Infinity && Date.now() > until) {
      throw new Error('emheap: the runtime\'s lock stayed held for ' + HELD_SPIN_MS / 1000 +
        ' s by a thread that waits for the allocator, which this one holds: not read');
    }
  }
  var held = false;
  try {
    if (allocatorHold && !allocatorHeldHere) {
      allocatorHold(1);
      held = true;
    }
    return fn();
  } finally {
    if (held) allocatorHold(0);
    // 2: a thread waits for the word (runtime/lock.h): wake it
    if (Atomics.exchange(word, 0, 0) === 2) Atomics.notify(word, 0, 1);
  }
}

// A threaded runtime's per-thread counting slots (runtime/thread_counts.h):
// 64 bytes each, [field, offset] of int32/uint32 words added to counters.
var COUNT_SLOT_SIZE = 64;
var COUNT_SLOT_FIELDS = [['liveBytes', 0, 'signed'], ['liveBlocks', 4, 'signed'], ['totalBytes', 8],
  ['mallocCalls', 16], ['callocCalls', 20], ['reallocCalls', 24], ['memalignCalls', 28], ['freeCalls', 32]];

// The counters, with what the threads' slots hold: in a threaded runtime
// the global live values are only a part, kept modulo 2^64 / 2^32, and may
// be below zero for a moment; the sums are clamped at 0 and the peaks are
// at least the live values. Read under the lock (a fold is never half seen).
function readCounters(view, statePtr) {
  var base = statePtr + STATE.counters;
  var out = {};
  COUNTERS.forEach(function (c) {
    out[c[0]] = c[2] === 8 ? u64(view, base + c[1]) : view.getUint32(base + c[1], true);
  });
  var slots = view.getUint32(statePtr + STATE.countSlots, true);
  var slotCount = view.getUint32(statePtr + STATE.countSlotCount, true);
  if (slots && slotCount) {
    out.liveBytes = view.getUint32(base, true) + view.getInt32(base + 4, true) * 4294967296; // signed 64
    out.liveBlocks = view.getInt32(base + 24, true);
    for (var i = 0; i < slotCount; i++) {
      var at = slots + i * COUNT_SLOT_SIZE;
      COUNT_SLOT_FIELDS.forEach(function (f) {
        out[f[0]] += f[2] ? view.getInt32(at + f[1], true) : view.getUint32(at + f[1], true);
      });
    }
    out.liveBytes = Math.max(0, out.liveBytes);
    out.liveBlocks = Math.max(0, out.liveBlocks);
    out.peakLiveBytes = Math.max(out.peakLiveBytes, out.liveBytes);
    out.peakLiveBlocks = Math.max(out.peakLiveBlocks, out.liveBlocks);
  }
  out.heapSize = view.buffer.byteLength;
  // the allocator's memory: [heapBase, break) now, [heapBase, breakAtPeak) at the peak
  out.heapBase = view.getUint32(statePtr + STATE.heapBase, true);
  var sbrkPtr = view.getUint32(statePtr + STATE.sbrkPtrAddr, true);
  out.breakNow = sbrkPtr ? view.getUint32(sbrkPtr, true) : 0;
  out.breakAtPeak = view.getUint32(statePtr + STATE.peakBreak, true);
  out.liveBlocksAtPeak = view.getUint32(statePtr + STATE.blocksAtPeak, true);
  out.totalBytesAtPeak = u64(view, statePtr + STATE.totalAtPeak);
  // what the recorded blocks asked for, and the allocator's rounding of them
  out.requestedLiveBytes = u64(view, statePtr + STATE.recordedBytes);
  out.allocatorRoundingBytes = Math.max(0, u64(view, statePtr + STATE.recordedUsable) - out.requestedLiveBytes);
  out.requestedBytesAtPeak = u64(view, statePtr + STATE.recordedAtPeak);
  out.allocatorRoundingAtPeak = Math.max(0, u64(view, statePtr + STATE.usableAtPeak) - out.requestedBytesAtPeak);
  // the most the recorded blocks ever asked for at once (since the peak's restart)
  out.requestedPeakBytes = u64(view, statePtr + STATE.recordedPeak);
  out.tableBytesAtPeak = u64(view, statePtr + STATE.tablesAtPeak); // emheap's tables then
  var thinnedAt = u64(view, statePtr + STATE.thinnedAt);
  if (thinnedAt) out.thinnedAtBytes = thinnedAt - 1;
  // frees of blocks emheap never saw allocated (runtime/record.c emheap_forget)
  out.unseenFrees = u64(view, statePtr + STATE.unseenFrees);
  out.unseenFreedBytes = u64(view, statePtr + STATE.unseenBytes);
  // the peak restarted at a mark (emheap_restart_peak): the highest since
  var peakSince = view.getUint32(statePtr + STATE.peakSinceMark, true);
  if (peakSince) out.peakSinceMark = peakSince;
  return out;
}

// The sums behind sampled estimates (runtime emheap_estimate_sums), now
// and at the peak, with what the recorded blocks are then: what
// model/estimates.js ratioScales needs. Under the caller's lock.
function readEstimateSums(view, statePtr) {
  function sums(at, recorded, recordedUsable) {
    return {usable: view.getFloat64(at, true), blocks: view.getFloat64(at + 8, true),
      usableActual: u64(view, at + 16), blocksActual: view.getUint32(at + 24, true),
      recorded: recorded === undefined ? view.getUint32(at + 28, true) : recorded, recordedUsable: recordedUsable};
  }
  return {
    now: sums(statePtr + STATE.estimates, view.getUint32(statePtr + STATE.blockCount, true),
      u64(view, statePtr + STATE.recordedUsable)),
    atPeak: sums(statePtr + STATE.estimatesAtPeak, undefined, u64(view, statePtr + STATE.usableAtPeak)),
  };
}

// What the numbers mean: {mode: 'exact' | 'sampled' | 'off' (older files
// say 'exact-js' or 'exact-shadow' for exact), samplingInterval (0 unless
// sampling), interval (what sampling would use), threaded, allocator}.
function readMode(view, statePtr) {
  var mode = view.getUint32(statePtr + STATE.mode, true);
  var name = mode === MODE_OFF ? 'off' : mode === MODE_SAMPLED ? 'sampled' : 'exact';
  var allocator = view.getUint32(statePtr + STATE.allocator, true);
  return {
    mode: name,
    // (exact mode samples too once thinned: summary.thinnedAtBytes)
    samplingInterval: mode === MODE_SAMPLED || u64(view, statePtr + STATE.thinnedAt)
      ? view.getUint32(statePtr + STATE.samplingInterval, true) : 0,
    interval: view.getUint32(statePtr + STATE.samplingInterval, true), // what sampling would use
    threaded: view.getUint32(statePtr + STATE.threaded, true) !== 0,
    allocator: ALLOCATORS[allocator] || 'generic',
    footers: view.getUint32(statePtr + STATE.footers, true) !== 0, // records in the blocks (runtime/footer.h)
  };
}

// Copies the site table (siteCount records) and the frame pool out of
// linear memory: a memcpy taken under the lock, so that the sites can be
// read afterwards a slice at a time while the app runs on, grows or moves
// its tables. The chunks go end to end, so that in the copy site s is at
// s * SITE_SIZE. `into` (optional, from copyArea) is memory made and
// touched beforehand: used when large enough.
//
// Why `into`: a copy of 64 MB of sites took ~4 ms, but into fresh memory
// 225 ms under node and 250-320 ms in headless Chromium, the time the
// kernel takes to give the new pages on first write (measured with 64-byte
// sites). A page
// touches its copy area in slices before it takes the lock.
function copySiteTables(view, statePtr, siteCount, into) {
  var tables = siteTables(view, statePtr, siteCount);
  var length = tables.count * SITE_SIZE;
  var area = into && into.sites.length >= length ? into.sites : new Uint8Array(length);
  for (var k = 0; k < tables.bases.length && siteChunkFirst(k) < tables.count; k++) {
    var first = siteChunkFirst(k);
    var end = Math.min(tables.count, siteChunkFirst(k + 1));
    area.set(new Uint8Array(view.buffer, sitesAt(tables, first), (end - first) * SITE_SIZE), first * SITE_SIZE);
  }
  tables.sites = new DataView(area.buffer, area.byteOffset, length);
  tables.bases = null;
  var used = view.getUint32(statePtr + STATE.framePool + 4, true);
  var pool = view.getUint32(statePtr + STATE.framePool, true);
  var poolTo = into && into.pool.length >= used * 4 ? into.pool : new Uint8Array(used * 4);
  if (pool && used) poolTo.set(new Uint8Array(view.buffer, pool, used * 4));
  tables.pool = new DataView(poolTo.buffer, poolTo.byteOffset, pool ? used * 4 : 0);
  return tables;
}

// The same tables read where they are, not copied: for the thread that
// holds the lock (a growth, a mark, a timeline point: a few sites, or one
// pass that makes nothing per site).
function siteTablesInPlace(view, statePtr) {
  return siteTables(view, statePtr, view.getUint32(statePtr + STATE.counters + SITE_COUNT_AT, true));
}

// Where site s starts in tables.sites: s * SITE_SIZE in a copy, its
// chunk's place in linear memory in place.
function sitesAt(tables, s) {
  return tables.bases ? (tables.bases[siteChunk(s)] + s * SITE_SIZE) >>> 0 : s * SITE_SIZE;
}

// One site's live bytes, its estimated part scaled by `scale` as
// readSite's (model/estimates.js ratioScales' bytes; 1: as they are):
// {bytes, estimated: some of them are}.
function siteLiveBytes(tables, s, scale) {
  var whole = siteRawLiveBytes(tables, s);
  var part = tables.sites.getFloat64(sitesAt(tables, s) + 88, true);
  return {bytes: whole - part + Math.floor(part * scale), estimated: part > 0};
}

// A site's live bytes as the runtime keeps them (estimates not scaled):
// for a pass over every site, which must make no object per site.
function siteRawLiveBytes(tables, s) {
  return tables.sites.getFloat64(sitesAt(tables, s) + 8, true);
}

// A site's bytes (which 0) or blocks (1) ever allocated, as the runtime
// keeps them (estimates in sampled mode).
function siteRawTotals(tables, s, which) {
  return tables.sites.getFloat64(sitesAt(tables, s) + (which ? 32 : 16), true);
}

// The site table as it is in linear memory: {count, peakEpoch, threaded,
// sites (a view of the whole memory), bases (per chunk, as sitesAt reads
// them), pool (the frame pool, in place)}.
function siteTables(view, statePtr, siteCount) {
  var chunks = view.getUint32(statePtr + STATE.siteChunks, true);
  var bases = [];
  for (var k = 0; k < chunks; k++) bases.push(view.getUint32(statePtr + STATE.siteBase + 4 * k, true));
  var pool = view.getUint32(statePtr + STATE.framePool, true);
  var used = view.getUint32(statePtr + STATE.framePool + 4, true);
  return {
    count: chunks ? siteCount : 0,
    peakEpoch: view.getUint32(statePtr + STATE.peakEpoch, true),
    threaded: view.getUint32(statePtr + STATE.threaded, true) !== 0,
    sites: new DataView(view.buffer),
    bases: bases,
    pool: pool && used ? new DataView(view.buffer, pool, used * 4) : new DataView(new ArrayBuffer(0)),
  };
}

// Memory for copySiteTables, sized for the tables as they are now plus an
// eighth (they may grow before the copy), and a generator of steps that
// touch it a few MB at a time: {sites, pool, touchSteps}. With `heap` (a
// snapshot with the heap graph), also memory for copyBlocks (`blocks`) and
// for the memory the scan reads (`memory`, model/heap_memory.js
// copyForScan): the whole memory up to the break, when the live blocks
// fill enough of it that the scan copies it whole (else the copy is
// smaller than the span and made fresh). At 1M blocks these copies took
// 0.6 s of one synchronous step into fresh memory (measured 2026-11-23).
var TOUCH_STEP_BYTES = 4 << 20;
var SITE_COUNT_AT = COUNTERS.filter(function (c) { return c[0] === 'siteCount'; })[0][1];
function copyArea(view, statePtr, heap) {
  var siteCount = view.getUint32(statePtr + STATE.counters + SITE_COUNT_AT, true);
  var used = view.getUint32(statePtr + STATE.framePool + 4, true);
  var slack = function (n) { return Math.ceil(n * 1.125) + 65536; };
  var area = {
    sites: new Uint8Array(slack(siteCount * SITE_SIZE)),
    pool: new Uint8Array(slack(used * 4)),
    blocks: null,
    markBlocks: null, // with marks: the blocks whose ages a snapshot reads (jslib/marks.js)
    memory: null,
  };
  var blockRoom = function (withObjects) {
    return blockArrays(slack(view.getUint32(statePtr + STATE.blockCount, true) +
      (withObjects ? view.getUint32(statePtr + STATE.poolObjectCount, true) : 0)));
  };
  if (view.getUint32(statePtr + STATE.markCount, true) && readMode(view, statePtr).mode !== 'off') area.markBlocks = blockRoom(true);
  if (heap) {
    area.blocks = blockRoom(true);
    var counters = readCounters(view, statePtr);
    if (counters.breakNow && copiesWholeSpan(counters.breakNow - counters.heapBase, counters.liveBytes)) {
      area.memory = new Uint8Array(slack(counters.breakNow));
    }
  }
  area.touchSteps = function* () {
    var parts = [area.sites, area.pool];
    [area.blocks, area.markBlocks].forEach(function (b) { if (b) parts.push(b.addr, b.size, b.site, b.serial); });
    if (area.memory) parts.push(area.memory);
    for (var p = 0; p < parts.length; p++) {
      var a = new Uint8Array(parts[p].buffer, parts[p].byteOffset, parts[p].byteLength);
      for (var at = 0; at < a.length; at += 4096) {
        a[at] = 0; // a write: the page becomes real memory now
        if (at % TOUCH_STEP_BYTES === TOUCH_STEP_BYTES - 4096) yield;
      }
    }
  };
  return area;
}

// The recorded live blocks (every live block in the exact modes), copied
// out of the block table (runtime/block_table.c) under the caller's lock:
// {addr, size, site, serial} Uint32Arrays, in table order. `into`
// (optional, from copyArea): arrays made and touched beforehand, used when
// large enough. weightBit: keep the serial's top bit (the block was
// recorded by sampling: it stands for more than itself). after (optional):
// only the blocks whose serial is above it, in arrays as large as they
// need (a mark reads the blocks made since an earlier one: at 5M live
// blocks, copying them all took most of the mark's 236 ms). withObjects:
// the pools' objects too (runtime/pools.c), after the blocks (they lie
// inside blocks: a reader of addresses wants one or the other). The table is
// read in place: the lock holds it still.
function copyBlocks(view, statePtr, into, weightBit, after, withObjects) {
  var serialMask = weightBit ? 0xFFFFFFFF : 0x7FFFFFFF;
  var n = view.getUint32(statePtr + STATE.blockCount, true) +
    (withObjects ? view.getUint32(statePtr + STATE.poolObjectCount, true) : 0);
  var above = after || 0; // an empty slot's serial is 0, a block's at least 1
  var room = above ? Math.min(n, 4096) : n;
  var out = into && into.addr.length >= room
    ? {addr: into.addr.subarray(0, room), size: into.size.subarray(0, room), site: into.site.subarray(0, room),
      serial: into.serial.subarray(0, room)}
    : blockArrays(room);
  var k = 0;
  var words = new Uint32Array(view.buffer);
  // one set of region tables (block_table.c: the heap's blocks, or the pools' objects)
  var fromTables = function (regionsAt, regionCountAt) {
    var dir = view.getUint32(statePtr + regionsAt, true);
    var regions = dir ? view.getUint32(statePtr + regionCountAt, true) : 0;
    for (var r = 0; r < regions && k < n; r++) {
      var table = words[(dir >>> 2) + r];
      if (!table) continue;
      var base = r << REGION_SHIFT >>> 0;
      var end = (table + 8 >>> 2) + view.getUint16(table, true) * ENTRY_WORDS;
      for (var i = table + 8 >>> 2; i < end && k < n; i += ENTRY_WORDS) {
        if ((words[i + 2] & 0x7FFFFFFF) <= above) continue;
        if (k === room) out = moreRoom(out, room = Math.min(n, room * 2));
        out.addr[k] = base + (words[i] & OFFSET_MASK) * (1 << ALIGN_SHIFT);
        out.site[k] = words[i] >>> (REGION_SHIFT - ALIGN_SHIFT) & BLOCK_SITE_MASK;
        out.size[k] = words[i + 1] & BLOCK_SIZE_MASK;
        out.serial[k] = (words[i + 2] & serialMask) >>> 0; // (the top bit: recorded by sampling)
        k++;
      }
    }
  };
  var fromHuge = function (hugeAt, slotsAt) {
    var huge = view.getUint32(statePtr + hugeAt, true) >>> 2;
    var hugeSlots = huge ? view.getUint32(statePtr + slotsAt, true) : 0;
    for (var h = 0; h < hugeSlots && k < n; h++) {
      var at = huge + h * 4;
      if (!words[at] || (words[at + 3] & 0x7FFFFFFF) <= above) continue;
      if (k === room) out = moreRoom(out, room = Math.min(n, room * 2));
      out.addr[k] = words[at];
      out.site[k] = words[at + 1] & BLOCK_SITE_MASK;
      out.size[k] = words[at + 2];
      out.serial[k] = (words[at + 3] & serialMask) >>> 0;
      k++;
    }
  };
  fromTables(STATE.blockRegions, STATE.blockRegionCount);
  if (view.getUint32(statePtr + STATE.footers, true)) {
    // footer mode (runtime/footer.h): the records are in the blocks, found
    // by a walk of dlmalloc's chunks; a block's footer is its chunk's last
    // 8 usable bytes, right before the next chunk's head
    var walkFailed = footerWalk(view, statePtr, function (q, csize) {
      var f = (q + csize - 4) >>> 2;
      var serialWord = words[f + 1];
      if ((serialWord & 0x7FFFFFFF) <= above || k === n) return;
      if (k === room) out = moreRoom(out, room = Math.min(n, room * 2));
      out.addr[k] = q + 8;
      out.site[k] = words[f] & BLOCK_SITE_MASK;
      out.size[k] = csize - 12 - (words[f] >>> FOOTER_SLACK_SHIFT);
      out.serial[k] = (serialWord & serialMask) >>> 0;
      k++;
    });
    if (walkFailed) throw new Error('emheap: the recorded blocks could not be read from the heap: ' + walkFailed);
  }
  fromHuge(STATE.hugeBlocks, STATE.hugeSlots);
  var objectsFrom = k;
  if (withObjects) {
    fromTables(STATE.poolRegions, STATE.poolRegionCount);
    fromHuge(STATE.poolHuge, STATE.poolHugeSlots);
  }
  var copied = k === out.addr.length ? out : {addr: out.addr.subarray(0, k), size: out.size.subarray(0, k),
    site: out.site.subarray(0, k), serial: out.serial.subarray(0, k)};
  copied.objectsFrom = objectsFrom; // (the pools' objects, if asked, from there on)
  return copied;
}

// The footers' fields (runtime/footer.h): site | slack << 20, serial.
var FOOTER_SLACK_SHIFT = 20;

// Walks dlmalloc's chunks (jslib/allocator_walk.js, every header checked),
// calling visit(chunk, size) for each one emheap flagged. -> null, or why
// the heap could not be read.
function footerWalk(view, statePtr, visit) {
  var heapBase = view.getUint32(statePtr + STATE.heapBase, true);
  var sbrkPtr = view.getUint32(statePtr + STATE.sbrkPtrAddr, true);
  var walk = allocatorWalk.walkAllocator(view, 'dlmalloc', heapBase, view.getUint32(sbrkPtr, true), null,
    view.getUint32(statePtr + STATE.dlState, true), 'chunks', visit);
  return walk.error || null;
}

// At attach, before the first block is recorded: dlmalloc's malloc_state
// for the runtime's footer mode (runtime/footer.h), which a runtime with
// dlmalloc takes in exact mode when JS found it (a threaded one, where its
// mutex lies where footer.h takes it). With another allocator the runtime
// keeps its block table.
function noteDlmallocState(view, statePtr) {
  var mode = readMode(view, statePtr);
  if (mode.allocator !== 'dlmalloc') return false;
  var heapBase = view.getUint32(statePtr + STATE.heapBase, true);
  var sbrkPtr = view.getUint32(statePtr + STATE.sbrkPtrAddr, true);
  var found = allocatorWalk.findDlmallocState(view, readDataRange(view, statePtr), heapBase, view.getUint32(sbrkPtr, true));
  if (!found) return false;
  view.setUint32(statePtr + STATE.dlState, found[0], true);
  view.setUint32(statePtr + STATE.dlSeg, found[1] - 24, true); // gm->seg: the struct's last 6 words
  return true;
}

function blockArrays(n) {
  return {addr: new Uint32Array(n), size: new Uint32Array(n), site: new Uint32Array(n), serial: new Uint32Array(n)};
}

// copyBlocks' arrays, with room for n.
function moreRoom(out, n) {
  var more = blockArrays(n);
  ['addr', 'size', 'site', 'serial'].forEach(function (f) { more[f].set(out[f]); });
  return more;
}

// The static data [__global_base, __data_end) (runtime/roots.c notes it at
// startup, in emheap_roots), or null before the runtime started.
function readDataRange(view, statePtr) {
  var at = view.getUint32(statePtr + STATE.roots, true);
  return at ? [view.getUint32(at, true), view.getUint32(at + 4, true)] : null;
}

// runtime/roots.c's emheap_roots at `at`: where a heap scan starts.
// emheap_roots (runtime/roots.c): table sizes and where its arrays start.
var ROOTS = {maxThreads: 256, threads: 60, threadSize: 24, maxRegions: 1024, regions: 60 + 256 * 24, regionSize: 8};

// Read under the lock (withLock): threads come and go.
function readRoots(view, at) {
  var u = function (off) { return view.getUint32(at + off, true); };
  var out = {
    data: [u(0), u(4)], sp: u(8), stack: [u(12), u(16)], self: u(20), selfSize: u(24),
    state: [u(28), u(28) + u(32)], own: [at, at + u(36)],
    threadsDropped: u(44), regionsDropped: u(52), pthread: u(56), threads: [], regions: [],
  };
  // counts clamped to the tables' sizes: a damaged count reads no further
  var threads = Math.min(u(40), ROOTS.maxThreads);
  for (var t = 0; t < threads; t++) {
    var e = at + ROOTS.threads + t * ROOTS.threadSize;
    out.threads.push({stack: [view.getUint32(e, true), view.getUint32(e + 4, true)],
      tls: [view.getUint32(e + 8, true), view.getUint32(e + 12, true)], self: view.getUint32(e + 16, true),
      pthread: view.getUint32(e + 20, true)});
  }
  var regions = Math.min(u(48), ROOTS.maxRegions);
  var base = at + ROOTS.regions;
  for (var r = 0; r < regions; r++) {
    var start = view.getUint32(base + r * ROOTS.regionSize, true);
    out.regions.push([start, start + view.getUint32(base + r * ROOTS.regionSize + 4, true)]);
  }
  return out;
}

// Site s of a copy: its counters, stack kind and reference, thread, and
// for worker stacks their (function index, module offset) pairs, root
// first. The part
// of its live numbers that is an estimate (blocks recorded by sampling) is
// scaled by `scales` (model/estimates.js ratioScales; none: as they are)
// and given on its own too (estimatedLiveBytes, ...AtPeak).
function readSite(tables, s, scales) {
  var view = tables.sites;
  var site;
  var at = sitesAt(tables, s);
  var kind = view.getUint32(at + 48, true);
  var ref = view.getUint32(at + 52, true);
  var depth = view.getUint32(at + 56, true);
  var frames = null;
  if (kind === STACK_WASM) {
    frames = [];
    for (var i = 0; i < depth && (ref + i) * 4 < tables.pool.byteLength; i++) {
      frames.push(tables.pool.getUint32((ref + i) * 4, true));
    }
  }
  // changed since the global peak: what it held then was kept (emheap_site)
  var changedSincePeak = view.getUint32(at + 80, true) === tables.peakEpoch;
  var liveBytes = view.getFloat64(at + 8, true);
  var liveBlocks = view.getFloat64(at + 40, true);
  var estBytes = view.getFloat64(at + 88, true);
  var estBlocks = view.getFloat64(at + 96, true);
  var peakBytes = changedSincePeak ? view.getFloat64(at + 64, true) : liveBytes;
  var peakBlocks = changedSincePeak ? view.getFloat64(at + 72, true) : liveBlocks;
  var peakEstBytes = changedSincePeak ? view.getFloat64(at + 104, true) : estBytes;
  var peakEstBlocks = changedSincePeak ? view.getFloat64(at + 112, true) : estBlocks;
  var k = scales || {bytes: 1, blocks: 1, bytesAtPeak: 1, blocksAtPeak: 1};
  // (down: the sites never add up to more than the exact total)
  var scaled = function (whole, part, scale) { return whole - part + Math.floor(part * scale); };
  site = {
    liveBytes: scaled(liveBytes, estBytes, k.bytes),
    estimatedLiveBytes: Math.floor(estBytes * k.bytes),
    totalBytes: view.getFloat64(at + 16, true),
    peakLiveBytes: view.getFloat64(at + 24, true),
    blocksAtPeakLiveBytes: view.getUint32(at + 84, true),
    totalAllocs: view.getFloat64(at + 32, true),
    liveBlocks: scaled(liveBlocks, estBlocks, k.blocks),
    liveBytesAtPeak: scaled(peakBytes, peakEstBytes, k.bytesAtPeak),
    estimatedLiveBytesAtPeak: Math.floor(peakEstBytes * k.bytesAtPeak),
    liveBlocksAtPeak: scaled(peakBlocks, peakEstBlocks, k.blocksAtPeak),
    stackKind: kind,
    stackRef: ref,
    pool: view.getUint32(at + SITE_POOL_AT, true), // 0, or the pool whose objects (or chunks) it holds
    thread: view.getUint32(at + 60, true), // 0: the main thread
    frames: frames,
  };
  readLifetimes(view, at, tables.threaded, site);
  readAllocType(view, at, site);
  return site;
}

// The clang allocation token its allocations came with (emheap_site.
// alloc_type: token + 1, 0 none, ALLOC_TYPE_MIXED several), onto `site`:
// allocToken, or allocTokenMixed when they came with different ones.
var ALLOC_TYPE_AT = 172;
var ALLOC_TYPE_MIXED = 0xFFFFFFFF;
function readAllocType(view, at, site) {
  var type = view.getUint32(at + ALLOC_TYPE_AT, true);
  if (type === ALLOC_TYPE_MIXED) site.allocTokenMixed = true;
  else if (type) site.allocToken = type - 1;
}

// A site's lifetime counts, onto `site` when any is not 0 (a site whose
// blocks all live carries none): endedByAge, endedByTime (arrays),
// temporaryAllocs, and lifetimesAtLeast when a count saturated. A
// single-threaded runtime keeps no temporary count apart: there it is the
// blocks that ended with no block made after them (emheap_site.temporary).
function readLifetimes(view, at, threaded, site) {
  var any = 0;
  for (var w = 0; w < LIFETIME_WORDS; w++) any += view.getUint32(at + LIFETIMES_AT + 4 * w, true);
  if (!any) return; // no array made: most sites of a big heap hold live blocks only
  var words = [];
  var saturated = false;
  for (var k = 0; k < LIFETIME_WORDS; k++) {
    var n = view.getUint32(at + LIFETIMES_AT + 4 * k, true);
    if (n === COUNT_SATURATED) saturated = true;
    words.push(n);
  }
  site.endedByAge = words.slice(0, AGE_BUCKETS);
  site.endedByTime = words.slice(AGE_BUCKETS, AGE_BUCKETS + TIME_BUCKETS);
  site.temporaryAllocs = threaded ? words[AGE_BUCKETS + TIME_BUCKETS] : words[0];
  if (saturated) site.lifetimesAtLeast = true;
}

// The last min(heapGrowths, GROWTH_LOG) growth events, oldest first:
// {fromBytes, toBytes, siteId, requestBytes (0: not known), t (ms on the
// timeline's clock), top: [{siteId, liveBytes}] (the sites that held the
// most just after, most first), and estimated: true when their bytes are
// estimates}.
function readGrowth(view, statePtr, heapGrowths) {
  var out = [];
  for (var i = heapGrowths > GROWTH_LOG ? heapGrowths - GROWTH_LOG : 0; i < heapGrowths; i++) out.push(readGrowthEvent(view, statePtr, i + 1));
  return out;
}

// Growth `serial` (1 = the first), while it is still in the ring.
function readGrowthEvent(view, statePtr, serial) {
  var at = statePtr + STATE.growth + ((serial - 1) % GROWTH_LOG) * GROWTH_SIZE;
  var top = [];
  for (var k = 0; k < GROWTH_TOP; k++) {
    var bytes = view.getFloat64(at + 40 + 8 * k, true);
    if (bytes > 0) top.push({siteId: view.getUint32(at + 24 + 4 * k, true), liveBytes: bytes});
  }
  var g = {
    fromBytes: view.getUint32(at, true),
    toBytes: view.getUint32(at + 4, true),
    siteId: view.getUint32(at + 8, true),
    requestBytes: view.getUint32(at + 12, true),
    t: Math.max(0, view.getFloat64(at + 16, true)),
    top: top,
  };
  if (view.getUint32(at + 36, true) & GROWTH_ESTIMATED) g.estimated = true;
  return g;
}

// The kept marks (runtime/marks.c), oldest first: {marks: [{number (from
// 1), name, t (ms on the timeline's clock), serial (the last block serial
// before it)}], dropped: how many older ones the ring no longer holds}.
// Under the lock.
// The program's pools (runtime/pools.c emheap_pool, 96 bytes each) and
// the misuses of the pool calls by kind, read under the lock: {pools:
// [{number, name, live, malloclike, site, chunkSite, objects, bytes,
// placedObjects, placedBytes, lost}], misuse: [counts]}.
var POOL_SIZE = 96;
var POOL_NAME = 40;
var POOL_MISUSES = 8;
function readPools(view, statePtr) {
  var at = view.getUint32(statePtr + STATE.pools, true);
  var count = at ? view.getUint32(statePtr + STATE.poolCount, true) : 0;
  var pools = [];
  for (var n = 1; n <= count; n++) {
    var p = at + (n - 1) * POOL_SIZE;
    var flags = view.getUint32(p + 4, true);
    pools.push({number: n, name: cString(view.buffer.slice(p + 56, p + 56 + POOL_NAME), 0),
      live: (flags & 1) !== 0, malloclike: (flags & 2) !== 0,
      site: view.getUint32(p + 8, true), chunkSite: view.getUint32(p + 12, true),
      objects: u64(view, p + 16), bytes: u64(view, p + 24), placedBytes: u64(view, p + 32),
      placedObjects: view.getUint32(p + 40, true), lost: view.getUint32(p + 44, true)});
  }
  var misuse = [];
  for (var k = 0; k < POOL_MISUSES; k++) misuse.push(view.getUint32(statePtr + STATE.poolMisuse + 4 * k, true));
  return {pools: pools, misuse: misuse};
}

function readMarks(view, statePtr) {
  var count = view.getUint32(statePtr + STATE.markCount, true);
  var first = count > MARK_LOG ? count - MARK_LOG + 1 : 1;
  var marks = [];
  for (var n = first; n <= count; n++) {
    var at = statePtr + STATE.marks + ((n - 1) % MARK_LOG) * MARK_SIZE;
    var bytes = new Uint8Array(MARK_NAME);
    bytes.set(new Uint8Array(view.buffer, at + 16, MARK_NAME));
    var end = bytes.indexOf(0);
    marks.push({number: n, name: utf8Text(bytes.subarray(0, end < 0 ? MARK_NAME : end)),
      t: Math.max(0, view.getFloat64(at + 8, true)), serial: view.getUint32(at, true)});
  }
  return {marks: marks, dropped: first - 1};
}

// Makes the next mark, as emheap_mark does: nameBytes (UTF-8, at most
// MARK_NAME - 1 bytes), t (ms since the runtime's start). Under the lock.
// -> its number.
function writeMark(view, statePtr, nameBytes, t) {
  var number = view.getUint32(statePtr + STATE.markCount, true) + 1;
  var at = statePtr + STATE.marks + ((number - 1) % MARK_LOG) * MARK_SIZE;
  view.setUint32(at, view.getUint32(statePtr + STATE.blockSerial, true), true);
  view.setUint32(at + 4, 0, true);
  view.setFloat64(at + 8, t, true);
  for (var i = 0; i < MARK_NAME; i++) view.setUint8(at + 16 + i, i < nameBytes.length ? nameBytes[i] : 0);
  view.setUint32(statePtr + STATE.markCount, number, true);
  return number;
}

// UTF-8 bytes -> text; a byte that is not UTF-8 reads as U+FFFD.
// (TextDecoder refuses views of shared memory, hence the copy above.)
function utf8Text(bytes) {
  return new TextDecoder().decode(bytes);
}

// The NUL-terminated UTF-8 text at `at` in the memory (a name or a format a
// C call passed). (A copy first: TextDecoder refuses shared memory.)
function cString(buffer, at) {
  var bytes = new Uint8Array(buffer);
  var end = at;
  while (end < bytes.length && bytes[end]) end++;
  return utf8Text(bytes.slice(at, end));
}

// text -> its UTF-8 bytes, cut at a character to at most max bytes (a mark's
// name, a message written for C).
function utf8Prefix(text, max) {
  var bytes = new TextEncoder().encode(text);
  if (bytes.length <= max) return bytes;
  var n = max;
  while (n > 0 && (bytes[n] & 0xC0) === 0x80) n--; // not inside a character
  return bytes.subarray(0, n);
}

// The runtime's age clock (jslib/age_clock.js): its points' count, point
// k's serial, point k made now (block_serial then; count k + 1), and
// bound i's serial. Under the lock.
function readAgePointCount(view, statePtr) {
  return view.getUint32(statePtr + STATE.agePointCount, true);
}
function readAgePoint(view, statePtr, k) {
  return view.getUint32(statePtr + STATE.agePoints + (k % AGE_POINTS) * 4, true);
}
function writeAgePoint(view, statePtr, k) {
  view.setUint32(statePtr + STATE.agePoints + (k % AGE_POINTS) * 4, view.getUint32(statePtr + STATE.blockSerial, true), true);
  view.setUint32(statePtr + STATE.agePointCount, k + 1, true);
}
function writeAgeSerial(view, statePtr, i, serial) {
  view.setUint32(statePtr + STATE.ageSerial + 4 * i, serial, true);
}

// When the runtime started, on jslib/clock.js's clock (ms): the origin of
// the growths' t.
function readStartMs(view, statePtr) {
  return view.getFloat64(statePtr + STATE.startMs, true);
}

// Settings JS may write before the first block is recorded. seed: a
// number below 2^53 (0 = none).
function writeConfig(view, statePtr, config) {
  var modes = {exact: MODE_EXACT, sampled: MODE_SAMPLED, off: MODE_OFF};
  if (config.mode) view.setUint32(statePtr + STATE.mode, modes[config.mode], true);
  if (config.samplingInterval) view.setUint32(statePtr + STATE.samplingInterval, config.samplingInterval, true);
  if (config.seed) {
    view.setUint32(statePtr + STATE.seed, config.seed % 4294967296, true);
    view.setUint32(statePtr + STATE.seed + 4, Math.floor(config.seed / 4294967296), true);
  }
  if (config.growthLog !== undefined) view.setUint32(statePtr + STATE.logGrowths, config.growthLog ? 1 : 0, true);
}

function setPaused(view, statePtr, paused) {
  view.setUint32(statePtr + STATE.paused, paused ? 1 : 0, true);
}

// A worker's stack word for a function whose direct recursion was folded
// into one frame (stack_table.js): the function index with the top bit
// set. Function indices stay far below it; FRAME_TRUNCATED and FRAME_JS are
// told apart first.
function recursiveWord(funcIndex) {
  return (funcIndex | 0x80000000) >>> 0;
}
function isRecursiveWord(word) {
  return word >= 0x80000000 && word !== FRAME_TRUNCATED && word !== FRAME_JS;
}
function functionOfWord(word) {
  return word & 0x7fffffff;
}

// The checking mode's counts (runtime/context.h): {verify, checked, mismatches}.
function contextChecks(view, statePtr) {
  var at = view.getUint32(statePtr + STATE.contextChecks, true);
  if (!at) return {verify: false, checked: 0, mismatches: 0};
  return {verify: view.getUint32(at, true) !== 0, checked: view.getUint32(at + 4, true),
    mismatches: view.getUint32(at + 8, true)};
}

module.exports = {contextChecks: contextChecks, recursiveWord: recursiveWord, isRecursiveWord: isRecursiveWord,
  functionOfWord: functionOfWord, siteRawTotals: siteRawTotals,
  readAgePointCount: readAgePointCount, readAgePoint: readAgePoint, writeAgePoint: writeAgePoint,
  writeAgeSerial: writeAgeSerial, AGE_BUCKETS: AGE_BUCKETS, TIME_BUCKETS: TIME_BUCKETS, AGE_POINTS: AGE_POINTS,
  LAYOUT_VERSION: LAYOUT_VERSION, STACK_JS: STACK_JS, STACK_WASM: STACK_WASM, STACK_POOL: STACK_POOL, readPools: readPools,
  FRAME_TRUNCATED: FRAME_TRUNCATED, FRAME_JS: FRAME_JS, MAGIC: MAGIC, STATE: STATE, SITE_SIZE: SITE_SIZE, MODE_EXACT: MODE_EXACT,
  checkState: checkState, readCounters: readCounters, readMode: readMode,
  noteDlmallocState: noteDlmallocState, copySiteTables: copySiteTables, siteTablesInPlace: siteTablesInPlace, sitesAt: sitesAt, readDataRange: readDataRange, copyArea: copyArea, copyBlocks: copyBlocks, readRoots: readRoots, readSite: readSite,
  readEstimateSums: readEstimateSums, readGrowth: readGrowth, readGrowthEvent: readGrowthEvent, readStartMs: readStartMs,
  readMarks: readMarks, writeMark: writeMark, MARK_NAME: MARK_NAME, utf8Text: utf8Text, utf8Prefix: utf8Prefix, cString: cString,
  siteLiveBytes: siteLiveBytes,
  siteRawLiveBytes: siteRawLiveBytes,
  writeConfig: writeConfig,
  setPaused: setPaused, withLock: withLock, holdAllocatorWith: holdAllocatorWith,
  whileAllocatorHeld: whileAllocatorHeld,
};
