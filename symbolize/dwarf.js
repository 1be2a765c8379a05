// dwarf.js -- the source line of a wasm frame from the DWARF debug info that
// `emcc -g` keeps in the module, or `-gseparate-dwarf=FILE` writes beside it.
//
// Why DWARF when there is a source map: at -O1 and above, libc++'s templates
// (std::vector growth, make_unique, std::string) are inlined into the app's
// function, and the call to operator new sits inside the inlined code. A
// source map, like DWARF's own line table, gives that call instruction the
// header's line (c++/v1/vector:1047). DWARF also records every inlined call
// (DW_TAG_inlined_subroutine, with the line it was called from), so a frame's
// own line is:
//  - inside inlined code: the call line of the outermost inlined subroutine
//    around the offset (the line of the app's function that called
//    push_back), as llvm-symbolizer --inlining prints it last;
//  - elsewhere: the line table's row at the offset.
// The inlined callees themselves are not made frames: emheap hides the
// allocation plumbing (operator new, allocate, vector growth) anyway.
//
// A lookup also names the function the DWARF puts the offset in. Where
// binaryen, not LLVM, inlined or merged code (Emscripten 4.0.23 at -O2), its
// DWARF keeps no record of the call, and some rows end up under another
// function altogether: code of use_string filed under use_new_array at a
// line of main. llvm-symbolizer reads the same rows; the frame's function
// (from the name section) tells them apart, and capture/raw_snapshot.js gives
// such a frame no line rather than another function's.
//
// Addresses in wasm DWARF are offsets from the start of the code section's
// contents; frames carry module offsets (V8's `wasm-function[N]:0x4d2`), so
// lookup subtracts the code section's start in the running module (the
// separate DWARF file has its own section layout, the same code).
//
// The same walk keeps the names of the types the units declare, for
// naming clang's allocation tokens (symbolize/alloc_types.js).
//
// DWARF 4 (what emcc 3.1.x writes) is run in the tests; DWARF 5's unit and
// line-table headers and its forms are read as the standard defines them.
'use strict';

var lastAtOrBefore = require('./sorted_search').lastAtOrBefore;

var TAG_COMPILE_UNIT = 0x11;
var TAG_INLINED_SUBROUTINE = 0x1d;
var TAG_SUBPROGRAM = 0x2e;
var TAG_NAMESPACE = 0x39;
// Types a `new` may name (symbolize/alloc_types.js), and the scopes they sit in.
var TYPE_TAGS = {0x02: 'class', 0x13: 'struct', 0x17: 'union', 0x04: 'enum', 0x24: 'base', 0x16: 'typedef'};
var SCOPE_TAGS = {0x39: 1, 0x02: 1, 0x13: 1, 0x17: 1};
var AT = {
  name: 0x03, type: 0x49, stmtList: 0x10, lowPc: 0x11, highPc: 0x12, compDir: 0x1b, abstractOrigin: 0x31, specification: 0x47,
  ranges: 0x55, callFile: 0x58, callLine: 0x59, strOffsetsBase: 0x72, addrBase: 0x73, rnglistsBase: 0x74,
};
// Reference forms whose value is an offset from the unit's start (ref1..
// ref8, ref_udata); ref_addr (0x10) is an offset in .debug_info.
var UNIT_REF_FORMS = {0x11: 1, 0x12: 1, 0x13: 1, 0x14: 1, 0x15: 1};
var FORM_ADDR = 0x01;
var FORM_IMPLICIT_CONST = 0x21;

