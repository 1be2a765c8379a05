// chrome_trace_devtools.test.js -- the Chrome trace emheap writes
// (formats/chrome_trace.js), loaded into the trace engine of the DevTools
// that ship inside Chromium, through the Performance panel's own loader
// (tests/lib/devtools_trace.js says what it reads and from where): which of
// the file's events the engine keeps, and with which args. Skipped without
// Chromium.
//
// What the engine can and cannot check: it keeps instants (ph 'I', its
// Types.Events.Phase.INSTANT; RendererHandler puts them on their thread's
// track in a trace not from Chrome) and process/thread names; it has no
// handler for counter events (ph 'C'): the only counters it stores are
// Chrome's own 'UpdateCounters' (MemoryHandler). So it reads every event of
// ours but the counters, and the counters' values are not checked here; the
// test asserts that the counters are the only events it drops.
'use strict';

const {describe, it, before} = require('node:test');
const assert = require('node:assert/strict');
const {CHROMIUM_SKIP} = require('../lib/browser');
const {traceEngineRead} = require('../lib/devtools_trace');
const {makeSnapshot} = require('../lib/fixtures');
const {toChromeTrace} = require('../../formats/chrome_trace');

const skip = CHROMIUM_SKIP;

// makeSnapshot()'s program with a timeline and two growths of the memory
// that have a time (layout 13): 16 -> 32 MiB at 12.5 ms for a request at
// leak_memory+0x1a2b (site 3), 32 -> 48 MiB at 30.25 ms for one at
// leak_memory+0x1a40 (site 4).
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

describe('Chromium\'s DevTools trace engine reads emheap\'s Chrome trace', {skip}, () => {
  const trace = toChromeTrace(grownSnapshot());
  let got = null;
  // what it dropped and why, for the failures' messages
  const report = () => JSON.stringify({dropped: got.dropped, meta: got.meta, errors: got.errors});
  before(async () => {
    got = await traceEngineRead(trace);
  });

  it('takes the file without an error, and drops only the counters (it has no handler for ph "C")', () => {
    assert.deepEqual(got.errors, [], report());
    assert.equal(got.eventsIn, trace.traceEvents.length);
    assert.equal(got.meta.traceIsGeneric, true);
    assert.deepEqual(got.meta.processNames, [[1, 'emheap http://localhost:8000/']]);
    assert.deepEqual(got.meta.threads, [[1, [[1, 'wasm heap']]]]);
    const counters = trace.traceEvents.map((e, i) => [i, e.name, e.ph]).filter(([, , ph]) => ph === 'C');
    assert.deepEqual(got.dropped.map((d) => [d.index, d.name, d.ph]), counters, report());
    assert.equal(got.events, trace.traceEvents.length - counters.length);
    assert.deepEqual(got.counters, {});
  });

  it('keeps the two growth instants with their sizes, site and the sites that held the most', () => {
    const grew = got.instants.filter((e) => e.name === 'wasm memory grew');
    assert.deepEqual(grew.map((e) => [e.ts, e.pid, e.tid, e.args.fromBytes, e.args.toBytes, e.args.requestBytes, e.args.site]), [
      [12500, 1, 1, 16777216, 33554432, 20000000, 'leak_memory app.c:42 < parse_chunk parser.c:7 < load_level < ...'],
      [30250, 1, 1, 33554432, 50331648, 9000000, 'leak_memory app.c:42 < load_level < main app.c:100'],
    ], report());
    assert.match(grew[0].args.mostLive, /^4\.00 KiB leak_memory app\.c:42 < parse_chunk parser\.c:7 < load_level < \.\.\.; 1\.00 KiB leak_memory/);
    assert.match(grew[1].args.mostLive, /^8\.58 MiB leak_memory app\.c:42 < load_level < main app\.c:100; 4\.00 KiB /);
    // on the thread's track, as the Performance panel draws it
    for (const e of grew) assert.ok(e.where.some((w) => /^data\.Renderer\.processes\.1\.threads\.1\.entries/.test(w)), e.where.join(', '));
  });

  it('keeps the snapshot\'s instant with its totals', () => {
    const snap = got.instants.filter((e) => e.name === 'emheap snapshot');
    assert.deepEqual(snap.map((e) => [e.ts, e.args]), [[40000, {
      liveBytes: 5932, liveBlocks: 10, peakLiveBytes: 8000, totalBytes: 9000, heapSize: 16777216, sites: 5,
    }]], report());
  });
});
