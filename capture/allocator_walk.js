// allocator_walk.js -- the allocator's own view of its heap, read from JS:
// how many bytes are free (and in how many pieces, the largest, the free
// span at the top) and how many are in use, read from the allocator's
// chunk or region headers in linear memory (dlmalloc's free chunks through
// its bins, where the heap is one segment). Nothing is called
// in wasm and nothing is written: a DataView over the memory is all it
// takes, so it also works on a copy, at an abort, or from another thread.
//
// What it reads, as Emscripten 3.1.6, 4.0.23, 5.0.7 and 6.0.8 lay it out
// in wasm32 (size_t and pointers are 4 bytes; in wasm64 dlmalloc's are 8,
// so a chunk's words and the state's size and pointer fields are 8 bytes,
// the alignment stays 8: capture/layout_generated.js has both):
//
// dlmalloc (system/lib/dlmalloc.c, 2.8.6; the same struct in all three):
//   chunk      prev_foot, head (size | FLAG4 4 | CINUSE 2 | PINUSE 1),
//              chunks 8-aligned (MALLOC_ALIGNMENT 8), at least 16 bytes
//              (MIN_CHUNK_SIZE); in use when head & 3 != PINUSE (is_inuse;
//              no mmap: HAVE_MMAP 0, so head & 3 == 0 never happens). emheap
//              itself sets FLAG4 on recorded blocks (runtime/allocator.h),
//              so sizes are always head & ~7 (chunksize).
//   segment    {base, size, next, sflags}; the list starts in the state
//              (gm->seg, the newest segment) and goes on through records
//              that add_segment writes into the old segment's last chunk,
//              followed there by fenceposts (head == 7). MORECORE is sbrk
//              and contiguous, so one segment is the rule; a second one
//              appears only when something else moved the break between
//              two of dlmalloc's sbrk calls (sys_alloc's "noncontiguous"
//              path). Nothing is ever given back (MORECORE_CANNOT_TRIM), so
//              footprint == the sum of the segment sizes.
//   top        the chunk at gm->top, size gm->topsize, PINUSE set; behind
//              it TOP_FOOT_SIZE (40) bytes up to the segment's end, whose
//              first head word reads 40 (init_top).
//   bins       every free chunk but dv and top is in one: small bin i
//              (chunks of i * 8 bytes, below 256) a ring through fd/bk
//              (words 2, 3) from its header in the state; tree bin i a trie
//              (child[0], child[1], parent: words 4-6) of rings of one size.
//   state      struct malloc_state (`_gm_`, in the static data): word 0
//              smallmap, 1 treemap (a bit per bin that holds chunks), 2
//              dvsize, 3 topsize, 4 least_addr, 5 dv, 6 top, 10 smallbins
//              (33 two-word headers), 76 treebins (32 roots), 108 footprint,
//              111 mflags, then the lock when built with USE_LOCKS (mflags
//              has USE_LOCK_BIT 2): one int (spin lock: wasm workers
//              without pthreads, 4.x) or a pthread_mutex_t of 6 words
//              (-pthread, all three versions), and then seg (word 112, 113
//              or 118) and two more words.
//
// emmalloc (system/lib/emmalloc.c):
//   region     size at both ends: bottom word the size, top word the size
//              (in use) or size | 1 (free: FREE_REGION_FLAG is only ever in
//              the top word); sizes multiples of 4, at least 16
//              (sizeof(Region)); two free regions are never adjacent. In
//              wasm64 the words are size_t's 8 bytes, sizes multiples of 8,
//              at least 32.
//   root       each block emmalloc took from sbrk starts with a root region
//              (a used region of 16 bytes, or more once an aligned
//              allocation pushed its end up) whose words 1 and 2 are `next`
//              (the previous root, or 0) and `endPtr` (the block's end),
//              and ends with a used sentinel region (16 bytes; 4.x's
//              malloc_trim may leave up to 31). A block extended
//              contiguously swallows its old sentinel. The list of roots
//              starts at the static `listOfAllRegions`, newest first; the
//              oldest root is where emmalloc's first sbrk started, the
//              initial break, which is __heap_base (sbrk.c: sbrk_val starts
//              there) when nothing else called sbrk before emmalloc's
//              constructor (priority 47). 3.1.6 keeps the same words in a
//              plain Region (uint32_t[1], [2]); 4.x names them RootRegion.
//
// What is counted: free and in-use chunks / regions at their full size
// (headers included, what chunksize() and region->size say). The top span
// is reported apart (topFreeBytes) and not in freeBytes/freeBlocks.
// Allocator overhead that is neither (dlmalloc: the gap before a segment's
// first chunk, TOP_FOOT_SIZE, segment records and fenceposts; emmalloc:
// root and sentinel regions) goes to overheadBytes, so that in-use + free
// + top + overhead is exactly the memory the allocator holds. Any header
// that disagrees with another (a zero or misaligned size, a chunk running
// past its segment or the break, a footer not matching, more steps than
// the memory can hold) gives {error} instead of numbers: with threads the
// memory may be read while another thread is half way through a malloc.
'use strict';

