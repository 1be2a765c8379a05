// wasm_instrument.js -- rewrites a linked wasm module, before it is
// compiled, so that every allocation knows its calling context: a 64-bit
// value that identifies the path of call sites from the outermost wasm
// entry down to malloc (PCC, Bond & McKinley, OOPSLA 2007). The C runtime
// looks that value up in a table (runtime/context_table.c): a hit is the
// allocation's site, with no JS; a miss takes the JS stack once.
//
// What the rewrite adds, all in plain wasm (no proposal beyond MVP + the
// features the module already uses):
//  - two mutable globals: CTX (i64, the context) and JSID (i32, which JS
//    stack lies outside the current wasm activation: a node of the JS stack
//    table's trie, 0 while unknown). Globals are per instance, so every
//    pthread has its own.
//  - at each call site whose callee can reach an allocation (a static call
//    graph; call_indirect by signature over the functions the table can
//    hold; Emscripten's invoke_* glue calls back into the table),
//      CTX = S * K + R   before the call, R a constant of that call site,
//      CTX = S           after it (also when an exception or longjmp comes
//                         back through an invoke_* call: it returns here),
//    where S is CTX at the function's entry, kept in a local. Call sites that
//    cannot reach an allocation pay nothing.
//  - at a call of any other import that may call back into wasm (anything
//    not known to stay in JS): CTX and JSID are 0 for the call and put back
//    after it, so that what JS calls back starts a new activation.
//  - an entry function for every export that can reach an allocation: JS
//    calling it starts a new activation (CTX = 0, JSID = 0) and gets CTX and
//    JSID back as they were. JS calling _malloc itself is one of these.
//  - an entry function for every function the table holds that can reach an
//    allocation, handed to JS by wasmTable.get (library_emheap.js): called
//    with CTX == 0 (from the event loop, or from an import above), it is a
//    new activation and clears JSID when it returns; called with CTX != 0
//    (from an invoke_* inside wasm), it continues the caller's.
//  - the runtime's placeholder imports (runtime/context.h) become global
//    reads and writes.
// The offsets of the original code are kept in a custom section
// "emheap.offsets" (a rewritten position -> the original one), so stack
// positions, DWARF lines, source maps and names read as in the original.
//
// Recursion would make contexts unbounded (a binary tree built recursively
// allocates each node from a path of its own). A function calling itself
// directly leaves the context as it is (CTX = S), so every depth of a
// direct recursion is one context, and stack_table.js folds the frames of
// such a recursion into one "recursive" frame, so that a JS stack names the
// same site. Other recursion (through another function or a pointer) keeps
// one context per depth, and its sites merge only where JS stacks are cut
// at their depth limit.
'use strict';

var binary = require('./wasm_binary');
var SECTION = binary.SECTION, Reader = binary.Reader, Writer = binary.Writer;
var skipFrom = binary.skipFrom, valtypeKey = binary.valtypeKey, sectionsOf = binary.sectionsOf;
var readTypes = binary.readTypes, readImports = binary.readImports, readFuncTypes = binary.readFuncTypes;
var countEntries = binary.countEntries, readExports = binary.readExports, readElements = binary.readElements;

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

var K_MULTIPLIER = [0x95, 0xbf, 0x8b, 0xe9, 0xab, 0xd6, 0xa3, 0xa4, 0x94, 0x7f]; // i64 LEB of an odd 64-bit constant

// Call-site constants: deterministic (every thread instantiates the same
// module, and a run repeats), 27-bit signed so each is a 4-byte i64.const.
function SiteConstants() {
  this.state = 0x2545f491;
}
SiteConstants.prototype.next = function () {
  var x = this.state;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  this.state = x;
  var v = x & 0x7ffffff;
  return v || 1;
};

// ---- the call graph ----

