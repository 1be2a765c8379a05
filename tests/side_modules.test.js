// side_modules.test.js -- contexts/side_modules.js: a side module's bytes
// get its file's name as the module's name, which V8 puts in the frames of
// its functions, with every code offset and function name as it was; the
// registry maps such a frame's script back to the module.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const {assemble} = require('./lib/wat');
const {sideModules, withModuleName} = require('../contexts/side_modules');
const wasmReader = require('../symbolize/wasm_reader');

// A module whose export `run` calls the import `env.probe`, which reports
// the frame of `run` as V8's structured call site gives it.
const WAT = `(module $given
  (import "env" "probe" (func $probe))
  (func $run (export "run") nop call $probe))`;

function frameOfRun(bytes) {
  let seen = null;
  const probe = () => {
    const prepare = Error.prepareStackTrace;
    Error.prepareStackTrace = (e, sites) => sites;
    try {
      const holder = {};
      Error.captureStackTrace(holder, probe);
      const site = holder.stack[0];
      seen = {url: site.getScriptNameOrSourceURL(), position: site.getPosition(), text: String(site)};
    } finally {
      Error.prepareStackTrace = prepare;
    }
  };
  new WebAssembly.Instance(new WebAssembly.Module(bytes), {env: {probe}}).exports.run();
  return seen;
}

function codeSection(bytes) {
  const code = wasmReader.sections(bytes).find((s) => s.id === 10);
  return Array.from(bytes.subarray(code.start, code.end));
}

for (const [kind, flags] of [['with a name section', ['--debug-names']], ['without one', []]]) {
  test(`a module ${kind} gets the name: V8 shows it, offsets and function names stay`, (t) => {
    const bytes = assemble(t, WAT, flags);
    const before = frameOfRun(bytes);
    const named = withModuleName(bytes, 'libside.wasm');
    assert.ok(WebAssembly.validate(named));
    assert.deepEqual(codeSection(named), codeSection(bytes), 'the code is as it was');
    const after = frameOfRun(named);
    assert.equal(after.position, before.position, 'the call keeps its offset');
    assert.match(after.url, /^wasm:\/\/wasm\/libside\.wasm-[0-9a-f]+$/);
    if (flags.length) assert.match(after.text, /^libside\.wasm\.run /, 'the function keeps its name');
    // once more: the module's name is replaced, not added twice
    const renamed = withModuleName(named, 'other.wasm');
    assert.match(frameOfRun(renamed).url, /^wasm:\/\/wasm\/other\.wasm-[0-9a-f]+$/);
    assert.equal(wasmReader.sections(renamed).filter((s) => s.name === 'name').length, 1);
  });
}

test('the registry names each module by its file, a second of one name apart, and knows their scripts', (t) => {
  const said = [];
  const registry = sideModules((text) => said.push(text));
  const bytes = assemble(t, WAT);
  const first = registry.prepare(bytes, '/lib/libside.wasm', true);
  const second = registry.prepare(bytes.buffer.slice(0), 'other/libside.wasm', true);
  assert.equal(said.length, 1, 'the calling contexts note is said once');
  assert.equal(registry.nameOfUrl(frameOfRun(first).url), 'libside.wasm');
  assert.equal(registry.nameOfUrl(frameOfRun(second).url), '2.libside.wasm');
  assert.equal(registry.nameOfUrl('wasm://wasm/1a2b3c4d'), null, 'a module not named here');
  assert.equal(registry.nameOfUrl('wasm://wasm/unknown.wasm-1a2b3c4d'), null);
  // Firefox names the script that compiled a module: with two side modules, not which
  const firefoxUrl = 'http://host/app.js line 158 > WebAssembly.instantiate';
  assert.equal(registry.nameOfUrl(firefoxUrl), null);
  const one = sideModules(() => {});
  one.prepare(bytes, 'libone.wasm', false);
  assert.equal(one.nameOfUrl(firefoxUrl), 'libone.wasm', 'with one side module, it');
  const compiled = new WebAssembly.Module(bytes);
  assert.equal(registry.prepare(compiled, 'x.wasm', false), compiled, 'a compiled module is taken as it is');
  assert.equal(registry.prepare(new Uint8Array([1, 2, 3]), 'bad.wasm', false).length, 3, 'bytes it cannot read too');
});
