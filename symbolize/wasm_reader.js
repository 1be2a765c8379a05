// wasm_reader.js -- the one reader of the bytes of a wasm module and of the
// DWARF inside it: a cursor with the encodings both use (LEB128, UTF-8
// names, little-endian fixed-size values) and the walk over a module's
// sections. Everything that parses a module's bytes reads them through
// this: the custom sections (wasm_sections.js), read-only data
// (read_only_data.js), DWARF (dwarf.js) and the load-time rewrite
// (contexts/wasm_binary.js), so an encoding is decoded, and checked for
// truncation, in one place.
//
// The methods keep their loops over local variables: the rewrite reads
// every LEB128 of a module at page load, and a call per byte would show.
'use strict';

// A position in `bytes` (a Uint8Array); reads advance it.
function Reader(bytes, pos) {
  this.b = bytes;
  this.pos = pos || 0;
}

function truncated(r, pos) {
  return new Error('truncated (byte ' + pos + ' of ' + r.b.length + ')');
}

Reader.prototype.u8 = function () {
  if (this.pos >= this.b.length) throw truncated(this, this.pos);
  return this.b[this.pos++];
};

// LEB128 as a number (exact to 2^53: DWARF's 64-bit constants and
// addresses in wasm32 fit), of any length: unsigned, or signed (DWARF's
// sdata and line advances; wasm's i32.const, which a caller may take
// `| 0` or `>>> 0`).
Reader.prototype.uleb = function () { return this.leb(false); };
Reader.prototype.sleb = function () { return this.leb(true); };
Reader.prototype.leb = function (signed) {
  var b = this.b;
  var pos = this.pos;
  var result = 0;
  var scale = 1;
  var byte;
  do {
    if (pos >= b.length) throw truncated(this, pos);
    byte = b[pos++];
    result += (byte & 0x7f) * scale;
    scale *= 128;
  } while (byte & 0x80);
  this.pos = pos;
  return signed && (byte & 0x40) ? result - scale : result;
};

// Wasm's u32 (an index, a count, a size): unsigned LEB128 of at most five
// bytes, most often one.
Reader.prototype.u32 = function () {
  var b = this.b;
  var pos = this.pos;
  var byte = b[pos];
  if (byte < 0x80) {
    this.pos = pos + 1;
    return byte;
  }
  var result = 0;
  var scale = 1;
  for (var n = 0; n < 5; n++) {
    if (pos >= b.length) throw truncated(this, pos);
    byte = b[pos++];
    result += (byte & 0x7f) * scale;
    if (!(byte & 0x80)) {
      this.pos = pos;
      return result;
    }
    scale *= 128;
  }
  throw new Error('bad LEB128 (a u32 of more than five bytes at ' + this.pos + ')');
};


// Skips a LEB128 of either sign without decoding it.
Reader.prototype.skipLeb = function () {
  var b = this.b;
  var pos = this.pos;
  do {
    if (pos >= b.length) throw truncated(this, pos);
  } while (b[pos++] & 0x80);
  this.pos = pos;
};

// Skips a u32 length and that many bytes.
Reader.prototype.skipVec = function () {
  var n = this.u32();
  this.pos += n;
};

// A wasm name: a u32 length and that many bytes of UTF-8.
Reader.prototype.name = function () {
  var len = this.u32();
  var end = this.pos + len;
  if (end > this.b.length) throw truncated(this, this.b.length);
  var s = utf8(this.b, this.pos, end);
  this.pos = end;
  return s;
};

// Little-endian fixed-size values (DWARF's data2, data4...): n of 1, 2, 3,
// 4 or 8 bytes; 8-byte values as numbers (wasm32 addresses and offsets
// fit in 53 bits).
Reader.prototype.le = function (n) {
  var b = this.b;
  var pos = this.pos;
  if (pos + n > b.length) throw truncated(this, b.length);
  this.pos = pos + n;
  if (n === 1) return b[pos];
  if (n === 2) return b[pos] | b[pos + 1] << 8;
  if (n === 3) return b[pos] | b[pos + 1] << 8 | b[pos + 2] << 16;
  var lo = (b[pos] | b[pos + 1] << 8 | b[pos + 2] << 16 | b[pos + 3] << 24) >>> 0;
  if (n === 4) return lo;
  if (n === 8) return lo + ((b[pos + 4] | b[pos + 5] << 8 | b[pos + 6] << 16 | b[pos + 7] << 24) >>> 0) * 4294967296;
  this.pos = pos;
  throw new Error('no ' + n + '-byte values');
};

// Bytes [start, end) as UTF-8 (names in wasm and DWARF are), without
// TextDecoder so that this runs wherever the glue runs; bytes that are
// not UTF-8 come back one character each.
function utf8(bytes, start, end) {
  var raw = '';
  var high = 0;
  for (var i = start; i < end; i++) {
    var c = bytes[i];
    high |= c;
    raw += String.fromCharCode(c);
  }
  if (!(high & 0x80)) return raw;
  try {
    return decodeURIComponent(escape(raw));
  } catch (e) {
    return raw;
  }
}

// A module's sections, in order: [{id, headerStart (the id byte), start
// and end (the contents), name (custom sections), payload (where a custom
// section's bytes start, after its name)}]. Throws on bytes that are not a
// wasm module (version 1).
function sections(bytes) {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d ||
      bytes[4] !== 1 || bytes[5] !== 0 || bytes[6] !== 0 || bytes[7] !== 0) {
    throw new Error('not a wasm module');
  }
  var list = [];
  var r = new Reader(bytes, 8);
  while (r.pos < bytes.length) {
    var headerStart = r.pos;
    var id = r.u8();
    var size = r.u32();
    var start = r.pos;
    var end = start + size;
    if (end > bytes.length) throw truncated(r, bytes.length);
    var s = {id: id, start: start, end: end, headerStart: headerStart};
    if (id === 0) {
      s.name = r.name();
      s.payload = r.pos;
    }
    list.push(s);
    r.pos = end;
  }
  return list;
}

module.exports = {Reader: Reader, utf8: utf8, sections: sections};
