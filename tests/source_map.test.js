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

// entries: [offset, source index, line (1-based)] in offset order; [offset]
// alone: code with no source (a 1-field segment).
function map(sources, entries) {
  let prev = [0, 0, 0, 0];
  const segments = entries.map(([offset, source, line]) => {
    if (source === undefined) {
      const s = vlq(offset - prev[0]);
      prev = [offset, prev[1], prev[2], prev[3]];
      return s;
    }
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

test('a call with no row of its own after code with no source: the nearest earlier row of its function, said to be inferred', () => {
  // Emscripten 4.x/5.x -O3 -gsource-map: binaryen inlines emheap's operator
  // new[] into the caller and its code has no source (a 1-field segment);
  // the call into the runtime follows it.
  const bodies = new Float64Array([0x100, 0x200, 0x300]); // three functions
  const m = parseSourceMap(map(['app.cpp'], [
    [0x110, 0, 10], [0x120, 0, 11], [0x130], // use_new_array: line 11, then new[]'s code
    [0x210, 0, 20], // another function
    [0x320], // a third whose code before the call has no row at all
  ]), bodies);
  assert.deepEqual(m.lookup(0x138), {file: 'app.cpp', line: 11, inferred: true});
  assert.deepEqual(m.lookup(0x124), {file: 'app.cpp', line: 11}, 'a row of its own: not inferred');
  assert.equal(m.lookup(0x328), null, 'no row of its own function before it: no line');
  assert.equal(m.lookup(0x308), null, 'the row before it is another function\'s');
  assert.deepEqual(m.lookup(0x218), {file: 'app.cpp', line: 20});
  // without the function starts, as before: nothing is inferred
  const plain = parseSourceMap(map(['app.cpp'], [[0x110, 0, 10], [0x120, 0, 11], [0x130]]));
  assert.equal(plain.lookup(0x138), null);
});

test('functionBodyStarts: where each body of the code section starts', (t) => {
  const {functionBodyStarts} = require('../symbolize/wasm_sections');
  const {assemble} = require('./lib/wat');
  const bytes = assemble(t, `(module
    (func $a (result i32) i32.const 1)
    (func $b (param i32) (result i32) local.get 0 i32.const 2 i32.add))`);
  const starts = functionBodyStarts(bytes);
  assert.equal(starts.length, 2);
  // each start is a body's size field: the body's bytes follow it and end
  // where the next starts
  assert.equal(bytes[starts[0]], starts[1] - starts[0] - 1);
  assert.ok(starts[1] + 1 + bytes[starts[1]] <= bytes.length);
  assert.equal(bytes[starts[1] + 1 + bytes[starts[1]] - 1], 0x0b, 'the second body ends with end');
});