// dlmalloc's chunks and malloc_state (runtime/dlmalloc_state.h, laid out
// by capture/layout_generated.js for each width): sizes and offsets in
// bytes. A wasm64 heap is the same structs with size_t and pointers of 8
// bytes (chunk heads, links, sizes); only smallmap, treemap and mflags stay
// 4-byte words.
var L = require('./layout_generated');

// The layout of one width: P is sizeof(size_t) (4 or 8); segOptions are
// where seg may lie after mflags, by whether mflags says there is a lock
// (runtime/dlmalloc_state.h DL_SEG_*; wasm64's -pthread offset depends on
// the Emscripten version, runtime/layout.js, so after a lock every
// aligned offset a 40- or 48-byte mutex gives is tried: the shape decides).
function dlLayout(table, P) {
  var K = table.constants;
  var lock = P === 4 ? [K.DL_SEG_SPIN_LOCK, K.DL_SEG_PTHREAD_LOCK]
    : [K.DL_SEG_SPIN_LOCK, K.DL_SEG_NO_LOCK + 40, K.DL_SEG_NO_LOCK + 48];
  return {P: P, S: table.emheap_dl_state, SEG: table.emheap_dl_segment, tail: table.emheap_dl_state_tail.sizeof,
    minChunk: K.DL_MIN_CHUNK, topFoot: K.DL_TOP_FOOT, fencepost: K.DL_FENCEPOST, segRecord: K.DL_SEG_RECORD,
    flag4: K.DL_FLAG4, useLockBit: K.DL_USE_LOCK_BIT, nbins: K.DL_NSMALLBINS,
    segOptions: {none: [K.DL_SEG_NO_LOCK], lock: lock},
    read: P === 4 ? readSize32 : readSize64};
}

// A size_t of the memory as 32-bit words (wordArray) at byte address a (P-aligned).
function readSize32(words, a) { return words[a >>> 2]; }
function readSize64(words, a) { var i = a / 4; return words[i] + words[i + 1] * 4294967296; }

var DL32 = dlLayout(L, 4);
var DL64 = dlLayout(L.wasm64, 8);
function dlFor(pointerBytes) { return pointerBytes === 8 ? DL64 : DL32; }

var EM_FREE_FLAG = 1; // emmalloc's mark of a free region, in its closing size

function isAddr(x) { return typeof x === 'number' && x >= 0 && x <= Number.MAX_SAFE_INTEGER && Math.floor(x) === x; }

// A bounds-checked little-endian reader of `bytes`-byte words (4, or 8 for
// a wasm64 size_t): -1 for anything outside the memory or not aligned (no
// valid header or pointer reads as -1).
function wordReader(view, bytes) {
  var n = view.byteLength;
  if (bytes === 8) {
    return function (a) {
      return a >= 0 && a + 8 <= n && a % 8 === 0 ? view.getUint32(a, true) + view.getUint32(a + 4, true) * 4294967296 : -1;
    };
  }
  return function (a) { return a >= 0 && a + 4 <= n && a % 4 === 0 ? view.getUint32(a, true) : -1; };
}

// The memory as 32-bit words, for the chunk and region walks' loops, which
// read a word only where they have checked that it lies inside the segment
// or block: a view over its buffer where the machine is little-endian, as
// the wasm memory is (every browser's machine); a copy otherwise.
function wordArray(view) {
  if (LITTLE_ENDIAN && view.byteOffset % 4 === 0) return new Uint32Array(view.buffer, view.byteOffset, Math.floor(view.byteLength / 4));
  var words = new Uint32Array(Math.floor(view.byteLength / 4));
  for (var i = 0; i < words.length; i++) words[i] = view.getUint32(i * 4, true);
  return words;
}

var LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

