// data.js: what the report's charts draw, from a snapshot: the live bytes
// over time with the marks, the growths and the window in which the peak
// came (chart 1), the followed sites' series stacked with "everything
// else" on top (chart 2), and the allocation rate (chart 3); as one JSON value the page's script reads
// (formats/report/page.js). Pure; the rules of formats/README.md.
'use strict';

var numbers = require('../../model/numbers');
var growth = require('../../model/growth');
var growing = require('../../model/growing');
var allocationRate = require('../../model/allocation_rate').allocationRate;

var formatBytes = numbers.formatBytes;
var formatBytesExact = numbers.formatBytesExact;

var OTHER_COLOR = '#cfcfcf';
// Tableau 20's colours, dark ones first: up to 24 series are tracked
// (capture/site_series.js MAX_SERIES); past 20 the colours repeat.
var PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f',
  '#79706e', '#a0cbe8', '#ffbe7d', '#ff9d9a', '#86bcb6', '#8cd17d', '#f1ce63', '#d4a6c8', '#fabfd2', '#d7b5a6',
  '#bab0ac'];

// 1234.5 ms -> "1.235 s", as model/growth.js says times.
function seconds(ms) {
  return (ms / 1000).toFixed(3) + ' s';
}

// When the peak came, from the timeline's totalBytes (bytes ever allocated
// at each point) and summary.totalBytesAtPeak (that count when live bytes
// were at their peak): after the last point that had allocated fewer bytes,
// and no later than the first that had allocated as many (allocations only
// add to the count, so the peak's allocation lies between the two).
// -> {fromMs, toMs} (either null: before the first point, after the last),
// or null when the snapshot cannot say.
function peakWindow(snapshot) {
  var atPeak = (snapshot.summary || {}).totalBytesAtPeak;
  var points = (snapshot.timeline || []).filter(function (p) { return typeof p.totalBytes === 'number'; });
  if (!(atPeak > 0) || !points.length) return null;
  var before = -1;
  while (before + 1 < points.length && points[before + 1].totalBytes < atPeak) before++;
  return {fromMs: before >= 0 ? points[before].t : null, toMs: before + 1 < points.length ? points[before + 1].t : null};
}

// "the peak came between 2.500 s and 2.600 s", in words, or ''.
function peakWindowText(w) {
  if (!w) return '';
  if (w.fromMs === null) return 'the peak came before ' + seconds(w.toMs) + ' (the first point)';
  if (w.toMs === null) return 'the peak came after ' + seconds(w.fromMs) + ' (the last point)';
  // (two points less than a ms apart, marks of a program's quick rounds,
  // read in microseconds)
  if (w.toMs - w.fromMs < 1) return 'the peak came between ' + micro(w.fromMs) + ' and ' + micro(w.toMs);
  return 'the peak came between ' + seconds(w.fromMs) + ' and ' + seconds(w.toMs);
}

function micro(ms) {
  return (ms / 1000).toFixed(6) + ' s';
}

// The first chart's data: the timeline in seconds, marks, growths, peak;
// null without a timeline.
function liveChartData(snapshot) {
  var timeline = snapshot.timeline || [];
  if (!timeline.length) return null;
  var s = snapshot.summary || {};
  var textOf = function (id) { return growth.siteText(snapshot, id); };
  var marks = (snapshot.marks || []).filter(function (m) { return typeof m.t === 'number'; }).map(function (m) {
    return {t: m.t / 1000, label: '#' + m.number + ' ' + m.name, title: 'mark #' + m.number + ' "' + m.name + '" at ' + seconds(m.t)};
  });
  var growths = (snapshot.heapGrowth || []).filter(function (g) { return typeof g.t === 'number'; }).map(function (g) {
    return {t: g.t / 1000, label: formatBytes(g.toBytes), title: 'wasm memory ' + growth.growthEventLines(g, textOf(g.siteId), textOf).join('\n')};
  });
  var w = peakWindow(snapshot);
  var t = timeline.map(function (p) { return p.t / 1000; });
  var all = t.concat(marks.map(function (m) { return m.t; }), growths.map(function (g) { return g.t; }));
  return {
    t: t,
    bytes: timeline.map(function (p) { return p.liveBytes; }),
    blocks: timeline.map(function (p) { return p.liveBlocks; }),
    xMin: all.reduce(function (a, x) { return Math.min(a, x); }, Infinity),
    xMax: all.reduce(function (a, x) { return Math.max(a, x); }, -Infinity),
    peak: s.peakLiveBytes > 0 ? {
      bytes: s.peakLiveBytes, label: 'peak ' + formatBytesExact(s.peakLiveBytes),
      from: w ? (w.fromMs === null ? t[0] : w.fromMs / 1000) : null,
      to: w ? (w.toMs === null ? t[t.length - 1] : w.toMs / 1000) : null,
    } : null,
    marks: marks,
    growths: growths,
  };
}

