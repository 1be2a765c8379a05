// report_html.js -- `emheap report`: one self-contained HTML page to look at
// a heap profile over time, made from a snapshot (cli/report.js writes it).
// The page needs no network and no server: it opens from disk (file://),
// mails as one attachment and keeps in a CI artifact. It holds, in order:
// the header (file, source, mode, live bytes and the peak), the live bytes
// over time with the marks, the growths of the wasm memory and the peak,
// the top sites over time (stacked), why the wasm memory is this big, the
// top sites table, what was allocated since a mark, and what keeps growing.
//
// The charts are drawn in the page by uPlot (npm uplot, MIT), whose script
// and CSS the caller passes in (cli/report.js reads them from
// node_modules): this module stays pure, so the page could make the same
// report one day. The charts' data travels as JSON in a
// <script type="application/json"> element and a small script of ours
// (pageScript below, put into the page as its source text) draws them.
//
// Every text from the snapshot (function names are C++ templates, with
// "<" and "&"; mark names are whatever the program passed) is escaped here
// or set as text by the page's script, never parsed as HTML.
//
// Pure CommonJS: see formats/README.md for the rules this code follows.

var numbers = require('../model/numbers');
var sitesModel = require('../model/sites');
var growth = require('../model/growth');
var breakdown = require('../model/memory_breakdown');
var estimates = require('../model/estimates');
var names = require('../model/names');
var marksModel = require('../model/marks');
var growing = require('../model/growing');

var formatBytes = numbers.formatBytes;
var formatCount = numbers.formatCount;
var formatBytesExact = numbers.formatBytesExact;

var TOP_SITES = 20;        // the table's rows: `emheap top`'s default view
var SINCE_ROWS = 20;       // rows of each "since mark" table
var OTHER_COLOR = '#cfcfcf';
// Tableau 20's colours, dark ones first: up to 24 series are tracked
// (jslib/site_timeline.js MAX_SERIES); past 20 the colours repeat.
var PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f',
  '#79706e', '#a0cbe8', '#ffbe7d', '#ff9d9a', '#86bcb6', '#8cd17d', '#f1ce63', '#d4a6c8', '#fabfd2', '#d7b5a6',
  '#bab0ac'];

// Text for HTML content and attribute values alike.
function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, function (c) {
    return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
  });
}

