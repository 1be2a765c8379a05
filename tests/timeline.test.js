// timeline.test.js -- capture/timeline.js: the ring keeps the last N points,
// oldest first, times from the first point.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const {createTimeline} = require('../capture/timeline');

test('points come oldest first, times from the start, and the ring keeps the last N', () => {
  const tl = createTimeline(3, 1000);
  assert.deepEqual(tl.points(), []);
  tl.add(1000, {liveBytes: 10, liveBlocks: 1, totalBytes: 10, mallocCalls: 1});
  tl.add(1100.0004, {liveBytes: 20, liveBlocks: 2, totalBytes: 25, mallocCalls: 2, callocCalls: 1, reallocCalls: 1, memalignCalls: 1});
  assert.deepEqual(tl.points(), [{t: 0, liveBytes: 10, liveBlocks: 1, totalBytes: 10, allocCalls: 1},
    {t: 100, liveBytes: 20, liveBlocks: 2, totalBytes: 25, allocCalls: 5}]);
  tl.add(1200, {liveBytes: 30, liveBlocks: 3, totalBytes: 60});
  tl.add(1300, {liveBytes: 40, liveBlocks: 4, totalBytes: 70});
  tl.add(999, {liveBytes: 50, liveBlocks: 5, totalBytes: 80}); // a clock that went back reads as the start
  assert.deepEqual(tl.points().map((p) => [p.t, p.liveBytes]), [[200, 30], [300, 40], [0, 50]]);
});

test('the allocation rate: bytes and calls per second between points, and per followed group', () => {
  const {allocationRate, ratesOf} = require('../model/allocation_rate');
  assert.deepEqual(ratesOf([0, 500, 500, 1500], [0, 100, 150, 350]), [200, null, 200]);
  const snapshot = {
    timeline: [{t: 0, liveBytes: 0, liveBlocks: 0, totalBytes: 0, allocCalls: 0},
      {t: 1000, liveBytes: 10, liveBlocks: 1, totalBytes: 4096, allocCalls: 8},
      {t: 3000, liveBytes: 10, liveBlocks: 1, totalBytes: 8192, allocCalls: 10}],
    siteTimeline: {series: [{siteId: 4, from: 1, liveBytes: [10, 10], totalBytes: [100, 300], totalAllocs: [1, 5]}]},
  };
  const rate = allocationRate(snapshot);
  assert.deepEqual(rate.t, [1, 3]);
  assert.deepEqual(rate.bytesPerSecond, [4096, 2048]);
  assert.deepEqual(rate.callsPerSecond, [8, 1]);
  assert.deepEqual(rate.groups, [{siteId: 4, bytesPerSecond: [null, 100], allocsPerSecond: [null, 2]}]);
  assert.equal(allocationRate({timeline: [{t: 0, liveBytes: 0, liveBlocks: 0, totalBytes: 0}]}), null);
  assert.equal(allocationRate({timeline: snapshot.timeline.map((p) => ({t: p.t, totalBytes: p.totalBytes}))}), null, 'no calls: a file before layout 15');
});
