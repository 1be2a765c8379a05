// runtime.test.js -- the C runtime, compiled with emcc and run under node,
// against both allocators: every entry point, misuse, a million live
// blocks, and agreement between the C counters and what the JS library reads.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const {runWasmProgram} = require('./lib/run_wasm');
const {validateSnapshot} = require('./lib/schemas');

const BUILD = path.join(__dirname, '..', 'build', 'tests');

for (const allocator of ['dlmalloc', 'emmalloc']) {
  test(`entry points and counters (${allocator})`, () => {
    const r = runWasmProgram(path.join(BUILD, `entry_points.${allocator}.js`));
    assert.deepEqual(r.failedChecks, [], r.stdout + r.stderr);
    assert.ok(r.passedChecks.length >= 45, `only ${r.passedChecks.length} checks ran`);
    assert.equal(r.status, 0, r.stderr);

    const c = r.tagged.COUNTERS;
    const snap = r.tagged.SNAPSHOT;
    assert.ok(c && snap, 'program printed its counters and the JS snapshot');
    assert.deepEqual(validateSnapshot(snap), []);
    // JS reads the same numbers from linear memory as C reports.
    for (const k of Object.keys(c)) assert.equal(snap.summary[k], c[k], `summary.${k}`);

    // getSnapshotJson(): the cheap summary, same counters, as a JSON string.
    const summary = r.tagged.SUMMARY;
    for (const k of Object.keys(c)) assert.equal(summary[k], c[k], `getSnapshotJson().${k}`);
    assert.equal(summary.preRunDone, true);
    assert.equal(summary.mode, 'exact-js');
    assert.ok(summary.heapSize >= 16 << 20 && summary.peakLiveBytes >= 16e6, 'heap size and peak');

    // Per-site numbers add up to the global ones (the table invariant).
    const sum = (f) => snap.sites.reduce((a, s) => a + s[f], 0);
    assert.equal(sum('liveBytes'), snap.summary.liveBytes);
    assert.equal(sum('liveBlocks'), snap.summary.liveBlocks);

    // Heap growth events name the site whose allocation grew the memory.
    assert.ok(snap.heapGrowth.length >= 1, 'growth events recorded');
    for (const g of snap.heapGrowth) {
      assert.ok(g.toBytes > g.fromBytes);
      const site = snap.sites.find((s) => s.id === g.siteId);
      assert.ok(site && site.stack.length > 0, `growth site ${g.siteId} has a stack`);
    }
    assert.equal(snap.heapGrowth.at(-1).toBytes, snap.summary.heapSize, 'last growth ends at the current size');

    // The two sites left live on purpose, largest first.
    const [a, b] = snap.sites;
    assert.equal(a.liveBytes, 10000);
    assert.equal(a.liveBlocks, 10);
    assert.equal(b.liveBytes, 1500);
    assert.equal(b.liveBlocks, 3);
    for (const site of [a, b]) {
      const names = site.stack.map((i) => snap.frames[i].name);
      assert.ok(names.includes('main') || names.some((n) => /alloc_in_site/.test(n)), names.join(' < '));
      assert.ok(!/^(malloc|calloc|emheap_)/.test(names[0]), `wrapper frame kept: ${names[0]}`);
    }
  });
}

test('C++: operator new and libc++ helpers are never the call site', () => {
  const {isAllocatorWrapper} = require('../jslib/v8_stack');
  const r = runWasmProgram(path.join(BUILD, 'cpp_new.dlmalloc.js'));
  assert.equal(r.status, 0, r.stderr);
  const snap = r.tagged.SNAPSHOT;
  assert.deepEqual(validateSnapshot(snap), []);
  const leaf = (site) => snap.frames[site.stack[0]].name;
  for (const site of snap.sites) {
    assert.ok(site.stack.length > 0, `site ${site.key} has a stack`);
    assert.ok(!isAllocatorWrapper(leaf(site)), `wrapper as call site: ${leaf(site)}`);
  }
  // build_list is called from two places: two stacks, 50 nodes each.
  const lists = snap.sites.filter((s) => /^build_list/.test(leaf(s)));
  assert.equal(lists.length, 2);
  for (const s of lists) assert.equal(s.liveBlocks, 50);
  assert.equal(lists[0].liveBytes, lists[1].liveBytes);
  // The vector's buffer (20000 ints after growth) is charged to grow_vector.
  const vec = snap.sites.find((s) => /^grow_vector/.test(leaf(s)) && s.liveBytes >= 80000);
  assert.ok(vec, 'vector buffer attributed to grow_vector');
  assert.ok(vec.totalAllocs >= 1);
});

