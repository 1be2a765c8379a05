// wasm_binary.js -- reads (through symbolize/wasm_reader.js) and writes
// the wasm binary format, as much as the load-time rewrite for calling
// contexts needs (call_graph.js, wasm_instrument.js):
// sections, types, imports, exports, element segments, and every
// instruction's length (MVP, bulk memory, SIMD, atomics, both exception
// proposals, tail calls), without compiling anything.
'use strict';

var SECTION = {custom: 0, type: 1, import: 2, func: 3, table: 4, memory: 5, global: 6, export: 7,
  start: 8, element: 9, code: 10, data: 11, datacount: 12, tag: 13};

// ---- reading ----

// Bytes are read with symbolize/wasm_reader.js's Reader, which the
// symbolizer reads the same modules with; this adds what only the rewrite
// needs: instruction lengths.
var wasmReader = require('../symbolize/wasm_reader');
var Reader = wasmReader.Reader;

function skipMemarg(r) {
  var align = r.u32();
  if (align & 0x40) r.u32(); // memory index (multi-memory)
  r.u32();
}

// The immediates of each one-byte opcode, for the hot loops: 0 none, 1 one
// LEB128, 2 two, 3 a memarg, 4 anything else (skipImmediates).
var IMMEDIATES = (function () {
  var t = new Uint8Array(256).fill(4);
  var set = function (kind, ops) { ops.forEach(function (op) { t[op] = kind; }); };
  for (var op = 0x45; op <= 0xc4; op++) t[op] = 0;
  set(0, [0x00, 0x01, 0x05, 0x0b, 0x0f, 0x1a, 0x1b, 0x19, 0x0a, 0xd1, 0xd3, 0xd4]);
  set(1, [0x02, 0x03, 0x04, 0x06, 0x07, 0x08, 0x09, 0x18, 0x0c, 0x0d, 0x10, 0x12, 0x14, 0x15, 0x20, 0x21, 0x22,
    0x23, 0x24, 0x25, 0x26, 0xd2, 0xd5, 0xd6, 0x3f, 0x40, 0x41, 0x42, 0xd0]);
  set(2, [0x11, 0x13]);
  for (var m = 0x28; m <= 0x3e; m++) t[m] = 3;
  return t;
})();

// The position after the instruction whose opcode (at pos - 1) was just
// read: the common cases inline, the rest through skipImmediates. The
// inline loops skip LEB128s byte by byte, without a call: this runs for
// every instruction of the module at page load. One cut off by the end of
// the bytes stops there (undefined & 0x80 is 0), past the body's end.
function skipFrom(r, b, pos, op) {
  switch (IMMEDIATES[op]) {
    case 0:
      return pos;
    case 1:
      while (b[pos++] & 0x80) { /* LEB128 */ }
      return pos;
    case 2:
      while (b[pos++] & 0x80) { /* LEB128 */ }
      while (b[pos++] & 0x80) { /* LEB128 */ }
      return pos;
    case 3: {
      var align = b[pos];
      if (align < 0x40) {
        pos++;
        while (b[pos++] & 0x80) { /* offset */ }
        return pos;
      }
      break;
    }
  }
  r.pos = pos;
  skipImmediates(r, op);
  if (r.pos > b.length) throw new Error('truncated module');
  return r.pos;
}

// Skips one instruction whose opcode was just read (the immediates only).
function skipImmediates(r, op) {
  if (op >= 0x45 && op <= 0xc4) return; // numeric
  switch (op) {
    case 0x00: case 0x01: case 0x05: case 0x0b: case 0x0f: case 0x1a: case 0x1b: case 0x19: case 0x0a:
    case 0xd1: case 0xd3: case 0xd4:
      return;
    case 0x02: case 0x03: case 0x04: case 0x06: // block types: one signed LEB
      r.skipLeb();
      return;
    case 0x07: case 0x08: case 0x09: case 0x18: case 0x0c: case 0x0d: case 0x10: case 0x12:
    case 0x14: case 0x15: case 0x20: case 0x21: case 0x22: case 0x23: case 0x24: case 0x25: case 0x26:
    case 0xd2: case 0xd5: case 0xd6:
      r.u32();
      return;
    case 0x0e: {
      var n = r.u32();
      for (var i = 0; i <= n; i++) r.u32();
      return;
    }
    case 0x11: case 0x13:
      r.u32();
      r.u32();
      return;
    case 0x1c: {
      var m = r.u32();
      for (var j = 0; j < m; j++) r.u8();
      return;
    }
    case 0x1f: { // try_table
      r.skipLeb();
      var c = r.u32();
      for (var k = 0; k < c; k++) {
        var kind = r.u8();
        if (kind === 0 || kind === 1) r.u32();
        r.u32();
      }
      return;
    }
    case 0x3f: case 0x40:
      r.u32();
      return;
    case 0x41: case 0x42:
      r.skipLeb();
      return;
    case 0x43:
      r.pos += 4;
      return;
    case 0x44:
      r.pos += 8;
      return;
    case 0xd0:
      r.skipLeb();
      return;
    case 0xfc:
      skipFC(r, r.u32());
      return;
    case 0xfd:
      skipFD(r, r.u32());
      return;
    case 0xfe: {
      var sub = r.u32();
      if (sub === 3) r.u8(); // atomic.fence
      else skipMemarg(r);
      return;
    }
    default:
      if (op >= 0x28 && op <= 0x3e) {
        skipMemarg(r);
        return;
      }
      throw new Error('unknown opcode 0x' + op.toString(16) + ' at ' + (r.pos - 1));
  }
}

