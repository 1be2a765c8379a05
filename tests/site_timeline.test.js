// site_timeline.test.js -- capture/site_series.js over a runtime state laid
// out as the runtime lays it out: which sites get a series, their values at
// each point, the pass budget, and the series beside the timeline's points.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const layout = require('../capture/layout');
const {createSiteTimeline, insertTop, MAX_SERIES, SCAN_MIN_MS} = require('../capture/site_series');
const {startTimeline, POINTS} = require('../capture/timeline');
const {placeSites} = require('../harness/fake_sites');

const STATE = 1024;
const SITES_AT = STATE + 32768;

// A state with `count` sites; set(site, bytes, estimatedBytes) changes one.
function fakeState(count) {
  const view = new DataView(new ArrayBuffer(SITES_AT + count * layout.SITE_SIZE));
  placeSites(view, STATE, count, SITES_AT);
  view.setUint32(STATE + layout.STATE.counters + layout.COUNTER.site_count, count, true);
  const set = (site, bytes, est = 0) => {
    view.setFloat64(SITES_AT + site * layout.SITE_SIZE + layout.SITE.live_bytes, bytes, true);
    view.setFloat64(SITES_AT + site * layout.SITE_SIZE + layout.SITE.est_bytes, est, true);
  };
  return {view, set};
}

// A series without its allocation totals (tested apart below).
const live = (x) => (Array.isArray(x) ? x.map(live)
  : Object.fromEntries(Object.entries(x).filter(([k]) => k !== 'totalBytes' && k !== 'totalAllocs')));

test('insertTop keeps the n largest, largest first', () => {
  const top = [];
  [[1, 5], [2, 9], [3, 1], [4, 7], [5, 9]].forEach(([s, v]) => insertTop(top, 3, s, v));
  assert.deepEqual(top.map((e) => e.site), [2, 5, 4]);
});

test('a pass picks the largest sites and those that grew the most; points read them; estimates are scaled', () => {
  const {view, set} = fakeState(40);
  for (let s = 1; s < 40; s++) set(s, s * 10);
  let clock = 0;
  const tl = createSiteTimeline(100, () => clock);
  tl.sample(view, STATE, 0, clock, false, 1);
  let read = tl.read(0, 1);
  assert.deepEqual(read.series.map((x) => x.siteId).sort((a, b) => a - b), [32, 33, 34, 35, 36, 37, 38, 39]);
  assert.equal(read.passes, 1);
  // site 2 grows the most; no pass before a second has gone (timer points)
  set(2, 5000);
  clock += 100;
  tl.sample(view, STATE, 1, clock, false, 1);
  assert.ok(!tl.read(0, 2).series.some((x) => x.siteId === 2));
  // at a mark, a pass comes sooner: site 2 is picked, from point 2
  clock += 1;
  set(3, 100, 60); // 60 of its 100 bytes estimated, scaled by 0.5 -> 70
  tl.sample(view, STATE, 2, clock, true, 0.5);
  read = tl.read(0, 3);
  const two = read.series.find((x) => x.siteId === 2);
  assert.deepEqual(live(two), {siteId: 2, from: 2, liveBytes: [5000]});
  assert.deepEqual(read.series.find((x) => x.siteId === 39).liveBytes, [390, 390, 390]);
  // a point after a full second passes again from the timer
  clock += SCAN_MIN_MS;
  tl.sample(view, STATE, 3, clock, false, 0.5);
  assert.equal(tl.read(0, 4).passes, 3);
  const three = tl.read(0, 4).series.find((x) => x.siteId === 3);
  if (three) assert.equal(three.liveBytes.at(-1), 70);
});

test('at most MAX_SERIES series: a larger newcomer takes the place of the smallest one not wanted now', () => {
  const {view, set} = fakeState(200);
  let clock = 0;
  const tl = createSiteTimeline(1000, () => clock);
  // waves of 8 new largest sites until every series is taken
  let site = 1;
  for (let wave = 0; wave < 4; wave++) {
    for (let k = 0; k < 8; k++, site++) set(site, 1000 * site);
    clock += 2000;
    tl.sample(view, STATE, wave, clock, false, 1);
  }
  const read = tl.read(0, 4);
  assert.equal(read.series.length, MAX_SERIES);
  assert.ok(read.series.some((x) => x.siteId >= 25 && x.siteId <= 32), 'the last wave is followed');
  assert.ok(!read.series.some((x) => x.siteId <= 8), 'the smallest first wave gave way');
});

