// dhat.test.js -- the DHAT export (formats/dhat.js): its numbers against a
// program whose heap is known (tests/runtime/peak.c: a cache built and
// dropped makes the peak, a table kept to the end), the CLI's refusals,
// and the file opened by its real viewer: Valgrind's dh_view.html (Debian's
// valgrind package) in headless Chromium.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {launch, newPage, haveChromium} = require('../lib/browser');
const {toDhat} = require('../../formats/dhat');

const {BUILD} = require('../lib/paths');
const {runCli} = require('../lib/cli');
const DH_VIEW = '/usr/libexec/valgrind/dh_view.html';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-dhat-'));
test.after(() => fs.rmSync(tmp, {recursive: true, force: true}));

function program(build) {
  const r = runWasmProgram(path.join(BUILD, `peak.${build}.js`));
  assert.equal(r.status, 0, r.stderr);
  return r.tagged;
}

// The program point whose allocation frame is `fn`.
function pointOf(file, fn) {
  const pps = file.pps.filter((pp) => /^(\S+)/.exec(file.ftbl[pp.fs[0]])[1] === fn);
  assert.equal(pps.length, 1, `${fn}: ${file.pps.map((pp) => file.ftbl[pp.fs[0]]).join(', ')}`);
  return pps[0];
}

test('DHAT file: total, own max, at the peak and at the end per stack (exact)', () => {
  const {KNOWN: known, SNAPSHOT: snap} = program('dlmalloc');
  const file = toDhat(snap);
  assert.equal(file.dhatFileVersion, 2);
  assert.equal(file.mode, 'heap');
  assert.equal(file.bklt, true);
  assert.equal(file.ftbl[0], '[root]');
  assert.equal(file.te, snap.summary.totalBytes);
  assert.equal(file.tg, snap.summary.totalBytesAtPeak);
  assert.ok(file.tg > 0 && file.tg < file.te);
  const cache = pointOf(file, 'build_cache');
  assert.deepEqual([cache.tb, cache.tbk, cache.mb, cache.mbk, cache.gb, cache.gbk, cache.eb, cache.ebk],
    [known.cacheBytes, known.cacheBlocks, known.cacheBytes, known.cacheBlocks, known.cacheBytes, known.cacheBlocks, 0, 0]);
  const table = pointOf(file, 'keep_table');
  assert.deepEqual([table.tb, table.tbk, table.mb, table.mbk, table.gb, table.gbk, table.eb, table.ebk],
    [known.tableBytes, known.tableBlocks, known.tableBytes, known.tableBlocks, 0, 0, known.tableBytes, known.tableBlocks]);
  // every frame index is in the table; every point has a frame
  for (const pp of file.pps) {
    assert.ok(pp.fs.length >= 1 && pp.fs.every((f) => f >= 1 && f < file.ftbl.length));
  }
  // the points add up to the run's totals (exact mode: every block has a site)
  const sum = (k) => file.pps.reduce((a, pp) => a + pp[k], 0);
  // (in the bytes asked for; the run's totals count usable sizes)
  assert.ok(sum('tb') <= snap.summary.totalBytes && sum('tb') >= known.cacheBytes + known.tableBytes);
  assert.equal(sum('eb'), snap.summary.requestedLiveBytes);
  assert.equal(sum('gb'), snap.summary.requestedBytesAtPeak);
  assert.match(file.cmd, /emheap exact; times are bytes allocated \(usable sizes\); block lifetimes are not measured/);
});

test('DHAT file in sampled mode says its numbers are estimates; blocks above the interval are exact', () => {
  const {KNOWN: known, SNAPSHOT: snap} = program('sampled');
  const file = toDhat(snap);
  assert.match(file.cmd, /emheap sampled, one stack per 524288 bytes allocated on average: per-point numbers holding sampled blocks are estimates/);
  const cache = pointOf(file, 'build_cache');
  assert.equal(cache.gb, known.cacheBytes);
  assert.equal(cache.gbk, known.cacheBlocks);
});

