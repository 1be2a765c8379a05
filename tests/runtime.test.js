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
