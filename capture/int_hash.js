// int_hash.js -- a hash map from three 32-bit integers to a positive 32-bit
// integer, in typed arrays.
//
// Why not a Map: exact-JS mode looks up every frame of every allocation's
// stack. A Map keyed on a combined number needs keys above 2^31, which V8
// stores as heap numbers (an allocation and a slow hash per lookup); a
// string key costs a concatenation. Open addressing over Int32Arrays costs a
// few multiplies and one or two cache lines, and makes no garbage.
//
// Invariant: values are >= 1; a slot whose value is 0 is empty. The table is
// at most half full, so every probe sequence reaches an empty slot.
'use strict';

var INITIAL_CAPACITY = 1024; // slots, a power of two

function IntHash() {
  this.capacity = INITIAL_CAPACITY;
  this.mask = INITIAL_CAPACITY - 1;
  this.size = 0;
  this.keys = new Int32Array(INITIAL_CAPACITY * 3);
  this.values = new Int32Array(INITIAL_CAPACITY);
}

function slotOf(a, b, c, mask) {
  var h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 13)) & mask;
}

// The value stored for (a, b, c), or 0.
IntHash.prototype.get = function (a, b, c) {
  var keys = this.keys;
  var values = this.values;
  var mask = this.mask;
  for (var i = slotOf(a, b, c, mask); values[i] !== 0; i = (i + 1) & mask) {
    var k = i * 3;
    if (keys[k] === a && keys[k + 1] === b && keys[k + 2] === c) return values[i];
  }
  return 0;
};

// Stores value (>= 1) for a key that is not in the table yet.
IntHash.prototype.add = function (a, b, c, value) {
  if (2 * (this.size + 1) > this.capacity) this.grow();
  var keys = this.keys;
  var values = this.values;
  var mask = this.mask;
  var i = slotOf(a, b, c, mask);
  while (values[i] !== 0) i = (i + 1) & mask;
  keys[i * 3] = a;
  keys[i * 3 + 1] = b;
  keys[i * 3 + 2] = c;
  values[i] = value;
  this.size++;
};

IntHash.prototype.grow = function () {
  var oldKeys = this.keys;
  var oldValues = this.values;
  var oldCapacity = this.capacity;
  this.capacity = oldCapacity * 2;
  this.mask = this.capacity - 1;
  this.keys = new Int32Array(this.capacity * 3);
  this.values = new Int32Array(this.capacity);
  this.size = 0;
  for (var i = 0; i < oldCapacity; i++) {
    if (oldValues[i] !== 0) this.add(oldKeys[i * 3], oldKeys[i * 3 + 1], oldKeys[i * 3 + 2], oldValues[i]);
  }
};

module.exports = {IntHash: IntHash};
