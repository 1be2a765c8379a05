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
var addressMaps = require('./address_maps');
var SubroutineMap = addressMaps.SubroutineMap;
var RangeIndex = addressMaps.RangeIndex;
var wasmReader = require('./wasm_reader');
var Reader = wasmReader.Reader;
var utf8 = wasmReader.utf8;

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

// A cursor over one section: wasm_reader.js's Reader (LEB128, fixed-size
// little-endian values) that also knows the unit's offset size (4 or 8
// bytes for DWARF32 / DWARF64) and address size.
function Cursor(bytes, pos) {
  Reader.call(this, bytes, pos);
  this.offsetSize = 4;
  this.addrSize = 4;
}
Cursor.prototype = Object.create(Reader.prototype);
Cursor.prototype.constructor = Cursor;
// An offset or address of n bytes: 1, 2, 4, anything else 8.
Cursor.prototype.sized = function (n) {
  return this.le(n === 1 || n === 2 || n === 4 ? n : 8);
};
// Skips n bytes (n read first: `pos += read()` would add to the old pos).
Cursor.prototype.skip = function (n) { this.pos += n; return null; };
Cursor.prototype.offset = function () { return this.sized(this.offsetSize); };
Cursor.prototype.addr = function () { return this.sized(this.addrSize); };
// A NUL-terminated UTF-8 string.
Cursor.prototype.cstr = function () {
  var end = this.b.indexOf(0, this.pos);
  if (end < 0) throw new Error('truncated DWARF string');
  var s = utf8(this.b, this.pos, end);
  this.pos = end + 1;
  return s;
};
// unit_length: sets the offset size; returns the unit's end.
Cursor.prototype.unitLength = function () {
  var length = this.le(4);
  this.offsetSize = 4;
  if (length === 0xffffffff) {
    this.offsetSize = 8;
    length = this.le(8);
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
    case 0x03: return c.skip(c.le(2)); // block2
    case 0x04: return c.skip(c.le(4)); // block4
    case 0x05: return c.le(2); // data2
    case 0x06: return c.le(4); // data4
    case 0x07: return c.le(8); // data8
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
    case 0x12: return c.le(2); // ref2
    case 0x13: return c.le(4); // ref4
    case 0x14: return c.le(8); // ref8
    case 0x15: return c.uleb(); // ref_udata
    case 0x16: return readForm(c, c.uleb(), 0, ctx); // indirect
    case 0x17: return c.offset(); // sec_offset
    case 0x19: return 1; // flag_present
    case 0x1a: return {kind: 'str', index: c.uleb()}; // strx
    case 0x1b: return {kind: 'addr', index: c.uleb()}; // addrx
    case 0x1c: return c.le(4); // ref_sup4
    case 0x1d: return c.offset(); // strp_sup (another file's strings)
    case 0x1e: return c.skip(16); // data16
    case 0x1f: return stringAt(ctx.sections['.debug_line_str'], c.offset()); // line_strp
    case 0x20: return c.skip(8); // ref_sig8
    case 0x21: return implicit; // implicit_const
    case 0x22: return c.uleb(); // loclistx
    case 0x23: return {kind: 'rnglist', index: c.uleb()}; // rnglistx
    case 0x24: return c.le(8); // ref_sup8
    case 0x25: return {kind: 'str', index: c.u8()}; // strx1
    case 0x26: return {kind: 'str', index: c.le(2)}; // strx2
    case 0x27: return {kind: 'str', index: c.le(3)}; // strx3
    case 0x28: return {kind: 'str', index: c.le(4)}; // strx4
    case 0x29: return {kind: 'addr', index: c.u8()}; // addrx1
    case 0x2a: return {kind: 'addr', index: c.le(2)}; // addrx2
    case 0x2b: return {kind: 'addr', index: c.le(3)}; // addrx3
    case 0x2c: return {kind: 'addr', index: c.le(4)}; // addrx4
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
  while (c.pos < rl.length) {
    var kind = c.u8();
    if (kind === 0) break; // end_of_list
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
  var c = new Cursor(ctx.sections['.debug_line'], offset);
  var end = c.unitLength();
  var version = c.le(2);
  if (version >= 5) {
    c.addrSize = c.u8();
    c.u8(); // segment selector size
  }
  var headerLength = c.offset();
  var programStart = c.pos + headerLength;
  var header = {minInst: c.u8(), lineBase: 0, lineRange: 0, opcodeBase: 0, opcodeLengths: [0]};
  if (version >= 4) c.u8(); // maximum operations per instruction (VLIW only)
  c.u8(); // default_is_stmt: every row counts for a lookup
  header.lineBase = c.u8();
  if (header.lineBase > 127) header.lineBase -= 256;
  header.lineRange = c.u8();
  header.opcodeBase = c.u8();
  for (var i = 1; i < header.opcodeBase; i++) header.opcodeLengths.push(c.u8());
  var files = version < 5 ? readFileNames4(c, compDir) : readFileNames5(c, compDir, ctx);
  c.pos = programStart;
  var sequences = runLineProgram(c, end, header);
  return {files: files, sequences: sequences.filter(function (s) { return isLiveRange([s.start, s.end]); })};
}

// A file's path from its directory's: as it is when absolute or in the
// compilation directory.
function joinPath(dir, name, compDir) {
  if (name === null || name === undefined) return null;
  if (name.charAt(0) === '/' || !dir || dir === compDir) return name;
  return dir.replace(/\/$/, '') + '/' + name;
}

// DWARF 4's include_directories and file_names (strings, each list ended
// by an empty one), numbered from 1: [path or null].
function readFileNames4(c, compDir) {
  var dirs = [compDir || ''];
  for (var d; (d = c.cstr()) !== '';) dirs.push(d);
  var files = [null];
  for (var name; (name = c.cstr()) !== '';) {
    var dirIndex = c.uleb();
    c.uleb(); // modification time
    c.uleb(); // length
    files.push(joinPath(dirs[dirIndex], name, compDir));
  }
  return files;
}

// DWARF 5's directories and file names (entries described by a format of
// content types and forms), numbered from 0: [path or null].
function readFileNames5(c, compDir, ctx) {
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
  var dirs = readEntries().map(function (e) { return e.path; });
  return readEntries().map(function (e) { return joinPath(dirs[e.dir || 0], e.path, compDir); });
}

// Runs the line number program from c.pos to `end`: its rows, as
// sequences [{start, end, addrs, lines, files}] (a sequence's rows by
// address; `end` past its last instruction).
function runLineProgram(c, end, header) {
  var minInst = header.minInst;
  var lineBase = header.lineBase;
  var lineRange = header.lineRange;
  var opcodeBase = header.opcodeBase;
  var sequences = [];
  var seq = null;
  var address = 0;
  var file = 1;
  var line = 1;
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
        address = 0;
        file = 1;
        line = 1;
      } else if (sub === 2) { // set_address
        address = c.sized(len - 1);
      }
      c.pos = next;
    } else if (op === 1) emit(); // copy
    else if (op === 2) address += c.uleb() * minInst; // advance_pc
    else if (op === 3) line += c.sleb(); // advance_line
    else if (op === 4) file = c.uleb(); // set_file
    else if (op === 8) address += adjustedMax * minInst; // const_add_pc
    else if (op === 9) address += c.le(2); // fixed_advance_pc
    else {
      // set_column, set_isa, and flags without operands: skip the operands
      for (var k = 0; k < header.opcodeLengths[op]; k++) c.uleb();
    }
  }
  return sequences;
}

