// chrome_trace.js: turn an emheap snapshot into a Chrome Trace Event Format
// file (JSON object form, {"traceEvents": [...]}) that chrome://tracing and
// Perfetto (ui.perfetto.dev) open: two counter tracks, live bytes and live
// blocks, over time. The points come from snapshot.timeline when the snapshot
// has one (an array of {t: milliseconds, liveBytes, liveBlocks}); otherwise
// the file holds one point, the snapshot's summary. Each growth of the wasm
// memory with a time (snapshot.heapGrowth, layout 13 on) is an instant
// event naming the allocation's site, and steps a third track, the memory's
// size. Pure CommonJS, embedded in the --js-library too: see
// formats/README.md for the rules this code follows.

var growth = require('../model/growth');

// Instants are phase 'I', as Chromium itself writes them
// (TRACE_EVENT_PHASE_INSTANT): DevTools' trace engine keeps no other
// (models/trace: Types.Events.isInstant), Perfetto and chrome://tracing
// read 'i' and 'I' alike (tests/e2e/chrome_trace_devtools.test.js).

var PID = 1;
var TID = 1;

function isCount(n) {
  return typeof n === 'number' && n >= 0 && Math.floor(n) === n;
}

// Timeline points as {ts (microseconds), liveBytes, liveBlocks}, sorted by time.
function points(snapshot) {
  var timeline = snapshot.timeline;
  // no timeline (or an empty one): one point, the snapshot's own totals
  if (timeline === undefined || timeline === null || (Array.isArray(timeline) && timeline.length === 0)) {
    var s = snapshot.summary || {};
    return [{ ts: 0, liveBytes: s.liveBytes || 0, liveBlocks: s.liveBlocks || 0 }];
  }
  if (!Array.isArray(timeline)) throw new Error('emheap snapshot: timeline is not an array');
  var out = timeline.map(function (p, i) {
    if (!p || typeof p.t !== 'number' || !isFinite(p.t) || p.t < 0 || !isCount(p.liveBytes) || !isCount(p.liveBlocks)) {
      throw new Error('emheap snapshot: timeline[' + i + '] is not {t, liveBytes, liveBlocks}');
    }
    // microseconds, kept to nanosecond precision without float noise
    return { ts: Math.round(p.t * 1e6) / 1e3, liveBytes: p.liveBytes, liveBlocks: p.liveBlocks };
  });
  out.sort(function (a, b) { return a.ts - b.ts; });
  return out;
}

// The growths that have a time: an instant each, with its site and the
// sites that held the most, and the memory's size as a counter (from the
// first growth's size before it, at 0).
function growthEvents(snapshot) {
  var timed = (snapshot.heapGrowth || []).filter(function (g) { return typeof g.t === 'number' && isFinite(g.t) && g.t >= 0; });
  if (!timed.length) return [];
  var textOf = function (id) { return growth.siteText(snapshot, id); };
  var ts = function (g) { return Math.round(g.t * 1e6) / 1e3; };
  var out = [{ name: 'wasm memory', cat: 'emheap', ph: 'C', ts: 0, pid: PID, tid: TID, args: { bytes: timed[0].fromBytes } }];
  timed.forEach(function (g) {
    out.push({ name: 'wasm memory', cat: 'emheap', ph: 'C', ts: ts(g), pid: PID, tid: TID, args: { bytes: g.toBytes } });
    out.push({
      name: 'wasm memory grew', cat: 'emheap', ph: 'I', s: 'p', ts: ts(g), pid: PID, tid: TID,
      args: {
        fromBytes: g.fromBytes, toBytes: g.toBytes, requestBytes: g.requestBytes || 0, site: textOf(g.siteId),
        mostLive: growth.mostLiveText(g, textOf),
      },
    });
  });
  return out;
}

function toChromeTrace(snapshot) {
  var pts = points(snapshot);
  var summary = snapshot.summary || {};
  var events = [
    { name: 'process_name', ph: 'M', pid: PID, tid: TID, ts: 0,
      args: { name: 'emheap ' + (snapshot.source || 'wasm heap') } },
    { name: 'thread_name', ph: 'M', pid: PID, tid: TID, ts: 0, args: { name: 'wasm heap' } },
  ];
  // One counter name per quantity: args of one counter event are drawn
  // stacked on one track, and bytes and blocks have unrelated scales.
  pts.forEach(function (p) {
    events.push({ name: 'live bytes', cat: 'emheap', ph: 'C', ts: p.ts, pid: PID, tid: TID, args: { bytes: p.liveBytes } });
    events.push({ name: 'live blocks', cat: 'emheap', ph: 'C', ts: p.ts, pid: PID, tid: TID, args: { blocks: p.liveBlocks } });
  });
  growthEvents(snapshot).forEach(function (e) { events.push(e); });
  // A process-scoped instant marks the snapshot, with its exact totals.
  events.push({
    name: 'emheap snapshot', cat: 'emheap', ph: 'I', s: 'p', ts: pts[pts.length - 1].ts, pid: PID, tid: TID,
    args: {
      liveBytes: summary.liveBytes || 0, liveBlocks: summary.liveBlocks || 0,
      peakLiveBytes: summary.peakLiveBytes || 0, totalBytes: summary.totalBytes || 0,
      heapSize: summary.heapSize || 0, sites: (snapshot.sites || []).length,
    },
  });
  return {
    traceEvents: events,
    displayTimeUnit: 'ms',
    otherData: {
      exporter: 'emheap',
      capturedAt: String(snapshot.capturedAt || ''),
      source: String(snapshot.source || ''),
      mode: String(snapshot.mode || ''),
      samplingInterval: String(snapshot.samplingInterval || 0),
      timeline: snapshot.timeline && snapshot.timeline.length ? 'snapshot.timeline' : 'one point: the snapshot summary',
    },
  };
}

module.exports = { toChromeTrace: toChromeTrace };
