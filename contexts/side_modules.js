// side_modules.js -- the side modules of a -sMAIN_MODULE program (linked at
// load time, or opened with dlopen), told apart in its stacks.
//
// Emscripten's loader compiles each side module from its bytes; the library
// (jslib/library_emheap.js) hands them here first. Each gets a module name
// in its name section, its file's name: V8 then puts the name in the
// module's script URL ("wasm://wasm/libside.wasm-1a2b3c4d") and in front of
// its function names, and the stack table (capture/stack_table.js) charges
// a frame at such a URL to that module, not to the main module, whose debug
// info would name it wrongly. Nothing else of the module changes: the name
// section comes after the code, so every code offset stays as it was.
//
// Calling contexts cover the main module only: a side module is not
// rewritten, and its allocations take a JS stack each (said once).
'use strict';

var wasmReader = require('../symbolize/wasm_reader');
var Writer = require('./wasm_binary').Writer;

var NAME_SECTION = 'name';
var MODULE_NAME = 0; // the name section's subsection of the module's own name

// bytes (Uint8Array) -> a copy whose name section names the module `name`
// (the subsection replaced if there is one, the section added at the end if
// there is none). Throws on bytes that are not a wasm module.
function withModuleName(bytes, name) {
  var sections = wasmReader.sections(bytes);
  var names = null;
  sections.forEach(function (s) { if (s.id === 0 && s.name === NAME_SECTION && !names) names = s; });
  var payload = new Writer(64);
  payload.name(NAME_SECTION);
  var sub = new Writer(64);
  sub.name(name);
  payload.u8(MODULE_NAME);
  payload.u32(sub.len);
  payload.bytes(sub.result(), 0, sub.len);
  var rest = names ? names.payload : 0;
  if (names) {
    // the subsections after the module's name, as they were
    var r = new wasmReader.Reader(bytes, names.payload);
    if (r.pos < names.end && bytes[r.pos] === MODULE_NAME) {
      r.u8();
      var size = r.u32();
      rest = r.pos + size;
    }
    payload.bytes(bytes, rest, names.end);
  }
  var out = new Writer(bytes.length + payload.len + 16);
  if (names) {
    out.bytes(bytes, 0, names.headerStart);
  } else {
    out.bytes(bytes, 0, bytes.length);
  }
  out.u8(0);
  out.u32(payload.len);
  out.bytes(payload.result(), 0, payload.len);
  if (names) out.bytes(bytes, names.end, bytes.length);
  return out.result().slice();
}

// V8's URL of a module compiled from bytes with a module name.
var NAMED_MODULE_URL = /^wasm:\/\/wasm\/(.+)-[0-9a-f]+$/;

// A library's path -> its file's name, in the characters V8's URLs and
// frame names keep as they are.
function fileName(path) {
  var s = String(path || '');
  return s.slice(s.lastIndexOf('/') + 1).replace(/[^\w.+-]/g, '_') || 'side_module';
}

// The registry of one program's side modules. warn: fn(text), for what is
// said once.
function sideModules(warn) {
  var byName = new Map(); // module name given -> {name, file}
  var saidNoContexts = false;
  var registry = {
    // Emscripten's loader is about to compile a side module: binary its
    // bytes (Uint8Array, ArrayBuffer) or a compiled WebAssembly.Module,
    // file its library's path ('' if unknown). -> what to compile instead:
    // the bytes with the module's name, or binary itself where that cannot
    // be (a module compiled already; bytes the reader refuses).
    prepare: function (binary, file, contextsOn) {
      if (contextsOn && !saidNoContexts) {
        saidNoContexts = true;
        warn('emheap: calling contexts cover the main module only: allocations from side modules (' + fileName(file) +
          ') take a JS stack each, many times slower than the main module\'s');
      }
      var bytes = binary instanceof Uint8Array ? binary
        : binary instanceof ArrayBuffer ? new Uint8Array(binary) : null;
      if (!bytes) return binary;
      var name = fileName(file);
      for (var n = 2; byName.has(name); n++) name = n + '.' + fileName(file);
      try {
        var named = withModuleName(bytes, name);
        byName.set(name, {name: name, file: String(file || '')});
        return named;
      } catch (e) {
        return binary;
      }
    },
    // The script URL of a wasm frame that is not the main module's -> the
    // side module's name, or null when it cannot be told. V8's URL holds
    // the name given here; Firefox's says only which script compiled the
    // module ("app.js line 9 > WebAssembly.instantiate"), which tells one
    // side module from the main module but not from another side module.
    nameOfUrl: function (url) {
      var m = NAMED_MODULE_URL.exec(url);
      if (m) return byName.has(m[1]) ? m[1] : null;
      if (/^wasm:/.test(url) || byName.size !== 1) return null;
      return byName.keys().next().value;
    },
    count: function () {
      return byName.size;
    },
  };
  return registry;
}

module.exports = {sideModules: sideModules, withModuleName: withModuleName};