// The words that follow malloc_state's mflags are the lock (if any) and
// then gm->seg: which of the layouts this is, told by USE_LOCK_BIT in
// mflags and by seg having the shape of a segment (a pthread mutex's
// words 1-3 are a lock word, a waiter count and a list pointer, never a
// base at or above least_addr with a size that stays below the break).
// -> seg's byte offset in the state, or -1.
function dlmallocSegOffset(DL, at, word, word32, heapBase, breakNow) {
  var mflags = word32(at + DL.S.mflags);
  if (mflags < 0 || (mflags & ~6) !== 0) return -1; // USE_LOCK_BIT 2 | USE_NONCONTIGUOUS_BIT 4 only
  var least = word(at + DL.S.least_addr);
  var top = word(at + DL.S.top);
  var options = (mflags & DL.useLockBit) ? DL.segOptions.lock : DL.segOptions.none;
  for (var i = 0; i < options.length; i++) {
    var s = at + options[i];
    var base = word(s + DL.SEG.base);
    var size = word(s + DL.SEG.size);
    var next = word(s + DL.SEG.next);
    if (base < heapBase || size <= 0 || next < 0 || base + size > breakNow) continue;
    // one segment: seg.base is least_addr; more: the newest, above it
    if (base === least || (next !== 0 && base > least)) {
      if (top >= least && top < breakNow) return options[i];
    }
  }
  return -1;
}

// dlmalloc's malloc_state (its `_gm_`, in the static data) found by its
// shape, as [start, end) (its first segment record, seg, is the end's last
// emheap_dl_state_tail: segmentOf) or null (system/lib/dlmalloc.c struct
// malloc_state; the heap scan leaves it out: capture/heap_scan.js):
// least_addr is the first address dlmalloc took from sbrk, top lies
// between it and the break, and seg.base repeats least_addr (or, with more
// than one segment, seg is the newest one above it); the struct ends at
// seg's tail. seg is looked for where each build puts it (wasm32: after
// mflags with no lock, after a spin lock, or after a pthread_mutex_t of 24
// bytes: -pthread builds of 3.1.6, 4.0.23 and 5.0.7 set USE_SPIN_LOCKS 0),
// and mflags must agree. pointerBytes: 4 (wasm32, the default) or 8.
function findDlmallocState(view, data, heapBase, breakNow, pointerBytes) {
  if (!view || !data || !isAddr(data[0]) || !isAddr(data[1])) return null;
  var DL = dlFor(pointerBytes);
  var word = wordReader(view, DL.P);
  var word32 = wordReader(view, 4);
  var end = Math.min(data[1], view.byteLength);
  for (var s = Math.ceil(data[0] / DL.P) * DL.P; s + DL.segOptions.none[0] + DL.tail <= end; s += DL.P) {
    var least = word(s + DL.S.least_addr);
    if (least < heapBase || least >= heapBase + 4096) continue;
    var top = word(s + DL.S.top);
    if (top < least || top >= breakNow) continue;
    var seg = dlmallocSegOffset(DL, s, word, word32, heapBase, breakNow);
    if (seg < 0 || s + seg + DL.tail > end) continue;
    return [s, s + seg + DL.tail];
  }
  return null;
}

// Where the first segment record (gm->seg) of the malloc_state that
// findDlmallocState found lies.
function segmentOf(found, pointerBytes) { return found[1] - dlFor(pointerBytes).tail; }

function fail(why) { return {error: why}; }

