// int_hash.test.js -- the typed-array hash map under exact-JS stack capture:
// every key found after growth, misses return 0, no key shadows another.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {IntHash} = require('../capture/int_hash');

test('IntHash: 200k keys (negative, huge, colliding in two of three parts) survive growth', () => {
  const h = new IntHash();
  const keys = [];
  for (let i = 0; i < 200000; i++) keys.push([i % 7, (i * 2654435761) | 0, i % 3 === 0 ? -i : i]);
  keys.forEach((k, i) => {
    assert.equal(h.get(k[0], k[1], k[2]), 0);
    h.add(k[0], k[1], k[2], i + 1);
  });
  assert.equal(h.size, keys.length);
  assert.ok(h.capacity >= 2 * keys.length, 'at most half full');
  keys.forEach((k, i) => assert.equal(h.get(k[0], k[1], k[2]), i + 1));
  assert.equal(h.get(7, 0, 0), 0);
  assert.equal(h.get(0, 0, 1), 0);
});
