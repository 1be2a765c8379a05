// sorted_search.js -- the one search the debug-info readers need: where an
// offset falls in an ascending list of starts (source map entries, DWARF
// line rows and address ranges).
'use strict';

// Index of the last value <= x in an ascending array, or -1.
function lastAtOrBefore(sorted, x) {
  var lo = 0;
  var hi = sorted.length - 1;
  if (hi < 0 || x < sorted[0]) return -1;
  while (lo < hi) {
    var mid = (lo + hi + 1) >> 1;
    if (sorted[mid] <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

module.exports = {lastAtOrBefore: lastAtOrBefore};
