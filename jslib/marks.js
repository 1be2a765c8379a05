// marks.js -- marks made from JS (emheap.mark(name), Ctrl+Shift+M), and
// what a snapshot says of them: each site's live blocks by the mark they
// came after (site.liveByMark, read by model/marks.js).
//
// A mark is the runtime's block serial at that moment (runtime/marks.c):
// a live block with a larger serial was made after it. JS writes the same
// ring as emheap_mark in C, under the same lock, so marks from C, from JS
// and from every thread are one sequence.
'use strict';

var layout = require('./layout');
var clock = require('./clock');

// name (a string, or undefined / '' for "mark N") -> its UTF-8 bytes, cut
// at a character to fit the runtime's record.
function nameBytes(name) {
  var bytes = new TextEncoder().encode(name);
  var max = layout.MARK_NAME - 1;
  if (bytes.length <= max) return bytes;
  var n = max;
  while (n > 0 && (bytes[n] & 0xC0) === 0x80) n--; // not inside a character
  return bytes.subarray(0, n);
}

// host: {buffer(), stateAddress()}; onMark(number): told after each mark
// made here (the timelines take a point). -> mark(name) -> {number, name, t}.
function markMaker(host, onMark) {
  return function (name) {
    if (name !== undefined && name !== null && typeof name !== 'string') {
      throw new Error('emheap.mark(name): name must be a string (or nothing, for "mark N")');
    }
    var state = host.stateAddress();
    if (!state) {
      throw new Error('emheap.mark: the program has not started its runtime yet (no allocation so far); ' +
        'mark once Module.onRuntimeInitialized has run');
    }
    var buffer = host.buffer();
    var view = new DataView(buffer);
    layout.checkState(view, state);
    var t = Math.max(0, clock.now() - layout.readStartMs(view, state));
    var bytes;
    var number = layout.withLock(buffer, state, function () {
      var count = view.getUint32(state + layout.STATE.markCount, true);
      bytes = name ? nameBytes(name) : new TextEncoder().encode('mark ' + (count + 1));
      return layout.writeMark(view, state, bytes, t);
    });
    onMark(number);
    return {number: number, name: new TextDecoder().decode(bytes), t: Math.round(t * 1000) / 1000};
  };
}

// The inverse of the chance that a block of `size` bytes was sampled
// (runtime/sampler.c emheap_inverse_chance): what it stands for.
function inverseChance(size, interval) {
  if (size >= interval || size === 0) return 1;
  return 1 / -Math.expm1(-size / interval);
}

// Each runtime site's live blocks by the kept mark they came after:
// blocks: layout.copyBlocks(..., weightBit) read under the same lock as
// the sites; marks: layout.readMarks's; interval: the sampling interval;
// scale: the ratio estimator's byte scale (model/estimates.js), applied to
// the estimated part as the sites' is. -> Map(runtime site id -> [[after,
// bytes, blocks, estimatedBytes], ...] ascending by `after`, the number of
// the last kept mark before the blocks (0: none)).
function liveByMarkOfBlocks(blocks, marks, interval, scale) {
  var bounds = marks.map(function (m) { return m.serial; });
  var numbers = marks.map(function (m) { return m.number; });
  var bySite = new Map(); // site -> Map(after -> [bytes, blocks, estimate (unscaled)])
  for (var i = 0; i < blocks.site.length; i++) {
    var word = blocks.serial[i];
    var serial = word & 0x7FFFFFFF;
    var lo = 0;
    var hi = bounds.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (bounds[mid] < serial) lo = mid + 1;
      else hi = mid;
    }
    var after = lo ? numbers[lo - 1] : 0;
    var site = blocks.site[i];
    var periods = bySite.get(site);
    if (!periods) bySite.set(site, periods = new Map());
    var row = periods.get(after);
    if (!row) periods.set(after, row = [0, 0, 0]);
    var size = blocks.size[i];
    if (word >= 0x80000000) { // recorded by sampling: stands for more than itself
      var stands = Math.round(size * inverseChance(size, interval));
      row[2] += stands;
      row[1] += inverseChance(size, interval);
    } else {
      row[0] += size;
      row[1] += 1;
    }
  }
  var out = new Map();
  bySite.forEach(function (periods, site) {
    var rows = [];
    periods.forEach(function (row, after) {
      var estimate = Math.floor(row[2] * scale);
      rows.push([after, row[0] + estimate, Math.round(row[1]), estimate]);
    });
    rows.sort(function (a, b) { return a[0] - b[0]; });
    out.set(site, rows);
  });
  return out;
}

module.exports = {markMaker: markMaker, liveByMarkOfBlocks: liveByMarkOfBlocks, nameBytes: nameBytes};
