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

    // Per-site numbers add up to the global ones (the table invariant).
    const sum = (f) => snap.sites.reduce((a, s) => a + s[f], 0);
    assert.equal(sum('liveBytes'), snap.summary.liveBytes);
    assert.equal(sum('liveBlocks'), snap.summary.liveBlocks);

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
