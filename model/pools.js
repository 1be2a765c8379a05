// pools.js -- the program's pools (runtime/pools.c: objects of its own
// allocators, told through emheap.h's pool calls or Valgrind's mempool
// requests) as every reader names and sums them: `emheap top`'s header,
// the report, the memory line and the page's summary say the same.
//
// A snapshot's sites hold the objects (site.pool) and, per pool, the room
// inside its chunks that no object takes (the chunk site, no stack): so
// the sites add up to the heap. snapshot.pools says per pool how many
// objects and bytes live, and in how many chunks of how many bytes.
'use strict';

var numbers = require('./numbers');

var formatBytes = numbers.formatBytes;
var plural = numbers.plural;

// How a pool is called: its name, or its number and where it was made.
function poolName(pool) {
  if (pool.name) return pool.name;
  return '#' + pool.number + (pool.createdIn ? ' made in ' + pool.createdIn : '');
}

// The row of a pool's chunk site.
function chunkRowLabel(pool) {
  return '(pool ' + poolName(pool) + ': free inside its chunks)';
}

// The pools that hold something: live ones, and destroyed ones whose
// chunks are still there.
function shownPools(snapshot) {
  return (snapshot.pools || []).filter(function (p) { return p.objects > 0 || p.chunks > 0 || p.live; });
}

// All pools together: {objects, bytes, freeInside, outsideBytes}, or null
// when the snapshot has none.
function poolTotals(snapshot) {
  var pools = snapshot.pools || [];
  if (!pools.length) return null;
  var t = {objects: 0, bytes: 0, freeInside: 0, outsideBytes: 0};
  pools.forEach(function (p) {
    t.objects += p.objects;
    t.bytes += p.bytes;
    t.freeInside += p.chunkBytes - (p.bytes - p.outsideBytes);
    t.outsideBytes += p.outsideBytes;
  });
  return t;
}

// One pool in words: "pool frame arena: 100 objects, 3.91 KiB, in 1 chunk
// of 64.00 KiB (60.09 KiB free inside)".
function poolText(p) {
  var text = 'pool ' + poolName(p) + (p.live ? '' : ' (destroyed)') + ': ' + plural(p.objects, 'object') + ', ' +
    formatBytes(p.bytes);
  var inside = p.bytes - p.outsideBytes;
  if (p.chunks) {
    text += ', in ' + plural(p.chunks, 'chunk') + ' of ' + formatBytes(p.chunkBytes) + ' (' +
      formatBytes(p.chunkBytes - inside) + ' free inside)';
  }
  if (p.outsideObjects) {
    text += (p.chunks ? '; ' : ', ') + (p.outsideObjects === p.objects ? 'all' : plural(p.outsideObjects, 'object')) +
      ' outside any heap block emheap recorded (' + formatBytes(p.outsideBytes) + ': a static buffer, or memory from elsewhere)';
  }
  if (p.lost) text += '; ' + plural(p.lost, 'object') + ' could not be recorded';
  return text;
}

// The header's lines, one per pool shown (the first `most`), and one more
// when more pools were left out.
function poolLines(snapshot, most) {
  var pools = shownPools(snapshot);
  var shown = pools.slice(0, most || pools.length);
  var lines = shown.map(poolText);
  if (pools.length > shown.length) lines.push('and ' + plural(pools.length - shown.length, 'more pool'));
  return lines;
}

// A pool allocator whose objects emheap does not see: an allocation layer
// was found (model/wrappers.js), and many live heap blocks of about one size
// (UNSEEN_MIN_SIZE or more, within a quarter of each other) are charged to
// many functions, each to whichever call happened to open it: the arenas
// of a pool (QuickJS's small-block allocator: 535 blocks of ~4 KiB at
// JS_NewObjectFromShape, and more at a dozen other functions). -> one line,
// or '' (a pool annotated, or none there).
var UNSEEN_MIN_SIZE = 1024;
var UNSEEN_MIN_BLOCKS = 64;
var UNSEEN_MIN_FUNCTIONS = 8;
function unseenPoolNote(snapshot) {
  var w = snapshot.wrappers;
  if (!w || !(w.detected || []).concat(w.declared || []).length) return '';
  var big = snapshot.sites.filter(function (s) {
    return !s.pool && s.liveBlocks > 0 && s.stack.length && s.liveBytes / s.liveBlocks >= UNSEEN_MIN_SIZE;
  });
  if (!big.length) return '';
  // the size most of those blocks have: the site holding the most of them
  var most = big.reduce(function (a, s) { return s.liveBlocks > a.liveBlocks ? s : a; });
  var size = most.liveBytes / most.liveBlocks;
  var like = big.filter(function (s) {
    var avg = s.liveBytes / s.liveBlocks;
    return avg >= 0.75 * size && avg <= 1.25 * size;
  });
  var blocks = like.reduce(function (n, s) { return n + s.liveBlocks; }, 0);
  var bytes = like.reduce(function (n, s) { return n + s.liveBytes; }, 0);
  var functions = new Set(like.map(function (s) { return snapshot.frames[s.stack[0]].name; }));
  if (blocks < UNSEEN_MIN_BLOCKS || functions.size < UNSEEN_MIN_FUNCTIONS) return '';
  return 'this looks like a pool allocator whose objects are not seen: ' + numbers.formatCount(blocks) +
    ' live blocks of about ' + formatBytes(size) + ' (' + formatBytes(bytes) + ') at ' + plural(functions.size, 'function') +
    ', each charged to the call that opened it; told of its objects, emheap shows them instead (docs/pools.md)';
}

module.exports = {unseenPoolNote: unseenPoolNote, chunkRowLabel: chunkRowLabel, poolTotals: poolTotals, poolText: poolText,
  poolLines: poolLines};
