// lifetimes.test.js -- the age clock's points and bounds in a state laid
// out as the runtime's (capture/age_clock.js), and the lifetime views' sums,
// spreads and labels (model/lifetimes.js, model/site_counters.js).
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const layout = require('../capture/layout');
const ageClock = require('../capture/age_clock');
const {createAgeClock} = ageClock;
const lifetimes = require('../model/lifetimes');
const {addSiteCounters} = require('../model/site_counters');

function fakeState() {
  const view = new DataView(new ArrayBuffer(layout.STATE.age_points + 4 * layout.AGE_POINTS));
  return {view, setSerial: (s) => view.setUint32(layout.STATE.block_serial, s, true),
    bound: (i) => view.getUint32(layout.STATE.age_serial + 4 * i, true)};
}

test('the age clock: the serial of the newest point at least 1, 10, 100 s old; points closer than 100 ms replace the newest', () => {
  const state = fakeState();
  const clock = createAgeClock();
  assert.equal(clock.resolutionMs(0), null, 'no point yet');
  // a point every 100 ms for 200 s; serial = 10 per ms
  for (let t = 0; t <= 200000; t += 100) {
    state.setSerial(t * 10 + 1);
    clock.tick(state.view, 0, t);
  }
  assert.equal(state.bound(0), (200000 - 1000) * 10 + 1);
  assert.equal(state.bound(1), (200000 - 10000) * 10 + 1);
  assert.equal(state.bound(2), (200000 - 100000) * 10 + 1, 'the ring of 1,024 points still reaches 100 s back');
  assert.equal(ageClock.readAgePointCount(state.view, 0), 2001);
  assert.equal(clock.resolutionMs(200000), 200);
  // marks in a burst: points 10 ms apart replace the newest, and keep the bounds
  for (let k = 1; k <= 50; k++) {
    state.setSerial(2000001 + k);
    clock.tick(state.view, 0, 200000 + k);
  }
  assert.equal(ageClock.readAgePointCount(state.view, 0), 2001, 'replaced, not added');
  assert.equal(ageClock.readAgePoint(state.view, 0, 2000), 2000051);
  assert.equal(state.bound(2), (200000 - 100000) * 10 + 1);
  // a long gap (the program did not return to its event loop) widens the resolution
  state.setSerial(9999999);
  clock.tick(state.view, 0, 205050);
  assert.equal(clock.resolutionMs(205050), 2 * 5000);
  assert.equal(clock.resolutionMs(206050), 2 * 5000, 'the gap up to now counts once it is the largest');
  assert.equal(clock.resolutionMs(215050), 2 * 10000);
});

test('the age clock keeps a bound it cannot renew: no point that old left in the ring', () => {
  const state = fakeState();
  const clock = createAgeClock();
  for (let t = 0; t <= 2000; t += 100) {
    state.setSerial(t + 1);
    clock.tick(state.view, 0, t);
  }
  assert.equal(state.bound(0), 1000 + 1);
  assert.equal(state.bound(1), 0, 'nothing 10 s old yet');
});

test('lifetime labels, spreads and rows', () => {
  assert.deepEqual(lifetimes.AGE_BOUNDS.map((b, i) => lifetimes.ageLabel(i)),
    ['0', '1-16', '16-256', '256-4K', '4K-64K', '64K-1M', '1M-16M', '16M+']);
  assert.deepEqual(lifetimes.TIME_BOUNDS_MS.map((b, i) => lifetimes.timeLabel(i)),
    ['under 1 s', '1-10 s', '10-100 s', '100 s or more']);
  assert.equal(lifetimes.spread([0, 0, 0]), null);
  assert.deepEqual(lifetimes.spread([0, 3, 0, 1, 0, 2]), {min: 1, median: 3, max: 5}, 'the 3rd of 6 is the median');
  assert.deepEqual(lifetimes.spread([5, 0, 4]), {min: 0, median: 0, max: 2});
  const r = lifetimes.rowLifetimes({liveBlocks: 7, endedByAge: [2, 0, 1, 0, 0, 0, 0, 0], endedByTime: [3, 0, 0, 0], temporaryAllocs: 2}, true);
  assert.deepEqual([r.ended, r.live, r.temporary, r.min, r.median, r.max], [3, 7, 2, '0', '0', '16-256']);
  assert.equal(r.byTime[0].blocks, 3);
  const none = lifetimes.rowLifetimes({liveBlocks: 4}, false);
  assert.deepEqual([none.ended, none.median, none.byTime], [0, null, undefined]);
});

test('merged sites add their lifetimes into new arrays, leaving the parts as they were', () => {
  const a = {liveBytes: 1, endedByAge: [1, 2, 0, 0, 0, 0, 0, 0], endedByTime: [3, 0, 0, 0], temporaryAllocs: 1};
  const b = {liveBytes: 2, endedByAge: [0, 1, 0, 0, 0, 0, 0, 5], endedByTime: [1, 0, 0, 5], temporaryAllocs: 0, lifetimesAtLeast: true};
  const c = {liveBytes: 3};
  const into = Object.assign({}, a);
  addSiteCounters(into, b);
  addSiteCounters(into, c);
  assert.deepEqual(into.endedByAge, [1, 3, 0, 0, 0, 0, 0, 5]);
  assert.deepEqual(into.endedByTime, [4, 0, 0, 5]);
  assert.equal(into.temporaryAllocs, 1);
  assert.equal(into.lifetimesAtLeast, true);
  assert.deepEqual(a.endedByAge, [1, 2, 0, 0, 0, 0, 0, 0], 'the part is unchanged');
  const fromNone = {liveBytes: 0};
  addSiteCounters(fromNone, a);
  assert.deepEqual(fromNone.endedByAge, a.endedByAge);
  assert.notEqual(fromNone.endedByAge, a.endedByAge);
});

test('a snapshot says whether its lifetimes were counted, and how good its time buckets are', () => {
  assert.equal(lifetimes.lifetimesInfo('sampled', {}, 200).counted, false);
  const info = lifetimes.lifetimesInfo('exact', {thinnedAtBytes: 5000}, 200.4);
  assert.deepEqual([info.counted, info.timeResolutionMs, info.untilBytes], [true, 200, 5000]);
  assert.equal(lifetimes.lifetimesInfo('exact', {}, null).timeResolutionMs, undefined);
  const snap = (info) => ({lifetimes: info});
  assert.equal(lifetimes.timeShown(snap(lifetimes.lifetimesInfo('exact', {}, 200))), true);
  assert.equal(lifetimes.timeShown(snap(lifetimes.lifetimesInfo('exact', {}, 20000))), false);
  assert.match(lifetimes.lifetimesNote(snap(lifetimes.lifetimesInfo('exact', {}, 20000))), /not shown, .* 10000 ms apart/);
  assert.match(lifetimes.lifetimesNote(snap(info)), /after 5000 bytes allocated/);
  assert.match(lifetimes.notCountedText({}), /older than this one/);
});
