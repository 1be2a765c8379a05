// typed_arrays.test.js -- capture/typed_arrays.js: a typed array grown to
// twice its length keeps its type and its values.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const {grown} = require('../capture/typed_arrays');

test('grown: twice as long, the same type, the values kept, the rest zero', () => {
  for (const Type of [Int32Array, Float64Array, Uint8Array]) {
    const a = Type.from([3, 1, 2]);
    const b = grown(a);
    assert.ok(b instanceof Type, Type.name);
    assert.deepEqual(Array.from(b), [3, 1, 2, 0, 0, 0]);
    assert.notEqual(b.buffer, a.buffer);
  }
});
