// layout.js -- reads the runtime's state out of linear memory, and writes
// the few fields JS may set (mode, sampling interval, seed, paused).
//
// Every offset, size and constant comes from capture/layout_generated.js,
// which runtime/layout.js generates from the C structs (runtime/
// state_layout.h): nothing here types an offset. Never calls into wasm.
// In a threaded program every read of the tables happens under the
// runtime's own lock (capture/lock.js withLock), so a snapshot never sees a
// half-made change.
'use strict';

var cString = require('./c_text').cString;
var L = require('./layout_generated');

var K = L.constants;
var STATE = L.emheap_state;
var COUNTER = L.emheap_counters;
var SITE = L.emheap_site;
var INDEX = L.emheap_index;
var GROWTH = L.emheap_growth;
var MARK = L.emheap_mark_record;
var SUMS = L.emheap_estimate_sums;
var POOL = L.emheap_pool;
var ROOTS = L.emheap_roots;
var THREAD_ROOTS = L.emheap_thread_roots;
var ROOT_REGION = L.emheap_root_region;
var COUNT_SLOT = L.emheap_count_slot;
var CONTEXT_CHECK = L.emheap_context_check;

var LAYOUT_VERSION = K.EMHEAP_LAYOUT_VERSION;
var MAGIC = K.EMHEAP_MAGIC;
var SITE_SIZE = SITE.sizeof;
// The site table's chunks (runtime/state_layout.h): chunk 0 holds sites
// 0-255, chunk k >= 1 sites 2^(k+7) to 2^(k+8) - 1.
var SITE_CHUNK0_BITS = K.EMHEAP_SITE_CHUNK0_BITS;
function siteChunk(s) { return (32 - SITE_CHUNK0_BITS) - Math.clz32(s | ((1 << SITE_CHUNK0_BITS) - 1)); }
function siteChunkFirst(k) { return k ? 1 << (k + SITE_CHUNK0_BITS - 1) : 0; }
// A site's lifetime counts (emheap_site.ended_by_age, ended_by_time,
// temporary), one run of 32-bit words
var AGE_BUCKETS = K.EMHEAP_AGE_BUCKETS;
var TIME_BUCKETS = K.EMHEAP_TIME_BUCKETS;
var AGE_POINTS = K.EMHEAP_AGE_POINTS;
var COUNT_SATURATED = 0xFFFFFFFF; // a lifetime count at 2^32 - 1 stopped there (record.c)
var LIFETIMES_AT = SITE.ended_by_age;
var LIFETIME_WORDS = (SITE.temporary + 4 - SITE.ended_by_age) / 4;
var GROWTH_LOG = K.EMHEAP_GROWTH_LOG;
var GROWTH_TOP = K.EMHEAP_GROWTH_TOP;
var STACK_JS = K.EMHEAP_STACK_JS;
var STACK_WASM = K.EMHEAP_STACK_WASM;
var STACK_POOL = K.EMHEAP_STACK_POOL; // no stack: a pool's chunks (runtime/pools.c)
var FRAME_TRUNCATED = K.EMHEAP_FRAME_TRUNCATED;
var FRAME_JS = K.EMHEAP_FRAME_JS; // in a worker stack's function word: JS code
var ALLOCATORS = [];
ALLOCATORS[K.EMHEAP_ALLOCATOR_GENERIC] = 'generic';
ALLOCATORS[K.EMHEAP_ALLOCATOR_DLMALLOC] = 'dlmalloc';
ALLOCATORS[K.EMHEAP_ALLOCATOR_EMMALLOC] = 'emmalloc';
ALLOCATORS[K.EMHEAP_ALLOCATOR_MIMALLOC] = 'mimalloc';

// [name in a snapshot, emheap_counters field, byte width]
var COUNTERS = [
  ['liveBytes', 'live_bytes', 8], ['peakLiveBytes', 'peak_live_bytes', 8], ['totalBytes', 'total_bytes', 8],
  ['liveBlocks', 'live_blocks', 4], ['peakLiveBlocks', 'peak_live_blocks', 4],
  ['mallocCalls', 'malloc_calls', 8], ['callocCalls', 'calloc_calls', 8], ['reallocCalls', 'realloc_calls', 8],
  ['memalignCalls', 'memalign_calls', 8], ['freeCalls', 'free_calls', 8], ['failedAllocs', 'failed_allocs', 8],
  ['invalidFrees', 'invalid_frees', 8], ['sampledAllocs', 'sampled_allocs', 8],
  ['siteCount', 'site_count', 4], ['heapGrowths', 'heap_growths', 4],
  ['lostAllocs', 'lost_allocs', 8], ['lostBytes', 'lost_bytes', 8], ['lostSites', 'lost_sites', 4],
  ['truncatedStacks', 'truncated_stacks', 4], ['tableBytes', 'table_bytes', 8],
].map(function (c) { return [c[0], COUNTER[c[1]], c[2]]; });

