// growth.test.js -- model/growth.js: the memory's growths as `emheap top`
// prints them, each with the site whose allocation made it.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {growthLines, growthEventLines, withMergedSites} = require('../model/growth');
const {makeSnapshot, emptySnapshot} = require('./lib/fixtures');

test('each growth names its site; the last few of many, with the count of all', () => {
  const snap = makeSnapshot();
  assert.deepEqual(growthLines(snap), [
    'wasm memory grew 1 time:',
    '  16.00 MiB -> 32.00 MiB at leak_memory app.c:42 < parse_chunk parser.c:7 < load_level < ...',
  ]);
  snap.summary.heapGrowths = 70; // the runtime keeps the last 64
  snap.heapGrowth = Array.from({length: 64}, (_, i) => ({fromBytes: (16 + i) * 2 ** 20, toBytes: (17 + i) * 2 ** 20, siteId: i % 2 ? 5 : 0}));
  snap.heapGrowth[63].siteId = 99;
  assert.deepEqual(growthLines(snap, 3), [
    'wasm memory grew 70 times; the last 3:',
    '  77.00 MiB -> 78.00 MiB at wasm-function[7] < onClick',
    '  78.00 MiB -> 79.00 MiB at (unattributed)',
    '  79.00 MiB -> 80.00 MiB at (site 99, not in this snapshot)',
  ]);
});

test('a growth of layout 13: its time, its request, and the sites that held the most then', () => {
  const snap = makeSnapshot();
  snap.heapGrowth = [{fromBytes: 16 * 2 ** 20, toBytes: 20 * 2 ** 20, siteId: 3, requestBytes: 3145728, t: 1234.5678,
    top: [{siteId: 3, liveBytes: 9 * 2 ** 20}, {siteId: 99, liveBytes: 2 ** 20, atLeast: true}]}];
  assert.deepEqual(growthLines(snap), [
    'wasm memory grew 1 time:',
    '  16.00 MiB -> 20.00 MiB at 1.235 s: a request of 3,145,728 bytes at leak_memory app.c:42 < parse_chunk parser.c:7 < load_level < ...',
    '    the most live then: 9.00 MiB leak_memory app.c:42 < parse_chunk parser.c:7 < load_level < ...; ' +
      'at least 1.00 MiB (site 99, not in this snapshot)',
  ]);
  // estimates (sampled mode) say so; a growth whose request is not known
  const g = {fromBytes: 2 ** 20, toBytes: 2 ** 21, siteId: 0, requestBytes: 0, t: 5, estimated: true,
    top: [{siteId: 0, liveBytes: 512}]};
  assert.deepEqual(growthEventLines(g, 'here', (id) => `site ${id}`), [
    '1.00 MiB -> 2.00 MiB at 0.005 s: an allocation at here',
    '  the most live then (estimated): ~512 B site 0',
  ]);
});

test('sites merged into one: their top bytes add up, and a site whose parts were not all ranked is at least that', () => {
  // runtime sites 3 and 4 are one stack (kept: 3), 5 and 6 too (kept: 5); 6 was not among the top
  const kept = (id) => ({4: 3, 6: 5})[id] || id;
  const parts = (id) => ({3: 2, 5: 2})[id] || 1;
  const g = {fromBytes: 1, toBytes: 2, siteId: 4, requestBytes: 8, t: 1,
    top: [{siteId: 5, liveBytes: 300}, {siteId: 3, liveBytes: 200}, {siteId: 4, liveBytes: 150}]};
  assert.deepEqual(withMergedSites(g, kept, parts), {fromBytes: 1, toBytes: 2, siteId: 3, requestBytes: 8, t: 1,
    top: [{siteId: 3, liveBytes: 350}, {siteId: 5, liveBytes: 300, atLeast: true}]});
  // a site merged again later keeps its "at least"
  const again = withMergedSites(withMergedSites(g, kept, parts), (id) => id, () => 1);
  assert.equal(again.top[1].atLeast, true);
});

test('a memory that never grew: no lines', () => {
  assert.deepEqual(growthLines(emptySnapshot()), []);
});
