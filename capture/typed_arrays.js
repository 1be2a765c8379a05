// typed_arrays.js -- typed arrays that grow: the stack table's node arrays
// and the site timeline's group arrays keep numbers for a million sites
// without a JS object each, and double when full.
'use strict';

// A typed array of the same type twice as long, its values kept.
function grown(array) {
  var longer = new array.constructor(array.length * 2);
  longer.set(array);
  return longer;
}

module.exports = {grown: grown};
