// collapsed.js: turn an emheap snapshot into Brendan Gregg's "folded" stack
// format (the input of flamegraph.pl, inferno, speedscope and others): one
// line per distinct stack, "root;caller;leaf <live bytes>", heaviest first.
// Pure CommonJS, embedded in the --js-library too: see formats/README.md for
// the rules this code follows.

var CHUNK_CHARS = require('./json_stream').CHUNK_CHARS;

var UNATTRIBUTED = '(unattributed)';

// ";" separates frames and the last space separates the count: a name keeps
// its spaces (the count is found after the last one), but a ";" or a line
// break inside it would split the frame, so those become ":" and " ".
function frameText(name) {
  return String(name).replace(/;/g, ':').replace(/[\r\n]+/g, ' ');
}

// Generator of the file's text in chunks of about CHUNK_CHARS characters.
// The lines are merged and sorted first (one string per distinct stack, the
// text a file has anyway), then handed out a chunk at a time.
function* collapsedChunks(snapshot) {
  var snapFrames = snapshot.frames || [];
  var names = snapFrames.map(function (f) { return frameText(f.name); });
  var totals = new Map();   // line -> live bytes; two sites with one name path share a line
  (snapshot.sites || []).forEach(function (site) {
    if (!(site.liveBytes > 0)) return;
    var stack = site.stack || [];
    var path = new Array(stack.length);
    // the snapshot stores stacks leaf first; folded lines are root first
    for (var i = 0; i < stack.length; i++) {
      var name = names[stack[i]];
      if (name === undefined) throw new Error('emheap snapshot: stack refers to missing frame ' + stack[i]);
      path[stack.length - 1 - i] = name;
    }
    var line = path.length ? path.join(';') : UNATTRIBUTED;
    totals.set(line, (totals.get(line) || 0) + site.liveBytes);
  });
  // heaviest first; Map keeps first-seen order and the sort is stable
  // (ES2019), so ties keep snapshot order
  var order = Array.from(totals.keys());
  order.sort(function (a, b) { return totals.get(b) - totals.get(a); });
  var parts = [];
  var size = 0;
  for (var k = 0; k < order.length; k++) {
    var text = order[k] + ' ' + totals.get(order[k]) + '\n';
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
