// read_only_data.test.js -- symbolize/read_only_data.js on small modules
// written here in the text format and assembled by wabt's wat2wasm: where
// the read-only data is, from data segment names and their addresses
// (active segments, or __wasm_init_memory's memory.init for passive ones),
// and a reason, never a guess, where it cannot be known.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { readOnlyData } = require('../symbolize/read_only_data');
const { assemble } = require('./lib/wat');

test('active segments: the .rodata pieces, not .data', (t) => {
  const bytes = assemble(t, `(module (memory 1)
    (data $.rodata (i32.const 1024) "constant")
    (data $.rodata.1 (i32.const 1040) "more")
    (data $.data (i32.const 1056) "writable"))`, ['--debug-names']);
  assert.deepEqual(readOnlyData(bytes), { ranges: [[1024, 1032], [1040, 1044]] });
});

test('passive segments (-pthread): addresses from __wasm_init_memory, past imported functions', (t) => {
  const bytes = assemble(t, `(module
    (import "env" "f" (func $f))
    (import "env" "memory" (memory 1 1 shared))
    (import "env" "g" (func $g (param i32)))
    (data $.rodata "constant")
    (data $.data "writable")
    (data $.rodata.1 "more")
    (func $other i32.const 9999 i32.const 0 i32.const 4 memory.init $.rodata.1)
    (func $__wasm_init_memory
      i32.const 2048 i32.const 0 i32.const 8 memory.init $.rodata
      i32.const 2064 i32.const 0 i32.const 8 memory.init $.data
      i32.const 2080 i32.const 0 i32.const 4 memory.init $.rodata.1)
    (start $__wasm_init_memory))`, ['--enable-threads', '--debug-names']);
  assert.deepEqual(readOnlyData(bytes), { ranges: [[2048, 2056], [2080, 2084]] });
});

test('where it cannot be known, it says why', (t) => {
  const unnamed = assemble(t, '(module (memory 1) (data (i32.const 1024) "constant"))');
  assert.match(readOnlyData(unnamed).unknown, /no data segment names/);
  const relocatable = assemble(t, `(module (import "env" "base" (global $base i32)) (memory 1)
    (data $.rodata (global.get $base) "constant"))`, ['--debug-names']);
  assert.match(readOnlyData(relocatable).unknown, /data segment 0 has no constant address/);
  const noInit = assemble(t, `(module (memory 1 1 shared) (data $.rodata "constant"))`, ['--enable-threads', '--debug-names']);
  assert.match(readOnlyData(noInit).unknown, /no __wasm_init_memory/);
  assert.match(readOnlyData(new Uint8Array([0, 1, 2])).unknown, /could not be read/);
});

test('a module with no data has no read-only data', (t) => {
  assert.deepEqual(readOnlyData(assemble(t, '(module (memory 1) (func $f))', ['--debug-names'])), { ranges: [] });
});