// A cursor over one section: bytes, pos, and the unit's offset size (4 or
// 8 bytes for DWARF32 / DWARF64) and address size.
function Cursor(bytes, pos) {
  this.bytes = bytes;
  this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  this.pos = pos || 0;
  this.offsetSize = 4;
  this.addrSize = 4;
}
Cursor.prototype.u8 = function () { return this.bytes[this.pos++]; };
Cursor.prototype.u16 = function () { var v = this.view.getUint16(this.pos, true); this.pos += 2; return v; };
Cursor.prototype.u24 = function () { var v = this.u16(); return v + this.u8() * 65536; };
Cursor.prototype.u32 = function () { var v = this.view.getUint32(this.pos, true); this.pos += 4; return v; };
// 64-bit values as numbers: wasm32 addresses and offsets fit in 53 bits.
Cursor.prototype.u64 = function () { var lo = this.u32(); return lo + this.u32() * 4294967296; };
Cursor.prototype.sized = function (n) {
  return n === 1 ? this.u8() : n === 2 ? this.u16() : n === 4 ? this.u32() : this.u64();
};
// Skips n bytes (n read first: `pos += read()` would add to the old pos).
Cursor.prototype.skip = function (n) { this.pos += n; return null; };
Cursor.prototype.offset = function () { return this.sized(this.offsetSize); };
Cursor.prototype.addr = function () { return this.sized(this.addrSize); };
Cursor.prototype.uleb = function () {
  var result = 0;
  var scale = 1;
  for (;;) {
    var b = this.bytes[this.pos++];
    if (b === undefined) throw new Error('truncated DWARF');
    result += (b & 0x7f) * scale;
    if (!(b & 0x80)) return result;
    scale *= 128;
  }
};
Cursor.prototype.sleb = function () {
  var result = 0;
  var scale = 1;
  var b;
  do {
    b = this.bytes[this.pos++];
    if (b === undefined) throw new Error('truncated DWARF');
    result += (b & 0x7f) * scale;
    scale *= 128;
  } while (b & 0x80);
  return b & 0x40 ? result - scale : result;
};
Cursor.prototype.cstr = function () {
  var end = this.bytes.indexOf(0, this.pos);
  if (end < 0) throw new Error('truncated DWARF string');
  var raw = '';
  for (var i = this.pos; i < end; i++) raw += String.fromCharCode(this.bytes[i]);
  this.pos = end + 1;
  try {
    return decodeURIComponent(escape(raw)); // UTF-8, without TextDecoder
  } catch (e) {
    return raw;
  }
};
// unit_length: sets the offset size; returns the unit's end.
Cursor.prototype.unitLength = function () {
  var length = this.u32();
  this.offsetSize = 4;
  if (length === 0xffffffff) {
    this.offsetSize = 8;
    length = this.u64();
  }
  return this.pos + length;
};

function stringAt(section, offset) {
  if (!section || offset >= section.length) return null;
  return new Cursor(section, offset).cstr();
}

// .debug_abbrev at one offset -> {code: {tag, children, attrs: [[name, form, implicit]]}}.
function readAbbrevs(section, offset) {
  var c = new Cursor(section, offset);
  var table = {};
  for (;;) {
    var code = c.uleb();
    if (code === 0) return table;
    var entry = {tag: c.uleb(), children: c.u8() !== 0, attrs: []};
    for (;;) {
      var name = c.uleb();
      var form = c.uleb();
      if (name === 0 && form === 0) break;
      entry.attrs.push([name, form, form === FORM_IMPLICIT_CONST ? c.sleb() : 0]);
    }
    table[code] = entry;
  }
}

