// wasm_instrument.test.js -- the load-time rewrite on real modules built by
// the tests (C, C++ with exceptions and DWARF, threads with atomics,
// SQLite, Lua): it validates, its offset map sends every instruction of an
// original function back to that same instruction, and a module without
// emheap's runtime is refused.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const {instrument, readOffsets} = require('../../contexts/wasm_instrument');
const {forEachInstruction} = require('../../contexts/wasm_binary');
const {customSections} = require('../../symbolize/wasm_sections');

const {BUILD} = require('../lib/paths');
const MODULES = ['contexts.wasm', 'entry_points.dlmalloc.wasm', 'cpp_lines.O2g.wasm', 'threads.exact.wasm',
  'heap_graph_cpp.exact.wasm', 'third_party/lua.emheap.wasm', 'third_party/sqlite_threads.emheap.wasm'];

for (const name of MODULES) {
  test(`rewrite of ${name}: valid, every original instruction mapped back`, () => {
    const file = path.join(BUILD, name);
    assert.ok(fs.existsSync(file), `${file} is built by make test`);
    const bytes = new Uint8Array(fs.readFileSync(file));
    const out = instrument(bytes, null);
    assert.ok(WebAssembly.validate(out.bytes), 'the rewritten module validates');
    const stats = out.info.stats;
    assert.ok(stats.instrumentedSites > 0 && stats.instrumentedSites <= stats.callSites, JSON.stringify(stats));

    const offsets = readOffsets(customSections(out.bytes)['emheap.offsets']);
    assert.equal(offsets.info.functions, out.info.functions);
    const original = new Map();
    const text = (b, from, to) => Buffer.from(b.subarray(from, to)).toString('hex');
    // Calls of the runtime's placeholders become global reads: not kept.
    const placeholderCalls = new Set(out.info.placeholders.map((i) => '10' + Buffer.from([i]).toString('hex')));
    forEachInstruction(bytes, (f, at, op, end) => {
      const t = text(bytes, at, end);
      if (!placeholderCalls.has(t)) original.set(at, t);
    });
    const seen = new Set();
    let count = 0;
    forEachInstruction(out.bytes, (f, at, op, end) => {
      if (f >= out.info.functions) return; // the rewrite's entry functions
      const back = offsets.translate(at);
      // Inserted code maps to the next original instruction, and never
      // equals it: it names the rewrite's own globals and locals.
      if (original.get(back) !== text(out.bytes, at, end)) return;
      seen.add(back);
      count++;
    });
    assert.equal(seen.size, original.size, 'every original instruction is found at its translated position');
    assert.equal(count, original.size, 'and only once');
  });
}

test('a module without emheap\'s runtime is not rewritten', () => {
  const plain = path.join(BUILD, 'third_party', 'sqlite_threads.plain.wasm');
  assert.throws(() => instrument(new Uint8Array(fs.readFileSync(plain)), null), /reads no context/);
  assert.throws(() => instrument(new Uint8Array([0, 1, 2, 3]), null), /not a wasm module/);
});
