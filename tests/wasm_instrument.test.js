// wasm_instrument.test.js -- the calling-context rewrite
// (contexts/wasm_instrument.js) on a module written here, run: the context an
// allocation sees names its path of call sites, and only that. malloc here
// returns the context it reads through the runtime's placeholders
// (runtime/context.h), which the rewrite turns into reads of its global.
// (tests/e2e/wasm_instrument.test.js rewrites real modules built by emcc.)
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { instrument, readOffsets } = require('../contexts/wasm_instrument');
const { forEachInstruction } = require('../contexts/wasm_binary');
const { customSections } = require('../symbolize/wasm_sections');
const { assemble } = require('./lib/wat');
const wasmReader = require('../symbolize/wasm_reader');

const MODULE = `(module
  (type $ctx (func (result i64)))
  (import "env" "emheap_cc_lo" (func $cc_lo (result i32)))
  (import "env" "emheap_cc_hi" (func $cc_hi (result i32)))
  (import "env" "emheap_cc_js" (func $cc_js (result i32)))
  (import "env" "emheap_cc_set_js" (func $cc_set_js (param i32)))
  (import "env" "app_callback" (func $callback (result i64)))
  (import "env" "emscripten_date_now" (func $now (result f64)))
  (table 1 funcref)
  (elem (i32.const 0) $leaf)
  (func $malloc (result i64)
    (i64.or (i64.extend_i32_u (call $cc_lo)) (i64.shl (i64.extend_i32_u (call $cc_hi)) (i64.const 32))))
  (func $leaf (result i64) (call $malloc))
  (func $via_a (result i64) (call $leaf))
  (func $via_b (result i64) (call $leaf))
  (func $rec (param $n i32) (result i64)
    (if (result i64) (local.get $n)
      (then (call $rec (i32.sub (local.get $n) (i32.const 1))))
      (else (call $malloc))))
  (func $pure (result i32) (i32.const 7))
  (func $calls_pure (result i32) (drop (call $now)) (call $pure))
  (func $indirect (result i64) (call_indirect (type $ctx) (i32.const 0)))
  (func $through_js (result i64) (call $callback))
  (export "leaf" (func $leaf))
  (export "via_a" (func $via_a))
  (export "via_b" (func $via_b))
  (export "rec" (func $rec))
  (export "calls_pure" (func $calls_pure))
  (export "indirect" (func $indirect))
  (export "through_js" (func $through_js))
  (export "table" (table 0)))`;

async function run(t) {
  const original = assemble(t, MODULE);
  const out = instrument(original, null);
  let exports = null;
  const env = {
    emheap_cc_lo: () => 0, emheap_cc_hi: () => 0, emheap_cc_js: () => 0, emheap_cc_set_js: () => {},
    emscripten_date_now: () => 0,
    // JS that calls back into wasm, as an event handler would
    app_callback: () => exports.leaf(),
  };
  const { instance } = await WebAssembly.instantiate(out.bytes, { env });
  exports = instance.exports;
  return { original, out, exports };
}

test('the rewrite validates, and instruments the calls that can reach an allocation, only those', async (t) => {
  const { out } = await run(t);
  assert.ok(WebAssembly.validate(out.bytes));
  const s = out.info.stats;
  // leaf->malloc, via_a->leaf, via_b->leaf, rec->malloc, the call_indirect
  // of a table that holds leaf
  assert.equal(s.instrumentedSites, 5, JSON.stringify(s));
  assert.equal(s.selfSites, 1, 'rec -> rec leaves the context as it is');
  assert.equal(s.resetSites, 1, 'the import that calls back: a new activation inside it');
  // calls_pure's calls (an import that stays in JS, a function that
  // reaches nothing) are left alone
  assert.equal(s.callSites - s.instrumentedSites - s.selfSites - s.resetSites, 2, JSON.stringify(s));
});

test('a context names the path of call sites: two paths differ, one path is one context', async (t) => {
  const { exports: e } = await run(t);
  const leaf = e.leaf();
  assert.notEqual(leaf, 0n);
  assert.equal(e.leaf(), leaf, 'the same path again');
  assert.notEqual(e.via_a(), e.via_b(), 'two callers of leaf');
  assert.equal(e.via_a(), e.via_a());
  assert.notEqual(e.via_a(), leaf);
  assert.notEqual(e.indirect(), leaf, 'through the table: a call site of its own');
  assert.equal(e.rec(0), e.rec(7), 'a direct recursion is one context at every depth');
  assert.equal(e.calls_pure(), 7);
});

test('JS called from wasm starts a new activation: its allocations do not continue the caller\'s path', async (t) => {
  const { exports: e } = await run(t);
  assert.equal(e.through_js(), e.leaf());
  // and every entry puts the context back: nothing is left over between calls
  assert.equal(e['emheap$ctx'].value, 0n);
  e.via_a();
  assert.equal(e['emheap$ctx'].value, 0n);
});

