// collapsed.js: turn an emheap snapshot into Brendan Gregg's "folded" stack
// format (the input of flamegraph.pl, inferno, speedscope and others): one
// line per distinct stack, "root;caller;leaf <live bytes>", heaviest first.
// Pure CommonJS, embedded in the --js-library too: see formats/README.md for
// the rules this code follows.

var CHUNK_CHARS = require('./json_stream').CHUNK_CHARS;

var UNATTRIBUTED = require('../model/snapshot_file').UNATTRIBUTED;
var slicedSort = require('../model/sliced_sort');
var steps = require('../model/steps');
var ShardedMap = require('../model/sharded_map').ShardedMap;
var PAUSE_SITES = steps.STEP_ITEMS; // sites merged between two pause points

// ";" separates frames and the last space separates the count: a name keeps
// its spaces (the count is found after the last one), but a ";" or a line
// break inside it would split the frame, so those become ":" and " ".
function frameText(name) {
  return String(name).replace(/;/g, ':').replace(/[\r\n]+/g, ' ');
}

// Two 32-bit FNV-style hashes of a path of small integers, as one number < 2^53.
function pathHash(path) {
  var a = 0x811c9dc5 | 0;
  var b = path.length | 0;
  for (var i = 0; i < path.length; i++) {
    a = Math.imul(a ^ path[i], 16777619);
    b = Math.imul(b ^ path[i], 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0) * 2097152 + ((b >>> 0) & 0x1fffff);
}

function samePath(x, y) {
  if (x.length !== y.length) return false;
  for (var i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

// Generator of the file's text in chunks of about CHUNK_CHARS characters.
// Sites are merged by their path of names (two frames with one name are one
// frame here), keyed by short name numbers rather than by the line's text:
// at 2M sites x 60 frames the lines are made only once each, while written.
function* collapsedChunks(snapshot) {
  var snapFrames = snapshot.frames || [];
  var texts = [];          // distinct frame texts
  var textIds = new Map(); // frame text -> index in texts
  var nameOf = snapFrames.map(function (f) {
    var text = frameText(f.name);
    var id = textIds.get(text);
    if (id === undefined) {
      id = texts.length;
      texts.push(text);
      textIds.set(text, id);
    }
    return id;
  });
  // name-number path -> line {path, bytes, next}; two sites with one path
  // share a line. Keyed by a 53-bit hash of the path (chained on collision)
  // rather than by a string: no key text is made per site.
  var lines = new ShardedMap();
  var order = [];
  var sites = snapshot.sites || [];
  for (var s = 0; s < sites.length; s++) {
    // An empty chunk: nothing to write yet, but the page may pause here
    // (merging 2M sites is seconds of work before the first line).
    if (s % PAUSE_SITES === PAUSE_SITES - 1) yield '';
    var site = sites[s];
    if (!(site.liveBytes > 0)) continue;
    var stack = site.stack || [];
    var path = new Array(stack.length);
    for (var i = 0; i < stack.length; i++) {
      path[i] = nameOf[stack[i]];
      if (path[i] === undefined) throw new Error('emheap snapshot: stack refers to missing frame ' + stack[i]);
    }
    var hash = pathHash(path);
    var first = lines.get(hash);
    var line = first;
    while (line && !samePath(line.path, path)) line = line.next;
    if (line) {
      line.bytes += site.liveBytes;
      continue;
    }
    line = { path: path, bytes: site.liveBytes, next: first };
    lines.set(hash, line);
    order.push(line);
  }
  lines = null;
  // heaviest first; the sort is stable, so ties keep snapshot order. Sites
  // come heaviest first from emheap, and where no two merged, the lines
  // already are: then the sort is one pass.
  yield* steps.stepsAsPauses(slicedSort.sortSteps(order, function (a, b) { return b.bytes - a.bytes; },
    PAUSE_SITES * 4), '');
  var parts = [];
  var size = 0;
  for (var k = 0; k < order.length; k++) {
    path = order[k].path;
    var names = new Array(path.length);
    // the snapshot stores stacks leaf first; folded lines are root first
    for (var j = 0; j < path.length; j++) names[path.length - 1 - j] = texts[path[j]];
    var text = (names.length ? names.join(';') : UNATTRIBUTED) + ' ' + order[k].bytes + '\n';
    parts.push(text);
    size += text.length;
    if (size >= CHUNK_CHARS) {
      yield parts.join('');
      parts = [];
      size = 0;
    }
  }
  if (size > 0) yield parts.join('');
}

// The whole file as one string (small snapshots).
function toCollapsed(snapshot) {
  return Array.from(collapsedChunks(snapshot)).join('');
}

module.exports = { collapsedChunks: collapsedChunks, toCollapsed: toCollapsed };
