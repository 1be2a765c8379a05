#!/usr/bin/env node
// timeline_cost.js -- what the per-site timelines and the marks cost, on
// the code the page runs (capture/site_series.js, capture/mark_log.js) over a
// runtime state laid out as the runtime lays it out (capture/layout.js): 1,000,
// 100,000 and 1,000,000 sites with live bytes in random order.
//
//   group     each site put in its group (the call sites of one chain of
//             functions) once, a slice per point within 2% of the time:
//             per 1,000 sites, and the points it took;
//   point     one point of the series: a read of every site of each
//             followed group (at most MAX_SERIES groups), what each timer
//             tick and each mark adds;
//   pass      one pass over every site that picks the followed groups, at
//             most once a second from the timer and within 1% of the time;
//   by mark   at a snapshot of a program with marks, the live blocks put
//             by the mark they came after (per million blocks);
//   mark      a mark in exact mode (capture/mark_ranges.js) after a million
//             blocks were made since the one before: a pass over the
//             sites, and the blocks summed by site.
//
// Medians of 15. Prints one JSON line per size. Run by `make bench` after
// the workloads (bench/bench.mk); bench/README.md has the results.
'use strict';

const layout = require('../capture/layout');
const markLog = require('../capture/mark_log');
const {createSiteTimeline, MAX_SERIES, SCAN_SHARE} = require('../capture/site_series');
const {liveByMarkOfBlocks} = require('../capture/mark_log');
const {POINTS} = require('../capture/timeline');
const {placeSites, placeBlocks} = require('../harness/fake_sites');
const {createMarkRanges} = require('../capture/mark_ranges');

const SIZES = [1000, 100000, 1000000];
const RUNS = 15;
const STATE = 1024; // where the state starts in the fake memory

function median(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}

const MARK_BLOCKS = 1000000;
const BLOCKS_ROOM = 16 << 20; // their block table

// A memory holding a state whose site table has `count` sites (and room
// for a block table past them).
function memoryWithSites(count) {
  const sitesAt = STATE + 32768;
  const buffer = new ArrayBuffer(sitesAt + count * layout.SITE_SIZE + BLOCKS_ROOM);
  const view = new DataView(buffer);
  placeSites(view, STATE, count, sitesAt);
  view.setUint32(STATE + layout.STATE.counters + layout.COUNTER.site_count, count, true); // site_count
  let seed = 12345;
  for (let s = 0; s < count; s++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    view.setFloat64(sitesAt + s * layout.SITE_SIZE + layout.SITE.live_bytes, seed >>> 8, true);
  }
  return view;
}

function timeOf(fn) {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

function main() {
  for (const count of SIZES) {
    const view = memoryWithSites(count);
    // the timeline's clock: the real one, moved on by each sample's gap
    let clock = 0;
    const now = () => clock + performance.now();
    // Sites in groups of ten (the call sites of one chain of functions),
    // keyed by a string as the page's keys are (stack_table.functionChain).
    const keyOf = (tables, site) => 'w7\u0001w' + (site % Math.max(1, count / 10)) + '\u0001w3';
    const timeline = createSiteTimeline(POINTS, now, keyOf);
    // Grouping: every site once, a slice per point, within its budget.
    let index = 0;
    let groupPoints = 0;
    for (let before = -1; timeline.read(0, index).groupedSites < count;) {
      const grouped = timeline.read(0, index).groupedSites;
      if (grouped === before) throw new Error(`timeline_cost: a point grouped no site (${grouped} of ${count})`);
      before = grouped;
      clock += 1e9;
      timeline.sample(view, STATE, index++, now(), false, 1);
      groupPoints++;
    }
    const grouped = timeline.read(0, index);
    // Passes: every sample is a mark far enough apart that the budget allows one.
    const pass = [];
    for (let r = 0; r < RUNS; r++) {
      clock += 1e9;
      pass.push(timeOf(() => timeline.sample(view, STATE, index++, now(), true, 1)));
    }
    // Points: the timer's ticks right after a pass (no pass due).
    const point = [];
    for (let r = 0; r < RUNS; r++) {
      clock += 1;
      point.push(timeOf(() => timeline.sample(view, STATE, index++, now(), false, 1)));
    }
    const tracked = timeline.read(0, index).series.length;
    // By mark: a million blocks over 64 marks.
    const n = 1000000;
    const blocks = {site: new Uint32Array(n), size: new Uint32Array(n), serial: new Uint32Array(n)};
    for (let i = 0; i < n; i++) {
      blocks.site[i] = i % count;
      blocks.size[i] = 16 + (i & 255);
      blocks.serial[i] = i + 1;
    }
    const marks = Array.from({length: 64}, (_, k) => ({number: k + 1, serial: Math.floor((k + 1) * n / 65)}));
    const byMark = [];
    for (let r = 0; r < 5; r++) byMark.push(timeOf(() => liveByMarkOfBlocks(blocks, marks, 0, 1)));
    // A mark after a million blocks: mark 1 with none, then the blocks
    // (16 bytes apart, at sites in turn), then mark 2.
    const tableAt = view.byteLength - BLOCKS_ROOM;
    const made = [];
    for (let i = 0; i < MARK_BLOCKS; i++) made.push({addr: 16 * (i + 1), site: i % count, size: 16, serial: i + 1});
    const markMs = [];
    for (let r = 0; r < 5; r++) {
      const ranges = createMarkRanges();
      placeBlocks(view, STATE, [], tableAt);
      view.setUint32(STATE + layout.STATE.block_serial, 0, true);
      ranges.atMark(view, STATE, markLog.writeMark(view, STATE, new Uint8Array(0), 0));
      placeBlocks(view, STATE, made, tableAt);
      view.setUint32(STATE + layout.STATE.block_serial, MARK_BLOCKS, true);
      const number = markLog.writeMark(view, STATE, new Uint8Array(0), 1);
      markMs.push(timeOf(() => ranges.atMark(view, STATE, number)));
    }
    const passMs = median(pass);
    console.log(JSON.stringify({
      sites: count, tracked, maxTracked: MAX_SERIES,
      pointMs: Number(median(point).toFixed(4)), passMs: Number(passMs.toFixed(3)),
      // the timer's passes come at most once a second, and never above the share
      passesShareAtMost: Number(Math.max(Math.min(passMs / 1000, SCAN_SHARE), 0).toFixed(5)),
      byMarkMsPerMillionBlocks: Number(median(byMark).toFixed(1)),
      markAfterMillionBlocksMs: Number(median(markMs).toFixed(1)),
      groups: grouped.groups, groupMsPer1000Sites: Number((grouped.groupMs / count * 1000).toFixed(3)), groupPoints,
    }));
  }
}

main();
