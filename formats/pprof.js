// pprof.js: turn an emheap snapshot into a gzip-compressed pprof Profile
// protobuf (github.com/google/pprof proto/profile.proto), the heap profile
// shape `go tool pprof` and speedscope read: sample types alloc_objects,
// alloc_space, inuse_objects, inuse_space. Pure CommonJS, embedded in the
// --js-library too (see formats/README.md for the rules this code follows),
// so the protobuf writer and the gzip writer are here, small and dependency
// free: the gzip stream uses "stored" (uncompressed) deflate blocks.

var UNATTRIBUTED = '(unattributed)';

// ---------------------------------------------------------------- protobuf

// Wire types used here: 0 = varint, 2 = length-delimited.
function ProtoWriter() {
  this.bytes = [];
}

// Unsigned varint of an integer 0 <= n < 2^53 (no bitwise ops: they are 32-bit).
ProtoWriter.prototype.varint = function (n) {
  if (!(n >= 0) || Math.floor(n) !== n || n > 9007199254740991) {
    throw new Error('emheap pprof: cannot encode ' + n + ' as a varint');
  }
  while (n >= 128) {
    this.bytes.push((n % 128) + 128);
    n = Math.floor(n / 128);
  }
  this.bytes.push(n);
};

// Varint of n * factor for integers whose product may exceed 2^53 (time in
// nanoseconds): long multiplication on base-128 digits, exact.
ProtoWriter.prototype.varintProduct = function (n, factor) {
  var digits = [];
  while (n > 0) {
    digits.push(n % 128);
    n = Math.floor(n / 128);
  }
  var out = [];
  var carry = 0;
  for (var i = 0; i < digits.length || carry > 0; i++) {
    var v = (i < digits.length ? digits[i] * factor : 0) + carry;
    out.push(v % 128);
    carry = Math.floor(v / 128);
  }
  if (out.length === 0) out.push(0);
  for (var j = 0; j < out.length; j++) this.bytes.push(out[j] + (j < out.length - 1 ? 128 : 0));
};

ProtoWriter.prototype.tag = function (field, wireType) {
  this.varint(field * 8 + wireType);
};

// An integer field; proto3 leaves fields at their default (0) out.
ProtoWriter.prototype.uint = function (field, n) {
  if (n === 0) return;
  this.tag(field, 0);
  this.varint(n);
};

ProtoWriter.prototype.bytesField = function (field, bytes) {
  this.tag(field, 2);
  this.varint(bytes.length);
  for (var i = 0; i < bytes.length; i++) this.bytes.push(bytes[i]);
};

// A string field, always written: string_table entries are positional, "" included.
ProtoWriter.prototype.string = function (field, s) {
  this.bytesField(field, utf8(s));
};

// A nested message: fill(writer) writes its fields.
ProtoWriter.prototype.message = function (field, fill) {
  var inner = new ProtoWriter();
  fill(inner);
  this.bytesField(field, inner.bytes);
};

// A packed repeated integer field (the proto3 default encoding).
ProtoWriter.prototype.packed = function (field, values) {
  if (values.length === 0) return;
  var inner = new ProtoWriter();
  for (var i = 0; i < values.length; i++) inner.varint(values[i]);
  this.bytesField(field, inner.bytes);
};

function utf8(s) {
  var out = [];
  s = String(s);
  for (var i = 0; i < s.length; i++) {
    var c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      var d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + (c - 0xd800) * 1024 + (d - 0xdc00);
        i++;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // lone surrogate
    if (c < 0x80) {
      out.push(c);
    } else if (c < 0x800) {
      out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    } else if (c < 0x10000) {
      out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    } else {
      out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
  }
  return out;
}

// ---------------------------------------------------------------- gzip

var crcTable = null;

function crc32(bytes) {
  if (!crcTable) {
    crcTable = [];
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var k = 0; k < 8; k++) c = (c & 1) ? (0xedb88320 ^ (c >>> 1)) : (c >>> 1);
      crcTable.push(c >>> 0);
    }
  }
  var crc = 0xffffffff;
  for (var i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]) & 255] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// RFC 1952 gzip member around RFC 1951 stored blocks (at most 65535 bytes each).
function gzipStored(bytes) {
  var blocks = Math.max(1, Math.ceil(bytes.length / 65535));
  var out = new Uint8Array(10 + blocks * 5 + bytes.length + 8);
  // magic, CM=8 (deflate), no flags, mtime 0, no extra flags, OS 255 (unknown)
  out.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255], 0);
  var pos = 10;
  for (var b = 0; b < blocks; b++) {
    var start = b * 65535;
    var len = Math.min(65535, bytes.length - start);
    out[pos++] = b === blocks - 1 ? 1 : 0;   // BFINAL, BTYPE=00 (stored)
    out[pos++] = len & 255;
    out[pos++] = len >> 8;
    out[pos++] = ~len & 255;
    out[pos++] = (~len >> 8) & 255;
    for (var i = 0; i < len; i++) out[pos++] = bytes[start + i];
  }
  var crc = crc32(bytes);
  var size = bytes.length % 4294967296;
  for (var s = 0; s < 4; s++) out[pos++] = Math.floor(crc / Math.pow(2, 8 * s)) & 255;
  for (var t = 0; t < 4; t++) out[pos++] = Math.floor(size / Math.pow(2, 8 * t)) & 255;
  return out;
}

// ---------------------------------------------------------------- profile
// Ids: Location = snapshot frame index + 1 (plus one for "(unattributed)"),
// Function = one per distinct (name, file), Mapping = 1 (the wasm module);
// addresses are the frames' wasm byte offsets where known.