function u64(view, at) {
  return view.getUint32(at, true) + view.getUint32(at + 4, true) * 4294967296;
}

// An address the layout keeps as a uint64 (runtime/state_layout.h: the
// same in wasm32 and wasm64; below 2^53, so a Number holds it exactly).
var readAddress = u64;
// An address word (emheap_block.addr, the block tables' directories): the
// address / 4.
var WORD_BYTES = 1 << K.EMHEAP_ALIGN_SHIFT;
function wordAddress(word) { return word * WORD_BYTES; }

// 4 in wasm32, 8 in wasm64 (emheap_state.pointer_bytes).
function pointerBytes(view, statePtr) { return view.getUint32(statePtr + STATE.pointer_bytes, true); }

// A word of Emscripten's or the allocator's own (a size_t or a pointer: the
// break, a chunk head), as wide as the program's pointers
// (emheap_state.pointer_bytes).
function readNativeWord(view, statePtr, at) {
  return pointerBytes(view, statePtr) === 8 ? u64(view, at) : view.getUint32(at, true);
}

// The allocator's break (sbrk's top) now, or 0 before the runtime knew it.
function readBreak(view, statePtr) {
  var sbrkPtr = readAddress(view, statePtr + STATE.sbrk_ptr_addr);
  return sbrkPtr ? readNativeWord(view, statePtr, sbrkPtr) : 0;
}

// Throws a readable Error if statePtr does not hold a state this code knows.
function checkState(view, statePtr) {
  var magic = view.getUint32(statePtr + STATE.magic, true);
  if (magic !== MAGIC) throw new Error('emheap: the runtime state is not initialized (bad magic)');
  var version = view.getUint32(statePtr + STATE.layout_version, true);
  if (version !== LAYOUT_VERSION) {
    throw new Error('emheap: the runtime uses memory layout ' + version +
      ' but this JS library reads layout ' + LAYOUT_VERSION + '; rebuild with one emheap version');
  }
  var giant = view.getUint32(statePtr + STATE.giant_blocks, true);
  if (giant) {
    throw new Error('emheap: this program made ' + (giant === 1 ? 'a block' : giant + ' blocks') + ' of 4 GiB or more, ' +
      'whose size emheap\'s records keep in 32 bits: its numbers would be wrong, so it makes no snapshot ' +
      '(docs/compatibility.md, wasm64)');
  }
}

