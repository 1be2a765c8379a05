// address_maps.js -- the two maps by address that a DWARF lookup
// (dwarf.js) goes through: a unit's functions and inlined calls
// (SubroutineMap, built as llvm-symbolizer builds its own, so that both
// read damaged DWARF alike) and ranges that may nest or overlap
// (RangeIndex: units, line sequences).
'use strict';

var lastAtOrBefore = require('./sorted_search').lastAtOrBefore;

// A unit's functions and inlined calls by address, built as llvm-symbolizer
// builds its map (DWARFUnit::updateAddressDieMap, LLVM 14), so that both
// read damaged DWARF alike: DIEs are added in file order, parents before
// children; a range added inside an existing one splits it, and a lookup
// takes the entry with the greatest start at or before the address, or
// nothing if that entry ends before it. Values: an inlined call, or the
// function's record ({isFunction, name...}) for the function itself
// (undefined: no entry).
function SubroutineMap() {
  this.starts = [];
  this.ends = [];
  this.values = [];
}
SubroutineMap.prototype.set = function (start, end, value) {
  var i = lastAtOrBefore(this.starts, start);
  if (i >= 0 && this.starts[i] === start) {
    this.ends[i] = end;
    this.values[i] = value;
    return;
  }
  // Functions come mostly in address order: the insert is usually at the end.
  this.starts.splice(i + 1, 0, start);
  this.ends.splice(i + 1, 0, end);
  this.values.splice(i + 1, 0, value);
};
SubroutineMap.prototype.add = function (lo, hi, value) {
  if (lo === hi) return;
  var b = lastAtOrBefore(this.starts, lo);
  if (b >= 0 && lo < this.ends[b]) {
    var bStart = this.starts[b];
    var bEnd = this.ends[b];
    var bValue = this.values[b];
    if (hi < bEnd) this.set(hi, bEnd, bValue);
    if (lo > bStart) this.ends[b] = lo;
  }
  this.set(lo, hi, value);
};
// Ranges at 0 are kept here, unlike elsewhere: LLVM keeps them, and a
// broken [0, N) changes which entries later ranges split.
SubroutineMap.prototype.addAll = function (ranges, value) {
  for (var r = 0; r < ranges.length; r++) {
    if (ranges[r][0] < 0xfffffff0 && ranges[r][1] > ranges[r][0]) this.add(ranges[r][0], ranges[r][1], value);
  }
};
SubroutineMap.prototype.find = function (addr) {
  var i = lastAtOrBefore(this.starts, addr);
  return i >= 0 && addr < this.ends[i] ? this.values[i] : undefined;
};

// Ranges {lo, hi, ...} that may nest or overlap; each(addr, fn) calls fn on
// every range holding addr, latest start first.
function RangeIndex(list) {
  list.sort(function (x, y) { return x.lo - y.lo; });
  this.list = list;
  this.starts = list.map(function (x) { return x.lo; });
  // reach[i]: the largest end among list[0..i]: how far back to look.
  this.reach = [];
  for (var i = 0; i < list.length; i++) this.reach.push(i ? Math.max(this.reach[i - 1], list[i].hi) : list[i].hi);
}
RangeIndex.prototype.each = function (addr, fn) {
  for (var i = lastAtOrBefore(this.starts, addr); i >= 0 && this.reach[i] > addr; i--) {
    if (addr < this.list[i].hi) fn(this.list[i]);
  }
};

module.exports = {SubroutineMap: SubroutineMap, RangeIndex: RangeIndex};