// One pass over a body: its calls, without rewriting: {direct: [f...],
// indirect: [type...], calls: [at, op, target, end, ...]} (target: the
// function, or the type of a call_indirect), so that the rewrite visits
// the calls only and copies what lies between them.
function scanBody(bytes, start, end) {
  var r = new Reader(bytes, start);
  var groups = r.u32();
  for (var g = 0; g < groups; g++) {
    r.u32();
    valtypeKey(r);
  }
  var direct = [];
  var indirect = [];
  var calls = [];
  var pos = r.pos;
  while (pos < end) {
    var at = pos;
    var op = bytes[pos++];
    if (op === 0x10 || op === 0x12) {
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
  return {direct: direct, indirect: indirect, calls: calls};
}

// ---- the rewrite ----

// bytes: the module. imports: the object the module is instantiated with
// ({module: {field: value}}), to tell Emscripten's imports apart by the JS
// functions bound to them. Returns {bytes, info} or throws (the caller then
// uses the original module).
function instrument(bytes, imports) {
  var sections = sectionsOf(bytes);
  var byId = {};
  sections.forEach(function (s) { if (s.id !== 0) byId[s.id] = s; });
  if (!byId[SECTION.code]) throw new Error('no code section');
  var types = readTypes(bytes, byId[SECTION.type]);
  var imp = readImports(bytes, byId[SECTION.import]);
  var funcTypes = readFuncTypes(bytes, byId[SECTION.func]);
  var nImported = imp.funcs.length;
  var nFuncs = nImported + funcTypes.length;
  var typeOf = function (f) { return f < nImported ? imp.funcs[f].type : funcTypes[f - nImported]; };
  var nGlobals = imp.globals + countEntries(bytes, byId[SECTION.global]);
  var exports = readExports(bytes, byId[SECTION.export]);

  // What each import is.
  var IMPORT_PLAIN = 0, IMPORT_CALLS_BACK = 1, IMPORT_INVOKE = 2, IMPORT_PLACEHOLDER = 3;
  var importKind = new Uint8Array(nImported);
  var placeholder = {};
  imp.funcs.forEach(function (f, i) {
    // Emscripten binds import `fd_write` to `_fd_write`, `__syscall_x` to
    // `___syscall_x`, `invoke_vi` to `invoke_vi`; the import's own name
    // may be minified (-O3).
    var fn = imports && imports[f.module] ? imports[f.module][f.field] : undefined;
    var bare = (typeof fn === 'function' && fn.name ? fn.name : f.field).replace(/^_+/, '');
    var field = f.field.replace(/^_+/, '');
    var ph = PLACEHOLDERS.indexOf(bare);
    if (ph >= 0) {
      importKind[i] = IMPORT_PLACEHOLDER;
      placeholder[i] = PLACEHOLDERS[ph];
    } else if (/^invoke_/.test(bare)) {
      importKind[i] = IMPORT_INVOKE;
    } else if (STAYS_IN_JS.test(bare) || STAYS_IN_JS.test(field)) {
      importKind[i] = IMPORT_PLAIN;
    } else {
      importKind[i] = IMPORT_CALLS_BACK;
    }
  });
  var readers = Object.keys(placeholder).filter(function (i) { return /_(lo|hi|js)$/.test(placeholder[i]); });
  if (!readers.length) throw new Error('the runtime reads no context (not an emheap runtime with contexts)');

  // Bodies and their calls.
  var code = byId[SECTION.code];
  var r = new Reader(bytes, code.start);
  var nBodies = r.u32();
  if (nBodies !== funcTypes.length) throw new Error('function and code sections disagree');
  var bodies = new Array(nBodies);
  for (var b = 0; b < nBodies; b++) {
    var sizeAt = r.pos;
    var size = r.u32();
    bodies[b] = {start: r.pos, end: r.pos + size, sizeAt: sizeAt};
    r.pos += size;
  }
  var calls = bodies.map(function (body) { return scanBody(bytes, body.start, body.end); });

  var addressTaken = new Uint8Array(nFuncs);
  var slots = [];
  readElements(bytes, byId[SECTION.element], addressTaken, slots);
  // ref.func anywhere in code could reach the table too: count it (cheap
  // scan of the bytes already parsed is not needed: Emscripten declares
  // such functions in a declarative element segment, read above).

  // Reachability: f reaches an allocation if it reads the context, calls a
  // function that reaches, calls through the table by a signature some
  // reaching table function has, or calls an invoke_* whose target
  // signature is such.
  var reach = new Uint8Array(nFuncs);
  var typeKeyReaches = Object.create(null);
  var typeKey = function (t) { return types[t].key; };
  var invokeTargetKey = function (t) { // invoke_X(index, args...) calls args... -> results
    var ty = types[t];
    return ty.params.slice(1).join(',') + '->' + ty.results.join(',');
  };
  var callers = new Array(nFuncs);
  var indirectCallers = Object.create(null); // type key -> [f]
  for (var i = 0; i < nFuncs; i++) callers[i] = [];
  var work = [];
  var mark = function (f) {
    if (reach[f]) return;
    reach[f] = 1;
    work.push(f);
  };
  calls.forEach(function (c, bi) {
    var f = nImported + bi;
    c.direct.forEach(function (g) {
      if (g < nImported && importKind[g] === IMPORT_PLACEHOLDER) {
        if (readers.indexOf(String(g)) >= 0) mark(f);
      } else {
        callers[g].push(f);
      }
    });
    c.indirect.forEach(function (t) {
      var k = typeKey(t);
      (indirectCallers[k] || (indirectCallers[k] = [])).push(f);
    });
  });
  // invoke_* imports behave as call_indirect of their target signature.
  for (var ii = 0; ii < nImported; ii++) {
    if (importKind[ii] !== IMPORT_INVOKE) continue;
    var ik = invokeTargetKey(imp.funcs[ii].type);
    (indirectCallers[ik] || (indirectCallers[ik] = [])).push(ii);
  }
  while (work.length) {
    var f = work.pop();
    callers[f].forEach(mark);
    if (addressTaken[f]) {
      var k = typeKey(typeOf(f));
      if (!typeKeyReaches[k]) {
        typeKeyReaches[k] = true;
        (indirectCallers[k] || []).forEach(mark);
      }
    }
  }

  // New globals, functions (entries), exports.
  var CTX = nGlobals;
  var JSID = nGlobals + 1;
  var newFuncs = []; // {type, target, kind: 'export'|'table', name}
  var exportEntry = {};
  exports.forEach(function (e) {
    if (e.kind !== 0 || e.index < nImported || !reach[e.index] || /^dynCall_/.test(e.name)) return;
    exportEntry[e.name] = nFuncs + newFuncs.length;
    newFuncs.push({type: typeOf(e.index), target: e.index, kind: 'export', name: e.name});
  });
  var tableEntry = {}; // function -> entry function
  var tableEntries = [];
  for (var t = nImported; t < nFuncs; t++) {
    if (!addressTaken[t] || !reach[t]) continue;
    tableEntry[t] = nFuncs + newFuncs.length;
    tableEntries.push(t);
    newFuncs.push({type: typeOf(t), target: t, kind: 'table'});
  }

  // Wasm exceptions (-fwasm-exceptions) declare their tag in a tag section.
  var usesWasmExceptions = !!byId[SECTION.tag];
  var consts = new SiteConstants();
  var out = new Writer(bytes.length + (bytes.length >> 2));
  var bodyWriter = new Writer(); // reused: one body at a time
  var offsets = []; // pairs (rewritten module offset, original module offset), ascending
  var mapHere = function (orig) { offsets.push(out.len, orig); };

  out.bytes(bytes, 0, 8);
  var stats = {callSites: 0, instrumentedSites: 0, selfSites: 0, resetSites: 0, functions: funcTypes.length,
    instrumentedFunctions: 0, exportEntries: 0, tableEntries: tableEntries.length};
  var wroteGlobals = false;
  var wroteFuncs = false;
  var wroteExports = false;
  var names = null;
  var sectionOrder = function (id) { // where a missing section would go
    return {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13}[id] || 99;
  };

  var writeSection = function (id, fill) {
    var body = new Writer();
    fill(body);
    out.u8(id);
    out.u32(body.len);
    var at = out.len;
    out.bytes(body.result(), 0, body.len);
    return at;
  };

  var writeGlobals = function (s) {
    writeSection(SECTION.global, function (w) {
      var n = s ? new Reader(bytes, s.start).u32() : 0;
      w.u32(n + 2);
      if (s) {
        var rr = new Reader(bytes, s.start);
        rr.u32();
        w.bytes(bytes, rr.pos, s.end);
      }
      w.array([0x7e, 1, 0x42, 0, 0x0b]); // CTX: mut i64 = 0
      w.array([0x7f, 1, 0x41, 0, 0x0b]); // JSID: mut i32 = 0
    });
    wroteGlobals = true;
  };
  var writeFuncs = function (s) {
    writeSection(SECTION.func, function (w) {
      w.u32(funcTypes.length + newFuncs.length);
      var rr = new Reader(bytes, s.start);
      rr.u32();
      w.bytes(bytes, rr.pos, s.end);
      newFuncs.forEach(function (nf) { w.u32(nf.type); });
    });
    wroteFuncs = true;
  };
  var writeExports = function (s) {
    writeSection(SECTION.export, function (w) {
      var extra = tableEntries.length + 2;
      w.u32(exports.length + extra);
      exports.forEach(function (e) {
        w.name(e.name);
        w.u8(e.kind);
        w.u32(e.kind === 0 && exportEntry[e.name] !== undefined ? exportEntry[e.name] : e.index);
      });
      tableEntries.forEach(function (f) {
        w.name('emheap$t' + f);
        w.u8(0);
        w.u32(tableEntry[f]);
      });
      w.name('emheap$ctx');
      w.u8(3);
      w.u32(CTX);
      w.name('emheap$jsid');
      w.u8(3);
      w.u32(JSID);
    });
    wroteExports = true;
  };

  sections.forEach(function (s) {
    if (!wroteGlobals && sectionOrder(s.id) > sectionOrder(SECTION.global) && s.id !== 0) writeGlobals(null);
    if (s.id === SECTION.global) return writeGlobals(s);
    if (s.id === SECTION.func) return writeFuncs(s);
    if (s.id === SECTION.export) return writeExports(s);
    if (s.id === SECTION.code) return writeCode(s);
    if (s.id === 0 && s.name === 'name') {
      names = s;
      return writeNames(s);
    }
    // Anything else is copied as it is (its size prefix included).
    mapHere(s.headerStart);
    out.bytes(bytes, s.headerStart, s.end);
  });
  if (!wroteExports) throw new Error('no export section');
  if (!wroteFuncs) throw new Error('no function section');

  function writeCode(s) {
    out.u8(SECTION.code);
    // The section's size is not known until its bodies are written: leave
    // five bytes for it (a padded LEB128) and fill them in afterwards.
    var sizeAt = out.len;
    out.array([0x80, 0x80, 0x80, 0x80, 0x00]);
    var contentStart = out.len;
    out.u32(nBodies + newFuncs.length);
    for (var bi = 0; bi < nBodies; bi++) writeBody(bi);
    newFuncs.forEach(writeEntry);
    var size = out.len - contentStart;
    for (var q = 0; q < 4; q++) {
      out.buf[sizeAt + q] = (size & 0x7f) | 0x80;
      size = Math.floor(size / 128);
    }
    out.buf[sizeAt + 4] = size;
    stats.codeBytesBefore = s.end - s.start;
    stats.codeBytesAfter = out.len - contentStart;
  }

  function isSite(g) { // a call of g must set the context
    if (g < nImported) return importKind[g] === IMPORT_INVOKE && typeKeyReaches[invokeTargetKey(imp.funcs[g].type)];
    return !!reach[g];
  }

  function writeBody(bi) {
    var body = bodies[bi];
    var rr = new Reader(bytes, body.start);
    var groups = rr.u32();
    var groupsStart = rr.pos;
    var nLocals = types[funcTypes[bi]].params.length;
    for (var g = 0; g < groups; g++) {
      nLocals += rr.u32();
      valtypeKey(rr);
    }
    var codeStart = rr.pos;
    // Does it need S (an ordinary site) or T/J (a reset site)?
    var c = calls[bi];
    var needS = false;
    var needReset = false;
    c.direct.forEach(function (g) {
      if (g < nImported && importKind[g] === IMPORT_CALLS_BACK) needReset = true;
      else if (isSite(g)) needS = true;
    });
    c.indirect.forEach(function (t) { if (typeKeyReaches[typeKey(t)]) needS = true; });
    var hasPlaceholder = c.direct.some(function (g) { return g < nImported && importKind[g] === IMPORT_PLACEHOLDER; });
    if (!needS && !needReset && !hasPlaceholder) { // copied as it is
      mapHere(body.sizeAt);
      out.bytes(bytes, body.sizeAt, body.end);
      return;
    }
    stats.instrumentedFunctions++;
    var S = nLocals, SK = nLocals + 1, T = nLocals + 2, J = nLocals + 3;
    var w = bodyWriter;
    w.len = 0;
    var local = []; // offsets pairs relative to w, then shifted
    w.u32(groups + 2);
    w.bytes(bytes, groupsStart, codeStart);
    w.u32(3);
    w.u8(0x7e); // S, SK, T: i64
    w.u32(1);
    w.u8(0x7f); // J: i32
    if (needS) {
      // S = CTX; SK = S * K
      w.u8(0x23); w.u32(CTX); w.u8(0x22); w.u32(S);
      w.u8(0x42); w.array(K_MULTIPLIER); w.u8(0x7e); w.u8(0x21); w.u32(SK);
    }
    var copyFrom = codeStart;
    var flushTo = function (pos) {
      local.push(w.len, copyFrom);
      w.bytes(bytes, copyFrom, pos);
      copyFrom = pos;
    };
    var list = c.calls;
    for (var k = 0; k < list.length; k += 4) {
      var at = list[k], op = list[k + 1], target = list[k + 2], after = list[k + 3];
      stats.callSites++;
      if (op === 0x10 || op === 0x12) {
        var callee = target;
        if (callee < nImported && importKind[callee] === IMPORT_PLACEHOLDER) {
          flushTo(at);
          local.push(w.len, at);
          var ph = placeholder[callee];
          if (ph === 'emheap_cc_lo') { w.u8(0x23); w.u32(CTX); w.u8(0xa7); }
          else if (ph === 'emheap_cc_hi') { w.u8(0x23); w.u32(CTX); w.u8(0x42); w.u8(32); w.u8(0x88); w.u8(0xa7); }
          else if (ph === 'emheap_cc_js') { w.u8(0x23); w.u32(JSID); }
          else { w.u8(0x24); w.u32(JSID); }
          if (op === 0x12) w.u8(0x0f);
          copyFrom = after;
        } else if (callee < nImported && importKind[callee] === IMPORT_CALLS_BACK) {
          stats.resetSites++;
          flushTo(at);
          // T = CTX; CTX = 0; J = JSID; JSID = 0; call; CTX = T; JSID = J
          w.u8(0x23); w.u32(CTX); w.u8(0x21); w.u32(T);
          w.u8(0x42); w.u8(0); w.u8(0x24); w.u32(CTX);
          w.u8(0x23); w.u32(JSID); w.u8(0x21); w.u32(J);
          w.u8(0x41); w.u8(0); w.u8(0x24); w.u32(JSID);
          flushTo(after);
          w.u8(0x20); w.u32(T); w.u8(0x24); w.u32(CTX);
          w.u8(0x20); w.u32(J); w.u8(0x24); w.u32(JSID);
        } else if (callee === nImported + bi && needS) {
          // Direct recursion: the callee's context is the caller's (CTX is
          // S already, unless a caught exception left it elsewhere).
          stats.selfSites++;
          flushTo(at);
          w.u8(0x20); w.u32(S); w.u8(0x24); w.u32(CTX);
          flushTo(after);
        } else if (isSite(callee)) {
          siteBefore(at);
          flushTo(after);
          if (op === 0x10) siteAfter();
        }
      } else if (typeKeyReaches[typeKey(target)]) {
        siteBefore(at);
        flushTo(after);
        if (op === 0x11) siteAfter();
      }
    }
    flushTo(body.end);
    // body = size, then w
    mapHere(body.sizeAt);
    out.u32(w.len);
    var base = out.len;
    for (var p = 0; p < local.length; p += 2) offsets.push(base + local[p], local[p + 1]);
    out.bytes(w.result(), 0, w.len);

    function siteBefore(at) {
      stats.instrumentedSites++;
      flushTo(at);
      // CTX = SK + R
      w.u8(0x20); w.u32(SK); w.u8(0x42); w.s32(consts.next()); w.u8(0x7c); w.u8(0x24); w.u32(CTX);
    }
    function siteAfter() {
      w.u8(0x20); w.u32(S); w.u8(0x24); w.u32(CTX);
    }
  }

  function writeEntry(nf) {
    var ty = types[nf.type];
    var np = ty.params.length;
    var E = np, EJ = np + 1;
    var w = new Writer(64 + 4 * np);
    w.u32(2);
    w.u32(1); w.u8(0x7e);
    w.u32(1); w.u8(0x7f);
    w.u8(0x23); w.u32(CTX); w.u8(0x21); w.u32(E);
    if (nf.kind === 'export') {
      stats.exportEntries++;
      w.u8(0x23); w.u32(JSID); w.u8(0x21); w.u32(EJ);
      w.u8(0x42); w.u8(0); w.u8(0x24); w.u32(CTX);
      w.u8(0x41); w.u8(0); w.u8(0x24); w.u32(JSID);
    }
    // A module with wasm exceptions: an exception leaving through the
    // entry leaves wasm (or reaches JS's catch), and the context must be
    // put back there too (legacy try / catch_all / rethrow, as Emscripten
    // emits them).
    var guard = usesWasmExceptions && ty.results.length <= 1;
    if (guard) {
      w.u8(0x06);
      if (ty.results.length) w.u8(Number(ty.results[0]));
      else w.u8(0x40);
    }
    for (var p = 0; p < np; p++) { w.u8(0x20); w.u32(p); }
    w.u8(0x10); w.u32(nf.target);
    var leave = function () {
      if (nf.kind === 'export') {
        w.u8(0x20); w.u32(E); w.u8(0x24); w.u32(CTX);
        w.u8(0x20); w.u32(EJ); w.u8(0x24); w.u32(JSID);
      } else {
        // a new activation (CTX was 0) ends: JSID was 0 before it
        w.u8(0x20); w.u32(E); w.u8(0x50); w.u8(0x04); w.u8(0x40);
        w.u8(0x42); w.u8(0); w.u8(0x24); w.u32(CTX);
        w.u8(0x41); w.u8(0); w.u8(0x24); w.u32(JSID);
        w.u8(0x0b);
      }
    };
    leave();
    if (guard) {
      w.u8(0x19); // catch_all
      leave();
      w.u8(0x09); w.u8(0); // rethrow
      w.u8(0x0b);
    }
    w.u8(0x0b);
    out.u32(w.len);
    out.bytes(w.result(), 0, w.len);
  }

  // The name section: the original names, and names for the entries
  // (stack_table.js leaves these frames out by their function index).
  function writeNames(s) {
    var rr = new Reader(bytes, s.start);
    rr.name();
    var body = new Writer();
    body.name('name');
    while (rr.pos < s.end) {
      var kind = rr.u8();
      var size = rr.u32();
      var end = rr.pos + size;
      if (kind === 1) {
        var sub = new Writer();
        var n = rr.u32();
        sub.u32(n + newFuncs.length);
        sub.bytes(bytes, rr.pos, end);
        newFuncs.forEach(function (nf, i) {
          sub.u32(nFuncs + i);
          sub.name(nf.kind === 'export' ? 'emheap$entry$' + nf.name : 'emheap$entry$table');
        });
        body.u8(1);
        body.u32(sub.len);
        body.bytes(sub.result(), 0, sub.len);
      } else {
        body.u8(kind);
        body.u32(size);
        body.bytes(bytes, rr.pos, end);
      }
      rr.pos = end;
    }
    out.u8(0);
    out.u32(body.len);
    out.bytes(body.result(), 0, body.len);
  }

  // The offsets, for any thread: a custom section at the end.
  // Entry functions follow the original ones: the exports' first.
  var info = {version: 1, functions: nFuncs, entries: newFuncs.length, exportEntries: Object.keys(exportEntry).length,
    stats: stats,
    placeholders: Object.keys(placeholder).map(Number)};
  var map = new Writer();
  map.name('emheap.offsets');
  var json = JSON.stringify(info);
  map.name(json);
  map.u32(offsets.length / 2);
  for (var o = 0; o < offsets.length; o++) map.u32(offsets[o]);
  out.u8(0);
  out.u32(map.len);
  out.bytes(map.result(), 0, map.len);
  stats.bytesBefore = bytes.length;
  stats.bytesAfter = out.len;
  return {bytes: out.result(), info: info, offsets: offsets};
}

// The "emheap.offsets" section (bytes of its payload, after its name) ->
// {info, translate(offset) -> original offset}.
function readOffsets(payload) {
  var r = new Reader(payload, 0);
  var info = JSON.parse(r.name());
  var n = r.u32();
  var from = new Float64Array(n);
  var to = new Float64Array(n);
  for (var i = 0; i < n; i++) {
    from[i] = r.u32();
    to[i] = r.u32();
  }
  return {info: info, translate: function (offset) { return translate(from, to, offset); }};
}

// Pairs (rewritten start, original start), ascending: a position inside a
// copied run maps by its distance from the run's start; inside inserted
// code (before the next run), to the start of that next run: the call
// that the inserted code prepares.
function translate(from, to, offset) {
  var lo = 0;
  var hi = from.length - 1;
  if (hi < 0 || offset < from[0]) return offset;
  while (lo < hi) {
    var mid = (lo + hi + 1) >> 1;
    if (from[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  var mapped = to[lo] + (offset - from[lo]);
  if (lo + 1 < from.length && mapped >= to[lo + 1]) return to[lo + 1];
  return mapped;
}

module.exports = {instrument: instrument, readOffsets: readOffsets, translate: translate};
