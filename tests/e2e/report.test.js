// report.test.js -- `emheap report`'s page (formats/report_html.js,
// cli/report.js) opened from disk (file://) in headless Chromium, as a
// person opens it: it runs without an error and asks for nothing but
// itself; both charts are drawn; the legend names the sites and leads to
// their rows, a row picks out its band; the marks are labelled; the table's
// numbers are `emheap top --json`'s and the memory line the model's; every
// tick label of every chart is drawn whole, inside its canvas, also for a
// busy run's long rates (busySnapshot). Then a
// snapshot whose names are HTML stays text, and an older file without the
// parts over time still opens. The snapshot comes from
// tests/fixtures/report/snapshots.js (EMHEAP_REPORT_SNAPSHOT swaps it), and
// from real runs of tests/runtime/marks_rounds.c and lifetimes.c (the range
// between two marks picked in the page, the temporaries, the lifetimes).
'use strict';

const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { launch, newPage, CHROMIUM_SKIP } = require('../lib/browser');
const { reportCommand } = require('../../cli/report');
const { topSites } = require('../../model/sites');
const { siteText } = require('../../model/growth');
const { memoryBreakdown, breakdownText } = require('../../model/memory_breakdown');
const { reportSnapshot, hostileSnapshot, oldSnapshot, busySnapshot, BUSY } = require('../fixtures/report/snapshots');
const { runWasmProgram } = require('../lib/run_wasm');
const { BUILD } = require('../lib/paths');
const { readView } = require('../../cli/read_view');
const { allocationRate } = require('../../model/allocation_rate');
const { parseSize } = require('../../cli/units');

const skip = CHROMIUM_SKIP;

// A real run's snapshot (built by make test).
const ROUNDS_PROGRAM = path.join(BUILD, 'marks_rounds.dlmalloc.js');
let rounds = null;
function roundsSnapshot() {
  if (!rounds) {
    const run = runWasmProgram(ROUNDS_PROGRAM);
    assert.equal(run.status, 0, run.stderr.slice(-2000));
    rounds = run.tagged.SNAPSHOT;
  }
  return JSON.parse(JSON.stringify(rounds));
}

