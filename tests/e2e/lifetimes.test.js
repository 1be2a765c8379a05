// lifetimes.test.js -- how long blocks live and temporary allocations
// (runtime/record.c count_ended, capture/age_clock.js, model/lifetimes.js,
// cli/commands/top_lifetimes.js): tests/runtime/lifetimes.c makes 100,000
// temporaries in make_temporaries, keeps a cache of 1,000 blocks and frees
// 300 of them 100,000+ allocations later, keeps 200 blocks, and churns
// 5,000 blocks in batches of 50 freed in the order made, between the marks
// "start" and "end"; then frees 100 more of the cache and keeps 50 more.
// Each count below follows from that program: `top --temporary`, `top
// --lifetimes` and `top --between` must give them exactly, with both
// allocators, with the block serials numbered again among the
// temporaries, and with the temporaries and the churn on a pthread
// (model/ranges.js, capture/mark_ranges.js).
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const lifetimesModel = require('../../model/lifetimes');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {runCli} = require('../lib/cli');
const {validateSnapshot} = require('../lib/schemas');
const {BUILD} = require('../lib/paths');

const TEMPORARIES = 100000;
const CHURN = 5000;
const BATCH = 50;
const BATCHES = CHURN / BATCH;
const CACHE = 1000;
const DROPPED = 300;
const KEPT = 200;
const DROPPED_AFTER = 100;
const KEPT_AFTER = 50;
// churn's batch b asks 64 + (b & 7) bytes a block
const CHURN_BYTES = Array.from({length: BATCHES}, (_, b) => BATCH * (64 + (b & 7))).reduce((x, y) => x + y, 0);

function runIn(t, variant) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-lifetimes-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  const run = runWasmProgram(path.join(BUILD, variant === 'time' ? 'lifetimes_time.js' : `lifetimes.${variant}.js`), {cwd: dir});
  assert.equal(run.status, 0, run.stderr.slice(-2000));
  const snapshot = run.tagged.SNAPSHOT;
  assert.ok(snapshot, 'the program printed its snapshot');
  const file = path.join(dir, 'lifetimes.json');
  fs.writeFileSync(file, JSON.stringify(snapshot));
  const cli = (args) => {
    const r = runCli(args, {cwd: dir});
    assert.equal(r.status, 0, r.stderr);
    return args.includes('--json') ? JSON.parse(r.stdout) : r.stdout;
  };
  return {run, snapshot, file, cli};
}

const row = (sites, name) => {
  const found = sites.filter((s) => s.label === name);
  assert.equal(found.length, 1, `one row for ${name}: ${sites.map((s) => s.label).join(', ')}`);
  return found[0];
};
const bucket = (r, label) => r.byAge.find((b) => b.bucket === label).blocks;

for (const variant of ['dlmalloc', 'emmalloc', 'wrap', 'threads']) {
  test(`${variant}: --temporary puts make_temporaries first at exactly 100,000, --lifetimes buckets every block where the program put it`, (t) => {
    const {run, snapshot, file, cli} = runIn(t, variant);
    assert.deepEqual(validateSnapshot(snapshot), []);
    assert.equal(snapshot.lifetimes.counted, true);
    if (variant === 'wrap') assert.equal(run.tagged.RENUMBERS.count, 1, 'the serials were numbered again once');

    const temporary = cli(['top', file, '--temporary', '--json']);
    assert.equal(temporary.by, 'function');
    assert.equal(temporary.sites[0].label, 'make_temporaries');
    assert.equal(temporary.sites[0].temporaryAllocs, TEMPORARIES);
    assert.equal(temporary.sites[0].shareOfAllocs, 1);
    // the last block of each batch is freed before churn allocates again
    assert.equal(row(temporary.sites, 'churn').temporaryAllocs, BATCHES);
    assert.ok(!temporary.sites.some((s) => /fill_cache|keep_blocks/.test(s.label)), 'no temporaries in the cache or the kept blocks');
    const text = cli(['top', file, '--temporary']);
    assert.match(text, /1 +100,000 +100% +100,000 +make_temporaries/);

    const lifetimes = cli(['top', file, '--lifetimes', '--json']);
    const temps = row(lifetimes.sites, 'make_temporaries');
    assert.equal(temps.ended, TEMPORARIES);
    assert.equal(bucket(temps, '0'), TEMPORARIES, 'every temporary in the shortest bucket');
    assert.equal(temps.live, 0);
    assert.deepEqual([temps.min, temps.median, temps.max], ['0', '0', '0']);
    const churn = row(lifetimes.sites, 'churn');
    // block i of a batch is followed by 49 - i more before the frees
    assert.deepEqual([bucket(churn, '0'), bucket(churn, '1-16'), bucket(churn, '16-256')], [BATCHES, 15 * BATCHES, 34 * BATCHES]);
    assert.equal(churn.ended, CHURN);
    const cache = row(lifetimes.sites, 'fill_cache');
    assert.equal(cache.live, CACHE - DROPPED - DROPPED_AFTER, 'the cache among the still live');
    assert.equal(cache.ended, DROPPED + DROPPED_AFTER);
    // freed after the 100,000 temporaries and more; in the wrap run its
    // blocks are 2^31 serials old
    assert.equal(bucket(cache, variant === 'wrap' ? '16M+' : '64K-1M'), DROPPED + DROPPED_AFTER);
    const kept = row(lifetimes.sites, 'keep_blocks');
    assert.deepEqual([kept.ended, kept.live, kept.median], [0, KEPT + KEPT_AFTER, null]);
    // time buckets are shown where the age clock's points are fine enough
    // (model/lifetimes.js timeShown), and then the run is short: every
    // ended block under 1 s
    assert.equal(!!temps.byTime, lifetimesModel.timeShown(snapshot), JSON.stringify(snapshot.lifetimes));
    if (lifetimesModel.timeShown(snapshot)) assert.equal(temps.byTime[0].blocks, TEMPORARIES);
    assert.match(cli(['top', file, '--lifetimes']), /make_temporaries/);
  });
}