for (const allocator of ['dlmalloc', 'emmalloc']) {
  test(`memory exhaustion degrades tracking, never the app (${allocator})`, () => {
    const r = runWasmProgram(path.join(BUILD, `exhaustion.${allocator}.js`));
    assert.deepEqual(r.failedChecks, [], r.stdout + r.stderr);
    assert.equal(r.passedChecks.length, 6);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.tagged.SNAPSHOT_OK.sites >= 1, 'a snapshot can still be taken');
    const c = r.tagged.COUNTERS;
    assert.equal(c.tracked, c.blocks);
  });
}

test('a build without names: frames read wasm-function[N], never empty', () => {
  const r = runWasmProgram(path.join(BUILD, 'cpp_new.nonames.js'));
  assert.equal(r.status, 0, r.stderr);
  const snap = r.tagged.SNAPSHOT;
  assert.deepEqual(validateSnapshot(snap), []);
  assert.ok(snap.sites.length >= 3);
  for (const f of snap.frames) {
    assert.ok(f.name.length > 0);
    if (f.funcIndex !== undefined) assert.match(f.name, /^wasm-function\[\d+\]$/);
  }
});

test('with -gsource-map, wasm frames carry source file and line', () => {
  const r = runWasmProgram(path.join(BUILD, 'cpp_new.sourcemap.js'));
  assert.equal(r.status, 0, r.stderr);
  const snap = r.tagged.SNAPSHOT;
  assert.deepEqual(validateSnapshot(snap), []);
  const lists = snap.sites.filter((s) => /^build_list/.test(snap.frames[s.stack[0]].name));
  assert.equal(lists.length, 2);
  for (const s of lists) {
    const leaf = snap.frames[s.stack[0]];
    assert.match(leaf.file, /(^|\/)tests\/runtime\/cpp_new\.cpp$/);
    // -O2 line tables are approximate: `new Node` is line 22, its loop 21.
    assert.ok(leaf.line >= 20 && leaf.line <= 23, `line ${leaf.line}`);
    const caller = snap.frames[s.stack[1]];
    assert.match(caller.file, /cpp_new\.cpp$/);
  }
});

test('shadow stack: exact chains, exceptions, longjmp, deep recursion, JS fallback', () => {
  const r = runWasmProgram(path.join(BUILD, 'shadow.js'));
  assert.deepEqual(r.failedChecks, [], r.stdout + r.stderr);
  assert.ok(r.passedChecks.length >= 14, r.stdout);
  const snap = r.tagged.SNAPSHOT;
  assert.ok(snap, r.stdout + r.stderr);
  assert.deepEqual(validateSnapshot(snap), []);
  assert.equal(snap.mode, 'exact-shadow');
  assert.equal(snap.samplingInterval, 0);
  const names = (site) => site.stack.map((i) => snap.frames[i].name);
  const bySize = (n) => snap.sites.find((s) => s.liveBytes === n);
  const main = /^(__original_main|main)$/;

  const chain = names(bySize(4096));
  assert.deepEqual(chain.slice(0, 3), ['inner(unsigned long)', 'middle(unsigned long)', 'outer(unsigned long)']);
  assert.match(chain[3], main);
  // After catching 1000 exceptions and 100 longjmps, no stale frames of the
  // unwound functions stay on the stack.
  const afterCatch = names(bySize(5000));
  assert.deepEqual(afterCatch.slice(0, 2), ['after_catch()', 'survives_exception()']);
  assert.match(afterCatch[2], main);
  assert.equal(afterCatch.length, 3);
  const afterJump = names(bySize(6000));
  assert.deepEqual(afterJump.slice(0, 2), ['after_longjmp()', 'survives_longjmp()']);
  assert.equal(afterJump.length, 3);
  // 3000-deep recursion: the stored stack stops at the capacity.
  const deep = bySize(7000);
  assert.equal(deep.stack.length, 1024);
  assert.ok(names(deep).every((n) => n === 'recurse(int)' || main.test(n)));
  // An allocation with an empty shadow stack (JS called malloc after main)
  // takes its stack from JS.
  const fromJs = bySize(12345);
  assert.ok(fromJs.stack.length >= 1);
  assert.equal(snap.frames[fromJs.stack[0]].funcIndex, undefined, 'a JS frame, not a wasm function');
});