function skipFC(r, sub) {
  if (sub <= 7) return;
  switch (sub) {
    case 8: case 10: case 12: case 14: r.u32(); r.u32(); return;
    case 9: case 11: case 13: case 15: case 16: case 17: r.u32(); return;
    default: throw new Error('unknown 0xfc ' + sub);
  }
}

function skipFD(r, sub) {
  if (sub <= 11 || sub === 92 || sub === 93) { skipMemarg(r); return; }
  if (sub === 12 || sub === 13) { r.pos += 16; return; }
  if (sub >= 21 && sub <= 34) { r.u8(); return; }
  if (sub >= 84 && sub <= 91) { skipMemarg(r); r.u8(); }
}

// ---- the module ----

// A module's sections in order (wasm_reader.js sections).
var sectionsOf = wasmReader.sections;

function valtypeKey(r) {
  var t = r.u8();
  if (t === 0x63 || t === 0x64) { // (ref null ht)
    var ht = r.pos;
    r.skipLeb();
    return t + ':' + ht;
  }
  return String(t);
}

function readTypes(bytes, s) {
  var types = [];
  if (!s) return types;
  var r = new Reader(bytes, s.start);
  var n = r.u32();
  for (var i = 0; i < n; i++) {
    var form = r.u8();
    if (form !== 0x60) throw new Error('type form 0x' + form.toString(16) + ' not handled');
    var params = [];
    var np = r.u32();
    for (var p = 0; p < np; p++) params.push(valtypeKey(r));
    var results = [];
    var nr = r.u32();
    for (var q = 0; q < nr; q++) results.push(valtypeKey(r));
    types.push({params: params, results: results, key: params.join(',') + '->' + results.join(',')});
  }
  return types;
}

// Each entry of an import section s (or none): fn({module, field, kind,
// type (a function's), descStart, descEnd (its kind and description, as
// bytes)}).
function forEachImport(bytes, s, fn) {
  if (!s) return;
  var r = new Reader(bytes, s.start);
  var n = r.u32();
  for (var i = 0; i < n; i++) {
    var entry = {module: r.name(), field: r.name(), kind: 0, type: -1, descStart: r.pos, descEnd: 0};
    var kind = entry.kind = r.u8();
    if (kind === 0) entry.type = r.u32();
    else if (kind === 1) { r.u8(); var flags = r.u8(); r.u32(); if (flags & 1) r.u32(); }
    else if (kind === 2) { var mflags = r.u8(); r.u32(); if (mflags & 1) r.u32(); }
    else if (kind === 3) { valtypeKey(r); r.u8(); }
    else if (kind === 4) { r.u8(); r.u32(); }
    else throw new Error('import kind ' + kind);
    entry.descEnd = r.pos;
    fn(entry);
  }
}

function readImports(bytes, s) {
  var out = {funcs: [], globals: 0};
  forEachImport(bytes, s, function (e) {
    if (e.kind === 0) out.funcs.push({module: e.module, field: e.field, type: e.type});
    else if (e.kind === 3) out.globals++;
  });
  return out;
}

function readFuncTypes(bytes, s) {
  var out = [];
  if (!s) return out;
  var r = new Reader(bytes, s.start);
  var n = r.u32();
  for (var i = 0; i < n; i++) out.push(r.u32());
  return out;
}

function countEntries(bytes, s) {
  return s ? new Reader(bytes, s.start).u32() : 0;
}

function readExports(bytes, s) {
  var out = [];
  if (!s) return out;
  var r = new Reader(bytes, s.start);
  var n = r.u32();
  for (var i = 0; i < n; i++) {
    var name = r.name();
    var kind = r.u8();
    out.push({name: name, kind: kind, index: r.u32()});
  }
  return out;
}