// sections: {'.debug_info': Uint8Array, ...} (wasm custom sections);
// codeStart: module offset of the running module's code section contents.
// Returns {lookup(offset) -> {file, line, function} or null, typeNames},
// or null when there is no DWARF to read. Throws on a malformed file.
function parseDwarf(sections, codeStart, cleanPath) {
  if (!sections['.debug_info'] || !sections['.debug_abbrev']) return null;
  var ctx = {
    sections: sections,
    lineTables: {}, // .debug_line offset -> its table (units may share one)
    // The names of the types the units define, qualified as C++ spells
    // them (DWARF's own spelling of template arguments): `names`, and the
    // typedefs: `aliases` (a typedef's name -> the name of its type).
    typeNames: {names: new Set(), aliases: new Map()},
  };
  var units = readUnits(ctx);
  return {typeNames: ctx.typeNames, lookup: lineLookup(units, codeStart, cleanPath || function (p) { return p; })};
}

// The units of .debug_info that hold code, read, in file order. Each has
// its address ranges, its functions and inlined calls by address
// (`subroutines`, a SubroutineMap: an inlined call is {outer, file, line},
// `outer` the call or function record it sits in) and its line table's
// sequences (`sequences`, a RangeIndex).
function readUnits(ctx) {
  var info = ctx.sections['.debug_info'];
  var units = [];
  var c = new Cursor(info, 0);
  while (c.pos < info.length) {
    var unit = readUnitHeader(c);
    if (unit.holdsCode) {
      var found = readDies(c, unit, ctx);
      finishUnit(unit, found, ctx);
      units.push(unit);
    }
    c.pos = unit.end;
  }
  return units;
}

