// source_map.test.js -- symbolize/source_map.js: wasm offsets to file and line,
// on hand-written source maps (the C++ case is the one em++ -O2 writes when
// wasm-opt inlines operator new[]: two entries at the call's offset).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {parseSourceMap} = require('../symbolize/source_map');

// VLQ base64 of one signed value.
function vlq(n) {
  const B = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v) digit |= 32;
    out += B[digit];
  } while (v);
  return out;
}

// entries: [offset, source index, line (1-based)] in offset order.
function map(sources, entries) {
  let prev = [0, 0, 0, 0];
  const segments = entries.map(([offset, source, line]) => {
    const now = [offset, source, line - 1, 0];
    const s = now.map((x, i) => vlq(x - prev[i])).join('');
    prev = now;
    return s;
  });
  return {version: 3, sources, names: [], mappings: segments.join(',')};
}

test('an offset gets the last entry at or before it; before the first, nothing', () => {
  const m = parseSourceMap(map(['../src/app.c'], [[0x10, 0, 5], [0x20, 0, 6], [0x30, 0, 9]]));
  assert.equal(m.lookup(0x0f), null);
  assert.deepEqual(m.lookup(0x10), {file: 'src/app.c', line: 5});
  assert.deepEqual(m.lookup(0x2f), {file: 'src/app.c', line: 6});
  assert.deepEqual(m.lookup(0x1000), {file: 'src/app.c', line: 9});
});

test('several entries at one offset (an inlined callee): the first, the caller\'s own line', () => {
  // em++ -O2, new char[16384] in leak_new_array(): 0x58f holds leaks.cpp:14
  // then system/lib/libcxx/src/new.cpp:116 (the inlined operator new[]).
  const m = parseSourceMap(map(['leaks.cpp', 'system/lib/libcxx/src/new.cpp'],
    [[0x57c, 1, 142], [0x58f, 0, 14], [0x58f, 1, 116], [0x597, 0, 33]]));
  assert.deepEqual(m.lookup(0x58f), {file: 'leaks.cpp', line: 14});
  assert.deepEqual(m.lookup(0x593), {file: 'leaks.cpp', line: 14});
  assert.deepEqual(m.lookup(0x580), {file: 'system/lib/libcxx/src/new.cpp', line: 142});
});
