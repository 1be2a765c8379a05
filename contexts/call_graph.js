// call_graph.js -- what the calling-context rewrite (wasm_instrument.js)
// must change in a module, found before a byte is written: what each
// import is (the runtime's placeholders, Emscripten's invoke_* glue, JS
// that may call back into wasm, JS that stays in JS), every body's calls,
// which functions can reach an allocation (a static call graph;
// call_indirect by signature over the functions the table can hold), and
// the entry functions to add for the exports and table functions that can.
'use strict';

var binary = require('./wasm_binary');
var SECTION = binary.SECTION, Reader = binary.Reader;
var skipFrom = binary.skipFrom, valtypeKey = binary.valtypeKey, sectionsOf = binary.sectionsOf;

// Placeholder imports of the runtime (runtime/context.h), found by the JS
// function bound to them, whatever the import's (possibly minified) name.
var PLACEHOLDERS = ['emheap_cc_lo', 'emheap_cc_hi', 'emheap_cc_js', 'emheap_cc_set_js'];

// Imports known never to call back into wasm: their call sites need
// nothing. Names of the JS functions bound to them, without Emscripten's
// leading underscore. Everything else is assumed to call back (safe).
var STAYS_IN_JS = new RegExp('^(' + [
  'emheap_js_\\w+', 'emheap_cc_\\w+',
  'emscripten_memcpy_big', 'emscripten_memcpy_js', 'emscripten_resize_heap', 'emscripten_date_now',
  'emscripten_get_now\\w*', 'emscripten_get_heap_max', 'emscripten_notify_memory_growth',
  'setTempRet0', 'getTempRet0', 'setThrew',
  'fd_\\w+', 'environ_\\w+', 'clock_\\w+', 'args_\\w+', 'random_get', 'syscall_\\w+',
  'mmap_js', 'munmap_js', 'tzset_js', 'localtime_js', 'gmtime_js', 'mktime_js', 'timegm_js',
  'emscripten_get_now_is_monotonic', 'emscripten_console_\\w+', 'emscripten_err', 'emscripten_out',
  // These throw (C++ exceptions, longjmp) and never call back but through
  // exports (which start an activation of their own): the invoke_* call
  // that catches puts the context back.
  'cxa_throw', 'emscripten_longjmp', 'emscripten_throw_longjmp', 'longjmp', 'resumeException',
  'llvm_eh_typeid_for', 'cxa_find_matching_catch_\\d+', 'cxa_begin_catch', 'cxa_end_catch', 'cxa_rethrow',
  'cxa_uncaught_exceptions',
].join('|') + ')$');

// What an import is (importKind). IMPORT_WASM: a function of another wasm
// module (a side module's import of the main module's malloc, say), which
// continues the caller's context: a site.
var IMPORT_PLAIN = 0, IMPORT_CALLS_BACK = 1, IMPORT_INVOKE = 2, IMPORT_PLACEHOLDER = 3, IMPORT_WASM = 4;

// bytes: the module; imports: the object it is instantiated with (or, for
// a side module, what its imports will be bound to: the program's
// symbols); side: the module is a side module of a -sMAIN_MODULE program,
// whose context is the main module's (contexts/side_modules.js). -> the
// module as the rewrite sees it (readModule), with what each step below
// adds. Throws where the module cannot be rewritten.
function analyze(bytes, imports, side) {
  var m = readModule(bytes);
  m.side = !!side;
  // A module of a dynamically linked program (the main module of a
  // -sMAIN_MODULE program, or a side module: its dylink section says so):
  // its calls through the table may reach another module's functions,
  // which the call graph does not see: every such call is a site.
  m.dynamic = m.sections.some(function (s) { return s.id === 0 && /^dylink(\.0)?$/.test(s.name); });
  classifyImports(m, imports);
  readBodies(m);
  m.addressTaken = new Uint8Array(m.nFuncs);
  // The table's functions: element segments. ref.func in code could put
  // others there too, but Emscripten declares those in a declarative
  // element segment, read here as well.
  binary.readElements(bytes, m.byId[SECTION.element], m.addressTaken, []);
  findReaching(m);
  planEntries(m);
  return m;
}

// The sections and declarations the rewrite reads: types, imports, each
// function's type, counts of functions and globals, exports.
function readModule(bytes) {
  var sections = sectionsOf(bytes);
  var byId = {};
  sections.forEach(function (s) { if (s.id !== 0) byId[s.id] = s; });
  if (!byId[SECTION.code]) throw new Error('no code section');
  var imp = binary.readImports(bytes, byId[SECTION.import]);
  var funcTypes = binary.readFuncTypes(bytes, byId[SECTION.func]);
  return {
    bytes: bytes, sections: sections, byId: byId,
    types: binary.readTypes(bytes, byId[SECTION.type]),
    imports: imp.funcs, // [{module, field, type}]
    funcTypes: funcTypes, // the type of each function defined here
    nImported: imp.funcs.length,
    nFuncs: imp.funcs.length + funcTypes.length,
    nGlobals: imp.globals + binary.countEntries(bytes, byId[SECTION.global]),
    nImportedGlobals: imp.globals,
    exports: binary.readExports(bytes, byId[SECTION.export]),
  };
}

