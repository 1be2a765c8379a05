// json_stream.js: the JSON text of a value as a sequence of string chunks of
// about CHUNK_CHARS characters each, so that a file of any size can be
// written: V8 cannot make a string longer than 2^29 - 24 characters (about
// 512 MB), which a snapshot of 2M sites x 60 frames exceeds several times,
// and a page stays responsive when it takes the chunks a few at a time.
// Pure CommonJS, embedded in the --js-library too: see formats/README.md.
//
// The text is exactly JSON.stringify(resolve(value)): no spaces, keys in
// insertion order, undefined and functions left out of objects. Two things
// make it cheap: a small subtree (a site, a frame, a stack of numbers) is
// written with one JSON.stringify call, and only large arrays and the
// objects that hold them are walked here; and an array that does not exist
// yet is written from a generator (lazyArray), so a format never holds its
// whole output.

// A page's writer stops between chunks (output/page_output.js): a chunk
// of 1M characters took ~25 ms to make (a speedscope file of 100k sites in
// headless Chromium), which ran slices to 60-90 ms; a quarter of that.
var CHUNK_CHARS = 1 << 18;

// Arrays longer than this are walked element by element; shorter ones are
// one JSON.stringify (a 60-frame stack, a 4-value sample).
var SMALL_ARRAY = 256;

// An array whose elements come from produce(), a generator function called
// once, when the array is written (or resolved).
function LazyArray(produce) {
  this.produce = produce;
}

function lazyArray(produce) {
  return new LazyArray(produce);
}

// Typed arrays are written as JSON arrays (the heap graph keeps millions of
// numbers in them: model/heap_section.js).
function isTypedArray(v) {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

// An object written key by key. One whose toJSON is marked `streamable`
// only makes plain JSON for JSON.stringify's callers; here it is walked.
function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v) &&
    (typeof v.toJSON !== 'function' || v.toJSON.streamable === true);
}

// Does writing v need a walk (a lazy array or a large array somewhere inside)?
function isLarge(v) {
  if (v instanceof LazyArray) return true;
  if (isTypedArray(v)) return v.length > SMALL_ARRAY;
  if (Array.isArray(v)) {
    if (v.length > SMALL_ARRAY) return true;
    for (var i = 0; i < v.length; i++) {
      if (v[i] !== null && typeof v[i] === 'object' && isLarge(v[i])) return true;
    }
    return false;
  }
  if (!isPlainObject(v)) return false;
  for (var k in v) {
    if (Object.prototype.hasOwnProperty.call(v, k) && isLarge(v[k])) return true;
  }
  return false;
}

// Collects small strings and hands them out joined, CHUNK_CHARS at a time.
function Chunker() {
  this.parts = [];
  this.size = 0;
}

Chunker.prototype.push = function (s) {
  this.parts.push(s);
  this.size += s.length;
};

Chunker.prototype.full = function () {
  return this.size >= CHUNK_CHARS;
};

Chunker.prototype.take = function () {
  var s = this.parts.join('');
  this.parts = [];
  this.size = 0;
  return s;
};

// JSON.stringify of one array element: undefined and functions become null.
function elementText(v) {
  if (isTypedArray(v)) return '[' + Array.prototype.join.call(v, ',') + ']';
  var s = JSON.stringify(v);
  return s === undefined ? 'null' : s;
}

function* writeValue(v, out) {
  if (!isLarge(v)) {
    out.push(elementText(v));
    return;
  }
  if (isTypedArray(v)) {
    out.push('[');
    for (var at = 0; at < v.length; at += 4096) {
      out.push((at ? ',' : '') + Array.prototype.join.call(v.subarray(at, at + 4096), ','));
      if (out.full()) yield out.take();
    }
    out.push(']');
    return;
  }
  if (v instanceof LazyArray || Array.isArray(v)) {
    out.push('[');
    var first = true;
    var items = v instanceof LazyArray ? v.produce() : v;
    for (var item of items) {
      if (!first) out.push(',');
      first = false;
      if (isLarge(item)) yield* writeValue(item, out);
      else out.push(elementText(item));
      if (out.full()) yield out.take();
    }
    out.push(']');
    return;
  }
  out.push('{');
  var firstKey = true;
  for (var k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    var value = v[k];
    if (value === undefined || typeof value === 'function') continue;
    out.push((firstKey ? '' : ',') + JSON.stringify(k) + ':');
    firstKey = false;
    yield* writeValue(value, out);
    if (out.full()) yield out.take();
  }
  out.push('}');
}

// Generator of the JSON text of `value`, in chunks (strings) of about
// CHUNK_CHARS characters; the last one may be shorter.
function* jsonChunks(value) {
  var out = new Chunker();
  yield* writeValue(value, out);
  if (out.size > 0) yield out.take();
}

// The value with every lazy array made a real one (for callers that want
// the whole object, such as the page's emheap.toSpeedscope()). A lazy array
// may sit in objects and in small arrays; large plain arrays (a snapshot's
// sites) are taken as they are, not searched, and nothing plain is copied.
function resolve(v) {
  if (v instanceof LazyArray) {
    var arr = [];
    for (var item of v.produce()) arr.push(resolve(item));
    return arr;
  }
  if (Array.isArray(v)) {
    if (v.length > SMALL_ARRAY) return v;
    var items = v.map(resolve);
    return items.some(function (x, i) { return x !== v[i]; }) ? items : v;
  }
  if (!isPlainObject(v)) return v;
  var obj = null;
  for (var k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    var r = resolve(v[k]);
    if (r !== v[k] && !obj) obj = Object.assign({}, v);
    if (obj) obj[k] = r;
  }
  return obj || v;
}

module.exports = { jsonChunks: jsonChunks, lazyArray: lazyArray, resolve: resolve, CHUNK_CHARS: CHUNK_CHARS };
