// marks.test.js -- model/marks.js (finding marks, what came after them),
// site_counters.addLiveByMark (sites that turn out to be one), and
// capture/mark_log.js (blocks put by the mark they came after, sampled blocks
// weighed as the runtime weighs them; names cut at a character).
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const {findMark, liveSince, windowText} = require('../model/marks');
const {addLiveByMark} = require('../model/site_counters');
const {liveByMarkOfBlocks, nameBytes} = require('../capture/mark_log');

const MARKS = [{number: 3, name: 'warm', t: 1500}, {number: 4, name: 'round', t: 2000}, {number: 5, name: 'round', t: 2500}];

function snapshot() {
  return {marks: MARKS, marksDropped: 2, sites: [
    {id: 1, liveBytes: 600, liveByMark: [0, 100, 1, 0, 3, 200, 2, 0, 4, 300, 3, 0]},
    {id: 2, liveBytes: 50, liveByMark: [0, 50, 1, 0]},
    {id: 3, liveBytes: 900, liveByMark: [5, 900, 9, 450]},
  ]};
}

test('findMark: a name is the latest mark of that name, #N a number; what is missing is said', () => {
  const s = snapshot();
  assert.equal(findMark(s, 'warm').number, 3);
  assert.equal(findMark(s, 'round').number, 5);
  assert.equal(findMark(s, '#4').number, 4);
  assert.throws(() => findMark(s, '#1'), (e) => e.userError && /mark #1 is no longer kept: the runtime keeps the last 3 marks \(#3 on\)/.test(e.message));
  assert.throws(() => findMark(s, 'cold'), /no mark "cold" in this snapshot; its marks: #3 "warm", #4 "round", #5 "round"/);
  assert.throws(() => findMark({sites: []}, 'x'), /it has no marks \(emheap_mark/);
});

test('liveSince: the periods after a mark, or between two, summed by site and ranked', () => {
  const s = snapshot();
  const since = liveSince(s, 'warm');
  assert.deepEqual(since.sites.map((x) => [x.id, x.liveBytes, x.liveBlocks, x.estimatedLiveBytes]), [[3, 900, 9, 450], [1, 500, 5, 0]]);
  assert.equal(since.liveBytes, 1400);
  assert.equal(since.estimatedLiveBytes, 450);
  const between = liveSince(s, 'warm', '#5');
  assert.deepEqual(between.sites.map((x) => [x.id, x.liveBytes]), [[1, 500]]);
  assert.match(windowText(between), /^between mark #3 "warm" \(at 1\.500 s\) and mark #5 "round" \(at 2\.500 s\)$/);
  assert.throws(() => liveSince(s, '#5', 'warm'), /mark #3 "warm" is not after mark #5 "round"/);
  // a snapshot whose sites have no ages (a peak view) is refused, not read as "nothing"
  assert.throws(() => liveSince({marks: MARKS, sites: [{id: 1, liveBytes: 5}]}, 'warm'), /no per-site ages/);
});

test('addLiveByMark merges rows by mark and leaves both inputs as they were', () => {
  const a = [0, 10, 1, 0, 3, 20, 2, 0];
  const b = [3, 5, 1, 5, 7, 1, 1, 0];
  assert.deepEqual(addLiveByMark(a, b), [0, 10, 1, 0, 3, 25, 3, 5, 7, 1, 1, 0]);
  assert.deepEqual(a, [0, 10, 1, 0, 3, 20, 2, 0]);
  assert.deepEqual(addLiveByMark([], b), b);
});

test('liveByMarkOfBlocks: each block after the last mark whose serial is below its own; sampled blocks weighed', () => {
  const marks = [{number: 1, serial: 10}, {number: 2, serial: 20}];
  const blocks = {
    site: new Uint32Array([4, 4, 4, 2, 2]),
    size: new Uint32Array([100, 200, 300, 1000, 50]),
    // serials 5 (before mark 1), 10 (made before mark 1: the mark's own serial), 11, 25; the last sampled
    serial: new Uint32Array([5, 10, 11, 25, (21 | 0x80000000) >>> 0]),
  };
  const out = liveByMarkOfBlocks(blocks, marks, 1000, 1);
  assert.deepEqual(out[4], [0, 300, 2, 0, 1, 300, 1, 0]);
  const inverse = 1 / -Math.expm1(-50 / 1000); // runtime/sampler.c emheap_inverse_chance
  assert.deepEqual(out[2], [2, 1000 + Math.round(50 * inverse), 1 + Math.round(inverse), Math.round(50 * inverse)]);
  assert.equal(out[0], null);
  assert.equal(out[3], null);
  // the ratio estimator's scale applies to the estimated part only
  assert.equal(liveByMarkOfBlocks(blocks, marks, 1000, 0.5)[2][1], 1000 + Math.floor(Math.round(50 * inverse) * 0.5));
});

test('a mark\'s name is cut at 47 bytes, never inside a character', () => {
  assert.equal(nameBytes('warm').length, 4);
  assert.equal(new TextDecoder().decode(nameBytes('é'.repeat(40))), 'é'.repeat(23));
  assert.equal(nameBytes('x'.repeat(100)).length, 47);
});
