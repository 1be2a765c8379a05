// peak.js -- a snapshot as the heap was at its peak: the moment live bytes
// were at their highest (summary.peakLiveBytes).
//
// Why it matters for wasm: the memory of a wasm module never shrinks, so a
// page's footprint is set by its high-water mark, not by what is live when
// the snapshot is taken. The runtime keeps, per site, what it held at that
// moment (runtime/state_layout.h, emheap_site: O(1) per event); this
// makes of those numbers a snapshot every format and command reads as it
// reads any other: each site's liveBytes and liveBlocks are those it held at
// the peak, sites ordered by them, the summary's liveBytes and liveBlocks
// those of that moment, `view: "peak"` saying so.
'use strict';

var siteCounters = require('./site_counters');

// What a heap graph (snapshot.heap, model/heap_section.js) adds to each
// site: numbers of the moment the graph was scanned, not of the peak.
// (and liveByMark: the ages of the blocks live at the end, not then)
var HEAP_SITE_FIELDS = ['heapBlocks', 'shallowBytes', 'retainedBytes', 'reachableBlocks', 'directBlocks',
  'indirectBlocks', 'liveByMark'];

// -> the peak view of `snapshot`, or null when it has no per-site peak
// numbers (files of emheap before layout 4). A view is returned as it is.
// The heap graph is left out: it is of the moment the snapshot was taken,
// and the peak's blocks are gone (a view has no `heap`, nor its per-site
// numbers).
function peakView(snapshot) {
  if (snapshot.view === 'peak') return snapshot;
  var sites = snapshot.sites || [];
  for (var i = 0; i < sites.length; i++) if (sites[i].liveBytesAtPeak === undefined) return null;
  var out = {};
  for (var k in snapshot) if (Object.prototype.hasOwnProperty.call(snapshot, k) && k !== 'heap') out[k] = snapshot[k];
  out.view = 'peak';
  // the moment's own totals: live bytes and blocks were these then
  var summary = {};
  for (var n in snapshot.summary) if (Object.prototype.hasOwnProperty.call(snapshot.summary, n)) summary[n] = snapshot.summary[n];
  summary.liveBytes = summary.peakLiveBytes;
  if (summary.requestedBytesAtPeak !== undefined) {
    summary.requestedLiveBytes = summary.requestedBytesAtPeak;
    summary.allocatorRoundingBytes = summary.allocatorRoundingAtPeak;
  }
  if (summary.liveBlocksAtPeak !== undefined) summary.liveBlocks = summary.liveBlocksAtPeak;
  out.summary = summary;
  out.sites = sites.map(function (s) {
    var v = {};
    for (var f in s) if (Object.prototype.hasOwnProperty.call(s, f) && HEAP_SITE_FIELDS.indexOf(f) < 0) v[f] = s[f];
    v.liveBytes = s.liveBytesAtPeak;
    v.liveBlocks = s.liveBlocksAtPeak;
    if (s.estimatedLiveBytesAtPeak !== undefined) v.estimatedLiveBytes = s.estimatedLiveBytesAtPeak;
    return v;
  });
  out.sites.sort(siteCounters.bySize);
  return out;
}

// Why the wasm memory is as big as it is, in bytes, now and at the peak:
// {heapSize (the memory now; it never shrinks), now: {liveBytes,
// allocatorBytes, freeInAllocator}, peak: {...}}. allocatorBytes is what
// the allocator had taken from the memory (its break less the heap's
// start), emheapBytes what of it emheap's own tables hold (they are
// allocated from the same allocator), freeInAllocator what of the rest no
// live block used (free chunks and per-block overhead). In files before
// layout 20 the tables' size at the peak is not known: the peak's
// emheapBytes is null, and its freeInAllocator includes them. null
// without the numbers (files before layout 4); a peak view (whose live
// numbers are the peak's) has no `now`.
function memoryUse(snapshot) {
  var s = snapshot.summary || {};
  if (!(s.heapBase > 0) || !(s.breakNow >= s.heapBase) || !(s.breakAtPeak >= s.heapBase)) return null;
  function at(top, live, tables) {
    var allocatorBytes = top - s.heapBase;
    return {liveBytes: live, allocatorBytes: allocatorBytes, emheapBytes: tables,
      freeInAllocator: Math.max(0, allocatorBytes - live - (tables || 0))};
  }
  return {heapSize: s.heapSize, now: snapshot.view === 'peak' ? null : at(s.breakNow, s.liveBytes, s.tableBytes || 0),
    peak: at(s.breakAtPeak, s.peakLiveBytes, typeof s.tableBytesAtPeak === 'number' ? s.tableBytesAtPeak : null)};
}

// ' since mark #3 "check: parse"' when the runtime's peak was restarted at
// a mark (a heap check, runtime/heap_check.c), so the peak is the highest
// since then; '' for the highest of the whole run.
function peakSinceText(snapshot) {
  var n = snapshot.summary && snapshot.summary.peakSinceMark;
  if (!n) return '';
  var mark = (snapshot.marks || []).filter(function (m) { return m.number === n; })[0];
  return ' since mark #' + n + (mark ? ' "' + mark.name + '"' : '');
}

module.exports = {peakView: peakView, memoryUse: memoryUse, peakSinceText: peakSinceText};
