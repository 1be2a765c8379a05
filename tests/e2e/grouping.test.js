// grouping.test.js -- views by function, line or site on a program whose
// loops -O2 unrolled (tests/runtime/grow_unrolled.c): grow_list's 10 blocks
// a round come from many call sites, and by function they are one row.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {runCli} = require('../lib/cli');
const {BUILD} = require('../lib/paths');

const ROUNDS = 12;
const GROW_BYTES = ROUNDS * 10 * 1000;
// level_cache keeps the newest CACHE of its 8 x ROUNDS blocks of 700 B
const CACHE = 40;
const CACHE_BYTES = Math.min(CACHE, 8 * ROUNDS) * 700;

// The program's snapshot saved as a file (and the page's top of it:
// pageTop).
function snapshotFile(t, pageTop) {
  const r = runWasmProgram(path.join(BUILD, 'grow_unrolled.js'));
  assert.equal(r.status, 0, r.stderr);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-grouping-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  const file = path.join(dir, 'grow.json');
  fs.writeFileSync(file, JSON.stringify(r.tagged.SNAPSHOT));
  if (pageTop) pageTop.top = r.tagged.TOP;
  return file;
}

const json = (args) => {
  const r = runCli(args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};

test('--since warm by function: grow_list first, exactly its bytes, in one row that says how many call sites it holds', (t) => {
  const file = snapshotFile(t);
  const bySite = json(['top', file, '--since', 'warm', '--json', '--top', '0', '--by', 'site']);
  const growSites = bySite.sites.filter((s) => /^grow_list\+/.test(s.label));
  assert.ok(growSites.length > 1, `the unrolled loop is many call sites (${growSites.length})`);
  assert.equal(growSites.reduce((a, s) => a + s.liveBytes, 0), GROW_BYTES);

  const byFunction = json(['top', file, '--since', 'warm', '--json', '--top', '0']);
  assert.equal(byFunction.sites[0].label, 'grow_list');
  assert.equal(byFunction.sites[0].liveBytes, GROW_BYTES);
  assert.equal(byFunction.sites.filter((s) => s.label === 'grow_list').length, 1);
  const top = json(['top', file, '--json', '--top', '0']);
  const grow = top.sites.find((s) => s.label === 'grow_list');
  assert.equal(grow.callSites, growSites.length);
  assert.equal(grow.liveBytes, GROW_BYTES);
  // every byte in a row either way
  const sum = (sites) => sites.reduce((a, s) => a + s.liveBytes, 0);
  assert.equal(sum(top.sites), sum(json(['top', file, '--json', '--top', '0', '--by', 'site']).sites));
  const text = runCli(['top', file, '--since', 'warm']).stdout;
  assert.match(text, /^1\s+117\.19 KiB \(120,000 B\)\s+120\s+117\.19 KiB\s+grow_list\s+grow_list < main$/m);
});

test('--by line without debug info is by function; a bad --by is refused', (t) => {
  const file = snapshotFile(t);
  const byLine = json(['top', file, '--json', '--top', '0', '--by', 'line']);
  const byFunction = json(['top', file, '--json', '--top', '0']);
  assert.deepEqual(byLine.sites.map((s) => [s.label, s.liveBytes]), byFunction.sites.map((s) => [s.label, s.liveBytes]));
  const bad = runCli(['top', file, '--by', 'file']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--by: "file" is not one of function, line, site/);
});

test('--growing by function: grow_list, summed over all its call sites, grows without bound; level_cache levels off', (t) => {
  // The timeline follows the call sites of one chain of functions as one
  // series: grow_list's unrolled call sites are one.
  const file = snapshotFile(t);
  const growing = json(['top', file, '--growing', '--json']);
  assert.deepEqual(growing.sites.map((s) => [s.label, s.verdict]),
    [['grow_list', 'grows without bound'], ['level_cache', 'levels off']]);
  assert.equal(growing.sites[0].lastBytes, GROW_BYTES);
  assert.ok(growing.sites[0].callSites > 1);
  // by site no one call site has a series of its own, and that is said
  const bySite = runCli(['top', file, '--growing', '--by', 'site']);
  assert.equal(bySite.status, 2);
  assert.match(bySite.stderr, /--growing: \d+ sites were followed only summed with others of the same chain of functions: --by function shows that series/);
});

test('the report by function: one grow_list row in the top table and one grow_list series in the chart', (t) => {
  const file = snapshotFile(t);
  const html = path.join(path.dirname(file), 'grow.html');
  const r = runCli(['report', file, '-o', html]);
  assert.equal(r.status, 0, r.stderr);
  const page = fs.readFileSync(html, 'utf8');
  const topRows = page.match(/<td class="site" title="grow_list">/g) || [];
  assert.equal(topRows.length, 1);
  assert.match(page, /<td class="site" title="grow_list">grow_list<\/td>/);
  const charted = page.match(/data-series="\d+" class="charted"/g) || [];
  assert.equal(charted.length, 2, 'grow_list and level_cache, one series each');
  // the raw file still holds every call site
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.ok(raw.sites.filter((s) => s.liveBytes > 0).length > 100);
});

test('the page and the CLI give the same top for the same snapshot: one finishing pass, one grouping', (t) => {
  const page = {};
  const file = snapshotFile(t, page);
  const cli = json(['top', file, '--json', '--top', '0']);
  assert.equal(page.top.by, 'function');
  assert.ok(page.top.sites.length >= 2);
  assert.deepEqual(page.top.sites, cli.sites);
  assert.equal(page.top.totalSites, cli.totalSites);
});

test('--focus, --ignore, --hide and --by module, as pprof\'s options; the header says what a filtered view holds', (t) => {
  const file = snapshotFile(t);
  const all = json(['top', file, '--json', '--top', '0']);
  const focus = json(['top', file, '--json', '--top', '0', '--focus', '^level_']);
  assert.deepEqual(focus.sites.map((s) => [s.label, s.liveBytes]), [['level_cache', CACHE_BYTES]]);
  assert.equal(focus.focus.liveBytes, CACHE_BYTES);
  assert.equal(focus.focus.allLiveBytes, all.sites.reduce((a, s) => a + s.liveBytes, 0));
  const ignore = json(['top', file, '--json', '--top', '0', '--ignore', 'grow_list']);
  assert.deepEqual(ignore.sites.map((s) => s.label), focus.sites.map((s) => s.label));
  const hidden = json(['top', file, '--json', '--top', '0', '--hide', '^main$']);
  assert.ok(hidden.sites.every((s) => s.stack.every((f) => f.name !== 'main')));
  assert.equal(hidden.sites.find((s) => s.label === 'grow_list').liveBytes, GROW_BYTES);
  const modules = json(['top', file, '--json', '--top', '0', '--by', 'module']);
  assert.equal(modules.sites.reduce((a, s) => a + s.liveBytes, 0), all.sites.reduce((a, s) => a + s.liveBytes, 0));
  assert.ok(modules.sites.length < all.sites.length);
  const text = runCli(['top', file, '--focus', '^level_']).stdout;
  assert.match(text, /^--focus "\^level_": [\d.]+ KiB \([\d.]+%\) of [\d.]+ KiB live, \d+ of \d+ sites$/m);
  const bad = runCli(['top', file, '--hide', '[']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--hide: "\[" is not a regular expression/);
});