// Function indices the table can hold: element segments, and ref.func in
// code (a function so named may be put in the table at run time). Also the
// constant offsets of active segments of table 0: {tableIndex: function}.
function readElements(bytes, s, addressTaken, slots) {
  if (!s) return;
  var r = new Reader(bytes, s.start);
  var n = r.u32();
  for (var i = 0; i < n; i++) {
    var flags = r.u32();
    var offset = -1;
    if (!(flags & 1)) { // active
      if (flags & 2) r.u32(); // table index
      var op = r.u8();
      if (op === 0x41) {
        offset = r.sleb() | 0;
      } else {
        skipImmediates(r, op);
      }
      while (r.u8() !== 0x0b) { /* rest of the offset expression */ }
    }
    if (flags & 3) r.u8(); // elemkind or reftype
    var count = r.u32();
    for (var j = 0; j < count; j++) {
      var f;
      if (flags & 4) { // expressions
        var e = r.u8();
        if (e === 0xd2) f = r.u32();
        else skipImmediates(r, e);
        while (r.u8() !== 0x0b) { /* end */ }
      } else {
        f = r.u32();
      }
      if (f !== undefined) {
        addressTaken[f] = 1;
        if (offset >= 0) slots.push(offset + j, f);
      }
    }
  }
}

// ---- writing ----

function Writer(size) {
  this.buf = new Uint8Array(size || 1 << 16);
  this.len = 0;
}
Writer.prototype.room = function (n) {
  if (this.len + n <= this.buf.length) return;
  var size = this.buf.length * 2;
  while (size < this.len + n) size *= 2;
  var bigger = new Uint8Array(size);
  bigger.set(this.buf.subarray(0, this.len));
  this.buf = bigger;
};
Writer.prototype.u8 = function (b) {
  this.room(1);
  this.buf[this.len++] = b;
};
Writer.prototype.u32 = function (v) {
  this.room(5);
  do {
    var byte = v % 128;
    v = Math.floor(v / 128);
    this.buf[this.len++] = v ? byte | 0x80 : byte;
  } while (v);
};
Writer.prototype.s32 = function (v) {
  this.room(5);
  for (;;) {
    var byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && !(byte & 0x40)) || (v === -1 && (byte & 0x40))) {
      this.buf[this.len++] = byte;
      return;
    }
    this.buf[this.len++] = byte | 0x80;
  }
};
Writer.prototype.bytes = function (src, from, to) {
  var n = to - from;
  this.room(n);
  this.buf.set(src.subarray(from, to), this.len);
  this.len += n;
};
Writer.prototype.array = function (list) {
  this.room(list.length);
  for (var i = 0; i < list.length; i++) this.buf[this.len++] = list[i];
};
Writer.prototype.name = function (s) {
  var utf8 = unescape(encodeURIComponent(s));
  this.u32(utf8.length);
  this.room(utf8.length);
  for (var i = 0; i < utf8.length; i++) this.buf[this.len++] = utf8.charCodeAt(i);
};
Writer.prototype.result = function () {
  return this.buf.subarray(0, this.len);
};

// Every instruction of the module's function bodies, for checks: calls
// fn(functionIndex, offset, opcode, end) in order, offsets module-absolute.
function forEachInstruction(bytes, fn) {
  var sections = sectionsOf(bytes);
  var imports = 0;
  sections.forEach(function (s) { if (s.id === SECTION.import) imports = readImports(bytes, s).funcs.length; });
  sections.forEach(function (s) {
    if (s.id !== SECTION.code) return;
    var r = new Reader(bytes, s.start);
    var n = r.u32();
    for (var i = 0; i < n; i++) {
      var size = r.u32();
      var end = r.pos + size;
      var groups = r.u32();
      for (var g = 0; g < groups; g++) {
        r.u32();
        valtypeKey(r);
      }
      while (r.pos < end) {
        var at = r.pos;
        var op = r.u8();
        r.pos = skipFrom(r, bytes, r.pos, op);
        fn(imports + i, at, op, r.pos);
      }
    }
  });
}

module.exports = {SECTION: SECTION, Reader: Reader, Writer: Writer, skipFrom: skipFrom, sectionsOf: sectionsOf,
  forEachImport: forEachImport,
  valtypeKey: valtypeKey, readTypes: readTypes, readImports: readImports, readFuncTypes: readFuncTypes,
  countEntries: countEntries, readExports: readExports, readElements: readElements,
  forEachInstruction: forEachInstruction};
