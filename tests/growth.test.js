// growth.test.js -- model/growth.js: the memory's growths as `emheap top`
// prints them, each with the site whose allocation made it.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {growthLines} = require('../model/growth');
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

test('a memory that never grew: no lines', () => {
  assert.deepEqual(growthLines(emptySnapshot()), []);
});