function walkDlmalloc(view, heapBase, breakNow, dataRange, stateAt, how, onFlagged, pointerBytes) {
  var DL = dlFor(pointerBytes);
  var P = DL.P;
  var word = wordReader(view, P);
  var word32 = wordReader(view, 4);
  var at;
  if (isAddr(stateAt) && stateAt > 0) at = stateAt;
  else if (stateAt && isAddr(stateAt[0]) && stateAt[0] > 0) at = stateAt[0];
  else {
    var found = findDlmallocState(view, dataRange, heapBase, breakNow, P);
    if (!found) return fail('dlmalloc: malloc_state not found in the static data (not initialized yet?)');
    at = found[0];
  }
  if (at % P) return fail('dlmalloc: malloc_state address not aligned');
  var segAt = dlmallocSegOffset(DL, at, word, word32, heapBase, breakNow);
  if (segAt < 0) return fail('dlmalloc: no malloc_state at ' + at);
  var top = word(at + DL.S.top);
  var topsize = word(at + DL.S.topsize);
  var dv = word(at + DL.S.dv);
  var dvsize = word(at + DL.S.dvsize);
  var footprint = word(at + DL.S.footprint);
  if (top === 0) return fail('dlmalloc: not initialized (top is 0)');
  if (word(at + DL.S.magic) === 0) return fail('dlmalloc: malloc_state magic is 0');
  if ((top & 7) || topsize <= 0 || (topsize & 7)) return fail('dlmalloc: top or topsize misaligned');

  // every step advances at least a minimal chunk (or is one more segment)
  var budget = Math.floor((breakNow - heapBase) / DL.minChunk) + 8;

  // the segments, newest (gm->seg) first
  var segs = [];
  var records = {}; // chunk2mem of each segment-record chunk: overhead, not a block
  var total = 0;
  for (var s = at + segAt; s !== 0;) {
    if (--budget < 0) return fail('dlmalloc: too many segments');
    var base = word(s + DL.SEG.base);
    var size = word(s + DL.SEG.size);
    var next = word(s + DL.SEG.next);
    if (base < heapBase || size <= 0 || next < 0 || base + size > breakNow) return fail('dlmalloc: segment at ' + s + ' outside [heap base, break)');
    for (var k = 0; k < segs.length; k++) {
      if (base < segs[k].end && segs[k].base < base + size) return fail('dlmalloc: segments overlap');
    }
    segs.push({base: base, end: base + size});
    total += size;
    if (next !== 0) {
      if ((next & 7) || next < heapBase || next + DL.SEG.sizeof > breakNow) return fail('dlmalloc: segment link at ' + next + ' not in the heap');
      records[next] = true;
    }
    s = next;
  }
  if (total !== footprint) return fail('dlmalloc: segments hold ' + total + ' bytes, footprint says ' + footprint);

  var out = {allocator: 'dlmalloc', freeBytes: 0, freeBlocks: 0, largestFreeBytes: topsize, topFreeBytes: topsize,
    inUseBytes: 0, overheadBytes: 0, segments: segs.length, topEndsAtBreak: false, stateAt: at, how: 'chunks'};
  var walk = {DL: DL, words: wordArray(view), at: at, top: top, topsize: topsize, dv: dv, dvsize: dvsize, records: records,
    budget: budget, topSeen: false, dvSeen: dvsize === 0, onFlagged: onFlagged || null,
    smallmap: word32(at + DL.S.smallmap), treemap: word32(at + DL.S.treemap)};
  if (segs.length === 1 && how !== 'chunks' && !onFlagged) {
    out.how = 'bins';
    var whyNot = walkDlmallocBins(walk, segs[0].base, segs[0].end, out);
    if (whyNot) return fail('dlmalloc: ' + whyNot);
    out.topEndsAtBreak = segs[0].end === breakNow;
    return out;
  }
  out.inUseBlocks = 0;
  segs.sort(function (a, b) { return a.base - b.base; });
  for (var i = 0; i < segs.length; i++) {
    var why = walkDlmallocSegment(walk, segs[i].base, segs[i].end, out);
    if (why) return fail('dlmalloc: ' + why);
    if (segs[i].end === breakNow && top >= segs[i].base && top < segs[i].end) out.topEndsAtBreak = true;
  }
  if (!walk.topSeen) return fail('dlmalloc: top not reached');
  if (!walk.dvSeen) return fail('dlmalloc: dv not found among the free chunks');
  return out;
}