// The second chart's data: one series per tracked site (null where it was
// not tracked), bottom of the stack first, "everything else" on top (the
// timeline's total less the series), and the cumulative sums drawn;
// null without per-site series.
function sitesChartData(snapshot) {
  var timeline = snapshot.timeline || [];
  var st = snapshot.siteTimeline;
  if (!timeline.length || !st || !Array.isArray(st.series) || !st.series.length) return null;
  var n = timeline.length;
  var series = st.series.filter(function (s) { return s.siteId !== undefined; }).map(function (s) {
    var values = [];
    for (var k = 0; k < n; k++) {
      var v = k >= s.from && k - s.from < s.liveBytes.length ? s.liveBytes[k - s.from] : null;
      values.push(typeof v === 'number' ? v : null);
    }
    var label = growth.siteText(snapshot, s.siteId);
    return {siteId: s.siteId, label: s.estimated ? '~' + label : label, estimated: !!s.estimated, values: values,
      last: values[n - 1] || 0, max: values.reduce(function (a, v) { return Math.max(a, v || 0); }, 0)};
  });
  if (!series.length) return null;
  // the largest now at the bottom, where its band is flat and easy to read
  series.sort(function (a, b) { return b.last - a.last || b.max - a.max || a.siteId - b.siteId; });
  series.forEach(function (s, i) {
    s.color = PALETTE[i % PALETTE.length];
    s.stroke = s.color;
    delete s.last;
    delete s.max;
  });
  var other = [];
  var stacked = series.map(function () { return []; });
  var otherTop = [];
  for (var k = 0; k < n; k++) {
    var sum = 0;
    for (var i = 0; i < series.length; i++) {
      var v = series[i].values[k];
      if (v === null) {
        stacked[i].push(null);
      } else {
        sum += v;
        stacked[i].push(sum);
      }
    }
    other.push(timeline[k].liveBytes - sum);
    // (estimates may add up past the total: then nothing is left to draw)
    otherTop.push(Math.max(sum, timeline[k].liveBytes));
  }
  return {
    t: timeline.map(function (p) { return p.t / 1000; }),
    series: series,
    other: {label: 'everything else (other sites, and the allocator\'s rounding)', color: OTHER_COLOR, stroke: '#a8a8a8', values: other,
      estimated: series.some(function (s) { return s.estimated; })},
    stacked: stacked.concat([otherTop]),
  };
}

// Why the chart over time is missing, in words.
function whyNoTimeline(snapshot) {
  if (snapshot.view === 'peak') return 'This is a peak view (emheap ... --at peak): it has no timeline.';
  return 'This snapshot has no timeline, so there is nothing to draw over time: the page or program ran with ' +
    'emheapOptions.timeline = false, or an older emheap made the file.';
}

function whyNoSiteSeries(snapshot) {
  var why = growing.whyNoSeries(snapshot);
  return 'No chart of the sites over time: ' + (why || 'this snapshot has no per-site series') +
    '. Files of emheap before layout 14 have none.';
}

// The third chart's data: the allocation rate over the run (bytes and
// calls per second, model/allocation_rate.js), and the bytes per second of
// each site the second chart draws, in its colour; null without the
// numbers.
function rateChartData(snapshot, sites) {
  var rate = allocationRate(snapshot);
  if (!rate) return null;
  var colorOf = {};
  (sites ? sites.series : []).forEach(function (s) { colorOf[s.siteId] = s; });
  return {
    t: rate.t,
    bytes: rate.bytesPerSecond,
    calls: rate.callsPerSecond,
    series: rate.groups.filter(function (g) { return colorOf[g.siteId]; }).map(function (g) {
      var one = colorOf[g.siteId];
      return {siteId: g.siteId, label: one.label, color: one.color, values: g.bytesPerSecond, estimated: !!g.estimated};
    }),
  };
}

// Why there is no allocation rate, in words.
function whyNoRate(snapshot) {
  if (!(snapshot.timeline || []).length) return whyNoTimeline(snapshot);
  return 'No allocation rate: the timeline has ' + (snapshot.timeline.length < 2 ? 'one point' :
    'no calls allocated so far at its points (files of emheap before layout 15)') + '.';
}

// Everything the page's script draws, as one JSON value.
function reportData(snapshot) {
  var sites = sitesChartData(snapshot);
  return {live: liveChartData(snapshot), sites: sites, rate: rateChartData(snapshot, sites)};
}

module.exports = {reportData: reportData, peakWindow: peakWindow, peakWindowText: peakWindowText, seconds: seconds,
  whyNoTimeline: whyNoTimeline, whyNoSiteSeries: whyNoSiteSeries, whyNoRate: whyNoRate};
