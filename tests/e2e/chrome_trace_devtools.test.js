// chrome_trace_devtools.test.js -- the Chrome trace emheap writes
// (formats/chrome_trace.js), loaded into the trace engine of the DevTools
// that ship inside Chromium, through the Performance panel's own loader
// (tests/lib/devtools_trace.js): what the engine keeps of the file, and
// with which args. Skipped without Chromium.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {CHROMIUM_SKIP} = require('../lib/browser');
const {traceEngineRead} = require('../lib/devtools_trace');
const {makeSnapshot} = require('../lib/fixtures');
const {toChromeTrace} = require('../../formats/chrome_trace');

const skip = CHROMIUM_SKIP;

// makeSnapshot()'s program with a timeline and two growths of the memory
// that have a time (layout 13): 16 -> 32 MiB at 12.5 ms for a request of
// leak_memory+0x1a2b (site 3), 32 -> 48 MiB at 30.25 ms for leak_memory+0x1a40
// (site 4).
function grownSnapshot() {
  const s = makeSnapshot();
  s.timeline = [
    {t: 0, liveBytes: 0, liveBlocks: 0},
    {t: 12.5, liveBytes: 4096, liveBlocks: 4},
    {t: 40, liveBytes: 5932, liveBlocks: 10},
  ];
  s.heapGrowth = [
    {fromBytes: 16777216, toBytes: 33554432, siteId: 3, requestBytes: 20000000, t: 12.5,
      top: [{siteId: 3, liveBytes: 4096}, {siteId: 4, liveBytes: 1024}]},
    {fromBytes: 33554432, toBytes: 50331648, siteId: 4, requestBytes: 9000000, t: 30.25,
      top: [{siteId: 4, liveBytes: 9001024}, {siteId: 3, liveBytes: 4096}]},
  ];
  s.summary.heapGrowths = 2;
  return s;
}

test('Chromium\'s DevTools trace engine keeps the growth instants and the counters of emheap\'s Chrome trace', {skip}, async () => {
  const trace = toChromeTrace(grownSnapshot());
  const got = await traceEngineRead(trace);
  const report = JSON.stringify({dropped: got.dropped, errors: got.errors, meta: got.meta}, null, 1);
  assert.deepEqual(got.errors, [], report);
  assert.equal(got.eventsIn, trace.traceEvents.length);

  // the two growths, each with its site, sizes and the sites that held the most
  const grew = got.instants.filter((e) => e.name === 'wasm memory grew');
  assert.deepEqual(grew.map((e) => [e.ts, e.args.fromBytes, e.args.toBytes, e.args.requestBytes, e.args.site]), [
    [12500, 16777216, 33554432, 20000000, 'leak_memory app.c:42 < parse_chunk parser.c:7 < load_level < ...'],
    [30250, 33554432, 50331648, 9000000, 'leak_memory app.c:42 < load_level < main app.c:100'],
  ], report);
  assert.match(grew[0].args.mostLive, /^4\.00 KiB leak_memory app\.c:42 < parse_chunk/);
  assert.match(grew[1].args.mostLive, /^8\.58 MiB leak_memory app\.c:42 < load_level/);
  // and the snapshot's own instant, with its totals
  const snap = got.instants.filter((e) => e.name === 'emheap snapshot');
  assert.deepEqual(snap.map((e) => [e.ts, e.args.liveBytes, e.args.liveBlocks]), [[40000, 5932, 10]], report);

  // the counters: every 'C' event held by a handler
  const counters = {};
  for (const k of got.kept.filter((k) => k.ph === 'C')) {
    const e = trace.traceEvents[k.index];
    (counters[e.name] = counters[e.name] || []).push([e.ts, Object.values(e.args)[0]]);
  }
  assert.deepEqual(counters, {
    'live bytes': [[0, 0], [12500, 4096], [40000, 5932]],
    'live blocks': [[0, 0], [12500, 4], [40000, 10]],
    'wasm memory': [[0, 16777216], [12500, 33554432], [30250, 50331648]],
  }, report);
});
