// block_copy.js -- the recorded live blocks copied out of linear memory:
// from the block table (runtime/block_table.c), from dlmalloc's chunks in
// footer mode (runtime/footer.h: a walk of the heap), and the pools'
// objects; the memory a snapshot copies into, made and touched beforehand;
// and, at attach, dlmalloc's malloc_state, which footer mode walks from.
// Offsets from capture/layout_generated.js; reads under the caller's lock
// (capture/lock.js).
'use strict';

var copiesWholeSpan = require('../model/heap_memory').copiesWholeSpan;
var allocatorWalk = require('./allocator_walk');
var layout = require('./layout');
var L = require('./layout_generated');

var K = L.constants;
var STATE = L.emheap_state;
var COUNTER = L.emheap_counters;
var SITE_SIZE = L.emheap_site.sizeof;
var INDEX = L.emheap_index;
var REGION_TABLE = L.region_table;
var SLOT = L.emheap_slot;
var BLOCK = L.emheap_block;
var FOOTER = L.emheap_footer;
var ROOTS = L.emheap_roots;

// The block table (runtime/block_table.c): per region of 2^REGION_SHIFT
// bytes, a table of packed entries (emheap_slot: offset / 4 | site << 10,
// size | slack << 27, serial | sampled << 31), serial 0 = empty, found
// through a directory of address words (the address / 4); huge blocks in
// emheap_block slots, addr (an address word) 0 = empty. Addresses are
// Numbers, never 32-bit integers: a wasm64 memory reaches 16 GiB.
var REGION_SHIFT = K.EMHEAP_REGION_SHIFT;
var ALIGN_SHIFT = K.EMHEAP_ALIGN_SHIFT;
var OFFSET_MASK = (1 << (REGION_SHIFT - ALIGN_SHIFT)) - 1;
var REGION_WORDS = 1 << (REGION_SHIFT - ALIGN_SHIFT);
var ENTRY_WORDS = SLOT.sizeof / 4;
var SLOT_OFFSET_SITE = SLOT.offset_site / 4;
var SLOT_SIZE_SLACK = SLOT.size_slack / 4;
var SLOT_SERIAL = SLOT.serial / 4;
var BLOCK_SITE_MASK = (1 << K.EMHEAP_SITE_BITS) - 1;
var BLOCK_SIZE_MASK = (1 << (32 - K.EMHEAP_SLACK_BITS)) - 1;

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
function copyArea(view, statePtr, heap) {
  var siteCount = view.getUint32(statePtr + STATE.counters + COUNTER.site_count, true);
  var used = view.getUint32(statePtr + STATE.frame_pool_used, true);
  var slack = function (n) { return Math.ceil(n * 1.125) + 65536; };
  var area = {
    sites: new Uint8Array(slack(siteCount * SITE_SIZE)),
    pool: new Uint8Array(slack(used * 4)),
    blocks: null,
    markBlocks: null, // with marks: the blocks whose ages a snapshot reads (capture/mark_log.js)
    memory: null,
  };
  var blockRoom = function (withObjects) {
    return blockArrays(slack(view.getUint32(statePtr + STATE.blocks + INDEX.count, true) +
      (withObjects ? view.getUint32(statePtr + STATE.pool_objects + INDEX.count, true) : 0)), layout.pointerBytes(view, statePtr) === 8);
  };
  if (view.getUint32(statePtr + STATE.mark_count, true) && layout.readMode(view, statePtr).mode !== 'off') area.markBlocks = blockRoom(true);
  if (heap) {
    area.blocks = blockRoom(true);
    var counters = layout.readCounters(view, statePtr);
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
// recorded by sampling: it stands for more than itself; addr a
// Float64Array in a wasm64 program). after (optional):
// only the blocks whose serial is above it, in arrays as large as they
// need (a mark reads the blocks made since an earlier one: at 5M live
// blocks, copying them all took most of the mark's 236 ms). withObjects:
// the pools' objects too (runtime/pools.c), after the blocks (they lie
// inside blocks: a reader of addresses wants one or the other). The table is
// read in place: the lock holds it still.
function copyBlocks(view, statePtr, into, weightBit, after, withObjects) {
  var serialMask = weightBit ? 0xFFFFFFFF : 0x7FFFFFFF;
  var n = view.getUint32(statePtr + STATE.blocks + INDEX.count, true) +
    (withObjects ? view.getUint32(statePtr + STATE.pool_objects + INDEX.count, true) : 0);
  var above = after || 0; // an empty slot's serial is 0, a block's at least 1
  var room = above ? Math.min(n, 4096) : n;
  var wide = layout.pointerBytes(view, statePtr) === 8;
  var out = into && into.addr.length >= room && (into.addr instanceof Float64Array) === wide
    ? {addr: into.addr.subarray(0, room), size: into.size.subarray(0, room), site: into.site.subarray(0, room),
      serial: into.serial.subarray(0, room)}
    : blockArrays(room, wide);
  var k = 0;
  var words = new Uint32Array(view.buffer);
  // one set of region tables (block_table.c: the heap's blocks, or the pools' objects)
  var fromTables = function (regionsAt, regionCountAt) {
    var dir = layout.readAddress(view, statePtr + regionsAt) / 4; // (an index of words)
    var regions = dir ? view.getUint32(statePtr + regionCountAt, true) : 0;
    for (var r = 0; r < regions && k < n; r++) {
      var table = words[dir + r]; // (the table's address word)
      if (!table) continue;
      var base = r * REGION_WORDS;
      var end = table + REGION_TABLE.slot / 4 + view.getUint16(table * 4 + REGION_TABLE.slots, true) * ENTRY_WORDS;
      for (var i = table + REGION_TABLE.slot / 4; i < end && k < n; i += ENTRY_WORDS) {
        if ((words[i + SLOT_SERIAL] & 0x7FFFFFFF) <= above) continue;
        if (k === room) out = moreRoom(out, room = Math.min(n, room * 2));
        out.addr[k] = layout.wordAddress(base + (words[i + SLOT_OFFSET_SITE] & OFFSET_MASK));
        out.site[k] = words[i + SLOT_OFFSET_SITE] >>> (REGION_SHIFT - ALIGN_SHIFT) & BLOCK_SITE_MASK;
        out.size[k] = words[i + SLOT_SIZE_SLACK] & BLOCK_SIZE_MASK;
        out.serial[k] = (words[i + SLOT_SERIAL] & serialMask) >>> 0; // (the top bit: recorded by sampling)
        k++;
      }
    }
  };
  var fromHuge = function (hugeAt, slotsAt) {
    var huge = layout.readAddress(view, statePtr + hugeAt) / 4;
    var hugeSlots = huge ? view.getUint32(statePtr + slotsAt, true) : 0;
    for (var h = 0; h < hugeSlots && k < n; h++) {
      var at = huge + h * (BLOCK.sizeof >>> 2);
      if (!words[at + BLOCK.addr / 4] || (words[at + BLOCK.serial / 4] & 0x7FFFFFFF) <= above) continue;
      if (k === room) out = moreRoom(out, room = Math.min(n, room * 2));
      out.addr[k] = layout.wordAddress(words[at + BLOCK.addr / 4]);
      out.site[k] = words[at + BLOCK.site_slack / 4] & BLOCK_SITE_MASK;
      out.size[k] = words[at + BLOCK.size / 4];
      out.serial[k] = (words[at + BLOCK.serial / 4] & serialMask) >>> 0;
      k++;
    }
  };
  fromTables(STATE.blocks + INDEX.regions, STATE.blocks + INDEX.region_count);
  if (view.getUint32(statePtr + STATE.footers, true)) {
    // footer mode (runtime/footer.h): the records are in the blocks, found
    // by a walk of dlmalloc's chunks; a block's footer is its chunk's last
    // 8 usable bytes, right before the next chunk's head
    var walkFailed = footerWalk(view, statePtr, function (q, csize) {
      var f = q + csize + 4 - FOOTER.sizeof; // (q + 4: the head; a chunk's last word is the next one's prev_foot)
      var serialWord = words[(f + FOOTER.serial) >>> 2];
      var siteWord = words[(f + FOOTER.site_slack) >>> 2];
      if ((serialWord & 0x7FFFFFFF) <= above || k === n) return;
      if (k === room) out = moreRoom(out, room = Math.min(n, room * 2));
      out.addr[k] = q + 8;
      out.site[k] = siteWord & BLOCK_SITE_MASK;
      out.size[k] = f - out.addr[k] - (siteWord >>> K.EMHEAP_SITE_BITS);
      out.serial[k] = (serialWord & serialMask) >>> 0;
      k++;
    });
    if (walkFailed) throw new Error('emheap: the recorded blocks could not be read from the heap: ' + walkFailed);
  }
  fromHuge(STATE.huge_blocks, STATE.huge_slots);
  var objectsFrom = k;
  if (withObjects) {
    fromTables(STATE.pool_objects + INDEX.regions, STATE.pool_objects + INDEX.region_count);
    fromHuge(STATE.pool_huge, STATE.pool_huge_slots);
  }
  var copied = k === out.addr.length ? out : {addr: out.addr.subarray(0, k), size: out.size.subarray(0, k),
    site: out.site.subarray(0, k), serial: out.serial.subarray(0, k)};
  copied.objectsFrom = objectsFrom; // (the pools' objects, if asked, from there on)
  return copied;
}

// Walks dlmalloc's chunks (capture/allocator_walk.js, every header checked),
// calling visit(chunk, size) for each one emheap flagged. -> null, or why
// the heap could not be read.
function footerWalk(view, statePtr, visit) {
  var heapBase = layout.readAddress(view, statePtr + STATE.heap_base);
  var walk = allocatorWalk.walkAllocator(view, 'dlmalloc', heapBase, layout.readBreak(view, statePtr), null,
    layout.readAddress(view, statePtr + STATE.dl_state), 'chunks', visit);
  return walk.error || null;
}

// At attach, before the first block is recorded: dlmalloc's malloc_state
// for the runtime's footer mode (runtime/footer.h), which a runtime with
// dlmalloc takes in exact mode when JS found it (a threaded one, where its
// mutex lies where footer.h takes it). With another allocator the runtime
// keeps its block table.
function noteDlmallocState(view, statePtr) {
  var mode = layout.readMode(view, statePtr);
  // (footer mode is wasm32's: runtime/state.c)
  if (mode.allocator !== 'dlmalloc' || layout.pointerBytes(view, statePtr) !== 4) return false;
  var heapBase = layout.readAddress(view, statePtr + STATE.heap_base);
  var found = allocatorWalk.findDlmallocState(view, readDataRange(view, statePtr), heapBase, layout.readBreak(view, statePtr));
  if (!found) return false;
  // (the high words stay 0)
  view.setUint32(statePtr + STATE.dl_state, found[0], true);
  view.setUint32(statePtr + STATE.dl_seg, allocatorWalk.segmentOf(found), true); // gm->seg
  return true;
}

// Arrays for n blocks: addresses in a Float64Array where they may pass
// 4 GiB (`wide`: a wasm64 program), else a Uint32Array.
function blockArrays(n, wide) {
  return {addr: wide ? new Float64Array(n) : new Uint32Array(n), size: new Uint32Array(n), site: new Uint32Array(n),
    serial: new Uint32Array(n)};
}

// copyBlocks' arrays, with room for n.
function moreRoom(out, n) {
  var more = blockArrays(n, out.addr instanceof Float64Array);
  ['addr', 'size', 'site', 'serial'].forEach(function (f) { more[f].set(out[f]); });
  return more;
}

// The static data [__global_base, __data_end) (runtime/roots.c notes it at
// startup, in emheap_roots), or null before the runtime started.
function readDataRange(view, statePtr) {
  var at = layout.readAddress(view, statePtr + STATE.roots);
  return at ? [layout.readAddress(view, at + ROOTS.data_lo), layout.readAddress(view, at + ROOTS.data_hi)] : null;
}

module.exports = {copyArea: copyArea, copyBlocks: copyBlocks, noteDlmallocState: noteDlmallocState,
  readDataRange: readDataRange};