// One attribute value. Numbers and strings; blocks and expressions are
// skipped (null). Indexed forms (strx, addrx, rnglistx) come back as
// {index, kind} and are resolved once the DIE's bases are known.
function readForm(c, form, implicit, ctx) {
  switch (form) {
    case 0x01: return c.addr(); // addr
    case 0x03: return c.skip(c.u16()); // block2
    case 0x04: return c.skip(c.u32()); // block4
    case 0x05: return c.u16(); // data2
    case 0x06: return c.u32(); // data4
    case 0x07: return c.u64(); // data8
    case 0x08: return c.cstr(); // string
    case 0x09: case 0x18: return c.skip(c.uleb()); // block, exprloc
    case 0x0a: return c.skip(c.u8()); // block1
    case 0x0b: return c.u8(); // data1
    case 0x0c: return c.u8(); // flag
    case 0x0d: return c.sleb(); // sdata
    case 0x0e: return stringAt(ctx.sections['.debug_str'], c.offset()); // strp
    case 0x0f: return c.uleb(); // udata
    case 0x10: return c.offset(); // ref_addr
    case 0x11: return c.u8(); // ref1
    case 0x12: return c.u16(); // ref2
    case 0x13: return c.u32(); // ref4
    case 0x14: return c.u64(); // ref8
    case 0x15: return c.uleb(); // ref_udata
    case 0x16: return readForm(c, c.uleb(), 0, ctx); // indirect
    case 0x17: return c.offset(); // sec_offset
    case 0x19: return 1; // flag_present
    case 0x1a: return {kind: 'str', index: c.uleb()}; // strx
    case 0x1b: return {kind: 'addr', index: c.uleb()}; // addrx
    case 0x1c: return c.u32(); // ref_sup4
    case 0x1d: return c.offset(); // strp_sup (another file's strings)
    case 0x1e: return c.skip(16); // data16
    case 0x1f: return stringAt(ctx.sections['.debug_line_str'], c.offset()); // line_strp
    case 0x20: return c.skip(8); // ref_sig8
    case 0x21: return implicit; // implicit_const
    case 0x22: return c.uleb(); // loclistx
    case 0x23: return {kind: 'rnglist', index: c.uleb()}; // rnglistx
    case 0x24: return c.u64(); // ref_sup8
    case 0x25: return {kind: 'str', index: c.u8()}; // strx1
    case 0x26: return {kind: 'str', index: c.u16()}; // strx2
    case 0x27: return {kind: 'str', index: c.u24()}; // strx3
    case 0x28: return {kind: 'str', index: c.u32()}; // strx4
    case 0x29: return {kind: 'addr', index: c.u8()}; // addrx1
    case 0x2a: return {kind: 'addr', index: c.u16()}; // addrx2
    case 0x2b: return {kind: 'addr', index: c.u24()}; // addrx3
    case 0x2c: return {kind: 'addr', index: c.u32()}; // addrx4
    default: throw new Error('unknown DWARF form 0x' + form.toString(16));
  }
}

// The unit's bases (DWARF 5) turn indexed values into values.
function resolveIndexed(value, unit, ctx) {
  if (value === null || typeof value !== 'object') return value;
  var c;
  if (value.kind === 'str') {
    var offsets = ctx.sections['.debug_str_offsets'];
    if (!offsets) return null;
    c = new Cursor(offsets, unit.strOffsetsBase + value.index * unit.offsetSize);
    c.offsetSize = unit.offsetSize;
    return stringAt(ctx.sections['.debug_str'], c.offset());
  }
  if (value.kind === 'addr') {
    var addrs = ctx.sections['.debug_addr'];
    if (!addrs) return null;
    c = new Cursor(addrs, unit.addrBase + value.index * unit.addrSize);
    return c.sized(unit.addrSize);
  }
  return value; // rnglist: resolved by rangesOf
}

// A DIE's address ranges: [[lo, hi], ...], from low_pc/high_pc or ranges.
function rangesOf(attrs, unit, ctx) {
  var lo = attrs[AT.lowPc];
  if (attrs[AT.ranges] === undefined) {
    var hi = attrs[AT.highPc];
    if (typeof lo !== 'number' || typeof hi !== 'number') return [];
    return [[lo, attrs.highPcIsAddr ? hi : lo + hi]];
  }
  var at = attrs[AT.ranges];
  var out = [];
  if (unit.version < 5) {
    var r4 = ctx.sections['.debug_ranges'];
    if (!r4 || typeof at !== 'number') return out;
    var c4 = new Cursor(r4, at);
    c4.addrSize = unit.addrSize;
    var base = unit.base;
    var max = unit.addrSize === 4 ? 0xffffffff : Math.pow(2, 64) - 1;
    while (c4.pos < r4.length) {
      var a = c4.addr();
      var b = c4.addr();
      if (a === 0 && b === 0) break;
      if (a === max) base = b; // base address selection entry
      else out.push([base + a, base + b]);
    }
    return out;
  }
  var rl = ctx.sections['.debug_rnglists'];
  if (!rl) return out;
  var offset = at;
  if (typeof at === 'object') {
    var ci = new Cursor(rl, unit.rnglistsBase + at.index * unit.offsetSize);
    ci.offsetSize = unit.offsetSize;
    offset = unit.rnglistsBase + ci.offset();
  }
  var c = new Cursor(rl, offset);
  c.addrSize = unit.addrSize;
  var base5 = unit.base;
  var addrx = function (i) { return resolveIndexed({kind: 'addr', index: i}, unit, ctx); };
  for (;;) {
    var kind = c.u8();
    if (kind === 0 || kind === undefined) break; // end_of_list
    if (kind === 1) base5 = addrx(c.uleb()); // base_addressx
    else if (kind === 2) { var s2 = addrx(c.uleb()); out.push([s2, addrx(c.uleb())]); } // startx_endx
    else if (kind === 3) { var s3 = addrx(c.uleb()); out.push([s3, s3 + c.uleb()]); } // startx_length
    else if (kind === 4) { var o1 = c.uleb(); out.push([base5 + o1, base5 + c.uleb()]); } // offset_pair
    else if (kind === 5) base5 = c.addr(); // base_address
    else if (kind === 6) { var s6 = c.addr(); out.push([s6, c.addr()]); } // start_end
    else if (kind === 7) { var s7 = c.addr(); out.push([s7, s7 + c.uleb()]); } // start_length
    else break;
  }
  return out;
}

