// report_html.test.js -- `emheap report`'s page (formats/report_html.js,
// cli/report.js) as text, without a browser: the parts in their order, the
// numbers against emheap's model (what `emheap top --json` prints), the
// charts' data against the snapshot, every snapshot text escaped, and
// older files that lack the parts over time. tests/e2e/report.test.js opens
// the page in Chromium.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { reportHtml, reportData, peakWindow, peakWindowText, escapeHtml, jsonForScript } = require('../formats/report_html');
const { reportCommand } = require('../cli/report');
const { topSites, modeNote } = require('../model/sites');
const { siteText } = require('../model/growth');
const { memoryBreakdown, breakdownText } = require('../model/memory_breakdown');
const { siteErrorText } = require('../model/estimates');
const { formatBytesExact } = require('../model/numbers');
const { reportSnapshot, hostileSnapshot, oldSnapshot, HOSTILE } = require('./fixtures/report/snapshots');

const UPLOT = { uplotJs: '/* uplot */ var uPlot = function () {};', uplotCss: '.uplot {}' };

// The JSON data element's value, parsed as the page parses it.
function pageData(html) {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(m, 'the data element');
  return JSON.parse(m[1]);
}

// Attributes of the rows of a table (by id), as {attr: value} per row.
function tableRows(html, id) {
  const m = new RegExp(`<table id="${id}"[^>]*>([\\s\\S]*?)</table>`).exec(html);
  assert.ok(m, `table ${id}`);
  return [...m[1].matchAll(/<tr id="site-(\d+)"[^>]*>([\s\S]*?)<\/tr>/g)].map((r) => {
    const attr = (name) => Number(new RegExp(`${name}="(\\d+)"`).exec(r[2])[1]);
    return { id: Number(r[1]), bytes: attr('data-bytes'), blocks: attr('data-blocks'), allocs: attr('data-allocs'), total: attr('data-total'), html: r[2] };
  });
}

