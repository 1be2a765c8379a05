// report_html.js: `emheap report`: one self-contained HTML page to look at
// a heap profile over time, made from a snapshot (cli/report.js writes it).
// The page needs no network and no server: it opens from disk (file://),
// mails as one attachment and keeps in a CI artifact. It holds, in order:
// the header (file, source, mode, live bytes and the peak), the live bytes
// over time with the marks, the growths of the wasm memory and the peak,
// the allocation rate,
// the top sites over time (stacked), why the wasm memory is this big, the
// top sites table, what was allocated since a mark, what a range between
// marks did, what keeps growing, the temporary allocations and how long
// blocks live (formats/report/time_sections.js).
//
// The charts are drawn in the page by uPlot (npm uplot, MIT), whose script
// and CSS the caller passes in (cli/report.js reads them from
// node_modules): this module stays pure, so the page could make the same
// report one day. The charts' data travels as JSON in a
// <script type="application/json"> element and a small script of ours
// (formats/report/page.js, put into the page as its source text) draws
// them; formats/report/data.js makes that data.
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
var pools = require('../model/pools');
var ranges = require('../model/ranges');
var estimates = require('../model/estimates');
var names = require('../model/names');
var marksModel = require('../model/marks');
var reportData = require('./report/data');
var reportPage = require('./report/page');
var growing = require('../model/growing');
var peakSinceText = require('../model/peak').peakSinceText;
var timeSections = require('./report/time_sections');

var formatBytes = numbers.formatBytes;
var formatCount = numbers.formatCount;
var formatBytesExact = numbers.formatBytesExact;
var plural = numbers.plural;

var TOP_SITES = 20;        // the table's rows: `emheap top`'s default view
var SINCE_ROWS = 20;       // rows of each "since mark" table

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

// for the sections made in formats/report/
var helpers = {escapeHtml: escapeHtml, siteLink: siteLink};

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
      '</span>' + escapeHtml(peakSinceText(snapshot)) + (s.peakLiveBlocks ? ' (at most ' + escapeHtml(formatCount(s.peakLiveBlocks)) + ' blocks live at once)' : '')),
    fact('wasm memory', escapeHtml(formatBytesExact(s.heapSize || 0)) + ', grew ' + escapeHtml(plural(s.heapGrowths || 0, 'time'))),
    fact('allocated in all', escapeHtml(formatBytesExact(s.totalBytes || 0)) + ' in ' +
      escapeHtml(formatCount((s.mallocCalls || 0) + (s.callocCalls || 0) + (s.reallocCalls || 0) + (s.memalignCalls || 0))) +
      ' calls, ' + escapeHtml(formatCount(s.freeCalls || 0)) + ' frees'),
  ];
  return '<header><h1>emheap report: <span class="file">' + escapeHtml(file || snapshot.source || 'snapshot') + '</span></h1>' +
    '<table class="facts">' + rows.join('') + '</table></header>';
}

