// pprof.js: turn an emheap snapshot into a pprof Profile protobuf
// (github.com/google/pprof proto/profile.proto), the heap profile shape
// `go tool pprof` and speedscope read: sample types alloc_objects,
// alloc_space, inuse_objects, inuse_space. Pure CommonJS, embedded in the
// --js-library too (see formats/README.md for the rules this code follows).
//
// The profile comes out as a generator of byte chunks, never as one array:
// a profile of 2M sites x 60 frames is hundreds of MB. The writer of the
// file gzips it (the registry marks it `gzip: true`): CompressionStream in a
// page, node's zlib in the CLI and under node (output/node_output.js). The
// encoder is here rather than a protobuf library because none of them
// writes a message as a stream: they build the whole Profile in memory.

var CHUNK_BYTES = 1 << 20;
// An empty chunk every STEP_ITEMS frames or sites: where a page's writer may
// stop between slices (formats/index.js). Frames alone were 0.5-0.9 s of one
// uninterrupted step at 2M sites.
var STEP_ITEMS = require('../model/steps').STEP_ITEMS;
var PAUSE = new Uint8Array(0);
var UNATTRIBUTED = require('../model/snapshot_file').UNATTRIBUTED;

// ---------------------------------------------------------------- protobuf

// A growable byte buffer with the protobuf wire encodings used here
// (wire types 0 = varint, 2 = length-delimited).
function Bytes(capacity) {
  this.buf = new Uint8Array(capacity || 256);
  this.length = 0;
}

Bytes.prototype.room = function (n) {
  if (this.length + n <= this.buf.length) return;
  var size = this.buf.length * 2;
  while (size < this.length + n) size *= 2;
  var bigger = new Uint8Array(size);
  bigger.set(this.buf.subarray(0, this.length));
  this.buf = bigger;
};

// Unsigned varint of an integer 0 <= n < 2^53 (bitwise ops only below 2^31:
// they are 32-bit).
Bytes.prototype.varint = function (n) {
  if (!(n >= 0) || Math.floor(n) !== n || n > 9007199254740991) {
    throw new Error('emheap pprof: cannot encode ' + n + ' as a varint');
  }
  this.room(10);
  var buf = this.buf;
  var pos = this.length;
  while (n > 2147483647) {
    buf[pos++] = (n % 128) + 128;
    n = Math.floor(n / 128);
  }
  while (n >= 128) {
    buf[pos++] = (n & 127) | 128;
    n >>>= 7;
  }
  buf[pos++] = n;
  this.length = pos;
};

// Varint of n * factor for integers whose product may exceed 2^53 (time in
// nanoseconds): long multiplication on base-128 digits, exact.
Bytes.prototype.varintProduct = function (n, factor) {
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
  this.room(out.length);
  for (var j = 0; j < out.length; j++) this.buf[this.length++] = out[j] + (j < out.length - 1 ? 128 : 0);
};

Bytes.prototype.tag = function (field, wireType) {
  this.varint(field * 8 + wireType);
};

// An integer field; proto3 leaves fields at their default (0) out.
Bytes.prototype.uint = function (field, n) {
  if (n === 0) return;
  this.tag(field, 0);
  this.varint(n);
};

// A length-delimited field holding another buffer's bytes.
Bytes.prototype.bytesField = function (field, inner) {
  this.tag(field, 2);
  this.varint(inner.length);
  this.room(inner.length);
  this.buf.set(inner.buf.subarray(0, inner.length), this.length);
  this.length += inner.length;
};

// A string field, always written: string_table entries are positional, "" included.
Bytes.prototype.string = function (field, s) {
  var inner = new Bytes(s.length * 3 + 1);
  utf8(String(s), inner);
  this.bytesField(field, inner);
};

// A nested message: fill(inner) writes its fields. `scratch` is reused
// between messages (cleared here) to spare an allocation per sample.
Bytes.prototype.message = function (field, fill, scratch) {
  var inner = scratch || new Bytes();
  inner.length = 0;
  fill(inner);
  this.bytesField(field, inner);
};

// A packed repeated integer field (the proto3 default encoding).
Bytes.prototype.packed = function (field, values, scratch) {
  if (values.length === 0) return;
  var inner = scratch || new Bytes();
  inner.length = 0;
  for (var i = 0; i < values.length; i++) inner.varint(values[i]);
  this.bytesField(field, inner);
};

// The bytes written so far, as a new array; the buffer is emptied.
Bytes.prototype.take = function () {
  var out = this.buf.slice(0, this.length);
  this.length = 0;
  return out;
};

function utf8(s, out) {
  out.room(s.length * 3);
  var buf = out.buf;
  var pos = out.length;
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
      buf[pos++] = c;
    } else if (c < 0x800) {
      buf[pos++] = 0xc0 | (c >> 6);
      buf[pos++] = 0x80 | (c & 63);
    } else if (c < 0x10000) {
      buf[pos++] = 0xe0 | (c >> 12);
      buf[pos++] = 0x80 | ((c >> 6) & 63);
      buf[pos++] = 0x80 | (c & 63);
    } else {
      buf[pos++] = 0xf0 | (c >> 18);
      buf[pos++] = 0x80 | ((c >> 12) & 63);
      buf[pos++] = 0x80 | ((c >> 6) & 63);
      buf[pos++] = 0x80 | (c & 63);
    }
  }
  out.length = pos;
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