// A unit's header, from c.pos; leaves c at its first DIE. DWARF 5's
// skeleton, split and type units hold no code (holdsCode false).
function readUnitHeader(c) {
  var start = c.pos;
  var end = c.unitLength();
  var unit = {start: start, end: end, version: c.le(2), offsetSize: c.offsetSize, addrSize: 4, abbrevOffset: 0,
    holdsCode: true, base: 0, strOffsetsBase: 8, addrBase: 8, rnglistsBase: 12, ranges: [],
    subroutines: new SubroutineMap(), table: null, sequences: null};
  if (unit.version >= 5) {
    var unitType = c.u8();
    unit.addrSize = c.u8();
    unit.abbrevOffset = c.offset();
    if (unitType === 4 || unitType === 5) c.pos += 8; // skeleton / split: dwo_id
    else if (unitType === 2 || unitType === 6) { c.pos += 8; c.offset(); } // type units
    unit.holdsCode = unitType === 1 || unitType === 3; // compile / partial units
  } else {
    unit.abbrevOffset = c.offset();
    unit.addrSize = c.u8();
  }
  if (unit.offsetSize === 8) { unit.strOffsetsBase = 16; unit.rnglistsBase = 20; unit.addrBase = 16; }
  c.addrSize = unit.addrSize;
  return unit;
}

// Walks a unit's DIEs, in file order (parents before children, as
// SubroutineMap needs): the compile unit's DIE gives the unit's bases,
// ranges and line table; subprograms and inlined calls go into
// unit.subroutines; types are named. Returns what finishUnit completes
// once the whole unit is read: {functions, typesAt, typedefs}.
function readDies(c, unit, ctx) {
  var abbrevs = readAbbrevs(ctx.sections['.debug_abbrev'], unit.abbrevOffset);
  var found = {
    // Subprograms by their offset in .debug_info: a definition may hold
    // its name only through the declaration it completes
    // (DW_AT_specification) or the abstract instance it is a copy of
    // (DW_AT_abstract_origin).
    functions: {},
    typesAt: {}, // a type DIE's offset in the unit -> its qualified name
    typedefs: [], // [qualified name, the unit offset of its type]
  };
  // Per DIE depth: the innermost subroutine (function record or inlined
  // call) around a DIE there (null outside any), and the scope its DIEs
  // are named in ("app::detail::"; null inside a function).
  var enclosing = [null];
  var scope = [''];
  var depth = 0;
  while (c.pos < unit.end) {
    var dieOffset = c.pos;
    var code = c.uleb();
    if (code === 0) { // end of a sibling list
      depth--;
      if (depth < 0) break;
      continue;
    }
    var abbrev = abbrevs[code];
    if (!abbrev) throw new Error('DWARF abbreviation ' + code + ' missing (unit at ' + unit.start + ')');
    var tag = abbrev.tag;
    var typeTag = TYPE_TAGS[tag] || (tag === TAG_NAMESPACE ? 'namespace' : null);
    var keep = tag === TAG_INLINED_SUBROUTINE || tag === TAG_SUBPROGRAM || typeTag || tag === TAG_COMPILE_UNIT;
    var attrs = keep ? readAttributes(c, abbrev, unit, ctx) : skipAttributes(c, abbrev, ctx);
    var subroutine = null;
    if (tag === TAG_COMPILE_UNIT) {
      useUnitDie(unit, attrs, ctx);
    } else if (tag === TAG_INLINED_SUBROUTINE) {
      subroutine = addInlinedCall(unit, attrs, enclosing[depth], ctx);
    } else if (tag === TAG_SUBPROGRAM) {
      subroutine = found.functions[dieOffset] = addFunction(unit, attrs, ctx);
    }
    var named = typeTag ? noteType(found, typeTag, attrs, dieOffset - unit.start, scope[depth], unit, ctx) : null;
    if (abbrev.children) {
      depth++;
      enclosing[depth] = subroutine || enclosing[depth - 1];
      scope[depth] = SCOPE_TAGS[tag] && named ? named + '::' : tag === TAG_SUBPROGRAM ? null : scope[depth - 1];
    }
  }
  return found;
}

