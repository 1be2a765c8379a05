// wasm64.test.js -- a wasm64 program (-m64) that keeps more than 4 GiB live
// (tests/runtime/wasm64_heap.c) gets its sites exactly: each function its
// blocks and bytes as the program's plan has them, with frees above 4 GiB
// and below; the break above 4 GiB read whole; and `emheap top` says the
// same, and so do its pprof and DHAT exports; in Chromium too, its
// Ctrl+Shift+H snapshot. And a heap laid out
// above 4 GiB (tests/runtime/wasm64_graph.c): its heap graph (8-byte
// pointers), DevTools' reading of it, a heap dump analyzed offline, and
// the allocator's view against mallinfo(). Built and run where
// the emcc links wasm64 (tests/tests.mk wasm64.check: Emscripten 4.x and
// later, with node's own build from npm).
'use strict';

const {describe, test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const {BUILD, MEMORY64_NODE: NODE} = require('../lib/paths');
const {runWasmProgram, skipReason} = require('../lib/run_wasm');
const {runCli} = require('../lib/cli');
const {newPage, servedProgramPage, crashedIn, CHROMIUM_SKIP} = require('../lib/browser');
const {downloadFrom} = require('../lib/sample_page');
const {validateSnapshot, validateSpeedscope} = require('../lib/schemas');
const {devtoolsLoad, checkAgainst} = require('../lib/devtools');
const {assertAgrees} = require('../lib/mallinfo');
const zlib = require('zlib');
const {Profile} = require('pprof-format');

const PROGRAM = path.join(BUILD, 'wasm64_heap.js');
const FOUR_GIB = 2 ** 32;
const GRAPH = path.join(BUILD, 'wasm64_graph.js');
const [REACHABLE, DIRECT, INDIRECT] = [0, 1, 2]; // snapshot.heap.blocks.state

// `emheap top --json` of a snapshot file: its rows for big_block and
// small_block are the plan's, to the byte and block.
function checkTop(file, plan, cwd) {
  const top = runCli(['top', '--json', file], {cwd});
  assert.equal(top.status, 0, top.stderr);
  const rows = JSON.parse(top.stdout).sites;
  // (a function's rows: one per chain of callers, main's and a thread's)
  const live = (fn) => rows.filter((r) => r.stack[0].name === fn).reduce((a, r) => [a[0] + r.liveBytes, a[1] + r.liveBlocks], [0, 0]);
  assert.deepEqual(live('big_block'), [plan.big * plan.bigLive, plan.bigLive]);
  assert.deepEqual(live('small_block'), [plan.smallBytes, plan.smallLive]);
}

// The exports of that snapshot carry the 4.3 GiB whole: pprof (decoded by
// the pprof-format package: its in-use bytes sample) and DHAT (its
// program points' bytes at the end), big_block's sum exactly the plan's.
function checkExports(file, plan, dir) {
  const conv = runCli(['convert', file, '--to', 'pprof,dhat'], {cwd: dir});
  assert.equal(conv.status, 0, conv.stderr);
  const written = fs.readdirSync(dir);
  const pb = written.find((f) => f.endsWith('.pb.gz'));
  const dh = written.find((f) => f.endsWith('.dhat.json'));
  assert.ok(pb && dh, written.join(', '));
  const profile = Profile.decode(zlib.gunzipSync(fs.readFileSync(path.join(dir, pb))));
  const strings = profile.stringTable.strings;
  const inUse = profile.sampleType.findIndex((t) => strings[Number(t.type)] === 'inuse_space');
  assert.ok(inUse >= 0, 'an inuse_space sample type');
  const fnName = new Map(profile.function.map((f) => [Number(f.id), strings[Number(f.name)]]));
  const leafOf = new Map(profile.location.map((l) => [Number(l.id), fnName.get(Number(l.line[0].functionId))]));
  const pprofBig = profile.sample.filter((smp) => leafOf.get(Number(smp.locationId[0])) === 'big_block')
    .reduce((a, smp) => a + Number(smp.value[inUse]), 0);
  assert.equal(pprofBig, plan.big * plan.bigLive, 'pprof: big_block\'s in-use bytes');
  const dhat = JSON.parse(fs.readFileSync(path.join(dir, dh), 'utf8'));
  const dhatBig = dhat.pps.filter((pp) => /^big_block/.test(dhat.ftbl[pp.fs[0]])).reduce((a, pp) => a + pp.eb, 0);
  assert.equal(dhatBig, plan.big * plan.bigLive, 'DHAT: big_block\'s bytes at the end');
}

for (const [program, label] of [[PROGRAM, ''], [path.join(BUILD, 'wasm64_heap.threads.js'), ', half of it made on a thread (-pthread)']]) test(`a -m64 program with more than 4 GiB live${label}: every site exact, by function in the snapshot and in emheap top`, (t) => {
  const skip = skipReason(program);
  if (skip) return t.skip(skip);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-wasm64-'));
  try {
    const run = runWasmProgram(program, {node: NODE, cwd: dir});
    assert.equal(run.status, 0, run.stderr);
    const {PLAN: plan, SNAPSHOT: snap} = run.tagged;
    assert.ok(plan && snap, run.stdout.slice(0, 500));
    assert.ok(plan.topBlock > FOUR_GIB, 'the plan puts live blocks above 4 GiB');
    const bigBytes = plan.big * plan.bigLive;
    assert.ok(bigBytes > FOUR_GIB, 'more than 4 GiB live');
    const byFunction = new Map();
    // (the threaded runtime's own blocks: Emscripten 6 makes its main
    // thread's mailbox with em_task_queue_create)
    const runtime = {bytes: 0, blocks: 0};
    for (const site of snap.sites) {
      const fn = site.stack.find((name) => name === 'big_block' || name === 'small_block') ||
        (site.stack.includes('em_task_queue_create') && 'runtime');
      assert.ok(fn, `a site from neither function: ${site.stack.join(' < ')}`);
      const sum = fn === 'runtime' ? runtime : byFunction.get(fn) || {bytes: 0, blocks: 0};
      sum.bytes += site.liveBytes;
      sum.blocks += site.liveBlocks;
      if (fn !== 'runtime') byFunction.set(fn, sum);
    }
    // a site is charged what was asked for (runtime/state_layout.h emheap_block)
    assert.deepEqual(byFunction.get('big_block'), {bytes: bigBytes, blocks: plan.bigLive});
    assert.deepEqual(byFunction.get('small_block'), {bytes: plan.smallBytes, blocks: plan.smallLive});
    assert.equal(snap.summary.requestedLiveBytes, bigBytes + plan.smallBytes + runtime.bytes);
    assert.equal(snap.summary.liveBlocks, plan.bigLive + plan.smallLive + runtime.blocks);
    assert.ok(snap.summary.breakAtPeak >= plan.topBlock + plan.big, 'the break read whole, above 4 GiB');
    assert.ok(snap.summary.heapSize >= snap.summary.breakAtPeak);

    checkTop(path.join(dir, 'wasm64.emheap.json'), plan, dir);
    checkExports(path.join(dir, 'wasm64.emheap.json'), plan, dir);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

// Sampled mode (EMHEAP_MODE=sampled): a block of the sampling interval or
// more is always recorded, so the big blocks' site is exact and no
// estimate; the small blocks' are estimates, and say so; the global counts
// are exact.
test('a -m64 program in sampled mode: the big blocks exact, the small ones estimated and marked so', (t) => {
  const skip = skipReason(PROGRAM);
  if (skip) return t.skip(skip);
  const run = runWasmProgram(PROGRAM, {node: NODE, env: {EMHEAP_MODE: 'sampled'}});
  assert.equal(run.status, 0, run.stderr);
  const {PLAN: plan, SNAPSHOT: snap} = run.tagged;
  assert.equal(snap.mode, 'sampled');
  const big = snap.sites.filter((s) => s.stack.includes('big_block'));
  assert.equal(big.reduce((n, s) => n + s.liveBytes, 0), plan.big * plan.bigLive);
  assert.equal(big.reduce((n, s) => n + s.liveBlocks, 0), plan.bigLive);
  assert.ok(big.every((s) => s.estimatedLiveBytes === 0), 'blocks of the interval or more are no estimate');
  for (const s of snap.sites.filter((site) => site.stack.includes('small_block'))) {
    assert.equal(s.estimatedLiveBytes, s.liveBytes, 'a small block\'s site holds estimates, marked so');
  }
  assert.equal(snap.summary.liveBlocks, plan.bigLive + plan.smallLive);
});

// Built with -DGIANT: a block of 4.5 GiB, more than the records' 32-bit
// sizes hold. The program runs as it would; emheap refuses to make a
// snapshot whose numbers would be wrong, and says why.
test('a block of 4 GiB or more: the program runs on, and emheap makes no snapshot, saying why', (t) => {
  const giant = path.join(BUILD, 'wasm64_heap.giant.js');
  const skip = skipReason(giant);
  if (skip) return t.skip(skip);
  const run = runWasmProgram(giant, {node: NODE});
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(run.tagged.GIANT, {kept: true});
  assert.equal(run.tagged.REFUSED.refused, true);
  // (two: the malloc and the realloc that grew it)
  assert.match(run.tagged.REFUSED.message, /made 2 blocks of 4 GiB or more, whose size emheap's records keep in 32 bits: its numbers would be wrong, so it makes no snapshot/);
});

// The heap section's blocks made by each of wasm64_graph.c's makers: per
// maker {blocks, bytes, states: [reachable, direct, indirect], below4GiB},
// and the largest retained size among them.
function byMaker(snap) {
  const h = snap.heap;
  const siteById = new Map(snap.sites.map((s) => [s.id, s]));
  const out = {};
  h.blocks.address.forEach((address, k) => {
    const site = siteById.get(h.blocks.site[k]);
    const maker = site && site.stack.map((f) => snap.frames[f].name).find((name) => /^(kept|lost|cycle)_node$/.test(name));
    if (!maker) return;
    const row = out[maker] || (out[maker] = {blocks: 0, bytes: 0, states: [0, 0, 0], below4GiB: 0, mostRetained: 0});
    row.blocks++;
    row.bytes += h.blocks.size[k];
    row.states[h.blocks.state[k]]++;
    if (address < FOUR_GIB) row.below4GiB++;
    row.mostRetained = Math.max(row.mostRetained, h.blocks.retained[k]);
  });
  return out;
}

for (const [program, label, allocator] of [[GRAPH, '', 'dlmalloc64'], [path.join(BUILD, 'wasm64_graph.emmalloc.js'), ', emmalloc', 'emmalloc64'],
  [path.join(BUILD, 'wasm64_graph.threads.js'), ', made on a thread (-pthread)', 'dlmalloc64']]) test(`a -m64 heap above 4 GiB${label}: the heap graph as planned, DevTools agrees, a heap dump says the same offline, the allocator's view is mallinfo()'s`, (t) => {
  const skip = skipReason(program);
  if (skip) return t.skip(skip);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-wasm64-graph-'));
  try {
    const run = runWasmProgram(program, {node: NODE, cwd: dir});
    assert.equal(run.status, 0, run.stderr);
    const {PLAN: plan, SNAPSHOT: snap, MALLINFO: info, DUMP: dump} = run.tagged;
    assert.ok(plan && snap && info && dump, run.stdout.slice(0, 500) + run.stderr);
    assert.ok(plan.lowest > FOUR_GIB, 'every node of the plan lies above 4 GiB');
    assert.deepEqual(validateSnapshot(snap), []);
    const [kept, lost, cycle] = [plan.kept, plan.lost, plan.cycle]; // [count, bytes each]
    // the kept list hangs from a global; the lost list's head is its one
    // direct leak; the cycle is all indirect
    assert.deepEqual(byMaker(snap), {
      kept_node: {blocks: kept[0], bytes: kept[0] * kept[1], states: [kept[0], 0, 0], below4GiB: 0, mostRetained: kept[0] * kept[1]},
      lost_node: {blocks: lost[0], bytes: lost[0] * lost[1], states: [0, 1, lost[0] - 1], below4GiB: 0, mostRetained: lost[0] * lost[1]},
      cycle_node: {blocks: cycle[0], bytes: cycle[0] * cycle[1], states: [0, 0, cycle[0]], below4GiB: 0,
        mostRetained: cycle[0] * cycle[1]},
    });
    assert.deepEqual(snap.heap.leaked, {directBlocks: 1, directBytes: lost[1], indirectBlocks: lost[0] - 1 + cycle[0],
      indirectBytes: (lost[0] - 1) * lost[1] + cycle[0] * cycle[1]});
    assert.equal(snap.heap.groups.find((g) => g.name === '(leaked)').retainedBytes, lost[0] * lost[1] + cycle[0] * cycle[1]);

    // DevTools' own code on the file the CLI writes: every retained size and dominator
    const json = path.join(dir, 'graph.json');
    fs.writeFileSync(json, JSON.stringify(snap));
    const hs = path.join(dir, 'graph.heapsnapshot');
    const conv = runCli(['convert', json, '--to', 'heapsnapshot', '-o', hs], {cwd: dir});
    assert.equal(conv.status, 0, conv.stderr);
    checkAgainst(snap, devtoolsLoad(hs));

    // the dump of the same moment, scanned offline with its 8-byte pointers
    const analyzed = runCli(['analyze', path.join(dir, dump.file), '--json', '--top', '0'], {cwd: dir});
    assert.equal(analyzed.status, 0, analyzed.stderr);
    const offline = JSON.parse(analyzed.stdout);
    const sum = (fn, field) => offline.sites.filter((s) => s.label.startsWith(fn)).reduce((a, s) => a + s[field], 0);
    assert.equal(sum('lost_node', 'directBlocks'), 1);
    assert.equal(sum('lost_node', 'indirectBlocks'), lost[0] - 1);
    assert.equal(sum('cycle_node', 'indirectBlocks'), cycle[0]);
    assert.equal(sum('kept_node', 'reachableBlocks'), kept[0]);

    // the allocator's wasm64 chunks or regions: dlmalloc joins the big
    // blocks, freed, into one free chunk of more than 4 GiB; emmalloc keeps
    // one (tests/runtime/wasm64_graph.c KEEP_MIDDLE) and has two of 2 GiB
    assert.ok(!snap.allocatorHeap.error, snap.allocatorHeap.error);
    assertAgrees(allocator, snap.allocatorHeap, info);
    const bigFree = 16 * 130 * 2 ** 20;
    assert.ok(snap.allocatorHeap.largestFreeBytes > (allocator === 'dlmalloc64' ? FOUR_GIB : bigFree),
      `largest free chunk ${snap.allocatorHeap.largestFreeBytes}`);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

describe('the heap above 4 GiB in Chromium', {skip: CHROMIUM_SKIP || skipReason(GRAPH) || false}, () => {
  const {served} = servedProgramPage(GRAPH);

  test('Ctrl+Shift+X: the .heapsnapshot DevTools opens holds the plan\'s leaks and lists', async () => {
    const {page, context, consoleMessages} = await newPage(served.browser);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-wasm64-hs-'));
    try {
      await page.goto(`${served.server.url}/index.html`);
      await page.waitForFunction(() => document.title === 'planted', null, {timeout: 30000});
      const plan = JSON.parse(consoleMessages.find((m) => m.text.startsWith('PLAN ')).text.slice(5));
      assert.ok(plan.lowest > FOUR_GIB);
      const [d] = await Promise.all([page.waitForEvent('download', {timeout: 30000}), page.keyboard.press('Control+Shift+X')]);
      assert.match(d.suggestedFilename(), /\.heapsnapshot$/);
      const file = path.join(dir, d.suggestedFilename());
      await d.saveAs(file);
      const dt = devtoolsLoad(file);
      assert.equal(dt.ok, true);
      assert.deepEqual(dt.warnings, []);
      const nodes = (maker) => dt.nodes.filter((n) => n.name.startsWith(maker));
      const leakedId = dt.nodes.find((n) => n.name === '(leaked)').id;
      const globalsId = dt.nodes.find((n) => n.name === '(C globals)').id;
      for (const [maker, [count, bytes], holder] of [['kept_node', plan.kept, globalsId], ['lost_node', plan.lost, leakedId],
        ['cycle_node', plan.cycle, leakedId]]) {
        const list = nodes(maker);
        assert.equal(list.length, count, maker);
        assert.ok(list.every((n) => n.selfSize === bytes), maker);
        // one block holds its list: its retained size is the whole list
        const heads = list.filter((n) => n.dominatorId === holder);
        assert.equal(heads.length, 1, `${maker}: one block of the list hangs from its holder`);
        assert.equal(heads[0].retainedSize, count * bytes, maker);
      }
      assert.ok(!crashedIn(consoleMessages), consoleMessages.map((m) => m.text).join('\n'));
    } finally {
      await context.close();
      fs.rmSync(dir, {recursive: true, force: true});
    }
  });
});

describe('the same program in Chromium', {skip: CHROMIUM_SKIP || skipReason(PROGRAM) || false}, () => {
  const {served, dir} = servedProgramPage(PROGRAM);

  test('Ctrl+Shift+H: more than 4 GiB live, every site exact by function', async () => {
    const {page, context, consoleMessages} = await newPage(served.browser);
    try {
      await page.goto(`${served.server.url}/index.html`);
      await page.waitForFunction(() => document.title === 'planted', null, {timeout: 30000});
      const line = (tag) => JSON.parse(consoleMessages.find((m) => m.text.startsWith(tag + ' ')).text.slice(tag.length + 1));
      const plan = line('PLAN');
      assert.ok(plan.topBlock > FOUR_GIB && plan.big * plan.bigLive > FOUR_GIB);
      const got = await downloadFrom(page, () => page.keyboard.press('Control+Shift+H'));
      assert.deepEqual(validateSpeedscope(got.json), []);
      assert.deepEqual(validateSnapshot(got.json.emheap), []);
      assert.equal(got.json.emheap.summary.requestedLiveBytes, plan.big * plan.bigLive + plan.smallBytes);
      const file = path.join(dir, got.name);
      fs.writeFileSync(file, got.text);
      checkTop(file, plan, dir);
      assert.ok(!crashedIn(consoleMessages), consoleMessages.map((m) => m.text).join('\n'));
    } finally {
      await context.close();
    }
  });
});
