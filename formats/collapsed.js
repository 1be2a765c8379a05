// collapsed.js: turn an emheap snapshot into Brendan Gregg's "folded" stack
// format (the input of flamegraph.pl, inferno, speedscope and others): one
// line per distinct stack, "root;caller;leaf <live bytes>", heaviest first.
// Pure CommonJS, embedded in the --js-library too: see formats/README.md for
// the rules this code follows.

var UNATTRIBUTED = '(unattributed)';

// ";" separates frames and the last space separates the count: a name keeps
// its spaces (the count is found after the last one), but a ";" or a line
// break inside it would split the frame, so those become ":" and " ".
function frameText(name) {
  return String(name).replace(/;/g, ':').replace(/[\r\n]+/g, ' ');
}

function toCollapsed(snapshot) {
  var snapFrames = snapshot.frames || [];
  var totals = {};   // line -> live bytes; two sites with one name path share a line
  var order = [];
  (snapshot.sites || []).forEach(function (site) {
    if (!(site.liveBytes > 0)) return;
    var stack = site.stack || [];
    var names = [];
    // the snapshot stores stacks leaf first; folded lines are root first
    for (var i = stack.length - 1; i >= 0; i--) {
      var f = snapFrames[stack[i]];
      if (!f) throw new Error('emheap snapshot: stack refers to missing frame ' + stack[i]);
      names.push(frameText(f.name));
    }
    if (names.length === 0) names.push(UNATTRIBUTED);
    var line = names.join(';');
    var key = '=' + line;   // never "__proto__"
    if (totals[key] === undefined) {
      totals[key] = 0;
      order.push(line);
    }
    totals[key] += site.liveBytes;
  });
  // heaviest first; the sort is stable (ES2019), so ties keep snapshot order
  order.sort(function (a, b) { return totals['=' + b] - totals['=' + a]; });
  return order.map(function (line) { return line + ' ' + totals['=' + line] + '\n'; }).join('');
}

module.exports = { toCollapsed: toCollapsed };