test('the series come beside the timeline\'s points, one value for each', () => {
  const {view, set} = fakeState(4);
  set(1, 100);
  let now = 1000;
  const timers = {now: () => now, setInterval: () => null};
  const sites = createSiteTimeline(POINTS, timers.now);
  const tl = startTimeline((index, at, atMark) => {
    sites.sample(view, STATE, index, at, atMark, 1);
    return {liveBytes: 100, liveBlocks: 1, totalBytes: 100};
  }, timers, 1000, sites);
  for (let k = 0; k < 4; k++) {
    now += 100;
    set(1, 100 + k);
    tl.sample(true);
  }
  const points = tl.points();
  assert.equal(points.length, 5);
  const series = tl.siteSeries().series;
  assert.deepEqual(live(series), [{siteId: 1, from: 0, liveBytes: [100, 100, 101, 102, 103], newAtFrom: true}]);
  assert.equal(series[0].liveBytes.length, points.length);
});

test('a site made since the last point gets a series that starts there, with nothing before; merged parts add up from the first', () => {
  const {regroupSeries} = require('../model/site_timeline');
  const two = (id) => (id === 1 ? 2 : 1);
  const {view, set} = fakeState(8);
  set(1, 500);
  let clock = 0;
  const tl = createSiteTimeline(100, () => clock);
  view.setUint32(STATE + layout.STATE.counters + layout.COUNTER.site_count, 2, true); // sites 0 and 1 so far
  tl.sample(view, STATE, 0, clock, false, 1);
  clock += 100;
  set(1, 600);
  tl.sample(view, STATE, 1, clock, false, 1);
  // site 2 (the same stack, reached from another raw JS stack) is made now
  view.setUint32(STATE + layout.STATE.counters + layout.COUNTER.site_count, 3, true);
  set(2, 50);
  clock += 100;
  tl.sample(view, STATE, 2, clock, false, 1); // no pass: too soon
  const series = tl.read(0, 3).series;
  assert.deepEqual(live(series.find((x) => x.siteId === 2)), {siteId: 2, from: 2, liveBytes: [50], newAtFrom: true});
  const merged = regroupSeries({series}, (id) => (id === 2 ? 1 : id), two).series;
  assert.deepEqual(live(merged), [{siteId: 1, from: 0, liveBytes: [500, 600, 650], newAtFrom: true}]);
  // a part whose past is unknown starts the sum where it starts
  const unknown = regroupSeries({series: [{siteId: 1, from: 0, liveBytes: [1, 2, 3]}, {siteId: 2, from: 1, liveBytes: [10, 10]}]},
    (id) => (id === 2 ? 1 : id), two).series;
  assert.deepEqual(unknown, [{siteId: 1, from: 1, liveBytes: [12, 13]}]);
});

test('call sites of one chain of functions are one series: the unrolled fragments of a grower add up and get followed', () => {
  // sites 1..20: grow_list's unrolled call sites, 600 B each and growing;
  // sites 21..44: 24 other functions of 1000 B each, steady
  const {view, set} = fakeState(45);
  const keyOf = (tables, s) => (s >= 1 && s <= 20 ? 'grow_list' : 'f' + s);
  for (let s = 21; s < 45; s++) set(s, 1000);
  let clock = 0;
  const tl = createSiteTimeline(100, () => clock, keyOf);
  for (let k = 0; k < 5; k++) {
    for (let s = 1; s <= 20; s++) set(s, 600 * (k + 1));
    tl.sample(view, STATE, k, clock, true, 1);
    clock += 100;
  }
  const read = tl.read(0, 5);
  const grow = read.series.find((x) => x.siteIds);
  assert.deepEqual(grow.siteIds, Array.from({length: 20}, (_, i) => i + 1));
  assert.deepEqual(grow.liveBytes, [12000, 24000, 36000, 48000, 60000]);
  assert.equal(grow.newAtFrom, true);
  assert.equal(read.groups, 26); // grow_list, the 24 others, site 0
  assert.equal(read.groupedSites, 45);
  // each fragment alone (600 B) is smaller than every other function: one
  // by one, none of them would have been followed at first
  assert.ok(read.series.length <= MAX_SERIES);
});

