// sharded_map.js -- a Map for a million keys in a page: 256 Maps chosen by
// a hash of the key, so that no insertion ever rehashes more than a 256th
// of the entries.
//
// Why: a V8 Map doubles its table when full and rehashes every entry in one
// uninterruptible call. Measured under node 20: the set() that takes a Map
// past 1,048,576 entries (string or integer keys) takes 230 ms; in headless
// Chromium it was a 100-150 ms task in the middle of a snapshot built in
// slices (1M sites), where every other step is under 30 ms. Here the
// largest rehash at 1M keys is of ~4,000 entries.
//
// Keys are strings or numbers (any number: integers up to 2^53 and others);
// the same key always picks the same shard, so get/set/has behave as one
// Map's. Iteration order is not insertion order: no user of this needs it.
'use strict';

var SHARD_BITS = 8;
var SHARDS = 1 << SHARD_BITS;

function ShardedMap() {
  this.shards = new Array(SHARDS);
  for (var i = 0; i < SHARDS; i++) this.shards[i] = new Map();
  this.size = 0;
}

// A few characters from the end (stack identities like "12,305,77" differ
// there; their beginnings are shared roots) and the length, or the number's
// two 32-bit halves, mixed into SHARD_BITS bits.
function shardOf(key) {
  var h;
  if (typeof key === 'number') {
    h = (key | 0) ^ Math.imul((key / 4294967296) | 0, 0x85ebca77);
  } else {
    var s = String(key);
    h = s.length;
    for (var i = s.length - 1, stop = Math.max(0, s.length - 8); i >= stop; i--) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  }
  h = Math.imul(h ^ (h >>> 16), 0x9e3779b1);
  return h >>> (32 - SHARD_BITS);
}

ShardedMap.prototype.get = function (key) {
  return this.shards[shardOf(key)].get(key);
};

ShardedMap.prototype.has = function (key) {
  return this.shards[shardOf(key)].has(key);
};

ShardedMap.prototype.set = function (key, value) {
  var shard = this.shards[shardOf(key)];
  var before = shard.size;
  shard.set(key, value);
  this.size += shard.size - before;
  return this;
};

module.exports = {ShardedMap: ShardedMap};
