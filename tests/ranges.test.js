// ranges.test.js -- a range's four classes from what the sites held at the
// marks (model/ranges.js), and sites that turn out to be one adding up
// their records (model/site_counters.js addRangeMarks, addRangeLiveAfter).
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const {between, valuesAt} = require('../model/ranges');
const {addRangeMarks, addRangeLiveAfter, addSiteCounters} = require('../model/site_counters');

const marks = [1, 2, 3].map((n) => ({number: n, name: `m${n}`, t: n * 1000}));
// site 1: 10 blocks of 10 B before m1; 4 freed and 3 made (kept) by m2;
// 2 more made and freed by m3, 1 of the 3 freed; now: 1 more made.
const site1 = {
  id: 1, liveBytes: 100, liveBlocks: 10, totalBytes: 160, totalAllocs: 16,
  rangeMarks: [1, 100, 10, 100, 10, 2, 90, 9, 130, 13, 3, 80, 8, 150, 15],
  rangeLiveAfter: [2, 1, 30, 3, 3, 1, 20, 2],
  liveByMark: [0, 60, 6, 0, 1, 20, 2, 0, 3, 20, 2, 0],
};
const snapshot = () => ({mode: 'exact', marks, markRanges: {marks: [1, 2, 3]}, sites: [JSON.parse(JSON.stringify(site1))]});
const bb = (bytes, blocks) => ({bytes, blocks});

test('the four classes between two marks, and from a mark to now', () => {
  const r = between(snapshot(), 'm1', 'm3');
  const s = r.sites[0];
  assert.deepEqual([s.inFreedIn, s.inLiveAtEnd, s.beforeFreedIn, s.beforeLiveThrough], [bb(30, 3), bb(20, 2), bb(40, 4), bb(60, 6)]);
  assert.equal(r.estimated, false);
  const n = between(snapshot(), 'm2', 'now').sites[0];
  // at m2: 9 live (6 old + 3); now 10 live of which made after m2: 2 (from m3's period... liveByMark after >= 2) + 0
  assert.deepEqual(n.inLiveAtEnd, bb(20, 2));
  assert.deepEqual(n.beforeLiveThrough, bb(80, 8));
  assert.deepEqual(n.beforeFreedIn, bb(10, 1));
  assert.deepEqual(n.inFreedIn, bb(160 - 130 - 20, 16 - 13 - 2));
  assert.deepEqual(valuesAt(site1, 2), [90, 9, 130, 13]);
  assert.deepEqual(valuesAt({rangeMarks: [2, 5, 1, 5, 1]}, 1), [0, 0, 0, 0], 'zeros before the first entry');
});

test('a range that cannot be told says why', () => {
  assert.throws(() => between(snapshot(), 'm3', 'm1'), /is not after/);
  assert.throws(() => between(Object.assign(snapshot(), {mode: 'sampled'}), 'm1', 'm2'), /needs exact mode/);
  const partial = Object.assign(snapshot(), {markRanges: {marks: [2, 3]}});
  assert.throws(() => between(partial, 'm1', 'm2'), /cannot start at mark #1 "m1": .* last 2 marks .*#2, #3/);
  assert.throws(() => between(Object.assign(snapshot(), {markRanges: undefined}), 'm1', 'm2'), /records nothing at its marks/);
  const bad = snapshot();
  bad.sites[0].rangeLiveAfter = [3, 1, 2000, 200];
  assert.throws(() => between(bad, 'm1', 'm3'), /do not agree/);
});

test('times pick the kept marks around them, as a drag over the report\'s chart does, and say so', () => {
  // marks at 1 s, 2 s, 3 s
  const r = between(snapshot(), '1.5s', '2500ms');
  assert.deepEqual([r.start.number, r.end.number], [1, 3], 'the last at or before 1.5 s, the first at or after 2.5 s');
  assert.deepEqual(r.times, {fromMs: 1500, toMs: 2500});
  assert.deepEqual(r.sites[0].inFreedIn, between(snapshot(), 'm1', 'm3').sites[0].inFreedIn, 'the same range as by name');
  const exact = between(snapshot(), '2s', '3s');
  assert.deepEqual([exact.start.number, exact.end.number], [2, 3], 'a mark at the very time is that mark');
  const late = between(snapshot(), '2.5s', '3.5s');
  assert.deepEqual([late.start.number, late.end], [2, null], 'no mark at or after the end: now');
  assert.equal(between(snapshot(), '0.2s', 'm2').start.number, 1, 'before the first mark: the first');
  assert.equal(between(snapshot(), 'm1', 'm2').times, undefined, 'marks named: no times');
  assert.throws(() => between(snapshot(), '3s', '1s'), /1s is not after 3s/);
  // a mark named like a time is that mark
  const named = snapshot();
  named.marks = named.marks.map((m) => (m.number === 2 ? {...m, name: '1s'} : m));
  assert.equal(between(named, '1s', 'now').start.number, 2);
});

test('merged sites: values at each mark add up as step functions, live-after rows by (mark, after)', () => {
  assert.deepEqual(addRangeMarks([1, 10, 1, 10, 1, 3, 20, 2, 20, 2], [2, 5, 1, 5, 1]),
    [1, 10, 1, 10, 1, 2, 15, 2, 15, 2, 3, 25, 3, 25, 3]);
  assert.deepEqual(addRangeLiveAfter([2, 1, 10, 1, 3, 1, 5, 1], [2, 1, 4, 2, 2, 2, 7, 1]), [2, 1, 14, 3, 2, 2, 7, 1, 3, 1, 5, 1]);
  const into = {liveBytes: 0, rangeMarks: [1, 10, 1, 10, 1]};
  addSiteCounters(into, {liveBytes: 0, rangeMarks: [2, 5, 1, 5, 1], rangeLiveAfter: [2, 1, 5, 1]});
  assert.deepEqual(into.rangeMarks, [1, 10, 1, 10, 1, 2, 15, 2, 15, 2]);
  assert.deepEqual(into.rangeLiveAfter, [2, 1, 5, 1]);
});