const cls = (bytes, blocks) => ({bytes, blocks});

for (const variant of ['dlmalloc', 'emmalloc', 'wrap', 'threads']) {
  test(`${variant}: --between start end gives the four classes of every function exactly, and --between start now the range to the snapshot`, (t) => {
    const {file, cli} = runIn(t, variant);
    const range = cli(['top', file, '--between', 'start', 'end', '--json']);
    assert.equal(range.estimated, false);
    assert.equal(range.start.name, 'start');
    assert.equal(range.end.name, 'end');
    const classes = (r) => ({inFreedIn: r.inFreedIn, inLiveAtEnd: r.inLiveAtEnd, beforeFreedIn: r.beforeFreedIn,
      beforeLiveThrough: r.beforeLiveThrough});
    const none = cls(0, 0);
    assert.deepEqual(classes(row(range.sites, 'fill_cache')),
      {inFreedIn: none, inLiveAtEnd: none, beforeFreedIn: cls(DROPPED * 256, DROPPED), beforeLiveThrough: cls((CACHE - DROPPED) * 256, CACHE - DROPPED)});
    assert.deepEqual(classes(row(range.sites, 'keep_blocks')),
      {inFreedIn: none, inLiveAtEnd: cls(KEPT * 128, KEPT), beforeFreedIn: none, beforeLiveThrough: none});
    assert.deepEqual(classes(row(range.sites, 'churn')),
      {inFreedIn: cls(CHURN_BYTES, CHURN), inLiveAtEnd: none, beforeFreedIn: none, beforeLiveThrough: none});
    assert.ok(!range.sites.some((s) => s.label === 'make_temporaries'), 'all made and freed before the range');
    // (a pthread's start allocates in the range too: its struct and stack)
    if (variant !== 'threads') assert.equal(range.sites.length, 3, range.sites.map((s) => s.label).join(', '));
    if (variant !== 'threads') assert.deepEqual(range.totals.inFreedIn, cls(CHURN_BYTES, CHURN));

    const toNow = cli(['top', file, '--between', 'start', 'now', '--json']);
    assert.equal(toNow.end, 'now');
    assert.deepEqual(classes(row(toNow.sites, 'fill_cache')).beforeFreedIn, cls((DROPPED + DROPPED_AFTER) * 256, DROPPED + DROPPED_AFTER));
    assert.deepEqual(classes(row(toNow.sites, 'keep_blocks')).inLiveAtEnd, cls((KEPT + KEPT_AFTER) * 128, KEPT + KEPT_AFTER));
    const text = cli(['top', file, '--between', 'start', 'end']);
    assert.match(text, /from mark #1 "start" .* to mark #2 "end" .*\(bytes \/ blocks; exact\)/);
    assert.match(text, /\d +[\d.]+ KiB \/ 5,000 +\. +\. +\. +churn/);
    // times pick the marks around them: from the start mark's time to just
    // past it, the same range as by name
    const ms = (m) => `${m.t.toFixed(3)}ms`;
    const byTime = cli(['top', file, '--between', ms(range.start), `${(range.start.t + 0.001).toFixed(3)}ms`, '--json']);
    assert.deepEqual([byTime.start.number, byTime.end.number], [range.start.number, range.end.number]);
    assert.deepEqual(byTime.sites.map(classes), range.sites.map(classes));
    assert.ok(byTime.times.fromMs > 0, JSON.stringify(byTime.times));
    assert.match(cli(['top', file, '--between', ms(range.start), 'now']), /\(asked for [\d.]+ s to now: a range runs between marks/);
  });
}

test('in time: blocks held 1.6 s count in "1-10 s", blocks held 0.2 s under 1 s (the age clock, from the timeline\'s points)', (t) => {
  const {snapshot, file, cli} = runIn(t, 'time');
  const info = snapshot.lifetimes;
  assert.equal(info.counted, true);
  assert.ok(info.timeResolutionMs > 0 && info.timeResolutionMs < 1000, JSON.stringify(info));
  const lifetimes = cli(['top', file, '--lifetimes', '--json']);
  const held = (name) => row(lifetimes.sites, name).byTime.map((b) => b.blocks);
  assert.deepEqual(held('hold_long'), [0, 10, 0, 0]);
  assert.deepEqual(held('hold_short'), [10, 0, 0, 0]);
});

test('--temporary and --lifetimes refuse a sampled snapshot, and with --at peak, saying why', (t) => {
  const {snapshot, file} = runIn(t, 'dlmalloc');
  const dir = path.dirname(file);
  const sampled = path.join(dir, 'sampled.json');
  fs.writeFileSync(sampled, JSON.stringify(Object.assign({}, snapshot, {mode: 'sampled', samplingInterval: 4096,
    lifetimes: {counted: false, why: 'lifetimes are counted in exact mode only: in sampled mode most blocks have no record'}})));
  const r = runCli(['top', sampled, '--temporary'], {cwd: dir});
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /exact mode only/);
  const peak = runCli(['top', file, '--lifetimes', '--at', 'peak'], {cwd: dir});
  assert.notEqual(peak.status, 0);
  assert.match(peak.stderr, /not at the peak/);
});