// Reads one DIE's attribute values past c.pos: {attribute: value}, with
// what the forms say besides: highPcIsAddr (high_pc is an address, not a
// length), origin (the .debug_info offset of the specification or
// abstract origin), typeRef (the unit offset of the type).
function readAttributes(c, abbrev, unit, ctx) {
  var attrs = {};
  for (var a = 0; a < abbrev.attrs.length; a++) {
    var spec = abbrev.attrs[a];
    var value = readForm(c, spec[1], spec[2], ctx);
    attrs[spec[0]] = value;
    if (spec[0] === AT.highPc) attrs.highPcIsAddr = spec[1] === FORM_ADDR || (value && typeof value === 'object');
    if ((spec[0] === AT.specification || spec[0] === AT.abstractOrigin) && typeof value === 'number') {
      attrs.origin = UNIT_REF_FORMS[spec[1]] ? unit.start + value : value;
    }
    if (spec[0] === AT.type && typeof value === 'number' && UNIT_REF_FORMS[spec[1]]) attrs.typeRef = value;
  }
  return attrs;
}

// Reads past the attributes of a DIE nothing is wanted from (most are:
// variables, parameters, members...). Returns null.
function skipAttributes(c, abbrev, ctx) {
  var specs = abbrev.attrs;
  for (var a = 0; a < specs.length; a++) readForm(c, specs[a][1], specs[a][2], ctx);
  return null;
}

// The compile unit's DIE: the unit's DWARF 5 bases, its base address and
// ranges, and its line table (read once per offset).
function useUnitDie(unit, attrs, ctx) {
  if (typeof attrs[AT.strOffsetsBase] === 'number') unit.strOffsetsBase = attrs[AT.strOffsetsBase];
  if (typeof attrs[AT.addrBase] === 'number') unit.addrBase = attrs[AT.addrBase];
  if (typeof attrs[AT.rnglistsBase] === 'number') unit.rnglistsBase = attrs[AT.rnglistsBase];
  resolvePcs(attrs, unit, ctx);
  unit.base = typeof attrs[AT.lowPc] === 'number' ? attrs[AT.lowPc] : 0;
  unit.ranges = rangesOf(attrs, unit, ctx).filter(isLiveRange);
  var compDir = resolveIndexed(attrs[AT.compDir], unit, ctx);
  var stmt = attrs[AT.stmtList];
  if (typeof stmt === 'number' && ctx.sections['.debug_line']) {
    if (!ctx.lineTables[stmt]) ctx.lineTables[stmt] = readLineTable(ctx, stmt, typeof compDir === 'string' ? compDir : '');
    unit.table = ctx.lineTables[stmt];
  }
}

function resolvePcs(attrs, unit, ctx) {
  attrs[AT.lowPc] = resolveIndexed(attrs[AT.lowPc], unit, ctx);
  attrs[AT.highPc] = resolveIndexed(attrs[AT.highPc], unit, ctx);
}

// An inlined call, inside `outer` (the call or function around it): its
// ranges go into the unit's map. Returns the call {outer, file, line}.
function addInlinedCall(unit, attrs, outer, ctx) {
  resolvePcs(attrs, unit, ctx);
  var call = {outer: outer, file: attrs[AT.callFile], line: attrs[AT.callLine]};
  unit.subroutines.addAll(rangesOf(attrs, unit, ctx), call);
  return call;
}

// A subprogram: its record {isFunction, name (null until nameFunctions
// finds it through `origin`), origin}, put in the unit's map over its ranges.
function addFunction(unit, attrs, ctx) {
  resolvePcs(attrs, unit, ctx);
  var name = resolveIndexed(attrs[AT.name], unit, ctx);
  var fn = {isFunction: true, name: typeof name === 'string' ? name : null, origin: attrs.origin};
  unit.subroutines.addAll(rangesOf(attrs, unit, ctx), fn);
  return fn;
}

