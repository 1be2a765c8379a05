// wasm_instrument.js -- rewrites a linked wasm module, before it is
// compiled, so that every allocation knows its calling context: a 64-bit
// value that identifies the path of call sites from the outermost wasm
// entry down to malloc (PCC, Bond & McKinley, OOPSLA 2007). The C runtime
// looks that value up in a table (runtime/context_table.c): a hit is the
// allocation's site, with no JS; a miss takes the JS stack once.
//
// Which functions, calls and imports are which is found first, from the
// whole module (call_graph.js); this file then writes the new module.
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
//    JSID back as they were. JS calling _malloc itself is one of these. The
//    original is exported too ("emheap$o$<name>"): what a side module of a
//    -sMAIN_MODULE program calls in its place, continuing its context
//    (contexts/side_modules.js). A side module's own exports continue a
//    context as table entries do.
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
var callGraph = require('./call_graph');
var SECTION = binary.SECTION, Reader = binary.Reader, Writer = binary.Writer, valtypeKey = binary.valtypeKey;
var isSite = callGraph.isSite, isIndirectSite = callGraph.isIndirectSite;
var IMPORT_CALLS_BACK = callGraph.IMPORT_CALLS_BACK, IMPORT_PLACEHOLDER = callGraph.IMPORT_PLACEHOLDER;

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

// bytes: the module. imports: the object the module is instantiated with
// ({module: {field: value}}), to tell Emscripten's imports apart by the JS
// functions bound to them. side: for a side module of a -sMAIN_MODULE
// program (contexts/side_modules.js), {renames: {field: new field}} (the
// main module's functions it calls, by their originals' names): its CTX
// and JSID are the main module's, imported as env.emheap$ctx and
// env.emheap$jsid after the module's own imported globals (its own globals
// move up by two: their uses, exports and names follow), and calls of the
// other modules' functions are sites. Returns {bytes, info, offsets} or
// throws (the caller then uses the original module).
function instrument(bytes, imports, side) {
  var m = callGraph.analyze(bytes, imports, !!side);
  m.renames = side && side.renames || null;
  var o = new Output(m);
  o.out.bytes(bytes, 0, 8);
  writeSections(o);
  var info = writeOffsets(o);
  o.stats.bytesBefore = bytes.length;
  o.stats.bytesAfter = o.out.len;
  return {bytes: o.out.result(), info: info, offsets: o.offsets};
}

// The rewritten module as it is written: the analysis (m, call_graph.js),
// the new globals' indices, the bytes so far, where they came from
// (offsets) and counts of what was done (stats).
function Output(m) {
  this.m = m;
  this.bytes = m.bytes;
  // a side module imports them after its imported globals, before its own
  this.CTX = m.side ? m.nImportedGlobals : m.nGlobals;
  this.JSID = this.CTX + 1;
  // Wasm exceptions (-fwasm-exceptions) declare their tag in a tag section.
  this.usesWasmExceptions = !!m.byId[SECTION.tag];
  this.consts = new SiteConstants();
  this.out = new Writer(m.bytes.length + (m.bytes.length >> 2));
  this.bodyWriter = new Writer(); // reused: one body at a time
  this.offsets = []; // pairs (rewritten module offset, original module offset), ascending
  this.stats = {callSites: 0, instrumentedSites: 0, selfSites: 0, resetSites: 0, functions: m.funcTypes.length,
    instrumentedFunctions: 0, exportEntries: 0, tableEntries: m.tableEntries.length};
}
Output.prototype.mapHere = function (orig) {
  this.offsets.push(this.out.len, orig);
};
// A section whose contents fill(writer) writes.
Output.prototype.section = function (id, fill) {
  var body = new Writer();
  fill(body);
  this.out.u8(id);
  this.out.u32(body.len);
  this.out.bytes(body.result(), 0, body.len);
};

// Where each section must come (the tag section before globals, the data
// count before code): where a missing global section goes.
var SECTION_ORDER = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13};
function sectionOrder(id) {
  return SECTION_ORDER[id] || 99;
}