test('the parts in their order; uPlot and the data inlined; nothing loaded from elsewhere', () => {
  const snap = reportSnapshot();
  const html = reportCommand(snap, { file: 'game.snapshot.json' });
  assert.match(html, /^<!doctype html>\n<html lang="en">/);
  const ids = ['live', 'sites-over-time', 'memory', 'top-sites', 'since-mark', 'growing'];
  const at = ids.map((id) => html.indexOf(`<section id="${id}">`));
  assert.ok(at.every((i) => i > html.indexOf('<header>')), JSON.stringify(at));
  assert.deepEqual(at.slice().sort((a, b) => a - b), at);
  // the real uPlot, its CSS, then our script, after the data
  assert.match(html, /<script>\n\/\*! https:\/\/github.com\/leeoniya\/uPlot \(v1\.6\.32\) \*\//);
  assert.match(html, /<style>\n\.uplot, \.uplot \*/);
  assert.ok(html.indexOf('id="report-data"') < html.indexOf('(function pageScript(d, uPlot'));
  assert.match(html, /\(document, uPlot, function formatBytes\(n\)/);
  // no resource from anywhere: no src, no stylesheet link, no url(), no import
  assert.doesNotMatch(html, /<(script|img|iframe)[^>]* src=|<link[^>]*stylesheet|url\(\s*['"]?(https?:|\/\/)|@import/i);
  assert.deepEqual(pageData(html), reportData(snap));
  assert.equal((html.match(/<\/script>/g) || []).length, 3);
  assert.throws(() => reportHtml(snap, {}), /uplotJs and uplotCss/);
});

test('header: file, source, capture time, mode note, live bytes and peak as exact integers', () => {
  const snap = reportSnapshot();
  const html = reportHtml(snap, Object.assign({ file: 'runs/game.json' }, UPLOT));
  assert.match(html, /<title>emheap report: runs\/game\.json<\/title>/);
  assert.ok(html.includes(`<code>runs/game.json</code>`));
  assert.ok(html.includes(escapeHtml(snap.source)));
  assert.ok(html.includes(escapeHtml(snap.capturedAt)));
  assert.ok(html.includes(escapeHtml(modeNote(snap))));
  const s = snap.summary;
  assert.ok(html.includes(`<span id="live-bytes" data-bytes="${s.liveBytes}">${escapeHtml(formatBytesExact(s.liveBytes))}</span>`));
  assert.ok(html.includes(`<span id="peak-bytes" data-bytes="${s.peakLiveBytes}">${escapeHtml(formatBytesExact(s.peakLiveBytes))}</span>`));
});

test('top sites table: the rows and numbers of emheap top --json (top 20 by live bytes), ids to link to', () => {
  const snap = reportSnapshot();
  const html = reportHtml(snap, UPLOT);
  const want = topSites(snap, { sort: 'bytes', top: 20 }).sites;
  const rows = tableRows(html, 'top-table');
  assert.deepEqual(rows.map(({ id, bytes, blocks, allocs, total }) => ({ id, bytes, blocks, allocs, total })),
    want.map((s) => ({ id: s.id, bytes: s.liveBytes, blocks: s.liveBlocks, allocs: s.totalAllocs, total: s.totalBytes })));
  rows.forEach((r, i) => {
    assert.ok(r.html.includes(escapeHtml(siteText(snap, r.id))), `row ${i + 1}: its stack`);
    assert.match(r.html, new RegExp(`^<td class="num rank">(<span class="swatch" data-color="\\d+"></span>)?${i + 1}</td>`));
  });
  // every site drawn in the chart has a row to lead to
  for (const s of (snap.siteTimeline || { series: [] }).series) assert.ok(html.includes(`<tr id="site-${s.siteId}"`), `site ${s.siteId}`);
});

test('estimates are marked ~ with their standard error, in the table and the legend', () => {
  const snap = reportSnapshot();
  snap.mode = 'sampled';
  snap.samplingInterval = 524288;
  const top = topSites(snap, { sort: 'bytes', top: 1 }).sites[0];
  const site = snap.sites.find((s) => s.id === top.id);
  site.estimatedLiveBytes = Math.floor(site.liveBytes / 2);
  const series = snap.siteTimeline.series.find((s) => s.siteId === site.id);
  if (series) series.estimated = true;
  const html = reportHtml(snap, UPLOT);
  const row = tableRows(html, 'top-table').find((r) => r.id === site.id);
  assert.match(row.html, new RegExp(`data-bytes="${site.liveBytes}"[^>]*>~[^<]+ <span class="err">${siteErrorText(snap, site).replace(/[+]/g, '\\+')}</span>`));
  assert.match(row.html, /data-blocks="\d+">~/);
  if (series) {
    const data = reportData(snap);
    assert.equal(data.sites.series.find((s) => s.siteId === site.id).label, `~${siteText(snap, site.id)}`);
    assert.equal(data.sites.other.estimated, true);
    assert.match(html, /Sites marked ~ hold estimates/);
  }
});

test('why the wasm memory is this big: the model\'s line and parts that add up to the memory', () => {
  const snap = reportSnapshot();
  const html = reportHtml(snap, UPLOT);
  const b = memoryBreakdown(snap);
  assert.ok(b, 'the fixture has a breakdown');
  assert.ok(html.includes(`<p id="breakdown-text">${escapeHtml(breakdownText(b))}</p>`));
  const section = /<section id="memory">([\s\S]*?)<\/section>/.exec(html)[1];
  const parts = [...section.matchAll(/<tr><td><span class="swatch[^>]*><\/span>[^<]*<\/td><td class="num" data-bytes="(\d+)"/g)].map((m) => Number(m[1]));
  assert.ok(parts.length >= 5);
  assert.equal(parts.reduce((a, x) => a + x, 0), b.memoryBytes);
});

test('live bytes chart data: the timeline in seconds, marks, growths with times, the peak', () => {
  const snap = reportSnapshot();
  const { live } = reportData(snap);
  assert.deepEqual(live.t, snap.timeline.map((p) => p.t / 1000));
  assert.deepEqual(live.bytes, snap.timeline.map((p) => p.liveBytes));
  assert.deepEqual(live.marks.map((m) => [m.t, m.label]), (snap.marks || []).map((m) => [m.t / 1000, `#${m.number} ${m.name}`]));
  assert.equal(live.growths.length, snap.heapGrowth.filter((g) => typeof g.t === 'number').length);
  assert.equal(live.peak.bytes, snap.summary.peakLiveBytes);
  assert.equal(live.peak.label, `peak ${formatBytesExact(snap.summary.peakLiveBytes)}`);
  // the window, found here by brute force: the points around the moment
  // totalBytes passed totalBytesAtPeak
  const at = snap.summary.totalBytesAtPeak;
  const k = snap.timeline.findIndex((p) => p.totalBytes >= at);
  assert.ok(k > 0, 'the fixture\'s peak lies between two points');
  assert.deepEqual(peakWindow(snap), { fromMs: snap.timeline[k - 1].t, toMs: snap.timeline[k].t });
  assert.deepEqual([live.peak.from, live.peak.to], [snap.timeline[k - 1].t / 1000, snap.timeline[k].t / 1000]);
  // the peak itself is above every point (the points may miss it)
  assert.ok(snap.timeline.every((p) => p.liveBytes <= snap.summary.peakLiveBytes));
  assert.ok(reportHtml(snap, UPLOT).includes(`<p id="peak-window" class="peak-window">${peakWindowText(peakWindow(snap))}</p>`));
});

test('peak window: between, before the first point, after the last, at a point, or not known', () => {
  const snap = (totals, atPeak) => ({ summary: { totalBytesAtPeak: atPeak }, timeline: totals.map((b, i) => ({ t: 100 * i, liveBytes: 0, liveBlocks: 0, totalBytes: b })) });
  assert.deepEqual(peakWindow(snap([10, 20, 30], 25)), { fromMs: 100, toMs: 200 });
  // a point that had allocated exactly as much came after the peak's allocation
  assert.deepEqual(peakWindow(snap([10, 20, 30], 20)), { fromMs: 0, toMs: 100 });
  assert.deepEqual(peakWindow(snap([10, 20, 30], 5)), { fromMs: null, toMs: 0 });
  assert.deepEqual(peakWindow(snap([10, 20, 30], 35)), { fromMs: 200, toMs: null });
  assert.equal(peakWindowText(peakWindow(snap([10, 20, 30], 25))), 'the peak came between 0.100 s and 0.200 s');
  assert.equal(peakWindowText(peakWindow(snap([10, 20, 30], 5))), 'the peak came before 0.000 s (the first point)');
  assert.equal(peakWindowText(peakWindow(snap([10, 20, 30], 35))), 'the peak came after 0.200 s (the last point)');
  assert.equal(peakWindow({ summary: { totalBytesAtPeak: 25 }, timeline: [{ t: 0, liveBytes: 1, liveBlocks: 1 }] }), null);
  assert.equal(peakWindow({ summary: {}, timeline: snap([10], 0).timeline }), null);
});

test('sites over time: null before a site was followed, everything else = the total less the sites, stacked sums', () => {
  const snap = reportSnapshot();
  const { sites } = reportData(snap);
  const n = snap.timeline.length;
  assert.equal(sites.series.length, snap.siteTimeline.series.length);
  for (const src of snap.siteTimeline.series) {
    const s = sites.series.find((x) => x.siteId === src.siteId);
    assert.equal(s.label, (src.estimated ? '~' : '') + siteText(snap, src.siteId));
    assert.equal(s.values.length, n);
    for (let k = 0; k < n; k++) {
      const want = k >= src.from && k - src.from < src.liveBytes.length ? src.liveBytes[k - src.from] : null;
      assert.equal(s.values[k], want, `site ${src.siteId} at ${k}`);
    }
  }
  assert.ok(sites.series.some((s) => s.values[0] === null), 'the fixture has a site followed from a later point');
  for (let k = 0; k < n; k++) {
    const sum = sites.series.reduce((a, s) => a + (s.values[k] || 0), 0);
    assert.equal(sites.other.values[k] + sum, snap.timeline[k].liveBytes);
    // bottom first; the top of the stack is the timeline's live bytes
    let running = 0;
    sites.series.forEach((s, i) => {
      if (s.values[k] !== null) running += s.values[k];
      assert.equal(sites.stacked[i][k], s.values[k] === null ? null : running);
    });
    assert.equal(sites.stacked[sites.series.length][k], Math.max(sum, snap.timeline[k].liveBytes));
  }
  assert.match(sites.other.label, /everything else/);
  assert.match(sites.other.label, /allocator's rounding/);
  assert.equal(new Set(sites.series.map((s) => s.color)).size, sites.series.length);
});

test('every text from the snapshot is escaped; the page data gives it back intact', () => {
  const snap = hostileSnapshot();
  const html = reportHtml(snap, Object.assign({ file: `f${HOSTILE}.json` }, UPLOT));
  // The data element holds the names as JSON, where only "</" (and "<!--")
  // could end it: they are escaped; the markup around holds no tag of theirs.
  const m = /(<script type="application\/json" id="report-data">)([\s\S]*?)(<\/script>)/.exec(html);
  assert.doesNotMatch(m[2], /<\/|<!--/);
  const markup = html.replace(m[0], m[1] + m[3]);
  assert.doesNotMatch(markup, /<img/i);
  assert.doesNotMatch(markup, /<b id="injected"/);
  assert.doesNotMatch(markup, /<!--/);
  // three script elements, each closed once: the data, uPlot, ours
  assert.equal((markup.match(/<script/gi) || []).length, 3);
  assert.equal((markup.match(/<\/script/gi) || []).length, 3);
  assert.ok(html.includes(escapeHtml(HOSTILE)));
  assert.ok(html.includes(`<code>${escapeHtml(`f${HOSTILE}.json`)}</code>`));
  const data = pageData(html);
  assert.deepEqual(data, reportData(snap));
  if (snap.marks && snap.marks.length) assert.equal(data.live.marks[0].label, `#${snap.marks[0].number} mark${HOSTILE}`);
  if (data.sites) assert.ok(data.sites.series.every((x) => x.label.replace(/^~/, '') === siteText(snap, x.siteId)));
});

test('escapeHtml and jsonForScript', () => {
  assert.equal(escapeHtml('a<b & "c" \'d\'>'), 'a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;');
  assert.equal(escapeHtml(12), '12');
  const text = jsonForScript({ a: '</script><!--x', b: ['<', '</'] });
  assert.doesNotMatch(text, /<\/|<!--/);
  assert.deepEqual(JSON.parse(text), { a: '</script><!--x', b: ['<', '</'] });
});

test('a file without timeline, marks or per-site series: the page says what is missing and why', () => {
  const snap = oldSnapshot();
  const html = reportHtml(snap, UPLOT);
  assert.deepEqual(reportData(snap), { live: null, sites: null, rate: null });
  assert.doesNotMatch(html, /id="chart-live"|id="chart-sites"|id="chart-rate"/);
  const missing = [...html.matchAll(/<p class="missing">([^<]*)<\/p>/g)].map((m) => m[1]);
  assert.ok(missing.some((t) => /no timeline/.test(t)), missing.join('\n'));
  assert.ok(missing.some((t) => /No chart of the sites over time/.test(t) && /layout 14/.test(t)), missing.join('\n'));
  assert.ok(missing.some((t) => /No marks in this snapshot/.test(t)), missing.join('\n'));
  assert.ok(missing.some((t) => /No verdicts/.test(t)), missing.join('\n'));
  assert.ok(missing.some((t) => /no lifetimes: it was taken by an emheap older/.test(t)), missing.join('\n'));
  assert.ok(missing.some((t) => /No mark of this snapshot recorded|Ranges need exact mode/.test(t)), missing.join('\n'));
  // (fixtures.js's snapshot predates the breakdown's numbers)
  assert.ok(missing.some((t) => /files before layout 4/.test(t)), missing.join('\n'));
  assert.equal(tableRows(html, 'top-table').length, topSites(snap, { top: 20 }).sites.length);

  // a timeline, but nothing newer: live bytes drawn, sites over time not
  const timed = Object.assign(oldSnapshot(), { timeline: [{ t: 0, liveBytes: 10, liveBlocks: 1 }, { t: 100, liveBytes: 5932, liveBlocks: 10 }] });
  const data = reportData(timed);
  assert.equal(data.sites, null);
  assert.equal(data.rate, null, 'points without calls: no allocation rate');
  assert.match(reportHtml(timed, UPLOT), /No allocation rate: the timeline has no calls allocated so far at its points/);
  assert.deepEqual(data.live.marks, []);
  assert.equal(data.live.peak.from, null);
  assert.match(reportHtml(timed, UPLOT), /id="chart-live"/);
});

test('since a mark and what keeps growing: the model\'s numbers, a table per mark', () => {
  const snap = reportSnapshot();
  const html = reportHtml(snap, UPLOT);
  const { liveSince } = require('../model/marks');
  const { growingSites } = require('../model/growing');
  (snap.marks || []).forEach((m, i) => {
    const r = liveSince(snap, `#${m.number}`);
    const div = new RegExp(`<div class="since" data-mark="${i}"[^>]*><p class="since-total" data-bytes="(\\d+)">`).exec(html);
    assert.ok(div, `mark ${m.number}`);
    assert.equal(Number(div[1]), r.liveBytes);
  });
  const rows = [...html.matchAll(/<tr data-site="(\d+)" data-verdict="([^"]+)">/g)].map((m) => [Number(m[1]), m[2]]);
  assert.deepEqual(rows, growingSites(snap).map((r) => [r.siteId, escapeHtml(r.verdict)]));
});

test('a charted site outside the top 20 gets a row of its own below, so that its legend entry leads somewhere', () => {
  const snap = reportSnapshot();
  const smallest = snap.siteTimeline.series.map((s) => snap.sites.find((x) => x.id === s.siteId))
    .sort((a, b) => a.liveBytes - b.liveBytes)[0];
  // 20 sites bigger than it
  for (let i = 0; i < 20; i++) {
    snap.sites.push({ id: 1000 + i, key: `filler${i}`, stack: [], liveBytes: smallest.liveBytes + 1 + i, liveBlocks: 1,
      totalAllocs: 1, totalBytes: smallest.liveBytes + 1 + i, peakLiveBytes: smallest.liveBytes + 1 + i });
  }
  const html = reportHtml(snap, UPLOT);
  assert.ok(!tableRows(html, 'top-table').some((r) => r.id === smallest.id));
  const extra = tableRows(html, 'charted-table');
  assert.deepEqual(extra.map((r) => [r.id, r.bytes]), [[smallest.id, smallest.liveBytes]]);
  assert.equal((html.match(new RegExp(`id="site-${smallest.id}"`, 'g')) || []).length, 1);
});

test('the snapshot under test is a valid snapshot (schemas/emheap-snapshot.schema.json)', () => {
  const { validateSnapshot } = require('./lib/schemas');
  assert.deepEqual(validateSnapshot(reportSnapshot()), []);
});