// Code the linker or binaryen removed keeps its debug info with a tombstone
// address (0, or -1/-2 in newer linkers): no live code starts at 0 (the
// code section opens with its function count).
function isLiveRange(r) {
  return r[0] > 0 && r[0] < 0xfffffff0 && r[1] > r[0];
}

// .debug_line at one offset -> {files: [path or null], sequences: [{start,
// end, addrs, lines, files}]}.
function readLineTable(ctx, offset, compDir) {
  var section = ctx.sections['.debug_line'];
  var c = new Cursor(section, offset);
  var end = c.unitLength();
  var version = c.u16();
  if (version >= 5) {
    c.addrSize = c.u8();
    c.u8(); // segment selector size
  }
  var headerLength = c.offset();
  var programStart = c.pos + headerLength;
  var minInst = c.u8();
  if (version >= 4) c.u8(); // maximum operations per instruction (VLIW only)
  c.u8(); // default_is_stmt: every row counts for a lookup
  var lineBase = c.u8();
  if (lineBase > 127) lineBase -= 256;
  var lineRange = c.u8();
  var opcodeBase = c.u8();
  var opcodeLengths = [0];
  for (var i = 1; i < opcodeBase; i++) opcodeLengths.push(c.u8());
  var dirs = [];
  var files = [];
  var join = function (dir, name) {
    if (name === null || name === undefined) return null;
    if (name.charAt(0) === '/' || !dir || dir === compDir) return name;
    return dir.replace(/\/$/, '') + '/' + name;
  };
  if (version < 5) {
    dirs.push(compDir || '');
    for (var d; (d = c.cstr()) !== '';) dirs.push(d);
    files.push(null); // DWARF 4 numbers files from 1
    for (var name; (name = c.cstr()) !== '';) {
      var dirIndex = c.uleb();
      c.uleb(); // modification time
      c.uleb(); // length
      files.push(join(dirs[dirIndex], name));
    }
  } else {
    var readEntries = function () {
      var formats = [];
      var count = c.u8();
      for (var f = 0; f < count; f++) formats.push([c.uleb(), c.uleb()]);
      var entries = [];
      var n = c.uleb();
      for (var e = 0; e < n; e++) {
        var entry = {};
        formats.forEach(function (fmt) {
          var v = readForm(c, fmt[1], 0, ctx);
          if (fmt[0] === 1) entry.path = v; // DW_LNCT_path
          else if (fmt[0] === 2) entry.dir = v; // DW_LNCT_directory_index
        });
        entries.push(entry);
      }
      return entries;
    };
    dirs = readEntries().map(function (e) { return e.path; });
    files = readEntries().map(function (e) { return join(dirs[e.dir || 0], e.path); });
  }

  c.pos = programStart;
  var sequences = [];
  var seq = null;
  var address = 0;
  var file = 1;
  var line = 1;
  var reset = function () {
    address = 0;
    file = 1;
    line = 1;
  };
  var emit = function () {
    if (!seq) seq = {start: address, end: address, addrs: [], lines: [], files: []};
    seq.addrs.push(address);
    seq.lines.push(line);
    seq.files.push(file);
  };
  var adjustedMax = Math.floor((255 - opcodeBase) / lineRange);
  while (c.pos < end) {
    var op = c.u8();
    if (op >= opcodeBase) {
      var adj = op - opcodeBase;
      address += Math.floor(adj / lineRange) * minInst;
      line += lineBase + (adj % lineRange);
      emit();
    } else if (op === 0) {
      var len = c.uleb();
      var next = c.pos + len;
      var sub = c.u8();
      if (sub === 1) { // end_sequence
        emit();
        seq.end = address;
        seq.start = seq.addrs[0];
        sequences.push(seq);
        seq = null;
        reset();
      } else if (sub === 2) { // set_address
        address = c.sized(len - 1);
      }
      c.pos = next;
    } else if (op === 1) emit(); // copy
    else if (op === 2) address += c.uleb() * minInst; // advance_pc
    else if (op === 3) line += c.sleb(); // advance_line
    else if (op === 4) file = c.uleb(); // set_file
    else if (op === 8) address += adjustedMax * minInst; // const_add_pc
    else if (op === 9) address += c.u16(); // fixed_advance_pc
    else {
      // set_column, set_isa, and flags without operands: skip the operands
      for (var k = 0; k < opcodeLengths[op]; k++) c.uleb();
    }
  }
  return {files: files, sequences: sequences.filter(function (s) { return isLiveRange([s.start, s.end]); })};
}


