// wasm_reader.test.js -- symbolize/wasm_reader.js, the one reader of wasm
// and DWARF bytes: LEB128 of both signs and every length the formats
// allow, little-endian fixed sizes, UTF-8 names, the walk over a module's
// sections, and an error (never a wrong value) for bytes that stop short.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Reader, utf8, sections } = require('../symbolize/wasm_reader');

const at = (bytes, pos) => new Reader(Uint8Array.from(bytes), pos);

test('u32: one byte, several, a padded five-byte one; no more than five', () => {
  assert.equal(at([0x05]).u32(), 5);
  assert.equal(at([0xe5, 0x8e, 0x26]).u32(), 624485);
  const padded = at([0x80, 0x80, 0x80, 0x80, 0x00, 0x2a]);
  assert.equal(padded.u32(), 0);
  assert.equal(padded.pos, 5, 'a padded LEB128 is read to its end');
  assert.equal(at([0xff, 0xff, 0xff, 0xff, 0x0f]).u32(), 0xffffffff);
  assert.throws(() => at([0x80, 0x80, 0x80, 0x80, 0x80, 0x00]).u32(), /bad LEB128/);
  assert.throws(() => at([0x80, 0x80]).u32(), /truncated/);
  assert.throws(() => at([]).u32(), /truncated/);
});

test('uleb and sleb: DWARF values past 32 bits, negative values', () => {
  // 2^40 + 1, and 2^53 - 1 (the largest exact number)
  assert.equal(at([0x81, 0x80, 0x80, 0x80, 0x80, 0x20]).uleb(), 2 ** 40 + 1);
  assert.equal(at([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f]).uleb(), 2 ** 53 - 1);
  assert.equal(at([0x7f]).sleb(), -1);
  assert.equal(at([0x80, 0x7f]).sleb(), -128);
  assert.equal(at([0x3f]).sleb(), 63);
  assert.equal(at([0xc0, 0xbb, 0x78]).sleb(), -123456);
  // i32.const -2147483648 and 2147483647, as a wasm reader takes them
  assert.equal(at([0x80, 0x80, 0x80, 0x80, 0x78]).sleb() | 0, -2147483648);
  assert.equal(at([0xff, 0xff, 0xff, 0xff, 0x07]).sleb() >>> 0, 2147483647);
  assert.throws(() => at([0xff]).sleb(), /truncated/);
  assert.throws(() => at([0x80]).uleb(), /truncated/);
});

test('skipLeb and skipVec move past without decoding', () => {
  const r = at([0xff, 0xff, 0x01, 0x02, 0xaa, 0xbb, 0x07]);
  r.skipLeb();
  assert.equal(r.pos, 3);
  r.skipVec();
  assert.equal(r.pos, 6);
  assert.equal(r.u8(), 7);
  assert.throws(() => r.u8(), /truncated/);
  assert.throws(() => at([0x80, 0x80]).skipLeb(), /truncated/);
});

test('le: little-endian values of 1, 2, 3, 4 and 8 bytes', () => {
  const r = at([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0xff, 0xff, 0xff, 0xff,
    0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00]);
  assert.equal(r.le(1), 1);
  assert.equal(r.le(2), 0x0302);
  assert.equal(r.le(3), 0x060504);
  assert.equal(r.le(4), 0xffffffff);
  assert.equal(r.le(8), 2 * 2 ** 32 + 1);
  assert.equal(r.pos, 18);
  assert.throws(() => at([1, 2, 3]).le(4), /truncated/);
});

test('names are UTF-8; bytes that are not come back one character each', () => {
  const utf8Name = Buffer.from('größe', 'utf8');
  assert.equal(at([0x05, ...Buffer.from('hello')]).name(), 'hello');
  assert.equal(at([utf8Name.length, ...utf8Name]).name(), 'größe');
  assert.equal(utf8(Uint8Array.from([0x61, 0xff, 0x62]), 0, 3), 'a\u00ffb');
  assert.throws(() => at([0x09, 0x61]).name(), /truncated/);
});

test('sections: in order, with custom sections named; not wasm, or cut short, throws', () => {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const custom = [0x00, 0x06, 0x03, ...Buffer.from('abc'), 0x11, 0x22];
  const type = [0x01, 0x01, 0x00];
  const list = sections(Uint8Array.from([...header, ...type, ...custom]));
  assert.deepEqual(list, [
    { id: 1, start: 10, end: 11, headerStart: 8 },
    { id: 0, start: 13, end: 19, headerStart: 11, name: 'abc', payload: 17 },
  ]);
  assert.throws(() => sections(Uint8Array.from([0x00, 0x61, 0x73])), /not a wasm module/);
  assert.throws(() => sections(Uint8Array.from([...header.slice(0, 4), 0x0d, 0x00, 0x01, 0x00])), /not a wasm module/);
  assert.throws(() => sections(Uint8Array.from([...header, 0x01, 0x05, 0x00])), /truncated/);
});