// The chunks of one segment [base, end), counted into `out`; walk: {DL,
// words (wordArray), top, topsize, dv, dvsize, records, budget, topSeen,
// dvSeen}, updated. -> null, or what did not fit. A loop of its own that
// reads the words directly: a walk of 5M chunks (node 20) took 44-49 ms
// so, 55-105 ms inside walkDlmalloc through wordReader (a call and a
// DataView read a word). A chunk is prev_foot, head (P bytes each), its
// payload at 2P.
function walkDlmallocSegment(walk, base, end, out) {
  var DL = walk.DL;
  var read = DL.read;
  var P = DL.P;
  var words = walk.words;
  var top = walk.top;
  var holdsTop = top >= base && top < end;
  var records = walk.records;
  var budget = walk.budget;
  var onFlagged = walk.onFlagged;
  var inUseBytes = 0;
  var inUseBlocks = 0;
  // align_as_chunk(base): the first chunk's payload 8-aligned
  var q = base + ((8 - ((base + 2 * P) & 7)) & 7);
  out.overheadBytes += q - base;
  var nextHead = -1; // the head of the chunk at q, when read as the one after
  for (;;) {
    if (--budget < 0) return 'too many chunks';
    if (q === top) {
      // (q is always in [base, end): here the segment holds top)
      var topWrong = checkTop(walk, end);
      if (topWrong) return topWrong;
      out.overheadBytes += DL.topFoot;
      walk.topSeen = true;
      break;
    }
    if (q + 2 * P > end) return 'chunk at ' + q + ' runs past its segment';
    // q + 2P <= end: inside the segment; the chunk before read it already
    var head = nextHead >= 0 ? nextHead : read(words, q + P);
    if (head === DL.fencepost) {
      // an older segment ends with its record (counted below) and fenceposts
      if (holdsTop) return 'fencepost before top at ' + q;
      out.overheadBytes += end - q;
      break;
    }
    var csize = head - (head & 7);
    if (csize < DL.minChunk || (q & 7)) return 'chunk at ' + q + ' has size ' + csize;
    var nq = q + csize;
    if (nq + 2 * P > end || (holdsTop && q < top && nq > top)) return 'chunk at ' + q + ' runs past its segment';
    nextHead = read(words, nq + P);
    var bits = head & 3;
    if (bits === 0) return 'chunk at ' + q + ' neither in use nor after one in use';
    if (bits === 1) { // free: its size repeated in the next chunk's prev_foot, next's PINUSE clear
      if (read(words, nq) !== csize || (nextHead & 1)) return 'free chunk at ' + q + ' has no matching foot';
      if (q === walk.dv) {
        if (csize !== walk.dvsize) return 'dv size disagrees';
        walk.dvSeen = true;
      }
      out.freeBytes += csize;
      out.freeBlocks++;
      if (csize > out.largestFreeBytes) out.largestFreeBytes = csize;
    } else { // in use: the next chunk's PINUSE set
      if (!(nextHead & 1)) return 'in-use chunk at ' + q + ' followed by PINUSE clear';
      if (csize === DL.segRecord && records[q + 2 * P]) out.overheadBytes += csize;
      else {
        inUseBytes += csize; // locals, not out's fields: the loop's hottest lines
        inUseBlocks++;
        if (onFlagged && (head & DL.flag4)) onFlagged(q, csize);
      }
    }
    q = nq;
  }
  walk.budget = budget;
  out.inUseBytes += inUseBytes;
  out.inUseBlocks += inUseBlocks;
  return null;
}

