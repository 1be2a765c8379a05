// rewrite.js -- the load-time half of calling contexts: rewrite the module
// before it is compiled (wasm_instrument.js), hand JS the entry functions
// of the table, and read back, on any thread, how positions map to the
// original module. contexts/loader.js calls these from Emscripten's
// Module.instantiateWasm hook.
'use strict';

var wasmInstrument = require('./wasm_instrument');
var now = require('../capture/clock').now;

// bytes (Uint8Array) and Emscripten's imports object -> a promise of
// {instance, module, contexts, ms}; rejects if the rewrite or the compile
// of the rewritten module fails (the caller then loads the original).
function instantiateRewritten(bytes, imports) {
  var t0 = now();
  var rewritten;
  try {
    rewritten = wasmInstrument.instrument(bytes, imports);
  } catch (e) {
    return Promise.reject(e); // a module the rewrite cannot read loads as it is
  }
  var rewriteMs = now() - t0;
  if (typeof WebAssembly.validate === 'function' && !WebAssembly.validate(rewritten.bytes)) {
    return Promise.reject(new Error('the rewritten module does not validate'));
  }
  return WebAssembly.instantiate(rewritten.bytes, imports).then(function (result) {
    var contexts = contextsOf(result.module);
    if (!contexts) throw new Error('the rewritten module has no offsets');
    contexts.rewriteMs = rewriteMs;
    contexts.compileMs = now() - t0 - rewriteMs;
    useTableEntries(result.instance, contexts);
    return {instance: result.instance, module: result.module, contexts: contexts};
  });
}

// A compiled module -> {info, translate} if it was rewritten, else null.
function contextsOf(module) {
  if (!module || typeof WebAssembly.Module.customSections !== 'function') return null;
  var sections = WebAssembly.Module.customSections(module, 'emheap.offsets');
  if (!sections.length) return null;
  return wasmInstrument.readOffsets(new Uint8Array(sections[0]));
}

// Functions JS takes from the table (Emscripten's getWasmTableEntry, and
// so invoke_*, callbacks, a pthread's entry point) are handed out as their
// entry functions ("emheap$t<index>" exports): wasm's own call_indirect
// still reaches the original, at no cost. A wasm function object's name is
// its function index.
function useTableEntries(instance, contexts) {
  var exports = instance.exports;
  var table = null;
  var entries = Object.create(null);
  Object.keys(exports).forEach(function (name) {
    var value = exports[name];
    if (typeof WebAssembly.Table === 'function' && value instanceof WebAssembly.Table && !table) table = value;
    var m = /^emheap\$t(\d+)$/.exec(name);
    if (m) entries[m[1]] = value;
  });
  contexts.ctxGlobal = exports['emheap$ctx'];
  contexts.jsidGlobal = exports['emheap$jsid'];
  if (!table) return;
  var get = table.get;
  var patched = function (index) {
    var fn = get.call(table, index);
    var entry = fn && entries[fn.name];
    return entry || fn;
  };
  table.get = patched;
}

// What Emscripten is handed for the instance: its exports without the
// rewrite's own (the contexts' globals, the table's entry functions). A
// -sMAIN_MODULE program's loader takes every export as a symbol of the
// program (library_dylink.js: a GOT entry each, a table slot for each
// function, and an i64 global it cannot take: "bad export type").
// Emscripten reads only .exports of the instance it is given.
var OWN_EXPORT = /^emheap\$/;
function instanceForEmscripten(instance) {
  var names = Object.keys(instance.exports);
  if (!names.some(function (name) { return OWN_EXPORT.test(name); })) return instance;
  var exports = Object.create(null);
  names.forEach(function (name) {
    if (!OWN_EXPORT.test(name)) exports[name] = instance.exports[name];
  });
  return {exports: Object.freeze(exports)};
}

module.exports = {instantiateRewritten: instantiateRewritten, contextsOf: contextsOf, useTableEntries: useTableEntries,
  instanceForEmscripten: instanceForEmscripten};
