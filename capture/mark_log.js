// mark_log.js -- marks made from JS (emheap.mark(name), Ctrl+Shift+M), and
// what a snapshot says of them: each site's live blocks by the mark they
// came after (site.liveByMark, read by model/marks.js).
//
// A mark is the runtime's block serial at that moment (runtime/marks.c):
// a live block with a larger serial was made after it. JS writes the same
// ring as emheap_mark in C, under the same lock, so marks from C, from JS
// and from every thread are one sequence.
'use strict';

var layout = require('./layout');
var blockCopy = require('./block_copy');
var lock = require('./lock');
var cText = require('./c_text');
var L = require('./layout_generated');
var clock = require('./clock');
var runSteps = require('../model/steps').runSteps;
var STEP_SITES = require('../model/steps').STEP_ITEMS;

var STATE = L.emheap_state;
var MARK = L.emheap_mark_record;
var MARK_LOG = L.constants.EMHEAP_MARK_LOG;
var MARK_NAME = L.constants.EMHEAP_MARK_NAME; // bytes, the NUL included

// The kept marks (runtime/marks.c), oldest first: {marks: [{number (from
// 1), name, t (ms on the timeline's clock), serial (the last block serial
// before it)}], dropped: how many older ones the ring no longer holds}.
// Under the lock.
function readMarks(view, statePtr) {
  var count = view.getUint32(statePtr + STATE.mark_count, true);
  var first = count > MARK_LOG ? count - MARK_LOG + 1 : 1;
  var marks = [];
  for (var n = first; n <= count; n++) {
    var at = statePtr + STATE.marks + ((n - 1) % MARK_LOG) * MARK.sizeof;
    var bytes = new Uint8Array(MARK_NAME);
    bytes.set(new Uint8Array(view.buffer, at + MARK.name, MARK_NAME));
    var end = bytes.indexOf(0);
    marks.push({number: n, name: cText.utf8Text(bytes.subarray(0, end < 0 ? MARK_NAME : end)),
      t: Math.max(0, view.getFloat64(at + MARK.t, true)), serial: view.getUint32(at + MARK.serial, true)});
  }
  return {marks: marks, dropped: first - 1};
}

// Makes the next mark, as emheap_mark does: nameBytes (UTF-8, at most
// MARK_NAME - 1 bytes), t (ms since the runtime's start). Under the lock.
// -> its number.
function writeMark(view, statePtr, nameBytes, t) {
  var number = view.getUint32(statePtr + STATE.mark_count, true) + 1;
  var at = statePtr + STATE.marks + ((number - 1) % MARK_LOG) * MARK.sizeof;
  view.setUint32(at + MARK.serial, view.getUint32(statePtr + STATE.block_serial, true), true);
  view.setUint32(at + MARK.reserved, 0, true);
  view.setFloat64(at + MARK.t, t, true);
  for (var i = 0; i < MARK_NAME; i++) view.setUint8(at + MARK.name + i, i < nameBytes.length ? nameBytes[i] : 0);
  view.setUint32(statePtr + STATE.mark_count, number, true);
  return number;
}

// name (a string, or undefined / '' for "mark N") -> its UTF-8 bytes, cut
// at a character to fit the runtime's record.
function nameBytes(name) {
  return cText.utf8Prefix(name, MARK_NAME - 1);
}