// The free chunks as dlmalloc's bins hold them, not every chunk: what it
// costs is the free chunks' number, not the live blocks' (the walk of
// every chunk of 5M live blocks took 31-97 ms of the page's task at
// Ctrl+Shift+H). For a heap of one segment: its in-use bytes are then
// what the segment holds less the free chunks, the top and the overhead
// (with more segments, walkDlmallocSegment's walk of every chunk).
// Every free chunk but the designated victim (dv) and top is in a bin
// (dlmalloc.c insert_chunk): small bin i holds the chunks of i * 8 bytes
// in a ring through fd/bk (at 2P, 3P) that starts at the bin's header in
// the state; tree bin i, chunks of 256 bytes and more in its size range,
// in a trie (child[0], child[1], parent at 4P, 5P, 6P) whose nodes each
// head a ring of chunks of the node's size. Each chunk is checked as the
// walk of every chunk checks it (free, its foot, the next chunk's PINUSE
// clear, between the first chunk and top), each ring's links both ways,
// each node's parent, each bin against smallmap and treemap, each chunk's
// size against its bin. walk: as walkDlmallocSegment's, plus smallmap,
// treemap, at. -> null, or what did not fit.
function walkDlmallocBins(walk, base, end, out) {
  var DL = walk.DL;
  var read = DL.read;
  var P = DL.P;
  var FD = 2 * P, BK = 3 * P, PARENT = 6 * P;
  var words = walk.words;
  var top = walk.top;
  var first = base + ((8 - ((base + 2 * P) & 7)) & 7);
  if (!(top >= first && top < end)) return 'top not in the segment';
  // a free chunk at p, counted: its size, or -1 (and `why` says what)
  var freeChunk = function (p) {
    if (--walk.budget < 0) return fail1('too many free chunks (a ring that does not close?)');
    if ((p & 7) || p < first || p + DL.minChunk > top) return fail1('free chunk at ' + p + ' outside [first chunk, top)');
    var head = read(words, p + P);
    var size = head - (head & 7);
    if ((head & 3) !== 1 || size < DL.minChunk || p + size > top) return fail1('free chunk at ' + p + ' has head ' + head);
    if (read(words, p + size) !== size || (read(words, p + size + P) & 1)) return fail1('free chunk at ' + p + ' has no matching foot');
    out.freeBytes += size;
    out.freeBlocks++;
    if (size > out.largestFreeBytes) out.largestFreeBytes = size;
    return size;
  };
  var why = null;
  function fail1(text) { why = text; return -1; }
  // the small bins: bin i's header is a chunk at smallbins[2i] of the
  // state, whose fd and bk are the ring's first and last while smallmap's
  // bit i says the bin holds chunks. With the bit clear they are not read:
  // when malloc takes the last chunk of a bin, dlmalloc clears the bit and
  // leaves fd and bk pointing at that chunk, in use now
  // (unlink_small_chunk, unlink_first_small_chunk: `if (B == F)
  // clear_smallmap(M, I)`); insert_small_chunk sets them again with the bit.
  for (var i = 0; i < DL.nbins; i++) {
    if (!((walk.smallmap >>> i) & 1)) continue;
    var bin = walk.at + DL.S.smallbins + 2 * i * P;
    var prev = bin;
    for (var p = read(words, bin + FD); p !== bin; p = read(words, p + FD)) {
      var size = freeChunk(p);
      if (size < 0) return why;
      if (size !== i * 8) return 'chunk of ' + size + ' bytes in small bin ' + i;
      if (read(words, p + BK) !== prev) return 'small bin ' + i + ': broken ring at ' + p;
      prev = p;
    }
    if (read(words, bin + BK) !== prev) return 'small bin ' + i + ': broken ring at its header';
    if (prev === bin) return 'smallmap says small bin ' + i + ' holds chunks, and it holds none';
  }
  // the tree bins
  for (var t = 0; t < DL.nbins; t++) {
    var slot = walk.at + DL.S.treebins + t * P;
    var root = read(words, slot);
    if (((walk.treemap >>> t) & 1) !== (root !== 0 ? 1 : 0)) return 'treemap disagrees with tree bin ' + t;
    var nodes = root ? [root, slot] : [];
    while (nodes.length) {
      var parent = nodes.pop();
      var node = nodes.pop();
      var nodeSize = freeChunk(node);
      if (nodeSize < 0) return why;
      if (treeIndex(nodeSize, DL.nbins) !== t) return 'chunk of ' + nodeSize + ' bytes in tree bin ' + t;
      if (read(words, node + PARENT) !== parent) return 'tree bin ' + t + ': node at ' + node + ' has another parent';
      var last = node;
      for (var u = read(words, node + FD); u !== node; u = read(words, u + FD)) {
        if (freeChunk(u) !== nodeSize) return why || 'tree bin ' + t + ': chunks of two sizes in one ring at ' + u;
        if (read(words, u + BK) !== last || read(words, u + PARENT) !== 0) return 'tree bin ' + t + ': broken ring at ' + u;
        last = u;
      }
      if (read(words, node + BK) !== last) return 'tree bin ' + t + ': broken ring at ' + node;
      for (var c = 4 * P; c <= 5 * P; c += P) {
        var child = read(words, node + c);
        if (child) nodes.push(child, node);
      }
    }
  }
  if (walk.dvsize) {
    if (freeChunk(walk.dv) !== walk.dvsize) return why || 'dv size disagrees';
  }
  var topWrong = checkTop(walk, end);
  if (topWrong) return topWrong;
  out.overheadBytes += first - base + DL.topFoot;
  out.inUseBytes = end - base - out.overheadBytes - out.freeBytes - walk.topsize;
  if (out.inUseBytes < 0) return 'the free chunks hold more than the segment';
  return null;
}

// The top chunk, then TOP_FOOT_SIZE to the end of its segment (init_top):
// -> null, or what did not fit. walk: as walkDlmallocSegment's.
function checkTop(walk, end) {
  var DL = walk.DL;
  var top = walk.top;
  var topsize = walk.topsize;
  if (top + topsize + DL.topFoot !== end) return 'top (' + topsize + ' bytes) does not end ' + DL.topFoot + ' bytes before its segment';
  var th = DL.read(walk.words, top + DL.P);
  if (th - (th & 7) !== topsize || !(th & 1)) return 'top head disagrees with topsize';
  if (DL.read(walk.words, top + topsize + DL.P) !== DL.topFoot) return 'no top foot after top';
  return null;
}

