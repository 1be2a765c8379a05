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
// Where the main module has calling contexts, each side module is
// rewritten for them too (contexts/wasm_instrument.js, side mode): it
// imports the main module's context globals, which the library puts among
// the program's symbols (env.emheap$ctx, env.emheap$jsid), so a call from
// side module code into the main module's malloc continues one context,
// and its allocations take no JS stack once their path was seen. A side
// module the rewrite cannot take (one defining globals of its own, bytes
// it cannot read, a module compiled before emheap saw it) has its
// allocations take a JS stack each, said once on the console.
//
// A side module built with debug info (DWARF in it, -gseparate-dwarf, or
// -gsource-map) gives its frames their files and lines as the main
// module's do (model/frame_names.js): its bytes are kept from loading
// until its lines are first asked for (DWARF inside: parsed then), and a
// file beside it (a source map, a DWARF file) is read where the module was
// found: under node when first asked for, in a page fetched from loading
// on. A module without debug info keeps nothing.
'use strict';

var wasmReader = require('../symbolize/wasm_reader');
var wasmBinary = require('./wasm_binary');
var Writer = wasmBinary.Writer;
var wasmInstrument = require('./wasm_instrument');
var rewrite = require('./rewrite');
var hasDebugInfo = require('../symbolize/debug_info').hasDebugInfo;

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

// The fields of a module's function imports from env.
function envImports(bytes) {
  var s = wasmReader.sections(bytes).filter(function (x) { return x.id === wasmBinary.SECTION.import; })[0];
  return wasmBinary.readImports(bytes, s).funcs.filter(function (f) { return f.module === 'env'; })
    .map(function (f) { return f.field; });
}