// JSON to put inside a <script> element: "</" would end the element (the
// HTML parser knows nothing of JSON strings), "<!--" would change how it
// reads on; "<" occurs only inside JSON strings, where "<\/" and "\u003c"
// mean the same characters to JSON.parse.
function jsonForScript(value) {
  return JSON.stringify(value).replace(/<\//g, '<\\/').replace(/<!--/g, '\\u003c!--');
}

// Another program's text (uPlot's) inside <script>/<style>: only "</script"
// or "</style" could end the element early; "<\/" reads the same inside a
// JS string or regular expression, and uPlot has neither today.
function inlineText(text, tag) {
  return String(text).replace(new RegExp('</(' + tag + ')', 'gi'), '<\\/$1');
}

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
  var series = st.series.map(function (s) {
    var values = [];
    for (var k = 0; k < n; k++) {
      var v = k >= s.from && k - s.from < s.liveBytes.length ? s.liveBytes[k - s.from] : null;
      values.push(typeof v === 'number' ? v : null);
    }
    var label = growth.siteText(snapshot, s.siteId);
    return {siteId: s.siteId, label: s.estimated ? '~' + label : label, estimated: !!s.estimated, values: values,
      last: values[n - 1] || 0, max: values.reduce(function (a, v) { return Math.max(a, v || 0); }, 0)};
  });
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

// Everything the page's script draws, as one JSON value.
function reportData(snapshot) {
  return {live: liveChartData(snapshot), sites: sitesChartData(snapshot)};
}

// --- HTML -----------------------------------------------------------------

function fact(name, valueHtml) {
  return '<tr><th>' + escapeHtml(name) + '</th><td>' + valueHtml + '</td></tr>';
}

// A byte count for people: human units, the exact integer in a title and in
// data-bytes (for scripts and tests), "~" and the standard error when part
// of it is an estimate.
function bytesCell(bytes, estimatedText, attr) {
  return '<td class="num" ' + (attr || 'data-bytes') + '="' + bytes + '" title="' + escapeHtml(formatCount(bytes) + ' B') + '">' +
    (estimatedText !== null && estimatedText !== undefined ? '~' : '') + escapeHtml(formatBytes(bytes)) +
    (estimatedText ? ' <span class="err">' + escapeHtml(estimatedText) + '</span>' : '') + '</td>';
}

function siteLink(snapshot, id) {
  return '<a href="#site-' + id + '">' + escapeHtml(growth.siteText(snapshot, id)) + '</a>';
}

function headerHtml(snapshot, file) {
  var s = snapshot.summary || {};
  var rows = [
    fact('file', '<code>' + escapeHtml(file || '(not saved)') + '</code>'),
    fact('source', escapeHtml(snapshot.source || '(not known)')),
    fact('captured', escapeHtml(snapshot.capturedAt || '(not known)')),
    fact('mode', '<span class="mode-note">' + escapeHtml(sitesModel.modeNote(snapshot)) + '</span>'),
    fact(snapshot.view === 'peak' ? 'live bytes at the peak (a peak view)' : 'live bytes',
      '<span id="live-bytes" data-bytes="' + s.liveBytes + '">' + escapeHtml(formatBytesExact(s.liveBytes || 0)) + '</span> in ' +
      escapeHtml(formatCount(s.liveBlocks || 0)) + ' blocks'),
    fact('peak', '<span id="peak-bytes" data-bytes="' + s.peakLiveBytes + '">' + escapeHtml(formatBytesExact(s.peakLiveBytes || 0)) +
      '</span>' + (s.peakLiveBlocks ? ' (at most ' + escapeHtml(formatCount(s.peakLiveBlocks)) + ' blocks live at once)' : '')),
    fact('wasm memory', escapeHtml(formatBytesExact(s.heapSize || 0)) + ', grew ' + escapeHtml(formatCount(s.heapGrowths || 0)) +
      ' time' + (s.heapGrowths === 1 ? '' : 's')),
    fact('allocated in all', escapeHtml(formatBytesExact(s.totalBytes || 0)) + ' in ' +
      escapeHtml(formatCount((s.mallocCalls || 0) + (s.callocCalls || 0) + (s.reallocCalls || 0) + (s.memalignCalls || 0))) +
      ' calls, ' + escapeHtml(formatCount(s.freeCalls || 0)) + ' frees'),
  ];
  return '<header><h1>emheap report: <span class="file">' + escapeHtml(file || snapshot.source || 'snapshot') + '</span></h1>' +
    '<table class="facts">' + rows.join('') + '</table></header>';
}

function liveSectionHtml(snapshot, data) {
  var out = '<section id="live"><h2>Live bytes over time</h2>';
  if (!data.live) return out + '<p class="missing">' + escapeHtml(whyNoTimeline(snapshot)) + '</p></section>';
  var s = snapshot.summary || {};
  var w = peakWindow(snapshot);
  var notes = [];
  notes.push('Live bytes (usable sizes, what the allocator reserved) at each point of the timeline; the red dashed line is ' +
    'the peak, ' + formatBytesExact(s.peakLiveBytes || 0) + ', which the points (taken every 100 ms or so) may miss' +
    (w ? '; ' + peakWindowText(w) + ' (shaded)' : '') + '.');
  var marks = snapshot.marks || [];
  notes.push(marks.length ? 'Grey lines: marks (' + marks.length + ').'
    : 'No marks in this snapshot (emheap_mark(name) in C, emheap.mark(name) in JS; files before layout 14 have none).');
  var timed = (snapshot.heapGrowth || []).filter(function (g) { return typeof g.t === 'number'; }).length;
  var growths = (snapshot.heapGrowth || []).length;
  if (growths) {
    notes.push('Orange triangles: growths of the wasm memory (' + timed + ' of ' + growths + ' kept' +
      (timed < growths ? '; the others have no time: files before layout 13' : '') + ').');
  }
  out += '<div id="chart-live" class="chart"></div>';
  if (w) out += '<p id="peak-window" class="peak-window">' + escapeHtml(peakWindowText(w)) + '</p>';
  out += '<p class="caption">' + notes.map(escapeHtml).join(' ') + '</p>';
  var lines = growth.growthLines(snapshot, 64);
  if (lines.length) {
    out += '<details><summary>' + escapeHtml(lines[0]) + '</summary><pre class="growths">' +
      escapeHtml(lines.slice(1).join('\n')) + '</pre></details>';
  }
  return out + '</section>';
}

function sitesSectionHtml(snapshot, data) {
  var out = '<section id="sites-over-time"><h2>Top sites over time</h2>';
  if (!data.sites) return out + '<p class="missing">' + escapeHtml(whyNoSiteSeries(snapshot)) + '</p></section>';
  var s = snapshot.summary || {};
  var caption = 'Stacked: each band is one site\'s live bytes (the bytes it asked for), largest now at the bottom; ' +
    'a site is drawn from the point emheap began to follow it. "Everything else" is the timeline\'s live bytes less ' +
    'the sites drawn: the other sites, and the allocator\'s rounding, since the timeline counts usable sizes and ' +
    'sites the bytes asked for' + (s.allocatorRoundingBytes !== undefined ? ' (' + formatBytesExact(s.allocatorRoundingBytes) +
    ' of rounding now)' : '') + '. Click a site in the table to pick out its band; a name in the legend leads to its row.';
  if (data.sites.other.estimated) caption += ' Sites marked ~ hold estimates (sampled blocks), and so does everything else.';
  return out + '<div id="chart-sites" class="chart"></div><p class="caption">' + escapeHtml(caption) + '</p></section>';
}

function memorySectionHtml(snapshot) {
  var out = '<section id="memory"><h2>Why is my wasm memory this big</h2>';
  var b = breakdown.memoryBreakdown(snapshot);
  if (!b) {
    return out + '<p class="missing">' + escapeHtml(snapshot.view === 'peak'
      ? 'A peak view has no breakdown: its live numbers are the peak\'s, the memory\'s size is now\'s.'
      : 'This snapshot lacks the numbers (the allocator\'s heap base and break: files before layout 4).') + '</p></section>';
  }
  var parts = [
    ['static data and stacks', b.staticBytes, 'below __heap_base: wasm-ld\'s data and the main thread\'s C stack'],
    ['live', b.liveBytes, formatCount(b.liveBlocks) + ' blocks, usable sizes'],
    ['emheap\'s tables', b.emheapBytes, 'from the same allocator'],
  ];
  if (b.walked) {
    parts.push(['the allocator\'s own', b.allocatorOwnBytes, 'block headers, alignment, blocks emheap did not see'],
      ['free', b.freeBytes, formatCount(b.freeBlocks) + ' free block' + (b.freeBlocks === 1 ? '' : 's') + ' inside the heap'],
      ['free at the top', b.topFreeBytes, 'the one part a trim could give back to sbrk (the memory never shrinks)']);
  } else {
    parts.push(['free or the allocator\'s own', b.freeOrOwnBytes, b.notWalked ? 'the heap was not walked: ' + b.notWalked
      : 'the allocator\'s heap was not walked (threads were running, or an older file)']);
  }
  parts.push(['never handed to the allocator', b.unusedBytes, 'above sbrk\'s break']);
  var bar = parts.map(function (p, i) {
    var pct = b.memoryBytes > 0 ? 100 * p[1] / b.memoryBytes : 0;
    return '<span class="part part-' + i + '" style="width:' + pct.toFixed(3) + '%" title="' +
      escapeHtml(p[0] + ': ' + formatBytesExact(p[1])) + '"></span>';
  }).join('');
  var rows = parts.map(function (p, i) {
    var pct = b.memoryBytes > 0 ? (100 * p[1] / b.memoryBytes).toFixed(1) + '%' : '';
    return '<tr><td><span class="swatch part-' + i + '"></span>' + escapeHtml(p[0]) + '</td>' + bytesCell(p[1]) +
      '<td class="num">' + escapeHtml(formatCount(p[1])) + ' B</td><td class="num">' + pct + '</td><td class="why">' +
      escapeHtml(p[2]) + '</td></tr>';
  }).join('');
  return out + '<p id="breakdown-text">' + escapeHtml(breakdown.breakdownText(b)) + '</p>' +
    '<div class="bar" role="img" aria-label="the parts of the wasm memory">' + bar + '</div>' +
    '<table class="parts"><thead><tr><th>part</th><th>bytes</th><th>exact</th><th>of the memory</th><th></th></tr></thead>' +
    '<tbody>' + rows + '<tr class="total"><td>wasm memory</td>' + bytesCell(b.memoryBytes) + '<td class="num">' +
    escapeHtml(formatCount(b.memoryBytes)) + ' B</td><td class="num">100%</td><td></td></tr></tbody></table></section>';
}

// One row of a sites table; `series`: the site's index among the second
// chart's series, or -1.
function siteRowHtml(snapshot, byId, row, series, idPrefix) {
  var site = byId.get(row.id) || null;
  var estimated = row.estimatedLiveBytes > 0;
  var err = estimated && site ? estimates.siteErrorText(snapshot, site) : null;
  var label = row.label;
  return '<tr id="' + idPrefix + row.id + '" data-site="' + row.id + '"' + (series >= 0 ? ' data-series="' + series + '"' : '') +
    (series >= 0 ? ' class="charted"' : '') + '>' +
    '<td class="num rank">' + (series >= 0 ? '<span class="swatch" data-color="' + series + '"></span>' : '') + row.rank + '</td>' +
    bytesCell(row.liveBytes, estimated ? err : null) +
    '<td class="num" data-blocks="' + row.liveBlocks + '">' + (estimated ? '~' : '') + escapeHtml(formatCount(row.liveBlocks)) + '</td>' +
    '<td class="num" data-allocs="' + row.totalAllocs + '">' + escapeHtml(formatCount(row.totalAllocs)) + '</td>' +
    bytesCell(row.totalBytes, null, 'data-total') +
    '<td class="site" title="' + escapeHtml(label) + '">' + escapeHtml(names.shortName(label)) + '</td>' +
    '<td class="stack">' + escapeHtml(site ? growth.siteText(snapshot, row.id) : row.label) + '</td></tr>';
}

var SITE_COLUMNS = '<thead><tr><th>#</th><th>live bytes</th><th>live blocks</th><th>allocs</th><th>bytes allocated</th>' +
  '<th>site</th><th>stack (leaf first)</th></tr></thead>';

function topSectionHtml(snapshot, data) {
  var top = sitesModel.topSites(snapshot, {sort: 'bytes', top: TOP_SITES});
  var charted = {};
  if (data.sites) data.sites.series.forEach(function (s, i) { charted[s.siteId] = i; });
  var seriesOf = function (id) { return Object.prototype.hasOwnProperty.call(charted, id) ? charted[id] : -1; };
  var byId = new Map(snapshot.sites.map(function (site) { return [site.id, site]; }));
  var out = '<section id="top-sites"><h2>Top sites by live bytes</h2>';
  if (!top.sites.length) return out + '<p class="missing">No sites: nothing was recorded.</p></section>';
  out += '<table id="top-table" class="sites">' + SITE_COLUMNS + '<tbody>' +
    top.sites.map(function (row) { return siteRowHtml(snapshot, byId, row, seriesOf(row.id), 'site-'); }).join('') + '</tbody></table>';
  out += '<p class="caption">' + escapeHtml(top.sites.length + ' of ' + top.totalSites + ' sites, by live bytes (the bytes the ' +
    'program asked for; `emheap top` gives the same). Hover a number for its exact value.' +
    (estimates.hasSampledBlocks(snapshot) ? ' Numbers marked ~ are estimates, +- one standard error.' : '')) + '</p>';
  // charted sites that are not among the top rows, so that every legend
  // entry leads somewhere
  var shown = {};
  top.sites.forEach(function (r) { shown[r.id] = true; });
  var rest = data.sites ? data.sites.series.filter(function (s) { return !shown[s.siteId]; }) : [];
  if (rest.length) {
    var all = sitesModel.topSites(snapshot, {sort: 'bytes'}).sites;
    var rows = rest.map(function (s) {
      var row = all.filter(function (r) { return r.id === s.siteId; })[0];
      return row ? siteRowHtml(snapshot, byId, row, seriesOf(row.id), 'site-') : '';
    }).join('');
    if (rows) {
      out += '<h3>Other sites in the chart</h3><table id="charted-table" class="sites">' + SITE_COLUMNS + '<tbody>' + rows +
        '</tbody></table>';
    }
  }
  return out + '</section>';
}

function sinceSectionHtml(snapshot) {
  var marks = snapshot.marks || [];
  var out = '<section id="since-mark"><h2>Still live since a mark</h2>';
  if (!marks.length) {
    return out + '<p class="missing">No marks in this snapshot, so nothing to measure from: name moments with ' +
      'emheap_mark(name) in C or emheap.mark(name) in JS (files before layout 14 have none).</p></section>';
  }
  var tables = [];
  var options = [];
  for (var i = 0; i < marks.length; i++) {
    var m = marks[i];
    var result;
    try {
      result = marksModel.liveSince(snapshot, '#' + m.number);
    } catch (e) {
      if (!e.userError) throw e;
      return out + '<p class="missing">' + escapeHtml(e.message) + '</p></section>';
    }
    options.push('<option value="' + i + '"' + (i === 0 ? ' selected' : '') + '>' + escapeHtml(marksModel.windowText(result)) + '</option>');
    var shownRows = result.sites.slice(0, SINCE_ROWS);
    var body = shownRows.map(function (r, k) {
      var est = r.estimatedLiveBytes > 0;
      return '<tr data-site="' + r.id + '"><td class="num">' + (k + 1) + '</td>' + bytesCell(r.liveBytes, est ? '' : null) +
        '<td class="num" data-blocks="' + r.liveBlocks + '">' + (est ? '~' : '') + escapeHtml(formatCount(r.liveBlocks)) + '</td>' +
        '<td class="stack">' + siteLink(snapshot, r.id) + '</td></tr>';
    }).join('');
    var total = escapeHtml(marksModel.windowText(result)) + ': ' + (result.estimatedLiveBytes > 0 ? '~' : '') +
      escapeHtml(formatBytesExact(result.liveBytes)) + ' in ' + escapeHtml(formatCount(result.liveBlocks)) + ' blocks still live' +
      (result.sites.length > SINCE_ROWS ? ', in ' + result.sites.length + ' sites (the first ' + SINCE_ROWS + ' shown)' : '');
    tables.push('<div class="since" data-mark="' + i + '"' + (i === 0 ? '' : ' hidden') + '><p class="since-total" data-bytes="' +
      result.liveBytes + '">' + total + '</p>' + (body
      ? '<table class="sites since-table"><thead><tr><th>#</th><th>live bytes</th><th>live blocks</th><th>site</th></tr></thead>' +
        '<tbody>' + body + '</tbody></table>' : '<p>Nothing allocated since this mark is live.</p>') + '</div>');
  }
  return out + '<p><label>What was allocated <select id="since-select">' + options.join('') + '</select> and is still live, ' +
    'by site (exact in exact mode: every block knows which marks it came after).</label></p>' + tables.join('') + '</section>';
}

function growingSectionHtml(snapshot) {
  var out = '<section id="growing"><h2>What keeps growing</h2>';
  var why = growing.whyNoSeries(snapshot);
  if (why) return out + '<p class="missing">' + escapeHtml('No verdicts: ' + why + '.') + '</p></section>';
  var rows = growing.growingSites(snapshot).map(function (r) {
    var est = r.estimated ? '~' : '';
    return '<tr data-site="' + r.siteId + '" data-verdict="' + escapeHtml(r.verdict) + '"><td class="verdict v-' +
      escapeHtml(r.verdict.replace(/[^a-z]+/g, '-')) + '">' + escapeHtml(r.verdict) + '</td>' +
      '<td class="num" data-bytes="' + r.lastBytes + '">' + est + escapeHtml(formatBytes(r.lastBytes)) + '</td>' +
      '<td class="num" data-bytes="' + r.maxBytes + '">' + est + escapeHtml(formatBytes(r.maxBytes)) + '</td>' +
      '<td class="num">' + est + escapeHtml(numbers.formatBytesDelta(Math.round(r.bytesPerSecond))) + '/s</td>' +
      '<td class="num">' + (r.parts ? escapeHtml(Math.round(r.grewIn * r.parts) + ' of ' + r.parts) : '') + '</td>' +
      '<td class="stack">' + siteLink(snapshot, r.siteId) + '</td></tr>';
  }).join('');
  return out + '<table id="growing-table" class="sites"><thead><tr><th>verdict</th><th>live now</th><th>highest</th>' +
    '<th>trend</th><th>parts that grew</th><th>site</th></tr></thead><tbody>' + rows + '</tbody></table>' +
    '<p class="caption">' + escapeHtml('Each followed site\'s series, cut into up to ten parts: "grows without bound" grew in most ' +
    'parts and still grows at the end (a leak, or a structure nobody trims); "levels off" rose and then stayed flat (a cache ' +
    'or a pool that reached its size). Words, not certainty: a short run reads "grows without bound" until it shows its ' +
    'bound. Trend: least squares bytes per second over the series.') + '</p></section>';
}

// The page's own CSS: plain, readable at 1280x900, system fonts only (the
// page loads nothing). (No line starts with "#": formats/README.md.)
var CSS = [
  'body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; background: #fff;',
  '  margin: 0 auto; padding: 12px 24px 40px; max-width: 1240px; }',
  'h1 { font-size: 20px; margin: 4px 0 10px; } h1 .file { font-family: ui-monospace, Menlo, Consolas, monospace; }',
  'h2 { font-size: 17px; margin: 26px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 3px; }',
  'h3 { font-size: 15px; margin: 18px 0 6px; }',
  'table { border-collapse: collapse; }',
  'table.facts th { text-align: left; font-weight: 600; padding: 1px 14px 1px 0; vertical-align: top; white-space: nowrap; }',
  'table.facts td { padding: 1px 0; } .mode-note { white-space: pre-wrap; }',
  '.chart { min-height: 120px; } .caption { color: #555; font-size: 13px; margin: 6px 0; }',
  '.missing { background: #f6f6f6; border-left: 3px solid #bbb; padding: 8px 12px; }',
  '.peak-window { color: #b3261e; margin: 4px 0; }',
  'pre.growths { font-size: 12px; white-space: pre-wrap; background: #f8f8f8; padding: 8px; }',
  'table.sites, table.parts { width: 100%; font-size: 13px; }',
  'table.sites th, table.parts th { text-align: left; border-bottom: 2px solid #ccc; padding: 3px 8px; white-space: nowrap; }',
  'table.sites td, table.parts td { border-bottom: 1px solid #eee; padding: 3px 8px; vertical-align: top; }',
  'td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }',
  'td.site { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; max-width: 260px; overflow-wrap: anywhere; }',
  'td.stack { font-size: 12px; color: #333; overflow-wrap: anywhere; }',
  'td.why { color: #666; font-size: 12px; } tr.total td { font-weight: 600; border-top: 2px solid #ccc; }',
  '.err { color: #8a5a00; font-size: 11px; }',
  'tr.charted { cursor: pointer; } tr.charted:hover { background: #f4f7fb; }',
  'tr.focused, tr:target { background: #fff3c4 !important; }',
  '.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 6px; vertical-align: baseline; border-radius: 2px; }',
  '.bar { display: flex; height: 22px; border: 1px solid #bbb; margin: 8px 0; }',
  '.bar .part { display: block; height: 100%; min-width: 1px; }',
  '.part-0 { background: #9c755f; } .part-1 { background: #4e79a7; } .part-2 { background: #b07aa1; }',
  '.part-3 { background: #e15759; } .part-4 { background: #8cd17d; } .part-5 { background: #59a14f; }',
  '.part-6 { background: #e8e8e8; }',
  '.verdict { white-space: nowrap; } .v-grows-without-bound { color: #b3261e; font-weight: 600; }',
  '.v-levels-off { color: #2e7d32; }',
  '.uplot .mark-label { position: absolute; top: 0; font-size: 11px; color: #444; background: rgba(255,255,255,.85);',
  '  padding: 0 3px; white-space: nowrap; pointer-events: none; border-left: 1px dashed #777; }',
  '.uplot .growth-marker { position: absolute; bottom: 0; font-size: 12px; color: #e07b00; transform: translateX(-50%);',
  '  line-height: 1; cursor: help; }',
  '.uplot .peak-label { position: absolute; right: 4px; font-size: 11px; color: #b3261e; background: rgba(255,255,255,.85);',
  '  padding: 0 3px; pointer-events: none; }',
  '.sites-chart .u-legend.u-inline tr { display: block; text-align: left; margin: 0; }',
  '.sites-chart .u-legend { text-align: left; font-size: 12px; margin: 4px 0 0 80px; }',
  '.sites-chart .u-legend a { color: inherit; }',
  '.sites-chart .u-legend tr.focused { background: #fff3c4; font-weight: 600; }',
  'footer { margin-top: 30px; color: #777; font-size: 12px; }',
].join('\n');

// The page's script, put into the page as its source text (never called
// here). Arguments: the document, uPlot, model/numbers.js's formatBytes
// and formatCount (also as their text: one way to say a number).
function pageScript(d, uPlot, formatBytes, formatCount) {
  var data = JSON.parse(d.getElementById('report-data').textContent);
  var charts = [];
  var pxr = function () { return uPlot.pxRatio || 1; };
  var widthOf = function (el) { return Math.max(480, el.clientWidth || 1180); };
  // binary steps (1, 2, 4 ... KiB, MiB) so that ticks read "4 MiB", not "4.77 MiB"
  var incrs = [];
  for (var p = 0; p <= 40; p += 10) for (var m = 1; m < 1024; m *= 2) incrs.push(m * Math.pow(2, p));
  var bytesTick = function (u, vals) { return vals.map(function (v) { return formatBytes(v).replace('.00 ', ' '); }); };
  var secondsTick = function (u, vals) { return vals.map(function (v) { return +v.toFixed(3) + ' s'; }); };
  var yAxis = {values: bytesTick, incrs: incrs, size: 80};
  var exact = function (v) { return v === null || v === undefined ? '--' : formatBytes(v) + ' (' + formatCount(v) + ' B)'; };

  function xScale(range) {
    return {time: false, range: function (u, min, max) {
      return [Math.min(min, range.xMin), Math.max(max, range.xMax, range.xMin + 0.001)];
    }};
  }

  // Marks, growths and the peak: lines on the canvas (hooks.draw runs
  // after the series, with u.valToPos for the coordinates), labels as
  // elements over the plot so that they stay sharp and readable as text.
  function annotations(L) {
    return {hooks: {draw: [function (u) {
      var ctx = u.ctx;
      var box = u.bbox;
      var r = pxr();
      ctx.save();
      if (L.peak && L.peak.from !== null && L.peak.to !== null) {
        var x0 = u.valToPos(L.peak.from, 'x', true);
        var x1 = u.valToPos(L.peak.to, 'x', true);
        ctx.fillStyle = 'rgba(225, 87, 89, 0.16)';
        ctx.fillRect(x0, box.top, Math.max(x1 - x0, 2 * r), box.height);
      }
      ctx.lineWidth = r;
      ctx.setLineDash([4 * r, 4 * r]);
      ctx.strokeStyle = '#777';
      L.marks.forEach(function (mk) {
        var x = Math.round(u.valToPos(mk.t, 'x', true));
        ctx.beginPath();
        ctx.moveTo(x, box.top);
        ctx.lineTo(x, box.top + box.height);
        ctx.stroke();
      });
      if (L.peak) {
        var y = Math.round(u.valToPos(L.peak.bytes, 'y', true));
        ctx.strokeStyle = '#d62728';
        ctx.lineWidth = 1.5 * r;
        ctx.beginPath();
        ctx.moveTo(box.left, y);
        ctx.lineTo(box.left + box.width, y);
        ctx.stroke();
      }
      ctx.setLineDash([]);
      ctx.fillStyle = '#f28e2b';
      L.growths.forEach(function (g) {
        var x = u.valToPos(g.t, 'x', true);
        var yb = box.top + box.height;
        ctx.beginPath();
        ctx.moveTo(x - 5 * r, yb);
        ctx.lineTo(x + 5 * r, yb);
        ctx.lineTo(x, yb - 9 * r);
        ctx.closePath();
        ctx.fill();
      });
      ctx.restore();
      placeLabels(u, L);
    }]}};
  }

  function placeLabels(u, L) {
    var layer = u.over.querySelector('.labels');
    if (!layer) {
      layer = d.createElement('div');
      layer.className = 'labels';
      u.over.appendChild(layer);
    }
    layer.textContent = '';
    L.marks.forEach(function (mk, i) {
      var el = d.createElement('div');
      el.className = 'mark-label';
      el.textContent = mk.label;
      el.title = mk.title;
      el.style.left = u.valToPos(mk.t, 'x') + 'px';
      el.style.top = (i % 3) * 16 + 'px'; // marks close together do not cover each other
      layer.appendChild(el);
    });
    L.growths.forEach(function (g) {
      var el = d.createElement('div');
      el.className = 'growth-marker';
      el.textContent = '\u00a0';
      el.title = g.title;
      el.style.left = u.valToPos(g.t, 'x') + 'px';
      el.style.width = '12px';
      el.style.height = '12px';
      layer.appendChild(el);
    });
    if (L.peak) {
      var el = d.createElement('div');
      el.className = 'peak-label';
      el.textContent = L.peak.label;
      el.style.top = Math.max(0, u.valToPos(L.peak.bytes, 'y') - 18) + 'px';
      layer.appendChild(el);
    }
  }

  // "#4e79a7" -> the colour a quarter as strong, on white
  function pale(hex) {
    var n = parseInt(hex.slice(1), 16);
    var mix = function (c) { return Math.round(c + (255 - c) * 0.75); };
    return 'rgb(' + mix(n >> 16) + ',' + mix((n >> 8) & 255) + ',' + mix(n & 255) + ')';
  }

  var L = data.live;
  var S = data.sites;
  var range = L || S;
  if (L) {
    var el = d.getElementById('chart-live');
    charts.push({el: el, u: new uPlot({
      width: widthOf(el), height: 280,
      cursor: {sync: {key: 'emheap'}},
      scales: {x: xScale(range), y: {range: function (u, min, max) { return [0, Math.max(max, L.peak ? L.peak.bytes : 0) * 1.1 || 1]; }}},
      axes: [{values: secondsTick}, yAxis],
      series: [
        {label: 'time', value: function (u, v) { return v === null || v === undefined ? '--' : v.toFixed(3) + ' s'; }},
        {label: 'live bytes', stroke: '#1f5fbf', width: 2, fill: 'rgba(31, 95, 191, 0.10)', points: {show: false},
          value: function (u, v, si, i) { return v === null || v === undefined ? '--' : exact(v) + ' in ' + formatCount(L.blocks[i]) + ' blocks'; }},
      ],
      plugins: [annotations(L)],
    }, [L.t, L.bytes], el)});
  }

  if (S) {
    var box = d.getElementById('chart-sites');
    box.classList.add('sites-chart');
    // drawn top of the stack first, each filled down to 0, so that each
    // band shows between its sum and the one below it
    var order = [];
    for (var i = S.series.length; i >= 0; i--) order.push(i);
    var series = [{label: 'time', value: function (u, v) { return v === null || v === undefined ? '--' : v.toFixed(3) + ' s'; }}];
    var columns = [S.t];
    var seriesIndex = {};
    var focused = null; // the uPlot series picked out, or null
    order.forEach(function (i) {
      var one = i === S.series.length ? S.other : S.series[i];
      var label = one.label;
      if (i < S.series.length) {
        label = d.createElement('a');
        label.href = '#site-' + one.siteId;
        label.textContent = one.label;
        label.setAttribute('data-site', one.siteId);
        // the link leads to the row; it does not hide the series (uPlot's
        // click on a legend entry)
        label.addEventListener('click', function (e) { e.stopPropagation(); });
        seriesIndex[one.siteId] = series.length;
      }
      var idx = series.length;
      // picked out (a row clicked): the others' bands pale, each still
      // opaque, so that the picked band shows exactly its own part
      var fill = function () { return focused === null || focused === idx ? one.color : pale(one.color); };
      series.push({label: label, stroke: one.stroke, fill: fill, width: 1, points: {show: false},
        value: function (u, v, si, i) {
          var raw = i === null || i === undefined ? null : one.values[i];
          return raw === null || raw === undefined ? '--' : (one.estimated ? '~' : '') + exact(raw);
        }});
      columns.push(S.stacked[i]);
    });
    var u3 = new uPlot({
      width: widthOf(box), height: 320,
      cursor: {sync: {key: 'emheap'}},
      scales: {x: xScale(range), y: {range: function (u, min, max) { return [0, max * 1.05 || 1]; }}},
      axes: [{values: secondsTick}, yAxis],
      series: series,
    }, columns, box);
    charts.push({el: box, u: u3});
    // the table's swatches in the series' colours
    Array.prototype.forEach.call(d.querySelectorAll('.swatch[data-color]'), function (sw) {
      sw.style.background = S.series[+sw.getAttribute('data-color')].color;
    });
    // a click on a charted row picks out its band (again: all bands). Not
    // uPlot's focus, which fades the other series: each band here is filled
    // down to 0 under the ones below it, and faded bands let it show through.
    var legendRows = u3.root.querySelectorAll('.u-legend tr');
    Array.prototype.forEach.call(d.querySelectorAll('tr.charted'), function (row) {
      row.addEventListener('click', function () {
        var site = +row.getAttribute('data-site');
        var again = focused === seriesIndex[site];
        Array.prototype.forEach.call(d.querySelectorAll('tr.focused'), function (r) { r.classList.remove('focused'); });
        focused = again ? null : seriesIndex[site];
        if (again) {
          box.removeAttribute('data-focused');
        } else {
          row.classList.add('focused');
          if (legendRows[focused]) legendRows[focused].classList.add('focused');
          box.setAttribute('data-focused', String(site));
        }
        u3.redraw(false);
      });
    });
  }

  var select = d.getElementById('since-select');
  if (select) {
    select.addEventListener('change', function () {
      Array.prototype.forEach.call(d.querySelectorAll('.since'), function (div) {
        div.hidden = div.getAttribute('data-mark') !== select.value;
      });
    });
  }

  addEventListener('resize', function () {
    charts.forEach(function (c) { c.u.setSize({width: widthOf(c.el), height: c.u.height}); });
  });
  d.body.setAttribute('data-charts', String(charts.length));
}

// The report: one HTML page. uplotJs, uplotCss: the text of uPlot's
// dist/uPlot.iife.min.js and dist/uPlot.min.css; file: the snapshot's file
// name, for the header.
function reportHtml(snapshot, opts) {
  var o = opts || {};
  if (typeof o.uplotJs !== 'string' || typeof o.uplotCss !== 'string') {
    throw new Error('reportHtml: give uplotJs and uplotCss, the text of uPlot\'s dist/uPlot.iife.min.js and dist/uPlot.min.css');
  }
  var data = reportData(snapshot);
  var title = 'emheap report: ' + (o.file || snapshot.source || 'snapshot');
  return '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    '<title>' + escapeHtml(title) + '</title>\n' +
    '<style>\n' + inlineText(o.uplotCss, 'style') + '\n</style>\n' +
    '<style>\n' + CSS + '\n</style>\n</head>\n<body>\n' +
    headerHtml(snapshot, o.file) + '\n' +
    liveSectionHtml(snapshot, data) + '\n' +
    sitesSectionHtml(snapshot, data) + '\n' +
    memorySectionHtml(snapshot) + '\n' +
    topSectionHtml(snapshot, data) + '\n' +
    sinceSectionHtml(snapshot) + '\n' +
    growingSectionHtml(snapshot) + '\n' +
    '<footer>Made by <code>emheap report</code>. Charts by uPlot (MIT, github.com/leeoniya/uPlot), in this file. ' +
    'Nothing here loads from the network.</footer>\n' +
    '<script type="application/json" id="report-data">' + jsonForScript(data) + '</script>\n' +
    '<script>\n' + inlineText(o.uplotJs, 'script') + '\n</script>\n' +
    '<script>\n"use strict";\n(' + String(pageScript) + ')(document, uPlot, ' + String(formatBytes) + ', ' +
    String(formatCount) + ');\n</script>\n</body>\n</html>\n';
}

module.exports = {reportHtml: reportHtml, reportData: reportData, peakWindow: peakWindow, peakWindowText: peakWindowText,
  escapeHtml: escapeHtml, jsonForScript: jsonForScript};