// A threaded runtime's per-thread counting slots (runtime/thread_counts.h
// emheap_count_slot): [field, offset] of int32/uint32 words added to counters.
var COUNT_SLOT_FIELDS = [['liveBytes', COUNT_SLOT.live_bytes, 'signed'], ['liveBlocks', COUNT_SLOT.live_blocks, 'signed'],
  ['totalBytes', COUNT_SLOT.total_bytes]].concat(['mallocCalls', 'callocCalls', 'reallocCalls', 'memalignCalls', 'freeCalls']
  .map(function (name, k) { return [name, COUNT_SLOT.calls + 4 * k]; })); // emheap_count_slot.calls: in emheap_counters' order

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
  var slots = readAddress(view, statePtr + STATE.count_slots);
  var slotCount = view.getUint32(statePtr + STATE.count_slot_count, true);
  if (slots && slotCount) {
    out.liveBytes = view.getUint32(base + COUNTER.live_bytes, true) + view.getInt32(base + COUNTER.live_bytes + 4, true) * 4294967296; // signed 64
    out.liveBlocks = view.getInt32(base + COUNTER.live_blocks, true);
    for (var i = 0; i < slotCount; i++) {
      var at = slots + i * COUNT_SLOT.sizeof;
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
  out.heapBase = readAddress(view, statePtr + STATE.heap_base);
  out.breakNow = readBreak(view, statePtr);
  out.breakAtPeak = readAddress(view, statePtr + STATE.peak_break);
  out.liveBlocksAtPeak = view.getUint32(statePtr + STATE.blocks_at_peak, true);
  out.totalBytesAtPeak = u64(view, statePtr + STATE.total_at_peak);
  // what the recorded blocks asked for, and the allocator's rounding of them
  out.requestedLiveBytes = u64(view, statePtr + STATE.recorded_bytes);
  out.allocatorRoundingBytes = Math.max(0, u64(view, statePtr + STATE.recorded_usable) - out.requestedLiveBytes);
  out.requestedBytesAtPeak = u64(view, statePtr + STATE.recorded_at_peak);
  out.allocatorRoundingAtPeak = Math.max(0, u64(view, statePtr + STATE.usable_at_peak) - out.requestedBytesAtPeak);
  // the most the recorded blocks ever asked for at once (since the peak's restart)
  out.requestedPeakBytes = u64(view, statePtr + STATE.recorded_peak);
  out.tableBytesAtPeak = u64(view, statePtr + STATE.tables_at_peak); // emheap's tables then
  var thinnedAt = u64(view, statePtr + STATE.thinned_at);
  if (thinnedAt) out.thinnedAtBytes = thinnedAt - 1;
  // frees of blocks emheap never saw allocated (runtime/record.c emheap_forget)
  out.unseenFrees = u64(view, statePtr + STATE.unseen_frees);
  out.unseenFreedBytes = u64(view, statePtr + STATE.unseen_bytes);
  // the peak restarted at a mark (emheap_restart_peak): the highest since
  var peakSince = view.getUint32(statePtr + STATE.peak_since_mark, true);
  if (peakSince) out.peakSinceMark = peakSince;
  return out;
}

// The sums behind sampled estimates (runtime emheap_estimate_sums), now
// and at the peak, with what the recorded blocks are then: what
// model/estimates.js ratioScales needs. Under the caller's lock.
function readEstimateSums(view, statePtr) {
  function sums(at, recorded, recordedUsable) {
    return {usable: view.getFloat64(at + SUMS.usable, true), blocks: view.getFloat64(at + SUMS.blocks, true),
      usableActual: u64(view, at + SUMS.usable_actual), blocksActual: view.getUint32(at + SUMS.blocks_actual, true),
      recorded: recorded === undefined ? view.getUint32(at + SUMS.recorded, true) : recorded, recordedUsable: recordedUsable};
  }
  return {
    now: sums(statePtr + STATE.estimates, view.getUint32(statePtr + STATE.blocks + INDEX.count, true),
      u64(view, statePtr + STATE.recorded_usable)),
    atPeak: sums(statePtr + STATE.estimates_at_peak, undefined, u64(view, statePtr + STATE.usable_at_peak)),
  };
}

// What the numbers mean: {mode: 'exact' | 'sampled' | 'off' (older files
// say 'exact-js' or 'exact-shadow' for exact), samplingInterval (0 unless
// sampling), interval (what sampling would use), threaded, allocator}.
function readMode(view, statePtr) {
  var mode = view.getUint32(statePtr + STATE.mode, true);
  var name = mode === K.EMHEAP_MODE_OFF ? 'off' : mode === K.EMHEAP_MODE_SAMPLED ? 'sampled' : 'exact';
  var allocator = view.getUint32(statePtr + STATE.allocator, true);
  return {
    mode: name,
    // (exact mode samples too once thinned: summary.thinnedAtBytes)
    samplingInterval: mode === K.EMHEAP_MODE_SAMPLED || u64(view, statePtr + STATE.thinned_at)
      ? view.getUint32(statePtr + STATE.sampling_interval, true) : 0,
    interval: view.getUint32(statePtr + STATE.sampling_interval, true), // what sampling would use
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
  var used = view.getUint32(statePtr + STATE.frame_pool_used, true);
  var pool = readAddress(view, statePtr + STATE.frame_pool);
  var poolTo = into && into.pool.length >= used * 4 ? into.pool : new Uint8Array(used * 4);
  if (pool && used) poolTo.set(new Uint8Array(view.buffer, pool, used * 4));
  tables.pool = new DataView(poolTo.buffer, poolTo.byteOffset, pool ? used * 4 : 0);
  return tables;
}

// The same tables read where they are, not copied: for the thread that
// holds the lock (a growth, a mark, a timeline point: a few sites, or one
// pass that makes nothing per site).
function siteTablesInPlace(view, statePtr) {
  return siteTables(view, statePtr, view.getUint32(statePtr + STATE.counters + COUNTER.site_count, true));
}

// Where site s starts in tables.sites: s * SITE_SIZE in a copy, its
// place in its chunk in linear memory in place.
function sitesAt(tables, s) {
  if (!tables.bases) return s * SITE_SIZE;
  var k = siteChunk(s);
  return tables.bases[k] + (s - siteChunkFirst(k)) * SITE_SIZE;
}

// One site's live bytes, its estimated part scaled by `scale` as
// readSite's (model/estimates.js ratioScales' bytes; 1: as they are):
// {bytes, estimated: some of them are}.
function siteLiveBytes(tables, s, scale) {
  var whole = siteRawLiveBytes(tables, s);
  var part = tables.sites.getFloat64(sitesAt(tables, s) + SITE.est_bytes, true);
  return {bytes: whole - part + Math.floor(part * scale), estimated: part > 0};
}

// A site's live bytes as the runtime keeps them (estimates not scaled):
// for a pass over every site, which must make no object per site.
function siteRawLiveBytes(tables, s) {
  return tables.sites.getFloat64(sitesAt(tables, s) + SITE.live_bytes, true);
}

// A site's bytes (which 0) or blocks (1) ever allocated, as the runtime
// keeps them (estimates in sampled mode).
function siteRawTotals(tables, s, which) {
  return tables.sites.getFloat64(sitesAt(tables, s) + (which ? SITE.total_allocs : SITE.total_bytes), true);
}

// The site table as it is in linear memory: {count, peakEpoch, threaded,
// sites (a view of the whole memory), bases (where each chunk starts),
// pool (the frame pool, in place)}.
function siteTables(view, statePtr, siteCount) {
  var chunks = view.getUint32(statePtr + STATE.site_chunks, true);
  var bases = [];
  for (var k = 0; k < chunks; k++) bases.push(readAddress(view, statePtr + STATE.site_chunk_at + 8 * k));
  var pool = readAddress(view, statePtr + STATE.frame_pool);
  var used = view.getUint32(statePtr + STATE.frame_pool_used, true);
  return {
    count: chunks ? siteCount : 0,
    peakEpoch: view.getUint32(statePtr + STATE.peak_epoch, true),
    threaded: view.getUint32(statePtr + STATE.threaded, true) !== 0,
    sites: new DataView(view.buffer),
    bases: bases,
    pool: pool && used ? new DataView(view.buffer, pool, used * 4) : new DataView(new ArrayBuffer(0)),
  };
}

// runtime/roots.c's emheap_roots at `at`: where a heap scan starts. Read
// under the lock (withLock): threads come and go.
function readRoots(view, at) {
  var u = function (field) { return view.getUint32(at + ROOTS[field], true); };
  var a = function (field) { return readAddress(view, at + ROOTS[field]); };
  var out = {
    data: [a('data_lo'), a('data_hi')], sp: a('sp'), stack: [a('stack_lo'), a('stack_hi')], self: a('self'),
    selfSize: u('self_size'), state: [a('state'), a('state') + u('state_size')], own: [at, at + u('size')],
    threadsDropped: u('threads_dropped'), regionsDropped: u('regions_dropped'), pthread: a('pthread'), threads: [], regions: [],
  };
  // counts clamped to the tables' sizes: a damaged count reads no further
  var threads = Math.min(u('thread_count'), K.EMHEAP_MAX_THREADS);
  for (var t = 0; t < threads; t++) {
    var e = at + ROOTS.threads + t * THREAD_ROOTS.sizeof;
    var w = function (field) { return readAddress(view, e + THREAD_ROOTS[field]); };
    out.threads.push({stack: [w('stack_lo'), w('stack_hi')], tls: [w('tls_lo'), w('tls_hi')], self: w('self'),
      pthread: w('pthread')});
  }
  var regions = Math.min(u('region_count'), K.EMHEAP_MAX_ROOTS);
  for (var r = 0; r < regions; r++) {
    var region = at + ROOTS.regions + r * ROOT_REGION.sizeof;
    var start = readAddress(view, region + ROOT_REGION.start);
    out.regions.push([start, start + readAddress(view, region + ROOT_REGION.size)]);
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
  var kind = view.getUint32(at + SITE.stack_kind, true);
  var ref = view.getUint32(at + SITE.stack_ref, true);
  var depth = view.getUint32(at + SITE.stack_depth, true);
  var frames = null;
  if (kind === STACK_WASM) {
    frames = [];
    for (var i = 0; i < depth && (ref + i) * 4 < tables.pool.byteLength; i++) {
      frames.push(tables.pool.getUint32((ref + i) * 4, true));
    }
  }
  // changed since the global peak: what it held then was kept (emheap_site)
  var changedSincePeak = view.getUint32(at + SITE.peak_epoch, true) === tables.peakEpoch;
  var liveBytes = view.getFloat64(at + SITE.live_bytes, true);
  var liveBlocks = view.getFloat64(at + SITE.live_blocks, true);
  var estBytes = view.getFloat64(at + SITE.est_bytes, true);
  var estBlocks = view.getFloat64(at + SITE.est_blocks, true);
  var peakBytes = changedSincePeak ? view.getFloat64(at + SITE.live_at_peak, true) : liveBytes;
  var peakBlocks = changedSincePeak ? view.getFloat64(at + SITE.blocks_at_peak, true) : liveBlocks;
  var peakEstBytes = changedSincePeak ? view.getFloat64(at + SITE.est_at_peak, true) : estBytes;
  var peakEstBlocks = changedSincePeak ? view.getFloat64(at + SITE.est_blocks_at_peak, true) : estBlocks;
  var k = scales || {bytes: 1, blocks: 1, bytesAtPeak: 1, blocksAtPeak: 1};
  // (down: the sites never add up to more than the exact total)
  var scaled = function (whole, part, scale) { return whole - part + Math.floor(part * scale); };
  site = {
    liveBytes: scaled(liveBytes, estBytes, k.bytes),
    estimatedLiveBytes: Math.floor(estBytes * k.bytes),
    totalBytes: view.getFloat64(at + SITE.total_bytes, true),
    peakLiveBytes: view.getFloat64(at + SITE.peak_live_bytes, true),
    blocksAtPeakLiveBytes: view.getUint32(at + SITE.peak_blocks, true),
    totalAllocs: view.getFloat64(at + SITE.total_allocs, true),
    liveBlocks: scaled(liveBlocks, estBlocks, k.blocks),
    liveBytesAtPeak: scaled(peakBytes, peakEstBytes, k.bytesAtPeak),
    estimatedLiveBytesAtPeak: Math.floor(peakEstBytes * k.bytesAtPeak),
    liveBlocksAtPeak: scaled(peakBlocks, peakEstBlocks, k.blocksAtPeak),
    stackKind: kind,
    stackRef: ref,
    pool: view.getUint32(at + SITE.pool, true), // 0, or the pool whose objects (or chunks) it holds
    thread: view.getUint32(at + SITE.thread, true), // 0: the main thread
    frames: frames,
  };
  readLifetimes(view, at, tables.threaded, site);
  readAllocType(view, at, site);
  return site;
}

// The clang allocation token its allocations came with (emheap_site.
// alloc_type: token + 1, 0 none, ALLOC_TYPE_MIXED several), onto `site`:
// allocToken, or allocTokenMixed when they came with different ones.
var ALLOC_TYPE_MIXED = K.EMHEAP_ALLOC_TYPE_MIXED;
function readAllocType(view, at, site) {
  var type = view.getUint32(at + SITE.alloc_type, true);
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
  var at = statePtr + STATE.growth + ((serial - 1) % GROWTH_LOG) * GROWTH.sizeof;
  var top = [];
  for (var k = 0; k < GROWTH_TOP; k++) {
    var bytes = view.getFloat64(at + GROWTH.top_bytes + 8 * k, true);
    if (bytes > 0) top.push({siteId: view.getUint32(at + GROWTH.top_site + 4 * k, true), liveBytes: bytes});
  }
  var g = {
    fromBytes: u64(view, at + GROWTH.from_bytes),
    toBytes: u64(view, at + GROWTH.to_bytes),
    siteId: view.getUint32(at + GROWTH.site, true),
    requestBytes: view.getUint32(at + GROWTH.request, true),
    t: Math.max(0, view.getFloat64(at + GROWTH.t, true)),
    top: top,
  };
  if (view.getUint32(at + GROWTH.flags, true) & K.EMHEAP_GROWTH_ESTIMATED) g.estimated = true;
  return g;
}

// The program's pools (runtime/pools.c emheap_pool, 96 bytes each) and
// the misuses of the pool calls by kind, read under the lock: {pools:
// [{number, name, live, malloclike, site, chunkSite, objects, bytes,
// placedObjects, placedBytes, lost}], misuse: [counts]}.
function readPools(view, statePtr) {
  var at = readAddress(view, statePtr + STATE.pools);
  var count = at ? view.getUint32(statePtr + STATE.pool_count, true) : 0;
  var pools = [];
  for (var n = 1; n <= count; n++) {
    var p = at + (n - 1) * POOL.sizeof;
    var flags = view.getUint32(p + POOL.flags, true);
    pools.push({number: n, name: cString(view.buffer.slice(p + POOL.name, p + POOL.name + K.EMHEAP_POOL_NAME), 0),
      live: (flags & K.EMHEAP_POOL_LIVE) !== 0, malloclike: (flags & K.EMHEAP_POOL_MALLOCLIKE) !== 0,
      site: view.getUint32(p + POOL.site, true), chunkSite: view.getUint32(p + POOL.chunk_site, true),
      objects: u64(view, p + POOL.objects), bytes: u64(view, p + POOL.bytes), placedBytes: u64(view, p + POOL.placed_bytes),
      placedObjects: view.getUint32(p + POOL.placed, true), lost: view.getUint32(p + POOL.lost, true)});
  }
  var misuse = [];
  for (var k = 0; k < K.EMHEAP_POOL_MISUSES; k++) misuse.push(view.getUint32(statePtr + STATE.pool_misuse + 4 * k, true));
  return {pools: pools, misuse: misuse};
}

// When the runtime started, on capture/clock.js's clock (ms): the origin of
// the growths' t.
function readStartMs(view, statePtr) {
  return view.getFloat64(statePtr + STATE.start_ms, true);
}

// Settings JS may write before the first block is recorded. seed: a
// number below 2^53 (0 = none).
function writeConfig(view, statePtr, config) {
  var modes = {exact: K.EMHEAP_MODE_EXACT, sampled: K.EMHEAP_MODE_SAMPLED, off: K.EMHEAP_MODE_OFF};
  if (config.mode) view.setUint32(statePtr + STATE.mode, modes[config.mode], true);
  if (config.samplingInterval) view.setUint32(statePtr + STATE.sampling_interval, config.samplingInterval, true);
  if (config.seed) {
    view.setUint32(statePtr + STATE.seed, config.seed % 4294967296, true);
    view.setUint32(statePtr + STATE.seed + 4, Math.floor(config.seed / 4294967296), true);
  }
  if (config.growthLog !== undefined) view.setUint32(statePtr + STATE.log_growths, config.growthLog ? 1 : 0, true);
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
  var at = readAddress(view, statePtr + STATE.context_checks);
  if (!at) return {verify: false, checked: 0, mismatches: 0};
  return {verify: view.getUint32(at + CONTEXT_CHECK.verify, true) !== 0, checked: view.getUint32(at + CONTEXT_CHECK.checked, true),
    mismatches: view.getUint32(at + CONTEXT_CHECK.mismatches, true)};
}

module.exports = {contextChecks: contextChecks, recursiveWord: recursiveWord, isRecursiveWord: isRecursiveWord,
  functionOfWord: functionOfWord, siteRawTotals: siteRawTotals,
  AGE_POINTS: AGE_POINTS,
  LAYOUT_VERSION: LAYOUT_VERSION, STACK_JS: STACK_JS, STACK_WASM: STACK_WASM, STACK_POOL: STACK_POOL, readPools: readPools,
  FRAME_TRUNCATED: FRAME_TRUNCATED, FRAME_JS: FRAME_JS, MAGIC: MAGIC, STATE: STATE, SITE: SITE, COUNTER: COUNTER, INDEX: INDEX,
  SITE_SIZE: SITE_SIZE, MODE_EXACT: K.EMHEAP_MODE_EXACT,
  checkState: checkState, readCounters: readCounters, readMode: readMode, readAddress: readAddress, wordAddress: wordAddress,
  readNativeWord: readNativeWord, readBreak: readBreak, pointerBytes: pointerBytes,
  copySiteTables: copySiteTables, siteTablesInPlace: siteTablesInPlace, sitesAt: sitesAt, readRoots: readRoots, readSite: readSite,
  readEstimateSums: readEstimateSums, readGrowth: readGrowth, readGrowthEvent: readGrowthEvent, readStartMs: readStartMs,
  siteLiveBytes: siteLiveBytes, siteRawLiveBytes: siteRawLiveBytes, writeConfig: writeConfig, setPaused: setPaused,
};