// Generator of the Profile message (not compressed) in chunks of about
// CHUNK_BYTES bytes. A Profile's fields are all top level and repeated
// fields may come in any order, each entry appended in turn, so everything
// is written as soon as it is known: a string table entry when a string is
// first used, a function with its first location, a sample per site.
function* profileChunks(snapshot) {
  var w = new Bytes(CHUNK_BYTES + 65536);
  var scratch = new Bytes();
  var packedScratch = new Bytes();

  var stringIds = new Map();
  function str(s) {
    s = String(s);
    var id = stringIds.get(s);
    if (id === undefined) {
      id = stringIds.size;
      stringIds.set(s, id);
      w.string(6, s);
    }
    return id;
  }
  str('');   // string_table[0] must be ""

  var functionIds = new Map();   // JSON [name, file] -> id
  function functionId(name, file) {
    var key = JSON.stringify([name, file]);
    var id = functionIds.get(key);
    if (id === undefined) {
      id = functionIds.size + 1;   // ids are nonzero
      functionIds.set(key, id);
      var nameId = str(name);
      var fileId = str(file);
      w.message(5, function (m) {
        m.uint(1, id);
        m.uint(2, nameId);
        m.uint(3, nameId);     // system_name: the name as the wasm has it
        m.uint(4, fileId);
      }, scratch);
    }
    return id;
  }

  function location(id, address, fnId, line) {
    w.message(4, function (m) {
      m.uint(1, id);
      m.uint(2, 1);            // mapping_id
      m.uint(3, address);
      m.message(4, function (l) { l.uint(1, fnId); l.uint(2, line); }, packedScratch);
    }, scratch);
  }

  SAMPLE_TYPES.forEach(function (t) {
    var type = str(t[0]);
    var unit = str(t[1]);
    w.message(1, function (m) { m.uint(1, type); m.uint(2, unit); }, scratch);
  });

  // One Mapping for the whole wasm module, marked as already symbolized so
  // that pprof does not look for a binary: names, files and lines are in.
  var snapFrames = snapshot.frames || [];
  var moduleName = '';
  var maxAddress = 0;
  var hasFiles = false;
  var hasLines = false;
  for (var pre = 0; pre < snapFrames.length; pre++) {
    if (pre % STEP_ITEMS === STEP_ITEMS - 1) yield PAUSE;
    var pf = snapFrames[pre];
    if (!moduleName && pf.module && /\.wasm($|[?#])/.test(pf.module)) moduleName = String(pf.module);
    if (pf.offset != null && pf.offset > maxAddress) maxAddress = pf.offset;
    if (pf.file != null) hasFiles = true;
    if (pf.line != null) hasLines = true;
  }
  var mappingFile = str(moduleName || snapshot.source || 'wasm');
  w.message(3, function (m) {
    m.uint(1, 1);                  // id
    m.uint(3, maxAddress + 1);     // memory_limit: past every wasm byte offset
    m.uint(5, mappingFile);        // filename
    m.uint(7, 1);                  // has_functions
    m.uint(8, hasFiles ? 1 : 0);   // has_filenames
    m.uint(9, hasLines ? 1 : 0);   // has_line_numbers
  }, scratch);

  // One Location per snapshot frame: id = frame index + 1.
  for (var index = 0; index < snapFrames.length; index++) {
    var f = snapFrames[index];
    location(index + 1, f.offset == null ? 0 : f.offset,
      functionId(String(f.name), f.file == null ? '' : String(f.file)), f.line == null ? 0 : f.line);
    if (w.length >= CHUNK_BYTES) yield w.take();
  }

  var unattributedLocation = 0;
  var sites = snapshot.sites || [];
  var values = [0, 0, 0, 0];
  for (var s = 0; s < sites.length; s++) {
    if (s % STEP_ITEMS === STEP_ITEMS - 1) yield PAUSE;
    var site = sites[s];
    if (!(site.totalAllocs > 0) && !(site.liveBytes > 0)) continue;
    var stack = site.stack || [];
    var ids;
    if (stack.length === 0) {
      if (!unattributedLocation) {
        unattributedLocation = snapFrames.length + 1;
        location(unattributedLocation, 0, functionId(UNATTRIBUTED, ''), 0);
      }
      ids = [unattributedLocation];
    } else {
      // the snapshot's stacks are leaf first, as pprof's location_id
      ids = new Array(stack.length);
      for (var i = 0; i < stack.length; i++) {
        if (!snapFrames[stack[i]]) throw new Error('emheap snapshot: stack refers to missing frame ' + stack[i]);
        ids[i] = stack[i] + 1;
      }
    }
    values[0] = site.totalAllocs;
    values[1] = site.totalBytes;
    values[2] = site.liveBlocks;
    values[3] = site.liveBytes;
    w.message(2, function (m) { m.packed(1, ids, packedScratch); m.packed(2, values, packedScratch); }, scratch);
    if (w.length >= CHUNK_BYTES) yield w.take();
  }

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
  w.message(11, function (m) { m.uint(1, periodType); m.uint(2, periodUnit); }, scratch);
  w.uint(12, snapshot.samplingInterval > 0 ? snapshot.samplingInterval : 0);
  w.packed(13, commentIds, packedScratch);
  w.uint(14, defaultType);
  if (w.length > 0) yield w.take();
}

// The whole Profile message (not compressed) as one array (small snapshots).
function encodeProfile(snapshot) {
  var parts = Array.from(profileChunks(snapshot));
  var size = parts.reduce(function (n, p) { return n + p.length; }, 0);
  var out = new Uint8Array(size);
  var pos = 0;
  parts.forEach(function (p) {
    out.set(p, pos);
    pos += p.length;
  });
  return out;
}

module.exports = { profileChunks: profileChunks, encodeProfile: encodeProfile };
