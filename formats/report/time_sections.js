// time_sections.js: the report's sections on memory over time: the
// allocation rate's chart, what a
// range between two marks did (the four classes of model/ranges.js, a
// table per pair of marks, picked with two lists in the page), the
// temporary allocations, and each row's lifetimes (model/lifetimes.js).
// A range is picked with two lists, or by a drag over the live bytes
// chart (the marks nearest its ends).
// The tables are made here, whole; the page's script only shows the one
// picked (formats/report/page.js), so the file needs no server.
//
// Pure CommonJS: see formats/README.md for the rules this code follows.

var numbers = require('../../model/numbers');
var ranges = require('../../model/ranges');
var lifetimes = require('../../model/lifetimes');
var reportData = require('./data');

var ROWS = 20;          // rows of each table
var RANGE_MARKS = 8;    // the last marks with records a range can start or end at

// h: {escapeHtml, siteLink(snapshot, id)} from report_html.js.
function rangeSectionHtml(snapshot, h) {
  var out = '<section id="range"><h2>What a range did</h2>';
  var kept = snapshot.markRanges ? snapshot.markRanges.marks.slice(-RANGE_MARKS) : [];
  var marks = (snapshot.marks || []).filter(function (m) { return kept.indexOf(m.number) >= 0; });
  if (snapshot.mode !== 'exact' || !marks.length) {
    return out + '<p class="missing">' + h.escapeHtml(snapshot.mode !== 'exact'
      ? 'Ranges need exact mode: in ' + snapshot.mode + ' mode the sites hold estimates.'
      : 'No mark of this snapshot recorded what each site held (marks made on the main thread in exact mode do; ' +
        'files before layout 15 have none).') + '</p></section>';
  }
  var label = function (m) { return m ? '#' + m.number + ' "' + m.name + '" (' + (m.t / 1000).toFixed(3) + ' s)' : 'now'; };
  var tables = [];
  var first = null;
  marks.forEach(function (a, i) {
    marks.slice(i + 1).concat([null]).forEach(function (b) {
      var key = a.number + '-' + (b ? b.number : 'now');
      if (first === null) first = key;
      var r = ranges.betweenRows(snapshot, '#' + a.number, b ? '#' + b.number : 'now');
      tables.push('<div class="range" data-range="' + key + '"' + (key === first ? '' : ' hidden') + '>' +
        rangeTableHtml(snapshot, r, h) + '</div>');
    });
  });
  var options = function (list, selected) {
    return list.map(function (m) {
      var v = m ? String(m.number) : 'now';
      return '<option value="' + v + '"' + (m ? ' data-t="' + m.t / 1000 + '"' : '') + (v === selected ? ' selected' : '') + '>' +
        h.escapeHtml(label(m)) + '</option>';
    }).join('');
  };
  var firstEnd = marks.length > 1 ? String(marks[1].number) : 'now';
  return out + '<p><label>From mark <select id="range-start">' + options(marks, String(marks[0].number)) + '</select></label> ' +
    '<label>to <select id="range-end">' + options(marks.slice(1).concat([null]), firstEnd) + '</select></label>: ' +
    'bytes and blocks by function, in four classes (exact in exact mode; the runtime records what each site holds at ' +
    'the last 16 marks made on the main thread). A drag over the live bytes chart picks the marks nearest its ends.</p>' + tables.join('') +
    '<p class="missing" id="range-none" hidden>The end must come after the start.</p></section>';
}

function rangeTableHtml(snapshot, r, h) {
  var tilde = r.estimated ? '~' : '';
  var cell = function (c) {
    return '<td class="num" data-bytes="' + c.bytes + '" data-blocks="' + c.blocks + '">' +
      (c.blocks ? h.escapeHtml(tilde + numbers.formatBytes(c.bytes) + ' / ' + numbers.formatCount(c.blocks)) : '.') + '</td>';
  };
  var head = '<tr><th>#</th>' + ranges.CLASSES.map(function (k) { return '<th>' + ranges.CLASS_TITLES[k] + '</th>'; }).join('') + '<th>site</th></tr>';
  var totals = '<tr class="totals"><td></td>' + ranges.CLASSES.map(function (k) { return cell(r.totals[k]); }).join('') +
    '<td>all</td></tr>';
  var rows = r.sites.slice(0, ROWS).map(function (s) {
    return '<tr data-site="' + s.id + '"><td class="num">' + s.rank + '</td>' +
      ranges.CLASSES.map(function (k) { return cell(s[k]); }).join('') + '<td class="stack">' + h.siteLink(snapshot, s.id) + '</td></tr>';
  }).join('');
  return '<table class="sites range-table"><thead>' + head + '</thead><tbody>' + totals + rows + '</tbody></table>' +
    (r.sites.length > ROWS ? '<p class="caption">' + r.sites.length + ' rows, the first ' + ROWS + ' shown.</p>' : '');
}

