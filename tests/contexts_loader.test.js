// contexts_loader.test.js -- contexts/loader.js: when the module is
// rewritten for calling contexts, what happens when it cannot be, and what
// the user is told. The rewrite itself: wasm_instrument.test.js and the
// contexts end-to-end tests.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {contextsLoader} = require('../contexts/loader');
const {settingsOf} = require('../jslib/config');

function settings(options, linkMode, search) {
  return settingsOf({moduleOptions: () => options, linkMode: () => linkMode, linkWrappers: () => undefined,
    search: search || '', env: null, crypto: null, warn: (m) => { throw new Error('unexpected warning: ' + m); }});
}

// console.warn's messages while fn runs.
function warnings(fn) {
  const said = [];
  const warn = console.warn;
  console.warn = (m) => said.push(m);
  try {
    fn();
  } finally {
    console.warn = warn;
  }
  return said;
}

const host = {wasmBinary: () => undefined, wasmBinaryFile: () => 'app.wasm', buffer: () => new ArrayBuffer(0), stateAddress: () => 0};

test('rewritten in exact mode, the default; not in the other modes, nor with contexts off', () => {
  assert.equal(contextsLoader(host, {}, settings({})).wanted(false), true);
  assert.equal(contextsLoader(host, {}, settings({}, 'exact')).wanted(false), true);
  assert.equal(contextsLoader(host, {}, settings({}, 'sampled')).wanted(false), false);
  assert.equal(contextsLoader(host, {}, settings({}, undefined, '?emheap=off')).wanted(false), false);
  assert.equal(contextsLoader(host, {}, settings({contexts: false})).wanted(false), false);
});

test('an app that instantiates the module itself keeps it, and is told why exact mode is slow', () => {
  const loader = contextsLoader(host, {}, settings({mode: 'exact'}));
  assert.equal(loader.wanted(true), false);
  let answer;
  const said = warnings(() => { answer = loader.ready(); });
  assert.equal(answer, 0);
  assert.equal(said.length, 1);
  assert.match(said[0], /exact mode without calling contexts \(the app instantiates the module itself \(Module.instantiateWasm\)\)/);
});

test('a module that cannot be rewritten loads as it is, and the default mode falls back to sampled, said once', async () => {
  const env = {moduleFileBytes: () => Promise.resolve(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]))};
  const loader = contextsLoader(host, env, settings({}));
  const r = await loader.instantiate({});
  assert.ok(r.instance instanceof WebAssembly.Instance, 'the original module, instantiated');
  assert.equal(loader.contexts, null);
  assert.match(loader.whyNot, /^the module could not be rewritten for them: /);
  let mode;
  const said = warnings(() => { mode = loader.defaultModeFallback({mode: 'exact', interval: 524288}); });
  assert.equal(mode, 'sampled');
  assert.equal(said.length, 1);
  assert.match(said[0], /sampled mode \(one stack per 524288 bytes on average\).*could not be rewritten/);
});

test('no fallback when the user chose exact mode, or when contexts are there; verify is ready() 2', () => {
  const chosen = contextsLoader(host, {}, settings({mode: 'exact'}));
  assert.equal(chosen.defaultModeFallback({mode: 'exact', interval: 1}), null);
  const rewritten = contextsLoader(host, {}, settings({contexts: 'verify'}));
  rewritten.contexts = {info: {stats: {}}};
  assert.equal(rewritten.defaultModeFallback({mode: 'exact', interval: 1}), null);
  assert.equal(rewritten.ready(), 2);
  assert.deepEqual(rewritten.report(5), {rewritten: true, rewriteMs: undefined, compileMs: undefined, stats: {}, captures: 5});
  assert.deepEqual(contextsLoader(host, {}, settings({})).report(0), {rewritten: false});
});

test('bytes that cannot be had reject instantiate, for the library to abort with the reason', async () => {
  const env = {moduleFileBytes: () => Promise.reject(new Error('cannot fetch app.wasm: 404'))};
  await assert.rejects(contextsLoader(host, env, settings({})).instantiate({}), /cannot fetch app.wasm: 404/);
});

test('a module this engine cannot load at all is not blamed on emheap', async () => {
  // a table with limits flags no engine knows: neither the rewrite nor the
  // original loads
  const bytes = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 4, 4, 1, 0x70, 0x7f, 0]);
  const loader = contextsLoader(host, {moduleFileBytes: () => Promise.resolve(bytes)}, settings({}));
  const e = await loader.instantiate({}).then(() => null, (error) => error);
  assert.ok(e && e.engine, 'rejected, marked as the engine\'s');
  assert.match(loader.whyNotLoaded(e), /^this engine cannot load the program's module, with emheap or without: /);
  assert.match(loader.whyNotLoaded(new Error('cannot fetch app.wasm: 404')), /^emheap: cannot load the module: cannot fetch/);
});
