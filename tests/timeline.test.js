// timeline.test.js -- jslib/timeline.js: the ring keeps the last N points,
// oldest first, times from the first point.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const {createTimeline} = require('../jslib/timeline');

test('points come oldest first, times from the start, and the ring keeps the last N', () => {
  const tl = createTimeline(3, 1000);
  assert.deepEqual(tl.points(), []);
  tl.add(1000, {liveBytes: 10, liveBlocks: 1, totalBytes: 10});
  tl.add(1100.0004, {liveBytes: 20, liveBlocks: 2, totalBytes: 25});
  assert.deepEqual(tl.points(), [{t: 0, liveBytes: 10, liveBlocks: 1, totalBytes: 10},
    {t: 100, liveBytes: 20, liveBlocks: 2, totalBytes: 25}]);
  tl.add(1200, {liveBytes: 30, liveBlocks: 3, totalBytes: 60});
  tl.add(1300, {liveBytes: 40, liveBlocks: 4, totalBytes: 70});
  tl.add(999, {liveBytes: 50, liveBlocks: 5, totalBytes: 80}); // a clock that went back reads as the start
  assert.deepEqual(tl.points().map((p) => [p.t, p.liveBytes]), [[200, 30], [300, 40], [0, 50]]);
});