test('emheap convert --to dhat; the peak view and old snapshots are refused with a reason', () => {
  const {SNAPSHOT: snap} = program('dlmalloc');
  const json = path.join(tmp, 'peak.json');
  fs.writeFileSync(json, JSON.stringify(snap));
  const cli = (...args) => runCli(args, {cwd: tmp});
  const ok = cli('convert', json, '--to', 'dhat');
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /^wrote \S+peak\.dhat\.json \(dhat, [\d,]+ bytes\)\n$/);
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(tmp, 'peak.dhat.json'), 'utf8')), toDhat(snap));
  const atPeak = cli('convert', json, '--to', 'dhat', '--at', 'peak', '-o', path.join(tmp, 'p.dhat.json'));
  assert.equal(atPeak.status, 2);
  assert.match(atPeak.stderr, /^emheap: .*cannot build dhat: a DHAT file carries the peak itself/);
  assert.equal(fs.existsSync(path.join(tmp, 'p.dhat.json')), false);
  const old = JSON.parse(JSON.stringify(snap));
  delete old.summary.totalBytesAtPeak;
  fs.writeFileSync(path.join(tmp, 'old.json'), JSON.stringify(old));
  const refused = cli('convert', path.join(tmp, 'old.json'), '--to', 'dhat');
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /no bytes allocated until the peak .* older than this one/);
});

const DH_VIEW_SKIP = !haveChromium() ? 'no Chromium (apt-get install chromium; CI installs it)'
  : !fs.existsSync(DH_VIEW) ? `no ${DH_VIEW} (apt-get install valgrind; CI installs it)` : false;
test('Valgrind\'s dh_view.html opens the file and shows the peak', {skip: DH_VIEW_SKIP}, async () => {
  const {KNOWN: known, SNAPSHOT: snap} = program('dlmalloc');
  const file = path.join(tmp, 'view.dhat.json');
  fs.writeFileSync(file, JSON.stringify(toDhat(snap)));
  const browser = await launch();
  try {
    const {page, consoleMessages} = await newPage(browser);
    await page.goto('file://' + DH_VIEW);
    await page.setInputFiles('input[type=file]', file);
    await page.waitForFunction(() => /Times \{|error/i.test(document.body.innerText), null, {timeout: 20000});
    // sorted by what was live at the peak (the viewer's default is total blocks)
    await page.selectOption('select', {label: 'At t-gmax (bytes)'});
    await page.waitForFunction(() => /#1: build_cache/.test(document.body.innerText), null, {timeout: 20000});
    const text = await page.evaluate(() => document.body.innerText);
    const errors = await page.evaluate(() => Array.from(document.querySelectorAll('.error')).map((e) => e.textContent));
    assert.deepEqual(errors, [], text.slice(0, 2000));
    assert.deepEqual(consoleMessages.filter((m) => m.type === 'pageerror' || m.type === 'error'), []);
    // the header: what emheap wrote, the peak's moment in bytes allocated
    assert.match(text, /Command: .*emheap exact; times are bytes allocated/);
    const fmt = (n) => n.toLocaleString('en-US');
    assert.match(text, new RegExp(`t-gmax: ${fmt(snap.summary.totalBytesAtPeak)} bytes allocated`));
    assert.match(text, new RegExp(`t-end:  ${fmt(snap.summary.totalBytes)} bytes allocated`));
    // the cache's program point: all of it at the peak, nothing at the end
    const node = text.split(/\n(?=[├└│ ─▼▶]*\s*PP )/).find((t) => /#1: build_cache/.test(t) && /At t-gmax/.test(t));
    assert.ok(node, text.slice(0, 3000));
    assert.match(node, new RegExp(`Total: +${fmt(known.cacheBytes)} bytes .* in ${known.cacheBlocks} blocks`));
    assert.match(node, new RegExp(`At t-gmax: ${fmt(known.cacheBytes)} bytes .* in ${known.cacheBlocks} blocks`));
    assert.match(node, /At t-end: +0 bytes/);
  } finally {
    await browser.close();
  }
});
