// growing.test.js -- model/growing.js: the verdicts on series of known
// shapes, and how a snapshot's series become rows.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const {seriesVerdict, growingSites, whyNoSeries} = require('../model/growing');

const series = (values, stepMs = 100) => values.map((v, i) => ({t: i * stepMs, liveBytes: v}));
const verdictOf = (values) => seriesVerdict(series(values)).verdict;

test('a fixed amount every round grows without bound; a cache that filled levels off', () => {
  const leak = Array.from({length: 20}, (_, i) => 65536 * (i + 1));
  const cache = Array.from({length: 20}, (_, i) => 32768 * Math.min(i + 1, 3));
  assert.equal(verdictOf(leak), 'grows without bound');
  assert.equal(verdictOf(cache), 'levels off');
  const v = seriesVerdict(series(leak));
  assert.equal(v.riseBytes, 19 * 65536);
  assert.equal(v.grewIn, 1);
  assert.equal(v.segments, 10);
  assert.equal(Math.round(v.bytesPerSecond), 655360, 'least squares: 64 KiB per 100 ms');
});

test('the other shapes: steady, shrinks, up and down, too few points, grows unevenly', () => {
  assert.equal(verdictOf(Array(12).fill(1000)), 'steady');
  assert.equal(verdictOf(Array.from({length: 12}, (_, i) => 10000 - i * 500)), 'shrinks');
  assert.equal(verdictOf(Array.from({length: 12}, (_, i) => (i % 2 ? 5000 : 1000))), 'goes up and down');
  assert.equal(verdictOf([1, 2, 3, 4]), 'too few points');
  // one jump in the middle of a long flat run, then growing at the end
  const uneven = [0, 0, 0, 0, 0, 100000, 100000, 100000, 100000, 100000, 100000, 100000, 100000, 120000, 140000];
  assert.equal(verdictOf(uneven), 'grows, unevenly');
  // a rise that came back down is not growth
  assert.equal(verdictOf([0, 1000, 5000, 9000, 9000, 9000, 4000, 1000, 500, 600, 700, 800]), 'goes up and down');
});

test('growingSites: the snapshot\'s series against the timeline\'s times, the steadiest growers first', () => {
  const timeline = Array.from({length: 12}, (_, i) => ({t: i * 100, liveBytes: 0, liveBlocks: 0}));
  const snapshot = {timeline, siteTimeline: {series: [
    {siteId: 7, from: 2, liveBytes: Array.from({length: 10}, () => 500)},
    {siteId: 3, from: 0, liveBytes: Array.from({length: 12}, (_, i) => 1000 * Math.min(i, 2))},
    {siteId: 5, from: 0, liveBytes: Array.from({length: 12}, (_, i) => 4096 * i), estimated: true},
  ]}};
  const rows = growingSites(snapshot);
  assert.deepEqual(rows.map((r) => [r.siteId, r.verdict]), [[5, 'grows without bound'], [3, 'levels off'], [7, 'steady']]);
  assert.equal(rows[0].estimated, true);
  assert.equal(rows[2].points, 10);
  assert.equal(whyNoSeries(snapshot), null);
  assert.match(whyNoSeries({timeline: []}), /no timeline/);
  assert.match(whyNoSeries({timeline, siteTimeline: undefined}), /no per-site series/);
  assert.match(whyNoSeries({view: 'peak', timeline}), /peak view/);
  assert.deepEqual(growingSites({timeline}), []);
});