// dlmalloc.c compute_tree_index: the tree bin of a chunk of `size` bytes
// (256 and more): two bins per power of two, the last from 2^24 up.
function treeIndex(size, nbins) {
  if (size >= 0x1000000) return nbins - 1;
  var x = size >>> 8;
  if (x === 0) return 0;
  var k = 31 - Math.clz32(x);
  return (k << 1) + ((size >>> (k + 7)) & 1);
}

// emmalloc's sizes and root fields by width: P is sizeof(size_t), a
// region's size field at each end; sizeof(Region) (size, prev, next, and
// the closing size) is the smallest region; a RootRegion's next and endPtr
// are its second and third words of P bytes (its uint32_t size takes the
// first, padded); a region's free payload is its size less both size
// fields (REGION_HEADER_SIZE).
function emLayout(P) {
  return {P: P, minRegion: 4 * P, align: P - 1, read: P === 4 ? readSize32 : readSize64};
}
var EM32 = emLayout(4);
var EM64 = emLayout(8);

// A root region at r: a used region (size at both ends) whose second and
// third words are next and endPtr; the block holds at least the root and
// a sentinel.
function emmallocRoot(EM, word, r, heapBase, breakNow) {
  var P = EM.P;
  if ((r & EM.align) || r < heapBase || r + 2 * EM.minRegion > breakNow) return null;
  var size = word(r);
  if (size < EM.minRegion || (size & EM.align) || r + size > breakNow) return null;
  if (word(r + size - P) !== size) return null;
  var next = word(r + P);
  var end = word(r + 2 * P);
  if (end < 0 || (end & EM.align) || end < r + size + EM.minRegion || end > breakNow) return null;
  if (next < 0 || (next !== 0 && ((next & EM.align) || next < heapBase || next >= r))) return null;
  return {at: r, next: next, end: end};
}

// listOfAllRegions's chain from root address h, oldest first, or null
function emmallocChain(EM, word, h, heapBase, breakNow, limit) {
  var chain = [];
  for (var r = h; r !== 0;) {
    if (chain.length > limit) return null;
    var root = emmallocRoot(EM, word, r, heapBase, breakNow);
    if (!root) return null;
    if (chain.length && root.end > chain[chain.length - 1].at) return null; // older blocks lie lower
    chain.push(root);
    r = root.next;
  }
  return chain.reverse();
}

// The roots, oldest first. The oldest starts at the initial break
// (__heap_base, rounded up to the alignment sbrk keeps: 4 in 3.1.6, 8 in
// 4.x); if its block does not reach the break, something else took memory
// from sbrk and later blocks can only be found through listOfAllRegions,
// looked for in the static data: the highest word there that heads a
// valid chain down to the oldest root (a stale pointer to an older root
// would give a shorter chain, a pointer to a user block no chain).
function emmallocRoots(EM, word, heapBase, breakNow, dataRange, limit) {
  var first = null;
  var starts = [heapBase, Math.ceil(heapBase / 4) * 4, Math.ceil(heapBase / 8) * 8, Math.ceil(heapBase / 16) * 16];
  for (var i = 0; i < starts.length && !first; i++) {
    var r = emmallocRoot(EM, word, starts[i], heapBase, breakNow);
    if (r && r.next === 0) first = r;
  }
  if (first && first.end === breakNow) return [first];
  if (!dataRange || !isAddr(dataRange[0]) || !isAddr(dataRange[1])) return null;
  var best = null;
  var from = first ? first.at : heapBase;
  for (var a = Math.ceil(dataRange[0] / EM.P) * EM.P; a + EM.P <= dataRange[1]; a += EM.P) {
    var v = word(a);
    if (v < from || v >= breakNow || (v & EM.align) || (best && v <= best[best.length - 1].at)) continue;
    var chain = emmallocChain(EM, word, v, heapBase, breakNow, limit);
    if (chain && (!first || chain[0].at === first.at)) best = chain;
  }
  return best;
}

