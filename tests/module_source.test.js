// module_source.test.js -- capture/module_source.js: where the module is and
// its bytes, in each form Emscripten 3.1.x and 4.x keep them.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const ms = require('../capture/module_source');

const host = (file, binary) => ({wasmBinaryFile: () => file, wasmBinary: () => binary});
const BYTES = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
const DATA_URL = 'data:application/octet-stream;base64,' + Buffer.from(BYTES).toString('base64');

test('the source in each form: a name, a data: URL, bytes, a buffer, nothing', () => {
  assert.equal(ms.wasmSource(host('app.wasm')), 'app.wasm');
  assert.deepEqual(ms.wasmSource(host(Buffer.from(BYTES))), BYTES);
  assert.deepEqual(ms.wasmSource(host(BYTES.buffer)), BYTES);
  assert.equal(ms.wasmSource(host(undefined)), '');
  assert.equal(ms.wasmSource(host(null)), '');
  assert.deepEqual(ms.bytesOrLocation(host(DATA_URL)), BYTES);
  assert.equal(ms.bytesOrLocation(host('http://x/app.wasm')), 'http://x/app.wasm');
});

test('a data: URL decodes; any other URL is not inline', () => {
  assert.deepEqual(ms.inlineBytes(DATA_URL), BYTES);
  assert.equal(ms.inlineBytes('data:text/plain,hello'), null);
  assert.equal(ms.inlineBytes('app.wasm'), null);
});

test('the module name drops the path, the query and the fragment; inline bytes are "wasm"', () => {
  assert.equal(ms.moduleName(host('https://cdn.example/dir/app.wasm?v=3#x')), 'app.wasm');
  assert.equal(ms.moduleName(host(DATA_URL)), 'wasm');
  assert.equal(ms.moduleName(host(BYTES)), 'wasm');
  assert.equal(ms.moduleName(host('')), 'wasm');
});

test('the bytes: Module.wasmBinary first, then inline bytes, then the file; no source is a rejection', async () => {
  const env = {moduleFileBytes: (source) => Promise.resolve('read ' + source)};
  assert.deepEqual(await ms.moduleBytes(host('app.wasm', BYTES.buffer), env), BYTES);
  assert.deepEqual(await ms.moduleBytes(host('app.wasm', Buffer.from(BYTES)), env), BYTES);
  assert.deepEqual(await ms.moduleBytes(host(DATA_URL), env), BYTES);
  assert.equal(await ms.moduleBytes(host('app.wasm'), env), 'read app.wasm');
  await assert.rejects(ms.moduleBytes(host(''), env), /where the module is is not known/);
});