// sections: {'.debug_info': Uint8Array, ...} (wasm custom sections);
// codeStart: module offset of the running module's code section contents.
// Returns {lookup(offset) -> {file, line} or null}, or null when there is
// no DWARF to read. Throws on a malformed file.
function parseDwarf(sections, codeStart, cleanPath) {
  var info = sections['.debug_info'];
  var abbrevSection = sections['.debug_abbrev'];
  if (!info || !abbrevSection) return null;
  var clean = cleanPath || function (p) { return p; };
  var ctx = {sections: sections};
  // Per compile unit: its address ranges, its inlined calls by nesting
  // level (0: inlined straight into a function) as ranges {lo, hi, call:
  // {outer, file, line}} (`outer`: the call it sits in), and its line
  // table's sequences. A lookup first picks the unit that holds the offset
  // and has a subroutine or rows there, as llvm-symbolizer does: code
  // binaryen removed can leave other units with ranges over live code
  // (seen at -O2: a subprogram [0x1b8, 0x100000000)). In the unit it
  // takes the deepest inlined call around the offset and follows `outer`
  // to the outermost one, as llvm-symbolizer walks a DIE's parents:
  // binaryen's DWARF update can leave an outer call's ranges short of its
  // inner ones' (an outer range [0,1), the inner ones intact), so the
  // outer ranges alone are not enough.
  var units = [];
  var tables = {};
  var functionCount = 0;
  // The names of the types the units define, qualified as C++ spells them
  // (DWARF's own spelling of template arguments): `names`, and the
  // typedefs: `aliases` (a typedef's name -> the name of its type).
  var typeNames = {names: new Set(), aliases: new Map()};

  var c = new Cursor(info, 0);
  while (c.pos < info.length) {
    var unitStart = c.pos;
    var end = c.unitLength();
    var unit = {version: c.u16(), offsetSize: c.offsetSize, addrSize: 4, base: 0,
      strOffsetsBase: 8, addrBase: 8, rnglistsBase: 12, ranges: [], subroutines: new SubroutineMap(), table: null};
    var abbrevOffset;
    if (unit.version >= 5) {
      var unitType = c.u8();
      unit.addrSize = c.u8();
      abbrevOffset = c.offset();
      if (unitType === 4 || unitType === 5) c.pos += 8; // skeleton / split: dwo_id
      else if (unitType === 2 || unitType === 6) { c.pos += 8; c.offset(); } // type units
      if (unitType !== 1 && unitType !== 3) { c.pos = end; continue; } // only compile/partial units hold code
    } else {
      abbrevOffset = c.offset();
      unit.addrSize = c.u8();
    }
    if (unit.offsetSize === 8) { unit.strOffsetsBase = 16; unit.rnglistsBase = 20; unit.addrBase = 16; }
    c.addrSize = unit.addrSize;
    var abbrevs = readAbbrevs(abbrevSection, abbrevOffset);
    // Per DIE depth: how many inlined subroutines enclose a DIE there, and
    // the innermost of them (null outside inlined code).
    var enclosing = [null];
    var depth = 0;
    // Per DIE depth: the scope its DIEs are named in ("app::detail::").
    var scope = [''];
    var typesAt = {}; // a type DIE's offset in the unit -> its qualified name
    var typedefs = []; // [qualified name, the unit offset of its type]
    // Subprograms by their offset in .debug_info: a definition may hold its
    // name only through the declaration it completes (DW_AT_specification)
    // or the abstract instance it is a copy of (DW_AT_abstract_origin).
    var functions = {};
    while (c.pos < end) {
      var dieOffset = c.pos;
      var code = c.uleb();
      if (code === 0) { // end of a sibling list
        depth--;
        if (depth < 0) break;
        continue;
      }
      var abbrev = abbrevs[code];
      if (!abbrev) throw new Error('DWARF abbreviation ' + code + ' missing (unit at ' + unitStart + ')');
      var isInline = abbrev.tag === TAG_INLINED_SUBROUTINE;
      var isFunction = abbrev.tag === TAG_SUBPROGRAM;
      var typeTag = TYPE_TAGS[abbrev.tag] || (abbrev.tag === TAG_NAMESPACE ? 'namespace' : null);
      var attrs = isInline || isFunction || typeTag || abbrev.tag === TAG_COMPILE_UNIT ? {} : null;
      for (var a = 0; a < abbrev.attrs.length; a++) {
        var spec = abbrev.attrs[a];
        var value = readForm(c, spec[1], spec[2], ctx);
        if (attrs) {
          attrs[spec[0]] = value;
          if (spec[0] === AT.highPc) attrs.highPcIsAddr = spec[1] === FORM_ADDR || (value && typeof value === 'object');
          if ((spec[0] === AT.specification || spec[0] === AT.abstractOrigin) && typeof value === 'number') {
            attrs.origin = UNIT_REF_FORMS[spec[1]] ? unitStart + value : value;
          }
          if (spec[0] === AT.type && typeof value === 'number' && UNIT_REF_FORMS[spec[1]]) attrs.typeRef = value;
        }
      }
      var call = null;
      if (abbrev.tag === TAG_COMPILE_UNIT) {
        if (typeof attrs[AT.strOffsetsBase] === 'number') unit.strOffsetsBase = attrs[AT.strOffsetsBase];
        if (typeof attrs[AT.addrBase] === 'number') unit.addrBase = attrs[AT.addrBase];
        if (typeof attrs[AT.rnglistsBase] === 'number') unit.rnglistsBase = attrs[AT.rnglistsBase];
        attrs[AT.lowPc] = resolveIndexed(attrs[AT.lowPc], unit, ctx);
        attrs[AT.highPc] = resolveIndexed(attrs[AT.highPc], unit, ctx);
        unit.base = typeof attrs[AT.lowPc] === 'number' ? attrs[AT.lowPc] : 0;
        unit.ranges = rangesOf(attrs, unit, ctx).filter(isLiveRange);
        var compDir = resolveIndexed(attrs[AT.compDir], unit, ctx);
        var stmt = attrs[AT.stmtList];
        if (typeof stmt === 'number' && sections['.debug_line']) {
          if (!tables[stmt]) tables[stmt] = readLineTable(ctx, stmt, typeof compDir === 'string' ? compDir : '');
          unit.table = tables[stmt];
        }
      } else if (isInline) {
        attrs[AT.lowPc] = resolveIndexed(attrs[AT.lowPc], unit, ctx);
        attrs[AT.highPc] = resolveIndexed(attrs[AT.highPc], unit, ctx);
        call = {outer: enclosing[depth], file: attrs[AT.callFile], line: attrs[AT.callLine]};
        unit.subroutines.addAll(rangesOf(attrs, unit, ctx), call);
      } else if (isFunction) {
        attrs[AT.lowPc] = resolveIndexed(attrs[AT.lowPc], unit, ctx);
        attrs[AT.highPc] = resolveIndexed(attrs[AT.highPc], unit, ctx);
        var name = resolveIndexed(attrs[AT.name], unit, ctx);
        var fn = {isFunction: true, name: typeof name === 'string' ? name : null, origin: attrs.origin};
        functions[dieOffset] = fn;
        unit.subroutines.addAll(rangesOf(attrs, unit, ctx), fn);
      }
      var named = typeTag ? typeName(typeTag, resolveIndexed(attrs[AT.name], unit, ctx), scope[depth]) : null;
      if (named && typeTag !== 'namespace') {
        typesAt[dieOffset - unitStart] = named;
        if (typeTag === 'typedef') {
          if (attrs.typeRef !== undefined) typedefs.push([named, attrs.typeRef]);
        } else typeNames.names.add(named); // a declaration too: its definition may be in no unit's DWARF
      }
      if (abbrev.children) {
        depth++;
        enclosing[depth] = isInline ? call : isFunction ? fn : enclosing[depth - 1];
        scope[depth] = SCOPE_TAGS[abbrev.tag] && named ? named + '::' : isFunction ? null : scope[depth - 1];
      }
    }
    c.pos = end;
    nameFunctions(functions);
    typedefs.forEach(function (t) {
      if (typesAt[t[1]] && !typeNames.aliases.has(t[0])) typeNames.aliases.set(t[0], typesAt[t[1]]);
    });
    // A unit without ranges of its own is found through its line table.
    if (!unit.ranges.length && unit.table) {
      unit.ranges = unit.table.sequences.map(function (q) { return [q.start, q.end]; });
    }
    unit.sequences = new RangeIndex(unit.table ? unit.table.sequences.map(function (q) {
      return {lo: q.start, hi: q.end, sequence: q};
    }) : []);
    units.push(unit);
  }
  var unitIndex = new RangeIndex([].concat.apply([], units.map(function (u, i) {
    return u.ranges.map(function (r) { return {lo: r[0], hi: r[1], unit: i}; });
  })));

  var fileName = function (table, index) {
    var name = table && typeof index === 'number' ? table.files[index] : null;
    return name ? clean(name) : null;
  };

  return {
    typeNames: typeNames,
    lookup: function (offset) {
      var addr = offset - codeStart;
      // The first unit (in file order) whose ranges hold the offset and
      // that says something of it (a subroutine or a line sequence there):
      // binaryen's update can leave a unit's ranges over code it has no
      // rows for (an assembly unit's, compiler-rt's stack_limits.S, over
      // libc++abi's code: Emscripten 4.0.23 at -O2), where
      // llvm-symbolizer finds the unit that has them.
      var held = [];
      unitIndex.each(addr, function (x) { held.push(x.unit); });
      held.sort(function (a, b) { return a - b; });
      var unit = null;
      var entry = null;
      var seq = null;
      for (var h = 0; h < held.length && !unit; h++) {
        var u = units[held[h]];
        entry = u.subroutines.find(addr);
        seq = null;
        u.sequences.each(addr, function (x) { seq = seq || x.sequence; });
        if (entry || seq || h === held.length - 1) unit = u;
      }
      if (!unit) return null;
      // The subroutine (function or inlined call) around the offset.
      var call = entry && !entry.isFunction ? entry : null;
      if (call) {
        while (call.outer && !call.outer.isFunction) call = call.outer;
        var file = fileName(unit.table, call.file);
        // Line 0: compiler-made code with no line of its own; say nothing
        // rather than name the header.
        return file && call.line ? {file: file, line: call.line, function: call.outer ? call.outer.name : null} : null;
      }
      if (!seq) return null;
      var row = lastAtOrBefore(seq.addrs, addr);
      var name = fileName(unit.table, seq.files[row]);
      return name && seq.lines[row] ? {file: name, line: seq.lines[row], function: entry ? entry.name : null} : null;
    },
  };
}