// A rewritten module's {info, translate} (its emheap.offsets section).
function offsetsOf(bytes) {
  var sections = wasmReader.sections(bytes);
  for (var i = 0; i < sections.length; i++) {
    var s = sections[i];
    if (s.id === 0 && s.name === 'emheap.offsets') return wasmInstrument.readOffsets(bytes.subarray(s.payload, s.end));
  }
  throw new Error('the rewritten module has no offsets');
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
// said once. debug (optional): {read(file, bytes, done), early}: reads a
// side module's debug info (jslib/environment.js debugInfo: done({sourceLines,
// ...}), from its bytes and the files beside `file`); early: begin at once
// (a page: fetched in the background), else when first asked for.
function sideModules(warn, debug) {
  // module name given -> {name, file, contexts: {info, translate} or null,
  // debug: {bytes, lines, state: 0 not read, 1 reading, 2 read} or null}
  var byName = new Map();
  var reading = 0;        // debug info reads begun and not done
  var waiters = [];       // fns to run once none is
  var loading = 0;        // side modules between prepare and loaded
  var data = [];          // their static data: [lo, hi) ranges
  var saidNoContexts = false;
  var sayNoContexts = function (file, why) {
    if (saidNoContexts) return;
    saidNoContexts = true;
    warn('emheap: allocations from side module ' + fileName(file) + ' take a JS stack each, many times slower ' +
      'than the main module\'s: it could not be rewritten for calling contexts (' + why + ')');
  };
  var registry = {
    // Emscripten's loader is about to compile a side module: binary its
    // bytes (a typed array, ArrayBuffer) or a compiled WebAssembly.Module,
    // file its library's path ('' if unknown). main: the main module's
    // calling contexts ({info, ctxGlobal, jsidGlobal}, rewrite.js) or null;
    // symbols: the object the program's symbols are in (Emscripten's
    // wasmImports, asmLibraryArg in 3.1.x), where the side module's
    // imports are found. -> what to compile instead: the bytes, rewritten
    // and named, or binary itself where that cannot be (a module compiled
    // already; bytes the reader refuses).
    prepare: function (binary, file, main, symbols) {
      // bytes come as Uint8Array, Int8Array (Emscripten 6's copy of a file
      // dlopen read) or ArrayBuffer
      var bytes = ArrayBuffer.isView(binary) ? new Uint8Array(binary.buffer, binary.byteOffset, binary.byteLength)
        : binary instanceof ArrayBuffer ? new Uint8Array(binary) : null;
      if (!bytes) {
        if (main) sayNoContexts(file, 'Emscripten had compiled it before');
        return binary;
      }
      var name = fileName(file);
      for (var n = 2; byName.has(name); n++) name = n + '.' + fileName(file);
      var entry = {name: name, file: String(file || ''), contexts: null, debug: null};
      try {
        // (the original bytes: frames carry the original offsets, stack_table.js)
        if (debug && hasDebugInfo(bytes)) entry.debug = {bytes: bytes.slice(), lines: null, state: 0};
      } catch (e) {
        // bytes the reader refuses: no lines
      }
      var out = bytes;
      if (main) {
        try {
          if (!main.ctxGlobal || !main.jsidGlobal || !symbols) throw new Error('the main module\'s context is not at hand');
          // the main module's functions it calls: their originals, which
          // continue its context (the exports start an activation of their own)
          var renames = Object.create(null);
          envImports(bytes).forEach(function (field) {
            var original = main.originals && main.originals[field];
            if (!original) return;
            renames[field] = 'emheap$o$' + field;
            symbols[renames[field]] = original;
          });
          var rewritten = wasmInstrument.instrument(bytes, {env: symbols}, {renames: renames});
          if (typeof WebAssembly.validate === 'function' && !WebAssembly.validate(rewritten.bytes)) {
            throw new Error('the rewritten module does not validate');
          }
          symbols['emheap$ctx'] = main.ctxGlobal;
          symbols['emheap$jsid'] = main.jsidGlobal;
          out = rewritten.bytes;
          entry.contexts = offsetsOf(out);
        } catch (e) {
          sayNoContexts(file, e && e.message || String(e));
          out = bytes;
        }
      }
      try {
        out = withModuleName(out, name);
      } catch (e) {
        return binary;
      }
      byName.set(name, entry);
      loading++;
      if (entry.debug && debug.early) readDebug(entry);
      return out;
    },
    // Emscripten's loader gave a side module loading now `size` bytes at
    // `at` for its static data (its getMemory): a root of the heap graph,
    // which no other root covers where it lies below the heap (a module
    // linked at load time gets it before the program starts).
    dataPlaced: function (at, size) {
      if (loading > 0 && at > 0 && size > 0) data.push([at, at + size]);
    },
    dataRanges: function () {
      return data.slice();
    },
    // A side module's exports, once Emscripten instantiated it (relocated,
    // as it keeps them): its table functions' entries join the main
    // module's (rewrite.js useTableEntries). table: the program's table,
    // or null without calling contexts.
    loaded: function (exports, table) {
      if (loading > 0) loading--;
      if (table && exports && typeof exports === 'object') rewrite.addTableEntries(table, exports);
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
    // A side module's calling contexts ({info, translate}: its rewrite's
    // offsets, contexts/wasm_instrument.js readOffsets), or null.
    contextsOf: function (name) {
      var entry = byName.get(name);
      return entry ? entry.contexts : null;
    },
    // A side module's source lines ({lookup(offset)}, as the main module's:
    // symbolize/debug_info.js), read now if they were not, or null.
    sourceLines: function (name) {
      var entry = byName.get(name);
      if (!entry || !entry.debug) return null;
      readDebug(entry);
      return entry.debug.lines;
    },
    // Runs fn once no side module's debug info is being read.
    whenLoaded: function (fn) {
      if (!reading) fn();
      else waiters.push(fn);
    },
  };
  function readDebug(entry) {
    var d = entry.debug;
    if (d.state) return;
    d.state = 1;
    reading++;
    var done = function (found) {
      d.lines = found && found.sourceLines || null;
      d.bytes = null;
      d.state = 2;
      if (--reading === 0) waiters.splice(0).forEach(function (fn) { fn(); });
    };
    try {
      debug.read(entry.file, d.bytes, done);
    } catch (e) {
      if (d.state === 1) done(null);
    }
  }
  return registry;
}

module.exports = {sideModules: sideModules, withModuleName: withModuleName};