function liveSectionHtml(snapshot, data) {
  var out = '<section id="live"><h2>Live bytes over time</h2>';
  if (!data.live) return out + '<p class="missing">' + escapeHtml(reportData.whyNoTimeline(snapshot)) + '</p></section>';
  var s = snapshot.summary || {};
  var w = reportData.peakWindow(snapshot);
  var notes = [];
  notes.push('Live bytes (usable sizes, what the allocator reserved) at each point of the timeline; the red dashed line is ' +
    'the peak, ' + formatBytesExact(s.peakLiveBytes || 0) + ', which the points (taken every 100 ms or so) may miss' +
    (w ? '; ' + reportData.peakWindowText(w) + ' (shaded)' : '') + '.');
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
  if (w) out += '<p id="peak-window" class="peak-window">' + escapeHtml(reportData.peakWindowText(w)) + '</p>';
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
  if (!data.sites) return out + '<p class="missing">' + escapeHtml(reportData.whyNoSiteSeries(snapshot)) + '</p></section>';
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
      ['free', b.freeBytes, plural(b.freeBlocks, 'free block') + ' inside the heap'],
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
  // the program's pools, and a pool that seems to be there unseen (model/pools.js)
  var poolText = pools.poolLines(snapshot).concat([pools.unseenPoolNote(snapshot)]).filter(Boolean)
    .map(function (line) { return '<p class="pool">' + escapeHtml(line) + '</p>'; }).join('');
  return out + '<p id="breakdown-text">' + escapeHtml(breakdown.breakdownText(b)) + '</p>' + poolText +
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
  // what the row allocated, where blocks were sampled: estimates, held to
  // the exact totals (model/estimates.js boundedTotals)
  var made = estimates.hasSampledBlocks(snapshot) ? '~' : '';
  var label = row.label;
  return '<tr id="' + idPrefix + row.id + '" data-site="' + row.id + '"' + (series >= 0 ? ' data-series="' + series + '"' : '') +
    (series >= 0 ? ' class="charted"' : '') + '>' +
    '<td class="num rank">' + (series >= 0 ? '<span class="swatch" data-color="' + series + '"></span>' : '') + row.rank + '</td>' +
    bytesCell(row.liveBytes, estimated ? err : null) +
    '<td class="num" data-blocks="' + row.liveBlocks + '">' + (estimated ? '~' : '') + escapeHtml(formatCount(row.liveBlocks)) + '</td>' +
    '<td class="num" data-allocs="' + row.totalAllocs + '">' + made + escapeHtml(formatCount(Math.round(row.totalAllocs))) + '</td>' +
    bytesCell(row.totalBytes, made ? '' : null, 'data-total') +
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
      '<td class="num">' + (r.segments ? escapeHtml(Math.round(r.grewIn * r.segments) + ' of ' + r.segments) : '') + '</td>' +
      '<td class="stack">' + siteLink(snapshot, r.siteId) + '</td></tr>';
  }).join('');
  return out + '<table id="growing-table" class="sites"><thead><tr><th>verdict</th><th>live now</th><th>highest</th>' +
    '<th>trend</th><th>parts that grew</th><th>site</th></tr></thead><tbody>' + rows + '</tbody></table>' +
    '<p class="caption">' + escapeHtml('Each followed site\'s series, cut into up to ten parts: "grows without bound" grew in most ' +
    'parts and still grows at the end (a leak, or a structure nobody trims); "levels off" rose and then stayed flat (a cache ' +
    'or a pool that reached its size). Words, not certainty: a short run reads "grows without bound" until it shows its ' +
    'bound. Trend: least squares bytes per second over the series.') + '</p></section>';
}

// The report: one HTML page. uplotJs, uplotCss: the text of uPlot's
// dist/uPlot.iife.min.js and dist/uPlot.min.css; file: the snapshot's file
// name, for the header.
function reportHtml(snapshot, opts) {
  var o = opts || {};
  if (typeof o.uplotJs !== 'string' || typeof o.uplotCss !== 'string') {
    throw new Error('reportHtml: give uplotJs and uplotCss, the text of uPlot\'s dist/uPlot.iife.min.js and dist/uPlot.min.css');
  }
  var data = reportData.reportData(snapshot);
  var title = 'emheap report: ' + (o.file || snapshot.source || 'snapshot');
  return '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    '<title>' + escapeHtml(title) + '</title>\n' +
    '<style>\n' + inlineText(o.uplotCss, 'style') + '\n</style>\n' +
    '<style>\n' + reportPage.CSS + '\n</style>\n</head>\n<body>\n' +
    headerHtml(snapshot, o.file) + '\n' +
    liveSectionHtml(snapshot, data) + '\n' +
    timeSections.rateSectionHtml(snapshot, data, helpers) + '\n' +
    sitesSectionHtml(snapshot, data) + '\n' +
    memorySectionHtml(snapshot) + '\n' +
    topSectionHtml(snapshot, data) + '\n' +
    sinceSectionHtml(snapshot) + '\n' +
    timeSections.rangeSectionHtml(snapshot, helpers) + '\n' +
    growingSectionHtml(snapshot) + '\n' +
    timeSections.temporarySectionHtml(snapshot, helpers) + '\n' +
    timeSections.lifetimesSectionHtml(snapshot, helpers) + '\n' +
    '<footer>Made by <code>emheap report</code>. Charts by uPlot (MIT, github.com/leeoniya/uPlot), in this file. ' +
    'Nothing here loads from the network.</footer>\n' +
    '<script type="application/json" id="report-data">' + jsonForScript(data) + '</script>\n' +
    '<script>\n' + inlineText(o.uplotJs, 'script') + '\n</script>\n' +
    '<script>\n"use strict";\n(' + String(reportPage.pageScript) + ')(document, uPlot, ' + String(formatBytes) + ', ' +
    String(formatCount) + ', ' + String(ranges.startMarkAt) + ', ' + String(ranges.endMarkAfter) +
    ');\n</script>\n</body>\n</html>\n';
}

module.exports = {reportHtml: reportHtml, reportData: reportData.reportData, peakWindow: reportData.peakWindow,
  peakWindowText: reportData.peakWindowText,
  escapeHtml: escapeHtml, jsonForScript: jsonForScript};