// The module's sections in their order, those the rewrite changes
// rewritten, the rest copied; a module without globals gets a global
// section for CTX and JSID where it would be.
function writeSections(o) {
  var m = o.m;
  var wrote = {};
  m.sections.forEach(function (s) {
    if (m.side && !wrote[SECTION.import] && sectionOrder(s.id) > sectionOrder(SECTION.import) && s.id !== 0) {
      writeImports(o, null);
      wrote[SECTION.import] = true;
    }
    if (!m.side && !wrote[SECTION.global] && sectionOrder(s.id) > sectionOrder(SECTION.global) && s.id !== 0) {
      writeGlobals(o, null);
      wrote[SECTION.global] = true;
    }
    wrote[s.id] = true;
    if (s.id === SECTION.import && m.side) return writeImports(o, s);
    if (s.id === SECTION.global && !m.side) return writeGlobals(o, s);
    if (s.id === SECTION.func) return writeFuncs(o, s);
    if (s.id === SECTION.export) return writeExports(o, s);
    if (s.id === SECTION.code) return writeCode(o, s);
    if (s.id === 0 && s.name === 'name') return writeNames(o, s);
    // Anything else is copied as it is (its size prefix included).
    o.mapHere(s.headerStart);
    o.out.bytes(o.bytes, s.headerStart, s.end);
  });
  if (!wrote[SECTION.export]) throw new Error('no export section');
  if (!wrote[SECTION.func]) throw new Error('no function section');
}