test('sampled estimates land within 10% of exact for every site holding >= 1 MiB', () => {
  const file = path.join(BUILD, 'sampling.js');
  const run = (env) => {
    const r = runWasmProgram(file, {env});
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(validateSnapshot(r.tagged.SNAPSHOT), []);
    return r.tagged.SNAPSHOT;
  };
  const exact = run({EMHEAP_MODE: 'exact'});
  // sqrt(R/B) is the relative error of a B-byte site of small blocks: with
  // R = 1 KiB a 1 MiB site is within ~3% (1 sigma), 10% is > 3 sigma.
  const sampled = run({EMHEAP_MODE: 'sampled', EMHEAP_SAMPLING_INTERVAL: '1024'});
  assert.equal(exact.mode, 'exact-js');
  assert.equal(sampled.mode, 'sampled');
  assert.equal(sampled.samplingInterval, 1024);
  // Global totals are exact in every mode.
  for (const k of ['liveBytes', 'liveBlocks', 'mallocCalls', 'freeCalls', 'totalBytes']) {
    assert.equal(sampled.summary[k], exact.summary[k], `summary.${k}`);
  }
  assert.ok(sampled.summary.sampledAllocs < exact.summary.sampledAllocs / 5, 'sampling records far fewer stacks');
  const big = exact.sites.filter((s) => s.liveBytes >= 1 << 20);
  assert.ok(big.length >= 4, `sites >= 1 MiB: ${big.length}`);
  for (const site of big) {
    const est = sampled.sites.find((s) => s.key === site.key);
    assert.ok(est, `site ${site.key} sampled`);
    const err = Math.abs(est.liveBytes / site.liveBytes - 1);
    assert.ok(err <= 0.10, `${site.key}: ${est.liveBytes} vs exact ${site.liveBytes} (${(err * 100).toFixed(1)}%)`);
    const blocksErr = Math.abs(est.liveBlocks / site.liveBlocks - 1);
    assert.ok(blocksErr <= 0.10, `${site.key} blocks: ${est.liveBlocks} vs ${site.liveBlocks}`);
  }
  // Blocks freed again leave nothing behind, exactly, in sampled mode too.
  const churnExact = exact.sites.find((s) => s.liveBytes === 0 && s.totalAllocs >= 20000);
  assert.ok(churnExact, 'churn site in exact mode');
  const churnSampled = sampled.sites.find((s) => s.key === churnExact.key);
  assert.ok(churnSampled && churnSampled.totalAllocs > 0);
  assert.equal(churnSampled.liveBytes, 0);
  assert.equal(churnSampled.liveBlocks, 0);

  // The default: sampled (no shadow stack linked), 256 KiB, still exact totals.
  const byDefault = run({});
  assert.equal(byDefault.mode, 'sampled');
  assert.equal(byDefault.samplingInterval, 262144);
  assert.equal(byDefault.summary.liveBytes, exact.summary.liveBytes);
});

test('a bad mode or interval from the environment is reported and ignored', () => {
  const r = runWasmProgram(path.join(BUILD, 'sampling.js'),
    {env: {EMHEAP_MODE: 'fastest', EMHEAP_SAMPLING_INTERVAL: '-5'}});
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /emheap: ignoring mode "fastest" from the environment: use exact or sampled/);
  assert.match(r.stderr, /emheap: ignoring sampling interval "-5"/);
  assert.equal(r.tagged.SNAPSHOT.mode, 'sampled');
  assert.equal(r.tagged.SNAPSHOT.samplingInterval, 262144);
});

test('shadow frames get names from --emit-symbol-map when the wasm has no name section', () => {
  const r = runWasmProgram(path.join(BUILD, 'shadow_symbols.js'));
  assert.deepEqual(r.failedChecks, [], r.stdout + r.stderr);
  const snap = r.tagged.SNAPSHOT;
  assert.deepEqual(validateSnapshot(snap), []);
  const site = snap.sites.find((s) => s.liveBytes === 4096);
  assert.deepEqual(site.stack.slice(0, 3).map((i) => snap.frames[i].name),
    ['inner(unsigned long)', 'middle(unsigned long)', 'outer(unsigned long)']);
});
