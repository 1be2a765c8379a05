// debug_info.test.js -- symbolize/debug_info.js on modules `make test` built
// (tests/runtime/cpp_lines.cpp): the same names and lines whether read
// from files under node, fetched as a page does, or from the bytes of a
// module with its DWARF inside; nothing, and no exception, where there is
// nothing to read.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const {BUILD} = require('../lib/paths');
const {fromBytes, fromFile, fromUrl} = require('../../symbolize/debug_info');
const wasmSections = require('../../symbolize/wasm_sections');

const nodeHost = (warnings) => ({fs, path, argv: process.argv, warn: (m) => warnings.push(m)});
// A page's fetch, served from BUILD: file:///build/tests/NAME -> the file.
const fileFetch = (requested) => (url) => {
  requested.push(url);
  const file = path.join(BUILD, path.basename(new URL(url).pathname));
  if (!fs.existsSync(file)) return Promise.resolve({ok: false});
  const bytes = fs.readFileSync(file);
  return Promise.resolve({ok: true, arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    text: async () => bytes.toString('utf8')});
};

// The line of the call in use_new: the offset of a row of that function.
function someLines(found, wasmFile) {
  const bytes = fs.readFileSync(wasmFile);
  const start = wasmSections.codeSectionStart(bytes);
  const out = [];
  for (let offset = start; offset < bytes.length && out.length < 20; offset += 97) {
    const where = found.sourceLines.lookup(offset);
    if (where && where.line) out.push([offset, where.file, where.line]);
  }
  return out;
}

for (const [build, what] of [['O2', '-gseparate-dwarf (a DWARF file beside the module)'], ['O2map', '-gsource-map']]) {
  test(`${what}: names and lines, the same from files and fetched`, async () => {
    const wasm = path.join(BUILD, `cpp_lines.${build}.wasm`);
    const warnings = [];
    const fromFiles = fromFile(wasm, nodeHost(warnings));
    assert.ok(fromFiles.functionNames && Object.values(fromFiles.functionNames).includes('main'));
    assert.ok(fromFiles.sourceLines, 'lines found');
    const lines = someLines(fromFiles, wasm);
    assert.ok(lines.some(([, file]) => /cpp_lines\.cpp$/.test(file)), JSON.stringify(lines));
    const requested = [];
    const fetched = await fromUrl(`file:///build/tests/cpp_lines.${build}.wasm`, {fetch: fileFetch(requested), warn: (m) => warnings.push(m)});
    assert.deepEqual(someLines(fetched, wasm), lines);
    assert.deepEqual(fetched.functionNames, fromFiles.functionNames);
    // only what the module names is asked for: no guesses, no 404s
    assert.equal(requested.length, 2, requested.join(' '));
    assert.deepEqual(warnings, []);
  });
}

test('DWARF inside the module (-g): read from the bytes themselves', () => {
  const wasm = path.join(BUILD, 'cpp_lines.O2g.wasm');
  const found = fromBytes(new Uint8Array(fs.readFileSync(wasm)), () => {});
  assert.ok(found.sourceLines);
  assert.ok(someLines(found, wasm).some(([, file]) => /cpp_lines\.cpp$/.test(file)));
});

test('nothing to read: nulls, never an exception', async () => {
  const warnings = [];
  const nothing = {functionNames: null, sourceLines: null, allocTypes: null, readOnlyData: {unknown: "the module's bytes could not be read"},
    moduleRead: false};
  assert.deepEqual(fromFile(path.join(BUILD, 'no-such.wasm'), nodeHost(warnings)), nothing);
  assert.deepEqual(fromBytes(new Uint8Array([1, 2, 3]), () => {}), nothing);
  assert.deepEqual(await fromUrl('file:///build/tests/no-such.wasm', {fetch: fileFetch([]), warn: () => {}}),
    nothing);
  assert.deepEqual(await fromUrl('https://example.invalid/app.wasm', {fetch: () => Promise.reject(new Error('offline')), warn: () => {}}),
    nothing);
});