test('every instruction of the original module is found again through the offsets section', async (t) => {
  const { original, out } = await run(t);
  const offsets = readOffsets(customSections(out.bytes)['emheap.offsets']);
  assert.equal(offsets.info.functions, out.info.functions);
  const text = (b, from, to) => Buffer.from(b.subarray(from, to)).toString('hex');
  const placeholderCalls = new Set(out.info.placeholders.map((i) => '10' + Buffer.from([i]).toString('hex')));
  const instructions = new Map();
  forEachInstruction(original, (f, at, op, end) => {
    const it = text(original, at, end);
    if (!placeholderCalls.has(it)) instructions.set(at, it); // these become global reads
  });
  const seen = new Set();
  forEachInstruction(out.bytes, (f, at, op, end) => {
    if (f >= out.info.functions) return; // the rewrite's entry functions
    const back = offsets.translate(at);
    // inserted code maps to the call it prepares, and never reads as it
    if (instructions.get(back) === text(out.bytes, at, end)) seen.add(back);
  });
  assert.equal(seen.size, instructions.size);
});

test('a module without emheap\'s runtime is refused, named', (t) => {
  const plain = assemble(t, '(module (func $f (result i32) (i32.const 1)) (export "f" (func $f)))');
  assert.throws(() => instrument(plain, null), /the runtime reads no context/);
});

test('names are UTF-8 both ways: an export named outside ASCII keeps its name', async (t) => {
  // wat2wasm writes the name's UTF-8; JS sees the export by the decoded name
  const bytes = assemble(t, `(module
    (import "env" "emheap_cc_lo" (func $cc_lo (result i32)))
    (func $f (result i32) (call $cc_lo))
    (export "größe" (func $f)))`);
  const out = instrument(bytes, null);
  const { instance } = await WebAssembly.instantiate(out.bytes, { env: { emheap_cc_lo: () => 0 } });
  assert.deepEqual(Object.keys(instance.exports).filter((n) => !n.startsWith('emheap$')), ['größe']);
  assert.equal(instance.exports['größe'](), 0);
});

// A side module of a dynamically linked program (side mode): its context
// is the main module's, imported after its own imported global; a global
// it defines moves up by two, in its code, its exports and its names.
const SIDE = `(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (import "env" "__memory_base" (global $base i32))
  (global $count (mut i32) (i32.const 0))
  (global $kept i32 (i32.const 8))
  (func $alloc (param $n i32) (result i32)
    (global.set $count (i32.add (global.get $count) (i32.const 1)))
    (call $malloc (local.get $n)))
  (func $twice (result i32)
    (drop (call $alloc (i32.const 1)))
    (drop (call $alloc (i32.const 2)))
    (i32.add (global.get $count) (global.get $kept)))
  (export "twice" (func $twice))
  (export "kept" (global $kept)))`;

test('side mode: the main module\'s context is imported, own globals move, calls of other modules are sites', async (t) => {
  const original = assemble(t, SIDE, ['--debug-names']);
  // the main module's malloc: a wasm function (its JS name is its index),
  // which records the context each call sees
  const seen = [];
  const ctx = new WebAssembly.Global({value: 'i64', mutable: true}, 0n);
  const jsid = new WebAssembly.Global({value: 'i32', mutable: true}, 0);
  const main = new WebAssembly.Instance(new WebAssembly.Module(assemble(t, `(module
    (import "env" "seen" (func $seen (param i64)))
    (import "env" "emheap$ctx" (global $ctx (mut i64)))
    (func (export "malloc") (param i32) (result i32) (call $seen (global.get $ctx)) (local.get 0)))`)),
  {env: {seen: (c) => seen.push(c), 'emheap$ctx': ctx}});
  const env = {malloc: main.exports.malloc, __memory_base: 0};
  const out = instrument(original, {env}, {renames: {}});
  assert.ok(WebAssembly.validate(out.bytes));
  const {instance} = await WebAssembly.instantiate(out.bytes, {env: {...env, 'emheap$ctx': ctx, 'emheap$jsid': jsid}});
  assert.equal(instance.exports.kept.value, 8, 'the exported global is still $kept');
  assert.equal(instance.exports.twice(), 2 + 8, 'the global it counts in is still $count');
  assert.equal(seen.length, 2);
  assert.ok(seen[0] !== 0n && seen[1] !== 0n && seen[0] !== seen[1], `two paths, two contexts: ${seen}`);
  assert.equal(ctx.value, 0n, 'the context is back as it was');
  assert.equal(instance.exports.twice(), 4 + 8);
  assert.deepEqual(seen.slice(2), seen.slice(0, 2), 'one path is one context');
  // the names follow their globals: $count and $kept were globals 1 and 2
  assert.deepEqual(globalNames(out.bytes), {0: 'base', 3: 'count', 4: 'kept'});
});

// The global names of a module's name section: {index: name}.
function globalNames(bytes) {
  const names = wasmReader.sections(bytes).find((s) => s.id === 0 && s.name === 'name');
  const r = new wasmReader.Reader(bytes, names.payload);
  const out = {};
  while (r.pos < names.end) {
    const kind = r.u8();
    const end = r.u32() + r.pos;
    if (kind === 7) {
      for (let n = r.u32(); n > 0; n--) {
        const index = r.u32();
        out[index] = r.name();
      }
    }
    r.pos = end;
  }
  return out;
}
