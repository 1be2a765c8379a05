// tests/json_stream.test.js: formats/json_stream.js, JSON text in chunks.
// Checked against JSON.stringify on generated values, for chunk sizes, and
// on a value whose text is longer than V8's longest string.
// Run: node --test tests/json_stream.test.js
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { jsonChunks, lazyArray, resolve, CHUNK_CHARS } = require('../formats/json_stream');

// Deterministic pseudo-random values of every JSON shape, some with large
// arrays and lazy arrays inside.
function generator(seed) {
  let x = seed >>> 0;
  const rnd = (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  const strings = ['', 'a', 'größe::naïve<€>', '😀', 'quote " back \\ slash', '\n\t\u0001', '__proto__'];
  function value(depth) {
    switch (depth > 3 ? rnd(4) : rnd(9)) {
      case 0: return rnd(1000) - 500;
      case 1: return rnd(3) === 0 ? null : rnd(2) === 0;
      case 2: return strings[rnd(strings.length)];
      case 3: return rnd(100000) / 7;
      case 4: case 5: {
        // large arrays hold scalars (a lazy array inside a large plain array
        // is not resolved: json_stream.js says so), small ones anything
        const large = rnd(4) === 0;
        const n = large ? 300 + rnd(400) : rnd(6);
        return Array.from({ length: n }, () => value(large ? 4 : depth + 1));
      }
      case 6: {
        const large = rnd(3) === 0;
        const items = Array.from({ length: large ? 500 : rnd(5) }, () => value(large ? 4 : depth + 1));
        return lazyArray(function* () { yield* items; });
      }
      default: {
        const o = {};
        const n = rnd(6);
        for (let i = 0; i < n; i++) o[strings[rnd(strings.length)] + i] = value(depth + 1);
        if (rnd(5) === 0) o.skipped = undefined;
        if (rnd(5) === 0) o.fn = () => 1;
        return o;
      }
    }
  }
  return value;
}

test('json_stream: the text is JSON.stringify of the resolved value', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const v = generator(seed)(0);
    const text = Array.from(jsonChunks(v)).join('');
    assert.ok(text === JSON.stringify(resolve(v)), `seed ${seed}: the texts differ`);
    JSON.parse(text);
  }
  // what JSON.stringify does with odd members, inside a walked (large) array
  const odd = [undefined, () => 1, new Date(0), NaN, Infinity, { a: undefined, b: 1 }];
  const big = odd.concat(Array(300).fill(1));
  assert.equal(Array.from(jsonChunks(big)).join(''), JSON.stringify(big));
  assert.equal(Array.from(jsonChunks({ x: big, y: undefined })).join(''), JSON.stringify({ x: big }));
});

test('json_stream: resolve makes lazy arrays real and copies nothing plain', () => {
  const plain = { sites: Array(1000).fill({ a: 1 }), n: 1 };
  assert.equal(resolve(plain), plain);
  const withLazy = { keep: plain, list: [{ inner: lazyArray(function* () { yield 1; yield 2; }) }] };
  const r = resolve(withLazy);
  assert.notEqual(r, withLazy);
  assert.equal(r.keep, plain);
  assert.deepEqual(r.list[0].inner, [1, 2]);
});

test('json_stream: chunks of about CHUNK_CHARS characters', () => {
  const row = 'x'.repeat(1000);
  const value = { rows: lazyArray(function* () { for (let i = 0; i < 5000; i++) yield row; }) };
  const chunks = Array.from(jsonChunks(value));
  const total = chunks.reduce((n, c) => n + c.length, 0);
  assert.equal(total, JSON.stringify(resolve(value)).length);
  assert.ok(chunks.length >= Math.floor(total / (CHUNK_CHARS + 1010)), `${chunks.length} chunks for ${total} chars`);
  for (const c of chunks.slice(0, -1)) assert.ok(c.length >= CHUNK_CHARS && c.length <= CHUNK_CHARS + 1010, `chunk of ${c.length}`);
});

// V8's longest string is 2^29 - 24 characters: JSON.stringify of this value
// throws "Invalid string length"; the chunks carry all of it.
test('json_stream: a value longer than the longest string V8 can make', { timeout: 120000 }, () => {
  const row = 'y'.repeat(4096);
  const rows = 140000;   // 573 M characters
  const value = { rows: lazyArray(function* () { for (let i = 0; i < rows; i++) yield row; }) };
  assert.throws(() => JSON.stringify(resolve(value)), /Invalid string length/);
  let total = 0;
  let longest = 0;
  let last = '';
  for (const c of jsonChunks(value)) {
    total += c.length;
    longest = Math.max(longest, c.length);
    last = c;
  }
  assert.equal(total, '{"rows":[]}'.length + rows * (row.length + 2) + (rows - 1));
  assert.ok(total > 2 ** 29, `${total} characters`);
  assert.ok(longest <= CHUNK_CHARS + row.length + 3, `longest chunk ${longest}`);
  assert.ok(last.endsWith('"]}'));
});

test('json_stream: typed arrays are JSON arrays; a streamable toJSON object is walked', () => {
  const {toHeapSection} = require('../model/heap_section');
  const big = Float64Array.from({length: 10000}, (_, i) => i * 3);
  const small = new Uint32Array([1, 2, 3]);
  const value = {big, small, nested: [small, big]};
  const text = Array.from(jsonChunks(value)).join('');
  assert.deepEqual(JSON.parse(text), {big: Array.from(big), small: [1, 2, 3], nested: [[1, 2, 3], Array.from(big)]});
  // a heap section (typed arrays inside, a toJSON for JSON.stringify): the
  // stream and JSON.stringify write the same text
  const n = 600;
  const graph = {
    blocks: {addr: Uint32Array.from({length: n}, (_, i) => 4096 + 16 * i), size: new Uint32Array(n).fill(12),
      site: new Uint32Array(n).fill(1), serial: Uint32Array.from({length: n}, (_, i) => i + 1)},
    firstBlockNode: 3, groupNames: ['(C globals)', '(leaked)'], nodeCount: n + 3,
    edgeStart: new Int32Array(n + 3), edgeCount: new Int32Array(n + 3), targets: new Int32Array(0),
    state: new Uint8Array(n), retained: new Float64Array(n + 3).fill(12), idom: new Int32Array(n + 3),
  };
  const heap = toHeapSection(graph);
  assert.ok(ArrayBuffer.isView(heap.blocks.address), 'typed arrays inside');
  const streamed = Array.from(jsonChunks({heap})).join('');
  assert.equal(streamed, JSON.stringify({heap}));
  assert.ok(Array.isArray(JSON.parse(streamed).heap.blocks.address));
  assert.equal(JSON.parse(streamed).heap.blocks.id[1], 5);
});