// A type's or namespace's name as C++ qualifies it, or null: types local
// to a function (scope null) and unnamed ones are no `new`'s to name.
function typeName(tag, name, scope) {
  if (scope === null || scope === undefined) return null;
  if (typeof name !== 'string' || !name) return tag === 'namespace' ? scope + '(anonymous namespace)' : null;
  return tag === 'base' ? name : scope + name;
}

// Gives each of a unit's function records (by DIE offset) the DW_AT_name
// of its declaration or abstract instance when it has none of its own (a
// few steps at most; null when unknown), once the unit is read: an origin
// may come after the DIE that names it.
function nameFunctions(functions) {
  Object.keys(functions).forEach(function (offset) {
    var fn = functions[offset];
    for (var at = fn, steps = 0; at && !fn.name && steps < 4; steps++) {
      fn.name = at.name;
      at = at.origin !== undefined ? functions[at.origin] : null;
    }
  });
}

// A unit's functions and inlined calls by address, built as llvm-symbolizer
// builds its map (DWARFUnit::updateAddressDieMap, LLVM 14), so that both
// read damaged DWARF alike: DIEs are added in file order, parents before
// children; a range added inside an existing one splits it, and a lookup
// takes the entry with the greatest start at or before the address, or
// nothing if that entry ends before it. Values: an inlined call, or the
// function's record ({isFunction, name...}) for the function itself
// (undefined: no entry).
function SubroutineMap() {
  this.starts = [];
  this.ends = [];
  this.values = [];
}
SubroutineMap.prototype.set = function (start, end, value) {
  var i = lastAtOrBefore(this.starts, start);
  if (i >= 0 && this.starts[i] === start) {
    this.ends[i] = end;
    this.values[i] = value;
    return;
  }
  // Functions come mostly in address order: the insert is usually at the end.
  this.starts.splice(i + 1, 0, start);
  this.ends.splice(i + 1, 0, end);
  this.values.splice(i + 1, 0, value);
};
SubroutineMap.prototype.add = function (lo, hi, value) {
  if (lo === hi) return;
  var b = lastAtOrBefore(this.starts, lo);
  if (b >= 0 && lo < this.ends[b]) {
    var bStart = this.starts[b];
    var bEnd = this.ends[b];
    var bValue = this.values[b];
    if (hi < bEnd) this.set(hi, bEnd, bValue);
    if (lo > bStart) this.ends[b] = lo;
  }
  this.set(lo, hi, value);
};
// Ranges at 0 are kept here, unlike elsewhere: LLVM keeps them, and a
// broken [0, N) changes which entries later ranges split.
SubroutineMap.prototype.addAll = function (ranges, value) {
  for (var r = 0; r < ranges.length; r++) {
    if (ranges[r][0] < 0xfffffff0 && ranges[r][1] > ranges[r][0]) this.add(ranges[r][0], ranges[r][1], value);
  }
};
SubroutineMap.prototype.find = function (addr) {
  var i = lastAtOrBefore(this.starts, addr);
  return i >= 0 && addr < this.ends[i] ? this.values[i] : undefined;
};

// Ranges {lo, hi, ...} that may nest or overlap; each(addr, fn) calls fn on
// every range holding addr, latest start first.
function RangeIndex(list) {
  list.sort(function (x, y) { return x.lo - y.lo; });
  this.list = list;
  this.starts = list.map(function (x) { return x.lo; });
  // reach[i]: the largest end among list[0..i]: how far back to look.
  this.reach = [];
  for (var i = 0; i < list.length; i++) this.reach.push(i ? Math.max(this.reach[i - 1], list[i].hi) : list[i].hi);
}
RangeIndex.prototype.each = function (addr, fn) {
  for (var i = lastAtOrBefore(this.starts, addr); i >= 0 && this.reach[i] > addr; i--) {
    if (addr < this.list[i].hi) fn(this.list[i]);
  }
};

module.exports = {parseDwarf: parseDwarf};