function walkEmmalloc(view, heapBase, breakNow, dataRange, pointerBytes) {
  var EM = pointerBytes === 8 ? EM64 : EM32;
  var P = EM.P;
  var read = EM.read;
  var word = wordReader(view, P);
  var budget = Math.floor((breakNow - heapBase) / EM.minRegion) + 8;
  var roots = emmallocRoots(EM, word, heapBase, breakNow, dataRange, budget);
  if (!roots) return fail('emmalloc: no root region at the heap base, and listOfAllRegions not found in the static data');
  var out = {allocator: 'emmalloc', freeBytes: 0, freeBlocks: 0, largestFreeBytes: 0, topFreeBytes: 0,
    inUseBytes: 0, inUseBlocks: 0, overheadBytes: 0, segments: roots.length, topEndsAtBreak: false};
  var words = wordArray(view);
  var inUseBytes = 0;
  var inUseBlocks = 0;
  for (var i = 0; i < roots.length; i++) {
    var end = roots[i].end;
    var r = roots[i].at;
    var prevFree = false;
    var lastSize = 0; // the size of the region before the current one
    for (;;) {
      if (--budget < 0) return fail('emmalloc: too many regions');
      // r is P-aligned and below end (<= the break): the root was checked,
      // every region after it starts where a checked one ended
      var size = read(words, r);
      if (size < EM.minRegion || (size & EM.align)) return fail('emmalloc: region at ' + r + ' has size ' + size);
      if (r + size > end) return fail('emmalloc: region at ' + r + ' runs past its block (' + end + ')');
      var ceiling = read(words, r + size - P);
      var free = ceiling === size + EM_FREE_FLAG;
      if (!free && ceiling !== size) return fail('emmalloc: region at ' + r + ' has ' + size + ' at the bottom, ' + ceiling + ' at the top');
      if (free && prevFree) return fail('emmalloc: two free regions next to each other at ' + r);
      var isRoot = r === roots[i].at;
      var isSentinel = r + size === end;
      if (isRoot && free) return fail('emmalloc: root region at ' + r + ' is free');
      if (isSentinel) {
        if (free) return fail('emmalloc: block ending at ' + end + ' has no sentinel');
        out.overheadBytes += size;
        if (!isRoot && prevFree && end === breakNow) {
          // the free region just under the top sentinel: the top span
          out.freeBytes -= lastSize;
          out.freeBlocks--;
          out.topFreeBytes = lastSize;
          out.topEndsAtBreak = true;
        }
        break;
      }
      if (isRoot) out.overheadBytes += size;
      else if (free) {
        out.freeBytes += size;
        out.freeBlocks++;
        if (size > out.largestFreeBytes) out.largestFreeBytes = size;
      } else {
        inUseBytes += size;
        inUseBlocks++;
      }
      prevFree = free;
      lastSize = size;
      r += size;
    }
  }
  out.inUseBytes = inUseBytes;
  out.inUseBlocks = inUseBlocks;
  return out;
}

// The allocator's heap as it stands in `view` (a DataView over the whole
// wasm memory): {allocator, freeBytes, freeBlocks, largestFreeBytes,
// topFreeBytes, inUseBytes, inUseBlocks, overheadBytes, segments,
// topEndsAtBreak} (and dlmalloc's stateAt and `how`), or {error} saying
// what did not fit. `allocator`: 'dlmalloc' or 'emmalloc'; heapBase:
// __heap_base; breakNow: the sbrk break; dataRange: [start, end) of the
// static data (where `_gm_` and `listOfAllRegions` live); dlmallocStateAt:
// the malloc_state's address, or findDlmallocState's [start, end), when
// known. how (dlmalloc): 'chunks' walks every chunk; else a heap of one
// segment is read through its free bins (how: 'bins'), which does not
// count the blocks in use (no inUseBlocks). onFlagged (dlmalloc; every
// chunk is walked then): called as onFlagged(chunk, size) for each chunk
// in use with FLAG4 set, in address order, once every header before it
// was checked. pointerBytes: 4 (wasm32, the default) or 8 (wasm64).
function walkAllocator(view, allocator, heapBase, breakNow, dataRange, dlmallocStateAt, how, onFlagged, pointerBytes) {
  try {
    if (!view || typeof view.getUint32 !== 'function') return fail('no memory to read');
    if (!isAddr(heapBase) || !isAddr(breakNow) || heapBase > breakNow || breakNow > view.byteLength) {
      return fail('heap base ' + heapBase + ' and break ' + breakNow + ' do not fit the memory (' + view.byteLength + ' bytes)');
    }
    if (allocator === 'dlmalloc') return walkDlmalloc(view, heapBase, breakNow, dataRange, dlmallocStateAt, how, onFlagged, pointerBytes);
    if (allocator === 'emmalloc') return walkEmmalloc(view, heapBase, breakNow, dataRange, pointerBytes);
    return fail('allocator ' + allocator + ' is not walked (only dlmalloc and emmalloc)');
  } catch (e) {
    return fail('reading the heap failed: ' + (e && e.message));
  }
}

module.exports = {walkAllocator: walkAllocator, findDlmallocState: findDlmallocState, segmentOf: segmentOf};
