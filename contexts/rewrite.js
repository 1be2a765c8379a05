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
    useTableEntries(result.instance, contexts, imports);
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
// entry functions: wasm's own call_indirect still reaches the original, at
// no cost. Each table function with an entry is exported as itself
// ("emheap$f<index>") and as its entry ("emheap$t<index>"); a function
// taken from the table is known by identity (the same function is the same
// object wherever it is taken from), since side modules that share the
// table number their functions from 0 too. The table's get is patched
// once; each module rewritten adds its pairs. The table is the module's
// export, or (a -sMAIN_MODULE program's, which JS makes) one of its imports.
var entriesOfTable = typeof WeakMap === 'function' ? new WeakMap() : null;
function useTableEntries(instance, contexts, imports) {
  var exports = instance.exports;
  var table = importedTable(imports);
  Object.keys(exports).forEach(function (name) {
    var value = exports[name];
    if (typeof WebAssembly.Table === 'function' && value instanceof WebAssembly.Table && !table) table = value;
  });
  contexts.ctxGlobal = exports['emheap$ctx'];
  contexts.jsidGlobal = exports['emheap$jsid'];
  contexts.table = table;
  // the originals of the exports with entries, by export name: what side
  // modules call (contexts/side_modules.js)
  contexts.originals = Object.create(null);
  Object.keys(exports).forEach(function (name) {
    if (name.indexOf('emheap$o$') === 0) contexts.originals[name.slice(9)] = exports[name];
  });
  addTableEntries(table, exports);
}

// The pairs (function, its entry) that exports holds join the table's.
function addTableEntries(table, exports) {
  if (!table || !entriesOfTable) return;
  var entries = entriesOfTable.get(table);
  if (!entries) {
    entries = new Map();
    entriesOfTable.set(table, entries);
    var get = table.get;
    table.get = function (index) {
      var fn = get.call(table, index);
      return (fn && entries.get(fn)) || fn;
    };
  }
  Object.keys(exports).forEach(function (name) {
    var m = /^emheap\$t(\d+)$/.exec(name);
    var original = m && exports['emheap$f' + m[1]];
    if (typeof original === 'function') entries.set(original, exports[name]);
  });
}

function importedTable(imports) {
  if (!imports || typeof WebAssembly.Table !== 'function') return null;
  var env = imports.env;
  var value = env && env.__indirect_function_table;
  return value instanceof WebAssembly.Table ? value : null;
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
  addTableEntries: addTableEntries,
  instanceForEmscripten: instanceForEmscripten};