function temporarySectionHtml(snapshot, h) {
  var out = '<section id="temporary"><h2>Temporary allocations</h2>';
  var why = lifetimes.notCountedText(snapshot);
  if (why) return out + '<p class="missing">' + h.escapeHtml(why) + '</p></section>';
  var t = lifetimes.temporaryRows(snapshot);
  var rows = t.sites.slice(0, ROWS).map(function (r) {
    return '<tr data-site="' + r.id + '"><td class="num">' + r.rank + '</td><td class="num" data-count="' + r.temporaryAllocs + '">' +
      (r.atLeast ? '&ge;' : '') + h.escapeHtml(numbers.formatCount(r.temporaryAllocs)) + '</td><td class="num">' +
      h.escapeHtml((100 * r.shareOfAllocs).toFixed(1)) + '%</td><td class="num">' + h.escapeHtml(numbers.formatCount(r.totalAllocs)) +
      '</td><td class="stack">' + h.siteLink(snapshot, r.id) + '</td></tr>';
  }).join('');
  return out + '<p id="temporary-total" data-count="' + t.temporaryAllocs + '">' +
    h.escapeHtml(numbers.formatCount(t.temporaryAllocs) + ' of ' + numbers.formatCount(t.totalAllocs) + ' allocations were freed ' +
    'before their thread allocated again (heaptrack\'s temporary allocations): a candidate for the stack, or for reuse.') + '</p>' +
    (rows ? '<table id="temporary-table" class="sites"><thead><tr><th>#</th><th>temporary</th><th>of its allocations</th>' +
      '<th>allocations</th><th>site</th></tr></thead><tbody>' + rows + '</tbody></table>' : '') + '</section>';
}

function lifetimesSectionHtml(snapshot, h) {
  var out = '<section id="lifetimes"><h2>How long blocks live</h2>';
  var why = lifetimes.notCountedText(snapshot);
  if (why) return out + '<p class="missing">' + h.escapeHtml(why) + '</p></section>';
  var l = lifetimes.lifetimeRows(snapshot);
  var head = '<tr><th>#</th><th>allocations</th><th>still live</th><th>median</th>' +
    lifetimes.AGE_BOUNDS.map(function (b, i) { return '<th>' + h.escapeHtml(lifetimes.ageLabel(i)) + '</th>'; }).join('') +
    (l.timeShown ? lifetimes.TIME_BOUNDS_MS.map(function (b, i) { return '<th>' + h.escapeHtml(lifetimes.timeLabel(i)) + '</th>'; }).join('') : '') +
    '<th>site</th></tr>';
  var n = function (c) { return '<td class="num" data-count="' + c + '">' + (c ? h.escapeHtml(numbers.formatCount(c)) : '.') + '</td>'; };
  var rows = l.sites.slice(0, ROWS).map(function (r) {
    return '<tr data-site="' + r.id + '"><td class="num">' + r.rank + '</td><td class="num">' + h.escapeHtml(numbers.formatCount(r.totalAllocs)) +
      '</td>' + n(r.live) + '<td class="num">' + h.escapeHtml(r.median === null ? '-' : r.median) + '</td>' +
      r.byAge.map(function (b) { return n(b.blocks); }).join('') + (r.byTime ? r.byTime.map(function (b) { return n(b.blocks); }).join('') : '') +
      '<td class="stack">' + h.siteLink(snapshot, r.id) + '</td></tr>';
  }).join('');
  return out + '<p class="caption">' + h.escapeHtml(l.note + '. Columns: blocks that ended, by the allocations made after ' +
    'them' + (l.timeShown ? ', then by time' : '') + '.') + '</p>' +
    '<table id="lifetimes-table" class="sites"><thead>' + head + '</thead><tbody>' + rows + '</tbody></table></section>';
}

// The allocation rate's chart (drawn by formats/report/page.js from
// data.rate), or why there is none.
function rateSectionHtml(snapshot, data, h) {
  var out = '<section id="rate"><h2>Allocation rate</h2>';
  if (!data.rate) return out + '<p class="missing">' + h.escapeHtml(reportData.whyNoRate(snapshot)) + '</p></section>';
  return out + '<div id="chart-rate" class="chart"></div><p class="caption">' + h.escapeHtml('Bytes allocated per second ' +
    '(usable sizes, what the allocator handed out) and allocation calls per second (malloc, calloc, realloc, memalign; ' +
    'right axis) between each two points of the timeline; the sites of the chart above in their colours (the bytes ' +
    'they asked for).' + (data.rate.series.some(function (x) { return x.estimated; }) ? ' ~: estimates (sampled blocks).' : '')) +
    '</p></section>';
}

module.exports = {rateSectionHtml: rateSectionHtml, rangeSectionHtml: rangeSectionHtml, temporarySectionHtml: temporarySectionHtml, lifetimesSectionHtml: lifetimesSectionHtml};