test('a site that joins a followed group: made since the point before, it adds from there; grouped late, the series restarts', () => {
  const {view, set} = fakeState(8);
  const counters = (n) => view.setUint32(STATE + layout.STATE.counters + layout.COUNTER.site_count, n, true);
  let ready = 3; // sites below this can be told their group
  const keyOf = (tables, s) => (s < ready ? (s === 0 ? 'none' : 'g') : undefined);
  counters(3);
  set(1, 100);
  set(2, 100);
  let clock = 0;
  const tl = createSiteTimeline(100, () => clock, keyOf);
  tl.sample(view, STATE, 0, clock, false, 1);
  // site 3, made now, in the group: it held nothing at point 0
  counters(4);
  ready = 4;
  set(3, 50);
  clock += 100;
  tl.sample(view, STATE, 1, clock, false, 1);
  let g = tl.read(0, 2).series.find((x) => x.siteIds);
  assert.deepEqual(live(g), {siteIds: [1, 2, 3], from: 0, liveBytes: [200, 250], newAtFrom: true});
  // site 4 is made, but its group cannot be told until a point later:
  // what it held at point 2 is in no series, so the series starts again
  counters(5);
  set(4, 10);
  clock += 100;
  tl.sample(view, STATE, 2, clock, false, 1);
  ready = 5;
  clock += 100;
  tl.sample(view, STATE, 3, clock, false, 1);
  g = tl.read(0, 4).series.find((x) => x.siteIds);
  assert.deepEqual(live(g), {siteIds: [1, 2, 3, 4], from: 3, liveBytes: [260]});
});

test('grouping waits within its budget: sites not grouped yet are in no series until they are', () => {
  const {view, set} = fakeState(5000);
  for (let s = 1; s < 5000; s++) set(s, 10);
  let clock = 0;
  let calls = 0;
  // every key costs 0.01 ms of the clock: 4 ms per point groups ~400
  const keyOf = (tables, s) => {
    calls++;
    clock += 0.01;
    return 'f' + (s % 7);
  };
  const tl = createSiteTimeline(100, () => clock, keyOf);
  tl.sample(view, STATE, 0, clock, false, 1);
  const first = tl.read(0, 1);
  assert.ok(first.groupedSites > 0 && first.groupedSites < 5000, `grouped ${first.groupedSites}`);
  assert.equal(calls, first.groupedSites);
  assert.ok(first.groupMs <= 4 + 64 * 0.01 + 1e-9, `${first.groupMs} ms`);
  for (let k = 1; k < 40; k++) {
    clock += 1000;
    tl.sample(view, STATE, k, clock, false, 1);
  }
  const all = tl.read(0, 40);
  assert.equal(all.groupedSites, 5000);
  assert.equal(all.groups, 7);
});

test('each series keeps its sites\' bytes and blocks allocated so far at the same points; merged parts add them up', () => {
  const {view, set} = fakeState(3);
  const total = (site, bytes, blocks) => {
    view.setFloat64(SITES_AT + site * layout.SITE_SIZE + layout.SITE.total_bytes, bytes, true);
    view.setFloat64(SITES_AT + site * layout.SITE_SIZE + layout.SITE.total_allocs, blocks, true);
  };
  const tl = createSiteTimeline(POINTS, () => 0);
  set(1, 100);
  total(1, 100, 1);
  tl.sample(view, STATE, 0, 0, true, 1);
  set(1, 150);
  total(1, 400, 5);
  tl.sample(view, STATE, 1, 100, true, 1);
  const one = tl.read(0, 2).series.find((x) => x.siteId === 1);
  assert.deepEqual([one.totalBytes, one.totalAllocs], [[100, 400], [1, 5]]);
  const {regroupSeries} = require('../model/site_timeline');
  const merged = regroupSeries({series: [
    {siteId: 1, from: 0, liveBytes: [1, 2], totalBytes: [10, 20], totalAllocs: [1, 2]},
    {siteId: 2, from: 1, liveBytes: [5], totalBytes: [7], totalAllocs: [3], newAtFrom: true}]}, () => 1, () => 2).series;
  assert.deepEqual(merged, [{siteId: 1, from: 0, liveBytes: [1, 7], totalBytes: [10, 27], totalAllocs: [1, 5]}]);
  const withoutTotals = regroupSeries({series: [{siteId: 1, from: 0, liveBytes: [1]}, {siteId: 2, from: 0, liveBytes: [2], totalBytes: [3], totalAllocs: [1]}]},
    () => 1, () => 2).series;
  assert.deepEqual(withoutTotals, [{siteId: 1, from: 0, liveBytes: [3]}], 'a part without totals (an older file): none for the sum');
});