// The module's globals (s: its global section, or null), then CTX and JSID.
function writeGlobals(o, s) {
  var bytes = o.bytes;
  o.section(SECTION.global, function (w) {
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
}

// A side module's imports (s: its import section, or null), the functions
// of the main module it calls renamed to their originals (o.m.renames:
// field -> new field, for module env), then the main module's CTX and
// JSID.
function writeImports(o, s) {
  var bytes = o.bytes;
  var renames = o.m.renames || {};
  o.section(SECTION.import, function (w) {
    w.u32((s ? new Reader(bytes, s.start).u32() : 0) + 2);
    binary.forEachImport(bytes, s, function (e) {
      var renamed = e.kind === 0 && e.module === 'env' && Object.prototype.hasOwnProperty.call(renames, e.field);
      w.name(e.module);
      w.name(renamed ? renames[e.field] : e.field);
      w.bytes(bytes, e.descStart, e.descEnd);
    });
    w.name('env'); w.name('emheap$ctx'); w.array([3, 0x7e, 1]); // mut i64
    w.name('env'); w.name('emheap$jsid'); w.array([3, 0x7f, 1]); // mut i32
  });
}

// The functions' types, then the entry functions'.
function writeFuncs(o, s) {
  var m = o.m;
  o.section(SECTION.func, function (w) {
    w.u32(m.funcTypes.length + m.newFuncs.length);
    var rr = new Reader(o.bytes, s.start);
    rr.u32();
    w.bytes(o.bytes, rr.pos, s.end);
    m.newFuncs.forEach(function (nf) { w.u32(nf.type); });
  });
}

// The exports, reaching functions exported as their entries; each table
// function that has an entry, as itself ("emheap$f<index>") and as its
// entry ("emheap$t<index>"), for contexts/rewrite.js to tell one from the
// other by identity (a function object's name, its index, is not unique
// once side modules share the table); and the two globals.
function writeExports(o, s) {
  var m = o.m;
  o.section(SECTION.export, function (w) {
    var originals = m.side ? [] : m.exports.filter(function (e) { return e.kind === 0 && m.exportEntry[e.name] !== undefined; });
    var extra = 2 * m.tableEntries.length + (m.side ? 0 : 2) + originals.length;
    w.u32(m.exports.length + extra);
    m.exports.forEach(function (e) {
      w.name(e.name);
      w.u8(e.kind);
      if (e.kind === 0 && m.exportEntry[e.name] !== undefined) w.u32(m.exportEntry[e.name]);
      else if (e.kind === 3 && m.side && e.index >= m.nImportedGlobals) w.u32(e.index + 2); // moved (writeMovedGlobal)
      else w.u32(e.index);
    });
    originals.forEach(function (e) {
      w.name('emheap$o$' + e.name);
      w.u8(0);
      w.u32(e.index);
    });
    m.tableEntries.forEach(function (f) {
      w.name('emheap$f' + f);
      w.u8(0);
      w.u32(f);
      w.name('emheap$t' + f);
      w.u8(0);
      w.u32(m.tableEntry[f]);
    });
    if (m.side) return; // its globals are the main module's
    w.name('emheap$ctx');
    w.u8(3);
    w.u32(o.CTX);
    w.name('emheap$jsid');
    w.u8(3);
    w.u32(o.JSID);
  });
}

// The code section: every body (writeBody), then the entry functions'.
function writeCode(o, s) {
  var m = o.m;
  var out = o.out;
  out.u8(SECTION.code);
  // The section's size is not known until its bodies are written: leave
  // five bytes for it (a padded LEB128) and fill them in afterwards.
  var sizeAt = out.len;
  out.array([0x80, 0x80, 0x80, 0x80, 0x00]);
  var contentStart = out.len;
  out.u32(m.bodies.length + m.newFuncs.length);
  for (var bi = 0; bi < m.bodies.length; bi++) writeBody(o, bi);
  m.newFuncs.forEach(function (nf) { writeEntry(o, nf); });
  var size = out.len - contentStart;
  for (var q = 0; q < 4; q++) {
    out.buf[sizeAt + q] = (size & 0x7f) | 0x80;
    size = Math.floor(size / 128);
  }
  out.buf[sizeAt + 4] = size;
  o.stats.codeBytesBefore = s.end - s.start;
  o.stats.codeBytesAfter = out.len - contentStart;
}

// Function body bi: copied as it is when none of its calls needs
// anything, else rewritten (BodyRewrite, rewriteCalls) with the offsets of
// its copied runs kept.
function writeBody(o, bi) {
  var body = o.m.bodies[bi];
  var needs = bodyNeeds(o.m, bi);
  if (!needs) {
    o.mapHere(body.sizeAt);
    o.out.bytes(o.bytes, body.sizeAt, body.end);
    return;
  }
  o.stats.instrumentedFunctions++;
  var rw = new BodyRewrite(o, bi, needs.S);
  rewriteCalls(rw);
  rw.flushTo(body.end);
  // body = size, then w
  var w = rw.w;
  o.mapHere(body.sizeAt);
  o.out.u32(w.len);
  var base = o.out.len;
  for (var p = 0; p < rw.local.length; p += 2) o.offsets.push(base + rw.local[p], rw.local[p + 1]);
  o.out.bytes(w.result(), 0, w.len);
}

// What body bi's calls need: null for nothing, else {S: whether a call
// sets the context (S, the context at entry, kept in a local)}; calls of
// imports that may call back need T and J, placeholders nothing.
function bodyNeeds(m, bi) {
  var c = m.calls[bi];
  var needS = false;
  var needReset = false;
  var hasPlaceholder = false;
  c.direct.forEach(function (g) {
    if (g < m.nImported && m.importKind[g] === IMPORT_CALLS_BACK) needReset = true;
    else if (isSite(m, g)) needS = true;
    if (g < m.nImported && m.importKind[g] === IMPORT_PLACEHOLDER) hasPlaceholder = true;
  });
  c.indirect.forEach(function (t) { if (isIndirectSite(m, t)) needS = true; });
  return needS || needReset || hasPlaceholder || c.globals ? {S: needS} : null;
}

// One body being rewritten into o.bodyWriter: its locals, with four added
// (S and SK = S * K for sites, T and J to put CTX and JSID back after a
// call of JS), then its code, copied up to each call that needs code
// around it. local: pairs (offset in the writer, original module offset)
// of the copied runs and placeholders.
function BodyRewrite(o, bi, needS) {
  var m = o.m;
  var body = m.bodies[bi];
  var rr = new Reader(o.bytes, body.start);
  var groups = rr.u32();
  var groupsStart = rr.pos;
  var nLocals = m.types[m.funcTypes[bi]].params.length;
  for (var g = 0; g < groups; g++) {
    nLocals += rr.u32();
    valtypeKey(rr);
  }
  this.o = o;
  this.bi = bi;
  this.self = m.nImported + bi;
  this.needS = needS;
  this.S = nLocals;
  this.SK = nLocals + 1;
  this.T = nLocals + 2;
  this.J = nLocals + 3;
  this.w = o.bodyWriter;
  this.w.len = 0;
  this.local = [];
  this.copyFrom = rr.pos;
  var w = this.w;
  w.u32(groups + 2);
  w.bytes(o.bytes, groupsStart, rr.pos);
  w.u32(3);
  w.u8(0x7e); // S, SK, T: i64
  w.u32(1);
  w.u8(0x7f); // J: i32
  if (needS) {
    // S = CTX; SK = S * K
    w.u8(0x23); w.u32(o.CTX); w.u8(0x22); w.u32(this.S);
    w.u8(0x42); w.array(K_MULTIPLIER); w.u8(0x7e); w.u8(0x21); w.u32(this.SK);
  }
}
// Copies the original code up to pos.
BodyRewrite.prototype.flushTo = function (pos) {
  this.local.push(this.w.len, this.copyFrom);
  this.w.bytes(this.o.bytes, this.copyFrom, pos);
  this.copyFrom = pos;
};

// The body's calls, in order, each as its callee needs (scanned by
// call_graph.js scanBody: [at, op, target, end, ...]).
function rewriteCalls(rw) {
  var o = rw.o;
  var m = o.m;
  var list = m.calls[rw.bi].calls;
  for (var k = 0; k < list.length; k += 4) {
    var at = list[k], op = list[k + 1], target = list[k + 2], after = list[k + 3];
    if (op === 0x23 || op === 0x24) {
      writeMovedGlobal(rw, at, op, after, target);
      continue;
    }
    o.stats.callSites++;
    if (op === 0x10 || op === 0x12) {
      if (target < m.nImported && m.importKind[target] === IMPORT_PLACEHOLDER) {
        writePlaceholder(rw, at, op, after, m.placeholder[target]);
      } else if (target < m.nImported && m.importKind[target] === IMPORT_CALLS_BACK) {
        writeCallOfJs(rw, at, after);
      } else if (target === rw.self && rw.needS) {
        writeSelfCall(rw, at, after);
      } else if (isSite(m, target)) {
        writeSite(rw, at, after, op === 0x10);
      }
    } else if (isIndirectSite(m, target)) {
      writeSite(rw, at, after, op === 0x11);
    }
  }
}

// A side module's use of a global of its own, which the context's two
// imported globals moved up by two.
function writeMovedGlobal(rw, at, op, after, global) {
  var w = rw.w;
  rw.flushTo(at);
  rw.local.push(w.len, at);
  w.u8(op);
  w.u32(global + 2);
  rw.copyFrom = after;
}

// A call of a placeholder import becomes a read or write of the globals
// (a return_call of one, that and a return).
function writePlaceholder(rw, at, op, after, ph) {
  var w = rw.w;
  var CTX = rw.o.CTX, JSID = rw.o.JSID;
  rw.flushTo(at);
  rw.local.push(w.len, at);
  if (ph === 'emheap_cc_lo') { w.u8(0x23); w.u32(CTX); w.u8(0xa7); }
  else if (ph === 'emheap_cc_hi') { w.u8(0x23); w.u32(CTX); w.u8(0x42); w.u8(32); w.u8(0x88); w.u8(0xa7); }
  else if (ph === 'emheap_cc_js') { w.u8(0x23); w.u32(JSID); }
  else { w.u8(0x24); w.u32(JSID); }
  if (op === 0x12) w.u8(0x0f);
  rw.copyFrom = after;
}

// A call of JS that may call back: what it calls starts a new activation.
// T = CTX; CTX = 0; J = JSID; JSID = 0; call; CTX = T; JSID = J
function writeCallOfJs(rw, at, after) {
  var w = rw.w;
  var CTX = rw.o.CTX, JSID = rw.o.JSID;
  rw.o.stats.resetSites++;
  rw.flushTo(at);
  w.u8(0x23); w.u32(CTX); w.u8(0x21); w.u32(rw.T);
  w.u8(0x42); w.u8(0); w.u8(0x24); w.u32(CTX);
  w.u8(0x23); w.u32(JSID); w.u8(0x21); w.u32(rw.J);
  w.u8(0x41); w.u8(0); w.u8(0x24); w.u32(JSID);
  rw.flushTo(after);
  w.u8(0x20); w.u32(rw.T); w.u8(0x24); w.u32(CTX);
  w.u8(0x20); w.u32(rw.J); w.u8(0x24); w.u32(JSID);
}

// Direct recursion: the callee's context is the caller's (CTX is S
// already, unless a caught exception left it elsewhere).
function writeSelfCall(rw, at, after) {
  var w = rw.w;
  rw.o.stats.selfSites++;
  rw.flushTo(at);
  w.u8(0x20); w.u32(rw.S); w.u8(0x24); w.u32(rw.o.CTX);
  rw.flushTo(after);
}

// A call that can reach an allocation: CTX = SK + R before it, CTX = S
// after it when it returns here (restore; not after a tail call).
function writeSite(rw, at, after, restore) {
  var w = rw.w;
  var o = rw.o;
  o.stats.instrumentedSites++;
  rw.flushTo(at);
  w.u8(0x20); w.u32(rw.SK); w.u8(0x42); w.s32(o.consts.next()); w.u8(0x7c); w.u8(0x24); w.u32(o.CTX);
  rw.flushTo(after);
  if (restore) {
    w.u8(0x20); w.u32(rw.S); w.u8(0x24); w.u32(o.CTX);
  }
}

// An entry function (nf: call_graph.js planEntries): calls its target
// with its own arguments, with the context set up and put back as the
// header comment says, for an export or a table function.
function writeEntry(o, nf) {
  var CTX = o.CTX, JSID = o.JSID;
  var ty = o.m.types[nf.type];
  var np = ty.params.length;
  var E = np, EJ = np + 1;
  var w = new Writer(64 + 4 * np);
  w.u32(2);
  w.u32(1); w.u8(0x7e);
  w.u32(1); w.u8(0x7f);
  w.u8(0x23); w.u32(CTX); w.u8(0x21); w.u32(E);
  // a side module's exports continue a caller's context, as table entries
  // do (the main module calls them through Emscripten's stubs, which
  // continue it: call_graph.js)
  var fresh = nf.kind === 'export' && !o.m.side;
  if (nf.kind === 'export') o.stats.exportEntries++;
  if (fresh) {
    w.u8(0x23); w.u32(JSID); w.u8(0x21); w.u32(EJ);
    w.u8(0x42); w.u8(0); w.u8(0x24); w.u32(CTX);
    w.u8(0x41); w.u8(0); w.u8(0x24); w.u32(JSID);
  }
  // A module with wasm exceptions: an exception leaving through the
  // entry leaves wasm (or reaches JS's catch), and the context must be
  // put back there too (legacy try / catch_all / rethrow, as Emscripten
  // emits them).
  var guard = o.usesWasmExceptions && ty.results.length <= 1;
  if (guard) {
    w.u8(0x06);
    if (ty.results.length) w.u8(Number(ty.results[0]));
    else w.u8(0x40);
  }
  for (var p = 0; p < np; p++) { w.u8(0x20); w.u32(p); }
  w.u8(0x10); w.u32(nf.target);
  var leave = function () {
    if (fresh) {
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
  o.out.u32(w.len);
  o.out.bytes(w.result(), 0, w.len);
}

// The name section: the original names, and names for the entries
// (stack_table.js leaves these frames out by their function index).
function writeNames(o, s) {
  var m = o.m;
  var bytes = o.bytes;
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
      sub.u32(n + m.newFuncs.length);
      sub.bytes(bytes, rr.pos, end);
      m.newFuncs.forEach(function (nf, i) {
        sub.u32(m.nFuncs + i);
        sub.name(nf.kind === 'export' ? 'emheap$entry$' + nf.name : 'emheap$entry$table');
      });
      body.u8(1);
      body.u32(sub.len);
      body.bytes(sub.result(), 0, sub.len);
    } else if (kind === 7 && m.side) {
      // global names: a side module's own globals moved up by two
      var globals = new Writer();
      var count = rr.u32();
      globals.u32(count);
      for (var gi = 0; gi < count; gi++) {
        var index = rr.u32();
        globals.u32(index >= m.nImportedGlobals ? index + 2 : index);
        globals.name(rr.name());
      }
      body.u8(7);
      body.u32(globals.len);
      body.bytes(globals.result(), 0, globals.len);
    } else {
      body.u8(kind);
      body.u32(size);
      body.bytes(bytes, rr.pos, end);
    }
    rr.pos = end;
  }
  o.out.u8(0);
  o.out.u32(body.len);
  o.out.bytes(body.result(), 0, body.len);
}

// The offsets, for any thread: a custom section "emheap.offsets" at the
// end, with what the rewrite did (info, returned). Entry functions follow
// the original ones: the exports' first.
function writeOffsets(o) {
  var m = o.m;
  var info = {version: 1, functions: m.nFuncs, entries: m.newFuncs.length,
    exportEntries: Object.keys(m.exportEntry).length, stats: o.stats,
    placeholders: Object.keys(m.placeholder).map(Number), stubs: m.stubs};
  var map = new Writer();
  map.name('emheap.offsets');
  map.name(JSON.stringify(info));
  map.u32(o.offsets.length / 2);
  for (var i = 0; i < o.offsets.length; i++) map.u32(o.offsets[i]);
  o.out.u8(0);
  o.out.u32(map.len);
  o.out.bytes(map.result(), 0, map.len);
  return info;
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
