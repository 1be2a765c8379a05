// marks.test.js -- marks, what was allocated after them, and which sites
// keep growing (runtime/marks.c, capture/mark_log.js, capture/site_series.js,
// model/marks.js, model/growing.js): tests/runtime/marks_rounds.c marks
// "warm", then in each of 12 rounds keeps 64 KiB more at grow_list while
// cache_put's cache levels off at 96 KiB from round 3; load_assets' 100 KiB
// came before the mark. `emheap top --since warm` ranks grow_list first
// with exactly its 12 rounds' bytes, `--between` splits rounds 4-6 into
// what they made, kept and freed, and `--growing` says grow_list grows without bound and the
// cache levels off. The same with both allocators, with the rounds on a
// pthread, and with the block serials numbered again in round 5. In
// headless Chromium, Ctrl+Shift+M and emheap.mark() add marks and
// emheap.liveSince() gives the CLI's numbers.
'use strict';

const {describe, test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {runCli} = require('../lib/cli');
const {validateSnapshot} = require('../lib/schemas');
const {BUILD} = require('../lib/paths');
const {newPage, servedProgramPage, CHROMIUM_SKIP} = require('../lib/browser');
const {downloadFrom} = require('../lib/sample_page');

const program = (variant) => path.join(BUILD, `marks_rounds.${variant}.js`);
const KIB = 1024;
const ROUNDS = 12;
const PER_ROUND = 64 * KIB; // grow_list's, 16 blocks of 4 KiB
const CACHE = 96 * KIB;     // cache_put's 24 entries of 4 KiB
const ASSETS = 100 * KIB;   // load_assets', before "warm"

function runIn(t, variant, env) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-marks-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  const run = runWasmProgram(program(variant), {cwd: dir, env: env || {}});
  assert.equal(run.status, 0, run.stderr.slice(-2000));
  const snapshot = run.tagged.SNAPSHOT;
  assert.ok(snapshot, 'the program printed its snapshot');
  const file = path.join(dir, 'marks.json');
  fs.writeFileSync(file, JSON.stringify(snapshot));
  const cli = (args) => {
    const r = runCli(args, {cwd: dir});
    return {status: r.status, stdout: r.stdout, stderr: r.stderr, json: r.status === 0 && args.includes('--json') ? JSON.parse(r.stdout) : null};
  };
  return {run, snapshot, file, cli};
}

const byLabel = (sites, re) => sites.find((s) => re.test(s.label));