// host: {buffer(), stateAddress()}; onMark(number): told after each mark
// made here (the timelines take a point); onMarkLocked(number): told
// before the lock that made it is let go. -> mark(name) -> {number, name, t}.
function markMaker(host, onMark, onMarkLocked) {
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
    var t;
    var bytes;
    var number = lock.withLock(buffer, state, function () {
      t = Math.max(0, clock.now() - layout.readStartMs(view, state));
      var count = view.getUint32(state + layout.STATE.mark_count, true);
      bytes = name ? nameBytes(name) : new TextEncoder().encode('mark ' + (count + 1));
      var made = writeMark(view, state, bytes, t);
      if (onMarkLocked) onMarkLocked(made);
      return made;
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
// blocks: blockCopy.copyBlocks(..., weightBit) read under the same lock as
// the sites; marks: readMarks's; interval: the sampling interval;
// scale: the ratio estimator's byte scale (model/estimates.js), applied to
// the estimated part as the sites' is. -> an array: runtime site id ->
// [after, bytes, blocks, estimatedBytes, after, ...] (flat: one array per
// site, not one per row, for a million blocks make a million rows) ascending
// by `after`, the number of the last kept mark before the blocks (0: none);
// null for a site without live blocks.
//
// The blocks are put in site order first (a counting sort that reads them
// in table order and writes each to its site's place), so that one small
// array per period serves every site in turn. Each loop is a function of
// its own: V8 optimizes a long loop while it runs (on-stack replacement),
// and one function of several loops fell back to the interpreter at each
// loop it had not yet seen (bench/timeline_cost.js: 20x slower).
function liveByMarkOfBlocks(blocks, marks, interval, scale) {
  return runSteps(liveByMarkSteps(blocks, marks, interval, scale));
}

// The same as steps (model/steps.js), a slice of the sites at a time: a
// page's snapshot runs between them.
function* liveByMarkSteps(blocks, marks, interval, scale) {
  var bounds = new Uint32Array(marks.map(function (m) { return m.serial; }));
  var start = siteStarts(blocks.site);
  var sorted = inSiteOrder(blocks, bounds, start);
  yield;
  return yield* rowsBySite(sorted, start, marks, interval, scale);
}

var WEIGHTED = 0x8000; // in a block's period word: recorded by sampling

// Where each site's blocks start in site order (one more entry: the end).
function siteStarts(site) {
  var sites = 0;
  for (var i = 0; i < site.length; i++) if (site[i] >= sites) sites = site[i] + 1;
  var start = new Uint32Array(sites + 1);
  for (i = 0; i < site.length; i++) start[site[i] + 1]++;
  for (var s = 0; s < sites; s++) start[s + 1] += start[s];
  return start;
}

// The blocks' periods (how many kept marks came before each: bounds are
// the marks' serials) and sizes, in site order.
function inSiteOrder(blocks, bounds, start) {
  var n = blocks.site.length;
  var next = start.slice(0, start.length - 1);
  var period = new Uint16Array(n);
  var size = new Uint32Array(n);
  for (var i = 0; i < n; i++) {
    var word = blocks.serial[i];
    var serial = word & 0x7FFFFFFF;
    var lo = 0;
    var hi = bounds.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (bounds[mid] < serial) lo = mid + 1;
      else hi = mid;
    }
    var at = next[blocks.site[i]]++;
    period[at] = word >= 0x80000000 ? lo | WEIGHTED : lo;
    size[at] = blocks.size[i];
  }
  return {period: period, size: size};
}

function* rowsBySite(sorted, start, marks, interval, scale) {
  var periods = marks.length + 1;
  var sums = {exact: new Float64Array(periods), counted: new Float64Array(periods),
    estimate: new Float64Array(periods), seen: new Uint8Array(periods)};
  var out = []; // dense, filled in order (a Map of a million sites took a second and a half)
  for (var s = 0; s + 1 < start.length; s++) {
    if (s % STEP_SITES === STEP_SITES - 1) yield;
    out.push(start[s] !== start[s + 1] ? siteRows(sorted, start[s], start[s + 1], sums, marks, interval, scale) : null);
  }
  return out;
}

// One site's rows from its blocks [from, to) in site order; sums: arrays
// by period, left zeroed.
function siteRows(sorted, from, to, sums, marks, interval, scale) {
  for (var k = from; k < to; k++) {
    var p = sorted.period[k];
    var size = sorted.size[k];
    if (p & WEIGHTED) { // stands for more than itself
      p ^= WEIGHTED;
      var inverse = inverseChance(size, interval);
      sums.estimate[p] += Math.round(size * inverse);
      sums.counted[p] += inverse;
    } else {
      sums.exact[p] += size;
      sums.counted[p] += 1;
    }
    sums.seen[p] = 1;
  }
  var rows = [];
  for (p = 0; p < sums.seen.length; p++) {
    if (!sums.seen[p]) continue;
    var estimated = Math.floor(sums.estimate[p] * scale);
    rows.push(p ? marks[p - 1].number : 0, sums.exact[p] + estimated, Math.round(sums.counted[p]), estimated);
    sums.seen[p] = 0;
    sums.exact[p] = sums.counted[p] = sums.estimate[p] = 0;
  }
  return rows;
}

module.exports = {markMaker: markMaker, liveByMarkOfBlocks: liveByMarkOfBlocks, liveByMarkSteps: liveByMarkSteps, nameBytes: nameBytes,
  readMarks: readMarks, writeMark: writeMark};