// A type or namespace DIE: its qualified name (or null), kept with the
// unit's types (typedefs wait for the unit's end: their type may come
// after them).
function noteType(found, typeTag, attrs, unitOffset, scope, unit, ctx) {
  var named = typeName(typeTag, resolveIndexed(attrs[AT.name], unit, ctx), scope);
  if (named && typeTag !== 'namespace') {
    found.typesAt[unitOffset] = named;
    if (typeTag === 'typedef') {
      if (attrs.typeRef !== undefined) found.typedefs.push([named, attrs.typeRef]);
    } else ctx.typeNames.names.add(named); // a declaration too: its definition may be in no unit's DWARF
  }
  return named;
}

// Once a unit is read: functions named through their origins, typedefs
// resolved, and the unit's lookups by address built.
function finishUnit(unit, found, ctx) {
  nameFunctions(found.functions);
  var aliases = ctx.typeNames.aliases;
  found.typedefs.forEach(function (t) {
    if (found.typesAt[t[1]] && !aliases.has(t[0])) aliases.set(t[0], found.typesAt[t[1]]);
  });
  // A unit without ranges of its own is found through its line table.
  if (!unit.ranges.length && unit.table) {
    unit.ranges = unit.table.sequences.map(function (q) { return [q.start, q.end]; });
  }
  unit.sequences = new RangeIndex(unit.table ? unit.table.sequences.map(function (q) {
    return {lo: q.start, hi: q.end, sequence: q};
  }) : []);
}

// The lookup parseDwarf returns: module offset -> {file, line, function}
// or null. It first picks the unit that holds the offset and has a
// subroutine or rows there, as llvm-symbolizer does (unitAt). In the unit
// it takes the deepest inlined call around the offset and follows `outer`
// to the outermost one, as llvm-symbolizer walks a DIE's parents:
// binaryen's DWARF update can leave an outer call's ranges short of its
// inner ones' (an outer range [0,1), the inner ones intact), so the outer
// ranges alone are not enough. Outside inlined code, the line table's row.
function lineLookup(units, codeStart, clean) {
  var unitIndex = new RangeIndex([].concat.apply([], units.map(function (u, i) {
    return u.ranges.map(function (r) { return {lo: r[0], hi: r[1], unit: i}; });
  })));
  var fileName = function (table, index) {
    var name = table && typeof index === 'number' ? table.files[index] : null;
    return name ? clean(name) : null;
  };
  return function (offset) {
    var addr = offset - codeStart;
    var at = unitAt(units, unitIndex, addr);
    if (!at) return null;
    var entry = at.entry;
    var call = entry && !entry.isFunction ? entry : null;
    if (call) {
      while (call.outer && !call.outer.isFunction) call = call.outer;
      var file = fileName(at.unit.table, call.file);
      // Line 0: compiler-made code with no line of its own; say nothing
      // rather than name the header.
      return file && call.line ? {file: file, line: call.line, function: call.outer ? call.outer.name : null} : null;
    }
    var seq = at.seq;
    if (!seq) return null;
    var row = lastAtOrBefore(seq.addrs, addr);
    var name = fileName(at.unit.table, seq.files[row]);
    return name && seq.lines[row] ? {file: name, line: seq.lines[row], function: entry ? entry.name : null} : null;
  };
}

// The unit an address is in, with the subroutine (entry) and line
// sequence (seq) it has there: the first unit (in file order) whose ranges
// hold the address and that says something of it, else the last that
// holds it; null when none does. Binaryen's update can leave a unit's
// ranges over code it has no rows for (an assembly unit's, compiler-rt's
// stack_limits.S, over libc++abi's code: Emscripten 4.0.23 at -O2), and
// code it removed can leave ranges over live code (a subprogram [0x1b8,
// 0x100000000) at -O2), where llvm-symbolizer finds the unit that has them.
function unitAt(units, unitIndex, addr) {
  var held = [];
  unitIndex.each(addr, function (x) { held.push(x.unit); });
  held.sort(function (a, b) { return a - b; });
  for (var h = 0; h < held.length; h++) {
    var u = units[held[h]];
    var entry = u.subroutines.find(addr);
    var seq = null;
    u.sequences.each(addr, function (x) { seq = seq || x.sequence; });
    if (entry || seq || h === held.length - 1) return {unit: u, entry: entry, seq: seq};
  }
  return null;
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

module.exports = {parseDwarf: parseDwarf};