for (const variant of ['dlmalloc', 'emmalloc', 'threads', 'wrap']) {
  test(`${variant}: --since warm ranks grow_list first with exactly its bytes, --between splits the rounds in between, --growing tells the grower from the cache`, (t) => {
    const {run, snapshot, file, cli} = runIn(t, variant);
    assert.deepEqual(validateSnapshot(snapshot), []);
    assert.deepEqual(snapshot.marks.map((m) => m.name), ['warm', ...Array.from({length: ROUNDS}, (_, i) => `round ${i + 1}`)]);
    assert.deepEqual(snapshot.marks.map((m) => m.number), Array.from({length: ROUNDS + 1}, (_, i) => i + 1));
    snapshot.marks.forEach((m, i) => { if (i) assert.ok(m.t >= snapshot.marks[i - 1].t); });
    if (variant === 'wrap') assert.equal(run.tagged.RENUMBERS.count, 1, 'the serials were numbered again once');
    // every live block is in one period: the periods add up to the site
    for (const s of snapshot.sites) {
      const rows = s.liveByMark || [];
      assert.equal(rows.length % 4, 0);
      assert.equal(rows.filter((_, i) => i % 4 === 1).reduce((a, b) => a + b, 0), s.liveBytes, s.key);
      assert.equal(rows.filter((_, i) => i % 4 === 2).reduce((a, b) => a + b, 0), s.liveBlocks, s.key);
    }

    const since = cli(['top', file, '--since', 'warm', '--json']).json;
    assert.equal(since.since.name, 'warm');
    assert.match(since.sites[0].label, /^grow_list/);
    assert.equal(since.sites[0].liveBytes, ROUNDS * PER_ROUND);
    assert.equal(since.sites[0].liveBlocks, ROUNDS * 16);
    assert.equal(byLabel(since.sites, /^cache_put/).liveBytes, CACHE);
    assert.equal(byLabel(since.sites, /^load_assets/), undefined, 'load_assets allocated before the mark');
    assert.equal(since.liveBytes, ROUNDS * PER_ROUND + CACHE);
    assert.equal(since.estimatedLiveBytes, 0);
    // "#1" is the same mark
    assert.deepEqual(cli(['top', file, '--since', '#1', '--json']).json.sites, since.sites);
    // a file the CLI wrote (speedscope, carrying the snapshot) answers the same
    const converted = path.join(path.dirname(file), 'marks.speedscope.json');
    assert.equal(cli(['convert', file, '--to', 'speedscope', '-o', converted]).status, 0);
    assert.deepEqual(cli(['top', converted, '--since', 'warm', '--json']).json.sites, since.sites);

    // rounds 4, 5 and 6: grow_list kept 3 rounds more; the cache's 24
    // entries from before were all evicted, and 24 new ones kept
    const between = cli(['top', file, '--between', 'round 3', 'round 6', '--json']).json;
    const classes = (re) => {
      const r = byLabel(between.sites, re);
      return [r.inFreedIn.bytes, r.inLiveAtEnd.bytes, r.beforeFreedIn.bytes, r.beforeLiveThrough.bytes];
    };
    assert.deepEqual(classes(/^grow_list/), [0, 3 * PER_ROUND, 0, 3 * PER_ROUND]);
    assert.deepEqual(classes(/^cache_put/), [0, CACHE, CACHE, 0]);
    assert.deepEqual(classes(/^load_assets/), [0, 0, 0, ASSETS]);
    assert.equal(between.estimated, false);
    // the last three rounds hold the whole cache
    const last = cli(['top', file, '--since', 'round 9', '--json']).json;
    assert.equal(byLabel(last.sites, /^cache_put/).liveBytes, CACHE);
    assert.equal(byLabel(last.sites, /^grow_list/).liveBytes, 3 * PER_ROUND);

    const growing = cli(['top', file, '--growing', '--json']).json;
    const verdict = (re) => byLabel(growing.sites, re).verdict;
    assert.equal(growing.sites[0].label.replace(/\+.*/, ''), 'grow_list');
    assert.equal(verdict(/^grow_list/), 'grows without bound');
    assert.equal(verdict(/^cache_put/), 'levels off');
    assert.equal(verdict(/^load_assets/), 'steady');
    assert.equal(byLabel(growing.sites, /^grow_list/).lastBytes, ROUNDS * PER_ROUND);
    assert.equal(byLabel(growing.sites, /^load_assets/).lastBytes, ASSETS);

    // the same in words
    const text = cli(['top', file, '--growing']).stdout;
    assert.match(text, /^1 +grows without bound .* grow_list +grow_list < /m);
    assert.match(text, /^2 +levels off .* cache_put +cache_put < /m);
    assert.match(cli(['top', file, '--growing', '--by', 'site']).stdout, /^1 +grows without bound .* grow_list\+/m);
    const sinceText = cli(['top', file, '--since', 'warm']).stdout;
    assert.match(sinceText, /allocated since mark #1 "warm" \(at \d+\.\d{3} s\) and still live: 864\.00 KiB \(884,736 B\) in 216 blocks/);
    assert.match(sinceText, /marks: 13, the last 10: #4 "round 3" at/);
  });
}

test('sampled mode: what came after a mark is an estimate, and says so, with its error', (t) => {
  const {snapshot, file, cli} = runIn(t, 'dlmalloc', {EMHEAP_MODE: 'sampled', EMHEAP_SAMPLING_INTERVAL: '32768'});
  assert.equal(snapshot.mode, 'sampled');
  const since = cli(['top', file, '--since', 'warm', '--json']).json;
  assert.ok(since.sites.length > 0 && since.estimatedLiveBytes > 0, JSON.stringify(since.sites));
  assert.ok(!since.sites.some((s) => /^load_assets/.test(s.label)), 'load_assets came before the mark');
  for (const s of since.sites) assert.equal(s.estimatedLiveBytes, s.liveBytes, s.label);
  const text = cli(['top', file, '--since', 'warm']).stdout;
  assert.match(text, /and still live: ~[\d.]+ [KM]iB \+-\d+% in [\d,]+ blocks \(~: estimates from the sampled blocks/);
  // the series are the sites' estimates, scaled as the snapshot's sites are
  const growing = cli(['top', file, '--growing', '--json']).json;
  for (const g of growing.sites) {
    assert.equal(g.estimated, true, g.label);
    assert.equal(g.lastBytes, snapshot.sites.find((s) => s.id === g.siteId).liveBytes, g.label);
  }
});

test('a mark that is not there, marks in the wrong order, and options that do not go together: one clear line, exit 2', (t) => {
  const {file, cli} = runIn(t, 'dlmalloc');
  const cases = [
    [['--since', 'nope'], /no mark "nope" in this snapshot; its marks: #1 "warm", #2 "round 1"/],
    [['--since', '#99'], /no mark #99 in this snapshot/],
    [['--between', 'round 6', 'round 3'], /--between: mark #4 "round 3" is not after mark #7 "round 6"/],
    [['--between', 'warm'], /--between needs two values/],
    [['--since', 'warm', '--growing'], /--since and --growing cannot go together/],
    [['--since', 'warm', '--at', 'peak'], /not at the peak: leave --at peak out/],
    [['--growing', '--at', 'peak'], /a peak view has no series over time/],
    [['--since', 'warm', '--sort', 'count'], /--sort and --instances do not apply/],
  ];
  for (const [args, message] of cases) {
    const r = cli(['top', file, ...args]);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, message, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1);
  }
});

describe('marks in headless Chromium', {skip: CHROMIUM_SKIP}, () => {
  const {served} = servedProgramPage(program('dlmalloc'));
  test('Ctrl+Shift+M and emheap.mark() add marks; emheap.liveSince() gives the numbers emheap top gives', async (t) => {
    const {context, page, consoleMessages} = await newPage(served.browser);
    try {
      await page.goto(`${served.server.url}/index.html`);
      await page.waitForFunction(() => typeof emheap !== 'undefined' && emheap.mark &&
        JSON.parse(emheap.getSnapshotJson()).liveBytes > 900 * 1024, null, {timeout: 30000});
      await page.keyboard.press('Control+Shift+M');
      await page.waitForFunction(() => emheap.snapshot().marks.length === 14, null, {timeout: 5000});
      assert.ok(consoleMessages.some((m) => /^emheap: mark #14 "mark 14" at \d+\.\d{3} s$/.test(m.text)),
        consoleMessages.map((m) => m.text).join('\n'));
      const made = await page.evaluate(() => emheap.mark('after the load'));
      assert.equal(made.number, 15);
      assert.equal(made.name, 'after the load');
      const long = await page.evaluate(() => emheap.mark('é'.repeat(40)).name);
      assert.equal(long, 'é'.repeat(23), 'cut at 47 bytes, at a character');
      const bad = await page.evaluate(() => { try { emheap.mark(42); return null; } catch (e) { return e.message; } });
      assert.match(bad, /name must be a string/);

      const inPage = await page.evaluate(() => emheap.liveSince('warm'));
      // the file Ctrl+Shift+H saves carries the marks, the ages and the series
      const saved = await downloadFrom(page, () => page.keyboard.press('Control+Shift+H'));
      assert.deepEqual(validateSnapshot(saved.json.emheap), []);
      assert.equal(saved.json.emheap.marks.length, 16);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-marks-page-'));
      t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
      const file = path.join(dir, saved.name);
      fs.writeFileSync(file, saved.text);
      const cli = JSON.parse(runCli(['top', file, '--since', 'warm', '--json', '--top', '0'], {cwd: dir}).stdout);
      const growing = JSON.parse(runCli(['top', file, '--growing', '--json'], {cwd: dir}).stdout);
      // (the page then sat idle while the timer added points: grow_list
      // stopped growing, and its verdict depends on how long it sat)
      assert.equal(growing.sites.find((g) => /^grow_list/.test(g.label)).lastBytes, ROUNDS * PER_ROUND);
      assert.deepEqual(inPage.sites.map((s) => [s.id, s.liveBytes, s.liveBlocks]), cli.sites.map((s) => [s.id, s.liveBytes, s.liveBlocks]));
      assert.equal(inPage.sites[0].liveBytes, ROUNDS * PER_ROUND);
      // nothing was allocated after the page's own marks
      assert.deepEqual(await page.evaluate(() => emheap.liveSince('after the load').sites), []);
      // (the page has no favicon: its 404 is the only error allowed)
      const errors = consoleMessages.filter((m) => (m.type === 'error' && !/404 \(Not Found\)/.test(m.text)) || m.type === 'pageerror');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});