var SAMPLE_TYPES = [
  ['alloc_objects', 'count'],
  ['alloc_space', 'bytes'],
  ['inuse_objects', 'count'],
  ['inuse_space', 'bytes'],
];

// The Profile message as bytes (not compressed).
function encodeProfile(snapshot) {
  var strings = [''];
  var stringIds = { '': 0 };
  function str(s) {
    s = String(s);
    if (!Object.prototype.hasOwnProperty.call(stringIds, s)) {
      stringIds[s] = strings.length;
      strings.push(s);
    }
    return stringIds[s];
  }

  var snapFrames = snapshot.frames || [];
  var functions = [];     // {id, name, file}
  var functionIds = {};   // JSON [name, file] -> id
  function functionId(name, file) {
    var key = JSON.stringify([name, file]);
    if (functionIds[key] === undefined) {
      functionIds[key] = functions.length + 1;   // ids are nonzero
      functions.push({ id: functions.length + 1, name: name, file: file });
    }
    return functionIds[key];
  }

  // One Location per snapshot frame: id = frame index + 1.
  var locations = snapFrames.map(function (f, index) {
    return {
      id: index + 1,
      address: f.offset == null ? 0 : f.offset,
      functionId: functionId(String(f.name), f.file == null ? '' : String(f.file)),
      line: f.line == null ? 0 : f.line,
    };
  });
  var unattributedLocation = 0;

  var samples = [];
  (snapshot.sites || []).forEach(function (site) {
    if (!(site.totalAllocs > 0) && !(site.liveBytes > 0)) return;
    var stack = site.stack || [];
    var ids;
    if (stack.length === 0) {
      if (!unattributedLocation) {
        unattributedLocation = locations.length + 1;
        locations.push({ id: unattributedLocation, address: 0, functionId: functionId(UNATTRIBUTED, ''), line: 0 });
      }
      ids = [unattributedLocation];
    } else {
      // the snapshot's stacks are leaf first, as pprof's location_id
      ids = stack.map(function (index) {
        if (!snapFrames[index]) throw new Error('emheap snapshot: stack refers to missing frame ' + index);
        return index + 1;
      });
    }
    samples.push({ ids: ids, values: [site.totalAllocs, site.totalBytes, site.liveBlocks, site.liveBytes] });
  });

  // One Mapping for the whole wasm module, marked as already symbolized so
  // that pprof does not look for a binary: names, files and lines are in.
  var moduleName = '';
  var maxAddress = 0;
  var hasFiles = false;
  var hasLines = false;
  snapFrames.forEach(function (f) {
    if (!moduleName && f.module && /\.wasm($|[?#])/.test(f.module)) moduleName = String(f.module);
    if (f.offset != null && f.offset > maxAddress) maxAddress = f.offset;
    if (f.file != null) hasFiles = true;
    if (f.line != null) hasLines = true;
  });
  var mappingFile = str(moduleName || snapshot.source || 'wasm');

  var w = new ProtoWriter();
  SAMPLE_TYPES.forEach(function (t) {
    var type = str(t[0]);
    var unit = str(t[1]);
    w.message(1, function (m) { m.uint(1, type); m.uint(2, unit); });
  });
  samples.forEach(function (s) {
    w.message(2, function (m) { m.packed(1, s.ids); m.packed(2, s.values); });
  });
  w.message(3, function (m) {
    m.uint(1, 1);                  // id
    m.uint(3, maxAddress + 1);     // memory_limit: past every wasm byte offset
    m.uint(5, mappingFile);        // filename
    m.uint(7, 1);                  // has_functions
    m.uint(8, hasFiles ? 1 : 0);   // has_filenames
    m.uint(9, hasLines ? 1 : 0);   // has_line_numbers
  });
  locations.forEach(function (loc) {
    w.message(4, function (m) {
      m.uint(1, loc.id);
      m.uint(2, 1);                // mapping_id
      m.uint(3, loc.address);
      m.message(4, function (line) { line.uint(1, loc.functionId); line.uint(2, loc.line); });
    });
  });
  functions.forEach(function (fn) {
    var name = str(fn.name);
    var file = str(fn.file);
    w.message(5, function (m) {
      m.uint(1, fn.id);
      m.uint(2, name);
      m.uint(3, name);     // system_name: the name as the wasm has it
      m.uint(4, file);
    });
  });

  var comments = [
    'emheap ' + (snapshot.mode || 'unknown') + ' heap profile',
    snapshot.samplingInterval > 0
      ? 'samplingInterval: ' + snapshot.samplingInterval + ' bytes (sampled mode: per-site values are unbiased estimates)'
      : 'samplingInterval: 0 (every allocation recorded)',
  ];
  if (snapshot.source) comments.push('source: ' + snapshot.source);
  if (snapshot.capturedAt) comments.push('capturedAt: ' + snapshot.capturedAt);
  var commentIds = comments.map(str);
  var periodType = str('space');
  var periodUnit = str('bytes');
  var defaultType = str('inuse_space');

  var ms = Date.parse(snapshot.capturedAt);
  if (ms > 0) {
    w.tag(9, 0);
    w.varintProduct(ms, 1000000);
  }
  w.message(11, function (m) { m.uint(1, periodType); m.uint(2, periodUnit); });
  w.uint(12, snapshot.samplingInterval > 0 ? snapshot.samplingInterval : 0);
  w.packed(13, commentIds);
  w.uint(14, defaultType);
  // the string table last: every index above is known by now
  strings.forEach(function (s) { w.string(6, s); });
  return w.bytes;
}

function toPprof(snapshot) {
  return gzipStored(encodeProfile(snapshot));
}

module.exports = { toPprof: toPprof, encodeProfile: encodeProfile, gzipStored: gzipStored, crc32: crc32 };