describe('emheap report in Chromium', { skip }, () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-report-'));
  let browser = null;
  before(async () => { browser = await launch(); });
  after(async () => {
    if (browser) await browser.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  // The report of `snapshot` written to a file and opened from it, with
  // what the page asked for and what it said. Waits for its script's end.
  async function open(snapshot, name) {
    const file = path.join(tmp, `${name}.html`);
    fs.writeFileSync(file, reportCommand(snapshot, { file: `${name}.json` }));
    const { context, page, consoleMessages } = await newPage(browser);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.addInitScript(recordCanvasText);
    const requests = [];
    const dialogs = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
    const url = pathToFileURL(file).href;
    await page.goto(url);
    await page.waitForFunction(() => document.body.hasAttribute('data-charts'), null, { timeout: 10000 });
    const problems = () => consoleMessages.filter((m) => m.type === 'error' || m.type === 'pageerror' || m.type === 'warning');
    return { context, page, url, requests, dialogs, problems };
  }

  // Distinct colours drawn on each uPlot canvas, and how many pixels are not blank.
  const canvasColours = (page) => page.evaluate(() => Array.from(document.querySelectorAll('.uplot canvas')).map((c) => {
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let inked = 0;
    for (let i = 0; i < px.length; i += 4) {
      if (px[i + 3] === 0) continue;
      inked++;
      colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
    }
    return { chart: c.closest('.chart').id, colours: colours.size, inked, pixels: c.width * c.height };
  }));

  // Runs in the page before its scripts: every text a canvas draws (the
  // charts' tick labels) is kept on the canvas with the box its ink covers,
  // in the canvas's pixels: TextMetrics' actual bounding box about the
  // point drawn at (it follows the alignment and baseline), through the
  // context's transform.
  function recordCanvasText() {
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
      const m = this.measureText(text);
      const t = this.getTransform();
      const corners = [[x - m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent], [x + m.actualBoundingBoxRight, y - m.actualBoundingBoxAscent],
        [x - m.actualBoundingBoxLeft, y + m.actualBoundingBoxDescent], [x + m.actualBoundingBoxRight, y + m.actualBoundingBoxDescent]]
        .map(([cx, cy]) => t.transformPoint(new DOMPoint(cx, cy)));
      const xs = corners.map((c) => c.x);
      const ys = corners.map((c) => c.y);
      if (!this.canvas.drawnText) this.canvas.drawnText = [];
      this.canvas.drawnText.push({ text: String(text), left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) });
      return fillText.call(this, text, x, y, ...rest);
    };
  }

  // The labels each chart drew, by the side of the plot (uPlot's .u-over)
  // they are on, with its canvas's size, in the canvas's pixels.
  const drawnLabels = (page) => page.evaluate(() => Array.from(document.querySelectorAll('.chart .uplot'), (chart) => {
    const canvas = chart.querySelector('canvas');
    const c = canvas.getBoundingClientRect();
    const o = chart.querySelector('.u-over').getBoundingClientRect();
    const px = canvas.width / c.width;
    const plot = { left: (o.left - c.left) * px, right: (o.right - c.left) * px, bottom: (o.bottom - c.top) * px };
    const sides = { left: [], right: [], bottom: [], inside: [] };
    for (const l of canvas.drawnText || []) {
      const side = l.top >= plot.bottom ? 'bottom' : l.right <= plot.left ? 'left' : l.left >= plot.right ? 'right' : 'inside';
      sides[side].push(l);
    }
    return { chart: chart.closest('.chart').id, width: canvas.width, height: canvas.height, sides };
  }));

  // Every tick label of every chart is drawn whole: its ink inside its
  // canvas, which clips whatever reaches past it (an axis narrower than
  // its widest label cuts that label's first digits on the left, its last
  // on the right). Charts: the ids of those the page draws; the rate chart
  // has an axis on the right (calls per second). -> the labels.
  async function assertAxisLabelsWhole(page, charts) {
    const drawn = await drawnLabels(page);
    assert.deepEqual(drawn.map((c) => c.chart), charts);
    for (const c of drawn) {
      const texts = (side) => c.sides[side].map((l) => l.text);
      assert.deepEqual(texts('inside'), [], `${c.chart}: labels over the plot`);
      assert.ok(c.sides.left.length >= 2 && c.sides.bottom.length >= 2, `${c.chart}: ${JSON.stringify(c.sides)}`);
      assert.equal(c.sides.right.length >= 2, c.chart === 'chart-rate', `${c.chart}: ${texts('right')}`);
      const past = [...c.sides.left, ...c.sides.right, ...c.sides.bottom]
        .filter((l) => l.left < 0 || l.right > c.width || l.top < 0 || l.bottom > c.height);
      assert.deepEqual(past.map((l) => l.text), [], `${c.chart}: labels that reach past the canvas (${c.width} x ${c.height}): ${JSON.stringify(past)}`);
    }
    // the charts share one time axis: their plots begin and end at the same x
    const plots = await page.evaluate((ids) => ids.map((id) => {
      const box = document.querySelector(`#${id} .u-over`).getBoundingClientRect();
      return {id, left: Math.round(box.left), right: Math.round(box.right)};
    }), charts);
    for (const p of plots.slice(1)) {
      assert.deepEqual([p.left, p.right], [plots[0].left, plots[0].right], `${p.id}'s plot against ${plots[0].id}'s: ${JSON.stringify(plots)}`);
    }
    return drawn;
  }

  const sitesCanvas = (page) => page.evaluate(() => document.querySelector('#chart-sites canvas').toDataURL());

  // The same checks on the fixture and on a real run: the program of
  // tests/e2e/marks.test.js (marks "warm", then grow_list grows a fixed
  // amount each round while cache_put's cache levels off).
  const fullSnapshots = [['the full snapshot (fixture)', reportSnapshot, 'full']];
  if (fs.existsSync(ROUNDS_PROGRAM)) fullSnapshots.push(['a real run: marks_rounds.c', roundsSnapshot, 'rounds']);
  for (const [title, snapshotOf, name] of fullSnapshots) describe(title, () => {
    const snap = snapshotOf();
    let r = null;
    before(async () => { r = await open(snap, name); });
    after(async () => { if (r) await r.context.close(); });

    it('runs without an error and loads nothing but itself', () => {
      assert.deepEqual(r.problems(), []);
      assert.deepEqual(r.requests, [r.url]);
      assert.deepEqual(r.dialogs, []);
    });

    it('draws its charts: uPlot canvases with many colours on them, and the allocation rate where the points have calls', async () => {
      const rate = allocationRate(snap);
      const charts = rate ? ['chart-live', 'chart-rate', 'chart-sites'] : ['chart-live', 'chart-sites'];
      assert.equal(await r.page.getAttribute('body', 'data-charts'), String(charts.length));
      const canvases = await canvasColours(r.page);
      assert.deepEqual(canvases.map((c) => c.chart), charts);
      for (const c of canvases) {
        if (c.chart === 'chart-rate') {
          // lines, not bands: less ink
          assert.ok(c.colours > 3 && c.inked > c.pixels / 200, JSON.stringify(c));
          continue;
        }
        assert.ok(c.colours > 8, JSON.stringify(c));
        assert.ok(c.inked > c.pixels / 20, JSON.stringify(c));
      }
      if (rate) {
        // the page draws the model's numbers: its first series is the bytes per second
        const drawn = await r.page.evaluate(() => JSON.parse(document.getElementById('report-data').textContent).rate.bytes);
        assert.deepEqual(drawn, rate.bytesPerSecond);
        assert.ok(rate.bytesPerSecond.some((v) => v > 0), 'the run allocated between points');
      }
    });

    it('draws every tick label of every chart whole, at 1280 px', async () => {
      const charts = allocationRate(snap) ? ['chart-live', 'chart-rate', 'chart-sites'] : ['chart-live', 'chart-sites'];
      await assertAxisLabelsWhole(r.page, charts);
    });

    it('labels the marks, the growths and the peak on the live bytes chart', async () => {
      const got = await r.page.evaluate(() => ({
        marks: Array.from(document.querySelectorAll('#chart-live .mark-label'), (e) => e.textContent),
        growths: document.querySelectorAll('#chart-live .growth-marker').length,
        peak: document.querySelector('#chart-live .peak-label').textContent,
        window: (document.getElementById('peak-window') || {}).textContent,
      }));
      assert.deepEqual(got.marks, (snap.marks || []).map((m) => `#${m.number} ${m.name}`));
      assert.ok(got.marks.length > 0, 'the snapshot has marks');
      assert.equal(got.growths, snap.heapGrowth.filter((g) => typeof g.t === 'number').length);
      assert.match(got.peak, new RegExp(`^peak .*\\(${snap.summary.peakLiveBytes.toLocaleString('en-US')} B\\)$`));
      assert.match(got.window, /^the peak came between \d+\.(\d{3}|\d{6}) s and \d+\.(\d{3}|\d{6}) s$/);
    });

    it('names the sites in the legend, each a link to its row in the table', async () => {
      const legend = await r.page.evaluate(() => ({
        links: Array.from(document.querySelectorAll('#chart-sites .u-legend a'), (a) => ({ text: a.textContent, href: a.getAttribute('href'),
          row: !!document.getElementById(a.getAttribute('href').slice(1)) })),
        labels: Array.from(document.querySelectorAll('#chart-sites .u-legend .u-label'), (e) => e.textContent),
      }));
      const want = snap.siteTimeline.series.map((s) => ({ text: (s.estimated ? '~' : '') + siteText(snap, s.siteId), href: `#site-${s.siteId}`, row: true }));
      const byHref = (a, b) => a.href.localeCompare(b.href);
      assert.deepEqual(legend.links.slice().sort(byHref), want.sort(byHref));
      assert.ok(legend.labels.some((t) => /^everything else/.test(t)), legend.labels.join('\n'));
      // a click on a name goes to the row and leaves the series drawn
      const first = snap.siteTimeline.series[0].siteId;
      await r.page.click(`#chart-sites .u-legend a[data-site="${first}"]`);
      assert.equal(await r.page.evaluate(() => location.hash), `#site-${first}`);
      assert.equal(await r.page.evaluate(() => document.querySelectorAll('#chart-sites .u-legend tr.u-off').length), 0);
    });

    it('the top sites table holds emheap top --json\'s numbers, exactly', async () => {
      const rows = await r.page.evaluate(() => Array.from(document.querySelectorAll('#top-table tbody tr'), (tr) => {
        const n = (attr) => Number(tr.querySelector(`[${attr}]`).getAttribute(attr));
        return { id: tr.id, rank: Number(tr.cells[0].textContent), liveBytes: n('data-bytes'), liveBlocks: n('data-blocks'),
          totalAllocs: n('data-allocs'), totalBytes: n('data-total') };
      }));
      const want = topSites(snap, { sort: 'bytes', top: 20 }).sites;
      assert.deepEqual(rows, want.map((s) => ({ id: `site-${s.id}`, rank: s.rank, liveBytes: s.liveBytes, liveBlocks: s.liveBlocks,
        totalAllocs: s.totalAllocs, totalBytes: s.totalBytes })));
    });

    it('says why the wasm memory is this big in the model\'s words', async () => {
      assert.equal(await r.page.textContent('#breakdown-text'), breakdownText(memoryBreakdown(snap)));
    });

    it('hovering a chart shows the exact values at that moment in both legends (the cursors move together)', async () => {
      await r.page.locator('#chart-live').scrollIntoViewIfNeeded();
      const over = await r.page.locator('#chart-live .u-over').boundingBox();
      await r.page.mouse.move(over.x + over.width * 0.6, over.y + over.height / 2, { steps: 3 });
      await r.page.waitForFunction(() => document.querySelector('#chart-live .u-legend .u-series:nth-child(2) .u-value').textContent !== '--');
      const values = await r.page.evaluate(() => ['#chart-live', '#chart-sites'].map((id) =>
        Array.from(document.querySelectorAll(`${id} .u-legend .u-value`), (e) => e.textContent)));
      assert.match(values[0][1], /^[\d.]+ (B|KiB|MiB|GiB) \([\d,]+ B\) in [\d,]+ blocks$/, values[0].join(' | '));
      assert.ok(values[1].slice(1).some((v) => /\([\d,]+ B\)$/.test(v)), values[1].join(' | '));
      assert.deepEqual(r.problems(), []);
      await r.page.mouse.move(0, 0);
    });

    it('a click on a row picks out its band in the sites chart; a second click puts it back', async () => {
      const before = await sitesCanvas(r.page);
      const row = r.page.locator('#top-table tr.charted').first();
      const site = await row.getAttribute('data-site');
      await row.click();
      assert.equal(await r.page.getAttribute('#chart-sites', 'data-focused'), site);
      assert.match(await row.getAttribute('class'), /focused/);
      assert.notEqual(await sitesCanvas(r.page), before);
      await row.click();
      assert.equal(await r.page.getAttribute('#chart-sites', 'data-focused'), null);
      assert.equal(await sitesCanvas(r.page), before);
    });

    it('the since-mark select shows one mark\'s table at a time', async () => {
      const marks = (snap.marks || []).length;
      // (the fixture makes 3 marks, marks_rounds.c 13)
      assert.ok(marks >= 2, `${marks} marks`);
      await r.page.selectOption('#since-select', '1');
      const shown = await r.page.evaluate(() => Array.from(document.querySelectorAll('.since'), (d) => !d.hidden));
      assert.deepEqual(shown, Array.from({ length: marks }, (_, i) => i === 1));
    });
  });

  // tests/runtime/lifetimes.c (tests/e2e/lifetimes.test.js knows its counts)
  const LIFETIMES_PROGRAM = path.join(BUILD, 'lifetimes.dlmalloc.js');
  describe('a real run of lifetimes.c: the range between two marks, the temporaries, the lifetimes', { skip: !fs.existsSync(LIFETIMES_PROGRAM) && 'run make test first' }, () => {
    it('shows the range start..end, switches to start..now when picked or dragged over, and ranks make_temporaries first', async () => {
      const run = runWasmProgram(LIFETIMES_PROGRAM);
      assert.equal(run.status, 0, run.stderr.slice(-2000));
      const file = path.join(tmp, 'lifetimes.json');
      fs.writeFileSync(file, JSON.stringify(run.tagged.SNAPSHOT));
      const r = await open(readView(file, {}), 'lifetimes');
      try {
        const rangeRows = () => r.page.evaluate(() => {
          const shown = Array.from(document.querySelectorAll('.range')).filter((d) => !d.hidden);
          return shown.map((d) => ({key: d.getAttribute('data-range'), rows: Array.from(d.querySelectorAll('tbody tr[data-site]'), (tr) => ({
            name: tr.querySelector('.stack').textContent.replace(/\s.*/, ''),
            blocks: Array.from(tr.querySelectorAll('td[data-blocks]'), (td) => Number(td.getAttribute('data-blocks'))),
          }))}));
        });
        let shown = await rangeRows();
        assert.equal(shown.length, 1);
        assert.equal(shown[0].key, '1-2');
        const byName = (rows, name) => rows.find((x) => x.name === name).blocks;
        assert.deepEqual(byName(shown[0].rows, 'churn'), [5000, 0, 0, 0]);
        assert.deepEqual(byName(shown[0].rows, 'fill_cache'), [0, 0, 300, 700]);
        assert.deepEqual(byName(shown[0].rows, 'keep_blocks'), [0, 200, 0, 0]);
        await r.page.selectOption('#range-end', 'now');
        shown = await rangeRows();
        assert.equal(shown[0].key, '1-now');
        assert.deepEqual(byName(shown[0].rows, 'fill_cache'), [0, 0, 400, 600]);
        assert.deepEqual(byName(shown[0].rows, 'keep_blocks'), [0, 250, 0, 0]);
        const temporary = await r.page.evaluate(() => ({
          total: document.getElementById('temporary-total').getAttribute('data-count'),
          first: document.querySelector('#temporary-table tbody tr .stack').textContent,
          count: document.querySelector('#temporary-table tbody tr td[data-count]').getAttribute('data-count'),
          lifetimes: document.querySelectorAll('#lifetimes-table tbody tr').length,
        }));
        assert.equal(temporary.total, '100100');
        assert.match(temporary.first, /^make_temporaries/);
        assert.equal(temporary.count, '100000');
        assert.equal(temporary.lifetimes, 4);
        await assertAxisLabelsWhole(r.page, ['chart-live', 'chart-rate', 'chart-sites']);
        // a drag over the live bytes chart between the two marks' lines
        // picks start..end (the x scale runs from live.xMin to live.xMax)
        const live = await r.page.evaluate(() => JSON.parse(document.getElementById('report-data').textContent).live);
        const over = await (await r.page.$('#chart-live .u-over')).boundingBox();
        const x = (t) => over.x + (t - live.xMin) / (live.xMax - live.xMin) * over.width;
        assert.equal(live.marks.length, 2);
        const a = {x: x(live.marks[0].t)};
        const b = {x: x(live.marks[1].t)};
        assert.ok(b.x - a.x > 8, `the marks are ${b.x - a.x} px apart`);
        const drag = async (x0, x1) => {
          const y = over.y + over.height / 2;
          await r.page.mouse.move(x0, y);
          await r.page.mouse.down();
          await r.page.mouse.move((x0 + x1) / 2, y, {steps: 4});
          await r.page.mouse.move(x1, y, {steps: 4});
          await r.page.mouse.up();
        };
        assert.equal((await rangeRows())[0].key, '1-now', 'as picked in the lists above');
        await drag(a.x + 2, b.x - 2);
        assert.equal((await rangeRows())[0].key, '1-2');
        assert.deepEqual(r.problems(), []);
      } finally {
        await r.context.close();
      }
    });
  });

  describe('a real run: both series, the marks, the peak, and the verdicts', { skip: !fs.existsSync(ROUNDS_PROGRAM) && 'run make test first' }, () => {
    it('names grow_list and cache_put in the legend, labels warm and every round, and says which grows without bound', async () => {
      const snap = roundsSnapshot();
      const r = await open(snap, 'rounds-verdicts');
      try {
        const got = await r.page.evaluate(() => ({
          legend: Array.from(document.querySelectorAll('#chart-sites .u-legend a'), (a) => a.textContent),
          marks: Array.from(document.querySelectorAll('#chart-live .mark-label'), (e) => e.textContent),
          peak: !!document.querySelector('#chart-live .peak-label'),
          verdicts: Array.from(document.querySelectorAll('#growing-table tbody tr'), (tr) =>
            [tr.querySelector('.stack').textContent.replace(/\s.*/, ''), tr.getAttribute('data-verdict')]),
          since: document.querySelector('.since[data-mark="0"] .since-total').getAttribute('data-bytes'),
        }));
        assert.ok(got.legend.some((t) => /^grow_list/.test(t)) && got.legend.some((t) => /^cache_put/.test(t)), got.legend.join(' | '));
        assert.equal(got.marks[0], '#1 warm');
        assert.equal(got.marks.length, 13);
        assert.ok(got.peak);
        assert.deepEqual(got.verdicts.slice(0, 2).map((v) => v[1]), ['grows without bound', 'levels off']);
        assert.match(got.verdicts[0][0], /^grow_list/);
        assert.match(got.verdicts[1][0], /^cache_put/);
        assert.equal(Number(got.since), 12 * 64 * 1024 + 96 * 1024);
        assert.deepEqual(r.problems(), []);
      } finally {
        await r.context.close();
      }
    });
  });

  describe('a busy run: tens of MiB and hundreds of thousands of calls a second (tests/fixtures/report/snapshots.js)', () => {
    it('draws the allocation rate\'s long labels whole on both axes, as on every chart', async () => {
      const r = await open(busySnapshot(), 'busy');
      try {
        assert.deepEqual(r.problems(), []);
        const drawn = await assertAxisLabelsWhole(r.page, ['chart-live', 'chart-rate', 'chart-sites']);
        const rate = drawn.find((c) => c.chart === 'chart-rate');
        // the axes reach the planned rates: the scales run to 1.1 times the highest
        const highest = (side, parse) => Math.max(...rate.sides[side].map((l) => parse(l.text)));
        const bytesPerSecond = highest('left', (text) => parseSize(text.replace(/\/s$/, '').replace(' ', ''), 'tick'));
        const callsPerSecond = highest('right', (text) => Number(text.replace(/,/g, '')));
        assert.ok(bytesPerSecond >= BUSY.bytesPerSecond / 2 && bytesPerSecond <= BUSY.bytesPerSecond * 1.1, rate.sides.left.map((l) => l.text).join(' | '));
        assert.ok(callsPerSecond >= BUSY.callsPerSecond / 2 && callsPerSecond <= BUSY.callsPerSecond * 1.1, rate.sides.right.map((l) => l.text).join(' | '));
      } finally {
        await r.context.close();
      }
    });
  });

  it('names that are HTML stay text: nothing runs, nothing is added to the page', async () => {
    const snap = hostileSnapshot();
    const r = await open(snap, 'hostile');
    try {
      assert.deepEqual(r.problems(), []);
      assert.deepEqual(r.dialogs, []);
      assert.deepEqual(r.requests, [r.url]);
      const got = await r.page.evaluate(() => ({
        title: document.title, injected: !!document.getElementById('injected'), imgs: document.images.length,
        scripts: document.scripts.length, source: document.querySelector('table.facts tr:nth-child(2) td').textContent,
        marks: Array.from(document.querySelectorAll('.mark-label'), (e) => e.textContent),
        legend: Array.from(document.querySelectorAll('#chart-sites .u-legend a'), (a) => a.textContent),
      }));
      assert.match(got.title, /^emheap report: hostile\.json$/);
      assert.equal(got.injected, false);
      assert.equal(got.imgs, 0);
      assert.equal(got.scripts, 3);
      assert.equal(got.source, snap.source);
      if (snap.marks && snap.marks.length) assert.equal(got.marks[0], `#${snap.marks[0].number} ${snap.marks[0].name}`);
      const want = snap.siteTimeline.series.map((s) => siteText(snap, s.siteId)).sort();
      assert.deepEqual(got.legend.slice().sort(), want);
    } finally {
      await r.context.close();
    }
  });

  it('an older file (no timeline, marks or site series) opens and says what is missing', async () => {
    const r = await open(oldSnapshot(), 'old');
    try {
      assert.deepEqual(r.problems(), []);
      assert.deepEqual(r.requests, [r.url]);
      assert.equal(await r.page.getAttribute('body', 'data-charts'), '0');
      const missing = await r.page.evaluate(() => Array.from(document.querySelectorAll('.missing'), (e) => e.textContent));
      assert.ok(missing.length >= 4, missing.join('\n'));
      assert.ok(missing.some((t) => /no timeline/.test(t)));
      assert.equal(await r.page.locator('#top-table tbody tr').count(), topSites(oldSnapshot(), { top: 20 }).sites.length);
    } finally {
      await r.context.close();
    }
  });
});