function typeOf(m, f) {
  return f < m.nImported ? m.imports[f].type : m.funcTypes[f - m.nImported];
}

function typeKey(m, t) {
  return m.types[t].key;
}

// invoke_X(index, args...) calls a table function of args... -> results.
function invokeTargetKey(m, t) {
  var ty = m.types[t];
  return ty.params.slice(1).join(',') + '->' + ty.results.join(',');
}

// Emscripten's stand-in, among a -sMAIN_MODULE program's imports, for a
// function a side module defines: the JS function that calls it once it is
// loaded. 3.1.x writes `function _f() { return Module["_f"].apply(null,
// arguments) }`; later versions mark theirs `stub`.
var STUB_SOURCE = /^function\s+[\w$]+\s*\(\)\s*\{\s*return\s+Module\[\s*["'][\w$]+["']\s*\]\.apply\(\s*null\s*,\s*arguments\s*\)\s*;?\s*\}$/;
function isDylinkStub(fn) {
  if (typeof fn !== 'function') return false;
  if (fn.stub === true) return true;
  try {
    return STUB_SOURCE.test(Function.prototype.toString.call(fn));
  } catch (e) {
    return false;
  }
}

// m.importKind[i] for each imported function, and m.placeholder {import
// index: placeholder name}; m.readers: the placeholders that read the
// context (a function calling one reaches an allocation).
function classifyImports(m, imports) {
  m.importKind = new Uint8Array(m.nImported);
  m.placeholder = {};
  m.stubs = [];
  m.imports.forEach(function (f, i) {
    // Emscripten binds import `fd_write` to `_fd_write`, `__syscall_x` to
    // `___syscall_x`, `invoke_vi` to `invoke_vi`; the import's own name
    // may be minified (-O3).
    var fn = imports && imports[f.module] ? imports[f.module][f.field] : undefined;
    var bare = (typeof fn === 'function' && fn.name ? fn.name : f.field).replace(/^_+/, '');
    var field = f.field.replace(/^_+/, '');
    var ph = PLACEHOLDERS.indexOf(bare);
    if (ph >= 0) {
      m.importKind[i] = IMPORT_PLACEHOLDER;
      m.placeholder[i] = PLACEHOLDERS[ph];
    } else if (m.side && typeof fn === 'function' && /^\d+$/.test(fn.name)) {
      // a wasm function's JS name is its index: another module's function
      m.importKind[i] = IMPORT_WASM;
    } else if (isDylinkStub(fn)) {
      // the main module's call of a side module's function, through
      // Emscripten's stub: continues the context (the stub's frame starts
      // no activation: m.stubs, capture/stack_table.js)
      m.importKind[i] = IMPORT_WASM;
      m.stubs.push(fn.name);
    } else if (/^invoke_/.test(bare)) {
      m.importKind[i] = IMPORT_INVOKE;
    } else if (STAYS_IN_JS.test(bare) || STAYS_IN_JS.test(field)) {
      m.importKind[i] = IMPORT_PLAIN;
    } else {
      m.importKind[i] = IMPORT_CALLS_BACK;
    }
  });
  m.readers = Object.keys(m.placeholder).filter(function (i) { return /_(lo|hi|js)$/.test(m.placeholder[i]); });
  if (!m.readers.length && !m.side) throw new Error('the runtime reads no context (not an emheap runtime with contexts)');
}

// m.bodies: where each function body is ({sizeAt, start, end}); m.calls:
// the calls in each (scanBody).
function readBodies(m) {
  var bytes = m.bytes;
  var r = new Reader(bytes, m.byId[SECTION.code].start);
  var nBodies = r.u32();
  if (nBodies !== m.funcTypes.length) throw new Error('function and code sections disagree');
  var bodies = new Array(nBodies);
  for (var b = 0; b < nBodies; b++) {
    var sizeAt = r.pos;
    var size = r.u32();
    bodies[b] = {start: r.pos, end: r.pos + size, sizeAt: sizeAt};
    r.pos += size;
  }
  m.bodies = bodies;
  // A side module's own globals move by two (the context's are imported
  // before them): their uses are found with the calls.
  var globalsFrom = m.side ? m.nImportedGlobals : -1;
  m.calls = bodies.map(function (body) { return scanBody(bytes, body.start, body.end, globalsFrom); });
}

// One pass over a body: its calls, without rewriting: {direct: [f...],
// indirect: [type...], calls: [at, op, target, end, ...]} (target: the
// function, or the type of a call_indirect), so that the rewrite visits
// the calls only and copies what lies between them. globalsFrom >= 0: the
// global.get and global.set of globals from that index on are listed in
// `calls` too (target: the global; `globals` counts them).
function scanBody(bytes, start, end, globalsFrom) {
  var r = new Reader(bytes, start);
  var groups = r.u32();
  for (var g = 0; g < groups; g++) {
    r.u32();
    valtypeKey(r);
  }
  var direct = [];
  var indirect = [];
  var calls = [];
  var globals = 0;
  var pos = r.pos;
  while (pos < end) {
    var at = pos;
    var op = bytes[pos++];
    if ((op === 0x23 || op === 0x24) && globalsFrom >= 0) {
      r.pos = pos;
      var gi = r.u32();
      pos = r.pos;
      if (gi >= globalsFrom) {
        calls.push(at, op, gi, pos);
        globals++;
      }
    } else if (op === 0x10 || op === 0x12) {
      r.pos = pos;
      var f = r.u32();
      direct.push(f);
      pos = r.pos;
      calls.push(at, op, f, pos);
    } else if (op === 0x11 || op === 0x13) {
      r.pos = pos;
      var type = r.u32();
      r.u32();
      indirect.push(type);
      pos = r.pos;
      calls.push(at, op, type, pos);
    } else {
      pos = skipFrom(r, bytes, pos, op);
    }
  }
  if (pos !== end) throw new Error('a function body ends inside an instruction');
  return {direct: direct, indirect: indirect, calls: calls, globals: globals};
}

// Reachability: m.reach[f] when f reaches an allocation: it reads the
// context, calls a function that reaches, calls through the table by a
// signature some reaching table function has, or calls an invoke_* whose
// target signature is such (m.typeKeyReaches: those signatures).
function findReaching(m) {
  var nImported = m.nImported;
  var reach = new Uint8Array(m.nFuncs);
  var typeKeyReaches = Object.create(null);
  var callers = new Array(m.nFuncs);
  var indirectCallers = Object.create(null); // type key -> [f]
  for (var i = 0; i < m.nFuncs; i++) callers[i] = [];
  var work = [];
  var mark = function (f) {
    if (reach[f]) return;
    reach[f] = 1;
    work.push(f);
  };
  m.calls.forEach(function (c, bi) {
    var f = nImported + bi;
    c.direct.forEach(function (g) {
      if (g < nImported && m.importKind[g] === IMPORT_PLACEHOLDER) {
        if (m.readers.indexOf(String(g)) >= 0) mark(f);
      } else if (g < nImported && m.importKind[g] === IMPORT_WASM) {
        mark(f); // another module's function may allocate
      } else {
        callers[g].push(f);
      }
    });
    c.indirect.forEach(function (t) {
      var k = typeKey(m, t);
      (indirectCallers[k] || (indirectCallers[k] = [])).push(f);
    });
    if (m.dynamic && c.indirect.length) mark(f);
  });
  // invoke_* imports behave as call_indirect of their target signature.
  for (var ii = 0; ii < nImported; ii++) {
    if (m.importKind[ii] !== IMPORT_INVOKE) continue;
    var ik = invokeTargetKey(m, m.imports[ii].type);
    (indirectCallers[ik] || (indirectCallers[ik] = [])).push(ii);
    if (m.dynamic) mark(ii);
  }
  while (work.length) {
    var f = work.pop();
    callers[f].forEach(mark);
    if (m.addressTaken[f]) {
      var k = typeKey(m, typeOf(m, f));
      if (!typeKeyReaches[k]) {
        typeKeyReaches[k] = true;
        (indirectCallers[k] || []).forEach(mark);
      }
    }
  }
  m.reach = reach;
  m.typeKeyReaches = typeKeyReaches;
}

// The entry functions to add, after the module's own functions: one per
// export that can reach an allocation (m.exportEntry: export name -> its
// entry), then one per table function that can (m.tableEntry: function
// -> its entry; m.tableEntries: those functions). m.newFuncs: {type,
// target, kind: 'export'|'table', name}, in function index order.
function planEntries(m) {
  m.newFuncs = [];
  m.exportEntry = {};
  m.exports.forEach(function (e) {
    if (e.kind !== 0 || e.index < m.nImported || !m.reach[e.index] || /^dynCall_/.test(e.name)) return;
    m.exportEntry[e.name] = m.nFuncs + m.newFuncs.length;
    m.newFuncs.push({type: typeOf(m, e.index), target: e.index, kind: 'export', name: e.name});
  });
  m.tableEntry = {};
  m.tableEntries = [];
  for (var t = m.nImported; t < m.nFuncs; t++) {
    if (!m.addressTaken[t] || !m.reach[t]) continue;
    m.tableEntry[t] = m.nFuncs + m.newFuncs.length;
    m.tableEntries.push(t);
    m.newFuncs.push({type: typeOf(m, t), target: t, kind: 'table'});
  }
}

// Whether a call of function g must set the context.
function isSite(m, g) {
  if (g < m.nImported) {
    if (m.importKind[g] === IMPORT_WASM) return true;
    return m.importKind[g] === IMPORT_INVOKE && (m.dynamic || !!m.typeKeyReaches[invokeTargetKey(m, m.imports[g].type)]);
  }
  return !!m.reach[g];
}

// Whether a call_indirect of type t must set the context.
function isIndirectSite(m, t) {
  return m.dynamic || !!m.typeKeyReaches[typeKey(m, t)];
}

module.exports = {analyze: analyze, scanBody: scanBody, isSite: isSite, isIndirectSite: isIndirectSite, IMPORT_CALLS_BACK: IMPORT_CALLS_BACK,
  IMPORT_PLACEHOLDER: IMPORT_PLACEHOLDER};
