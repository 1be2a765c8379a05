// runtime.test.js -- the C runtime, compiled with emcc and run under node,
// against both allocators: every entry point, misuse, a million live
// blocks, and agreement between the C counters and what the JS library reads.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const os = require('os');
const {runWasmProgram, skipReason} = require('../lib/run_wasm');
const {validateSnapshot} = require('../lib/schemas');
const {scanCaveat} = require('../../model/heap_section');

const {ROOT, BUILD} = require('../lib/paths');
const {runCli} = require('../lib/cli');

for (const allocator of ['dlmalloc', 'emmalloc']) {
  test(`entry points and counters (${allocator})`, () => {
    const r = runWasmProgram(path.join(BUILD, `entry_points.${allocator}.js`));
    assert.deepEqual(r.failedChecks, [], r.stdout + r.stderr);
    assert.ok(r.passedChecks.length >= 50, `only ${r.passedChecks.length} checks ran`);
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
    assert.equal(summary.mode, 'exact');
    assert.ok(summary.heapSize >= 16 << 20 && summary.peakLiveBytes >= 16e6, 'heap size and peak');

    // Per-site numbers add up to the global ones (the table invariant):
    // sites count requested bytes, the summary usable ones as well, and the
    // difference is the allocator's rounding, exactly.
    const sum = (f) => snap.sites.reduce((a, s) => a + s[f], 0);
    assert.equal(sum('liveBytes'), snap.summary.requestedLiveBytes);
    assert.equal(snap.summary.requestedLiveBytes + snap.summary.allocatorRoundingBytes, snap.summary.liveBytes);
    if (allocator === 'dlmalloc') assert.ok(snap.summary.allocatorRoundingBytes >= 10 * 4, 'dlmalloc gives 1,004 usable bytes for 1,000');
    assert.equal(sum('liveBlocks'), snap.summary.liveBlocks);

    // Heap growth events name the site whose allocation grew the memory.
    assert.ok(snap.heapGrowth.length >= 1, 'growth events recorded');
    for (const g of snap.heapGrowth) {
      assert.ok(g.toBytes > g.fromBytes);
      const site = snap.sites.find((s) => s.id === g.siteId);
      assert.ok(site && site.stack.length > 0, `growth site ${g.siteId} has a stack`);
    }
    assert.equal(snap.heapGrowth.at(-1).toBytes, snap.summary.heapSize, 'last growth ends at the current size');

    // The two sites left live on purpose, largest first, in the bytes the
    // program asked for (it measured their usable sizes too: as many or more).
    const [a, b] = snap.sites;
    assert.ok(r.tagged.KNOWN.a >= 10000 && r.tagged.KNOWN.b >= 1500);
    assert.equal(a.liveBytes, 10 * 1000);
    assert.equal(a.liveBlocks, 10);
    assert.equal(b.liveBytes, 3 * 500);
    assert.equal(b.liveBlocks, 3);
    for (const site of [a, b]) {
      const names = site.stack.map((i) => snap.frames[i].name);
      assert.ok(names.includes('main') || names.some((n) => /alloc_in_site/.test(n)), names.join(' < '));
      assert.ok(!/^(malloc|calloc|emheap_)/.test(names[0]), `wrapper frame kept: ${names[0]}`);
    }
  });
}

for (const allocator of ['dlmalloc', 'mimalloc']) {
  const program = path.join(BUILD, `cpp_new.${allocator}.js`);
  test(`C++: operator new and libc++ helpers are never the call site; every delete is seen (${allocator})`,
    {skip: skipReason(program) || false}, () => {
      checkCppNew(runWasmProgram(program), allocator);
    });
}

function checkCppNew(r, allocator) {
  const {isAllocatorWrapper} = require('../../capture/v8_stack');
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /emheap: off/);
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
  assert.deepEqual(r.tagged.ALIGNED, {ok: true}, 'new of an alignas(2 MiB) type is 2 MiB-aligned, no bad_alloc');
  const vec = snap.sites.find((s) => /^grow_vector/.test(leaf(s)) && s.liveBytes >= 80000);
  assert.ok(vec, 'vector buffer attributed to grow_vector');
  assert.ok(vec.totalAllocs >= 1);
  // Every delete reached emheap: the vector's outgrown buffers, new int[1000]
  // and the aligned page are gone, and what is live is exactly the sites'.
  assert.equal(vec.liveBlocks, 1, "only the vector's last buffer is live");
  assert.ok(!snap.sites.some((s) => s.liveBytes === 4000), 'new int[1000] was deleted');
  const page = snap.sites.filter((s) => s.liveBytes >= 2097152);
  const sum = (f) => snap.sites.reduce((a, s) => a + s[f], 0);
  if (allocator !== 'mimalloc') {
    assert.deepEqual(page, [], 'the aligned page was deleted');
  } else {
    // Known limit (docs/compatibility.md): mimalloc's aligned operator
    // delete is a strong function of its own calling mi_free directly, so
    // emheap never sees an over-aligned object go. Said here so that an
    // Emscripten that changes it shows up.
    assert.equal(page.length, 1, 'the aligned page, deleted behind emheap, still counts');
    assert.equal(page[0].liveBlocks, 1);
  }
  assert.equal(sum('liveBlocks'), snap.summary.liveBlocks);
  assert.equal(sum('liveBytes'), snap.summary.requestedLiveBytes);
}

// emheap's operator new (runtime/cxx_new_delete.c) where malloc fails: the
// new_handler's retry, bad_alloc, nothrow's NULL, as the same program
// without emheap does them, with JS and with wasm exceptions.
for (const exceptions of ['jsexc', 'wasmexc']) {
  test(`C++ operator new when malloc fails: new_handler, bad_alloc and nothrow as without emheap (${exceptions})`,
    {skip: skipReason(path.join(BUILD, `cxx_new_paths.${exceptions}.profiled.js`)) || false}, () => {
    const run = (how) => runWasmProgram(path.join(BUILD, `cxx_new_paths.${exceptions}.${how}.js`));
    const plain = run('plain');
    const profiled = run('profiled');
    assert.equal(plain.status, 0, plain.stderr);
    assert.equal(profiled.status, 0, profiled.stderr);
    // The program's own checks hold without emheap (the premise)...
    assert.deepEqual(plain.tagged.RESULT, {filled: 1, retried: 1, got: 1, aligned: 1, threw: 1, nothrowNull: 1});
    // ... and emheap changes nothing of them.
    assert.deepEqual(profiled.tagged.RESULT, plain.tagged.RESULT);
    const snap = profiled.tagged.SNAPSHOT;
    assert.deepEqual(validateSnapshot(snap), []);
    assert.ok(snap.summary.failedAllocs >= 3, 'the refused 2 MiB, 1 GiB and nothrow 1 GiB: ' + snap.summary.failedAllocs);
    // (with wasm exceptions, the thrown bad_alloc is memaligned too)
    assert.ok(snap.summary.memalignCalls >= 1, 'the alignas(64) object went through posix_memalign');
    assert.ok(snap.sites.some((s) => s.liveBlocks === 1 && s.liveBytes === 64), 'the alignas(64) object is live');
    const sum = (f) => snap.sites.reduce((a, s) => a + s[f], 0);
    assert.equal(sum('liveBlocks'), snap.summary.liveBlocks);
    assert.equal(sum('liveBytes'), snap.summary.requestedLiveBytes);
  });
}

test("an app's own operator new and delete still win over emheap's, and emheap sees their blocks", () => {
  const r = runWasmProgram(path.join(BUILD, 'cxx_own_new.dlmalloc.js'));
  assert.equal(r.status, 0, r.stderr);
  // 11 Items and 2 arrays: new[] reaches the app's new, delete[] its
  // delete, as libc++'s do.
  assert.deepEqual(r.tagged.OWN, {news: 13, deletes: 2, kept: 9});
  const snap = r.tagged.SNAPSHOT;
  assert.deepEqual(validateSnapshot(snap), []);
  const at = (fn) => snap.sites.filter((s) => snap.frames[s.stack[0]].name.startsWith(fn + '('));
  const total = (sites, f) => sites.reduce((a, s) => a + s[f], 0);
  const items = at('make_item');
  const arrays = at('make_array');
  assert.deepEqual([total(items, 'liveBlocks'), total(items, 'liveBytes'), total(items, 'totalAllocs')], [10, 640, 11]);
  assert.deepEqual([total(arrays, 'liveBlocks'), total(arrays, 'liveBytes'), total(arrays, 'totalAllocs')], [1, 200, 2]);
});

for (const allocator of ['dlmalloc', 'emmalloc']) {
  test(`exact mode: a block allocated around malloc and freed with free() takes nothing off the others (${allocator})`, () => {
    const r = runWasmProgram(path.join(BUILD, `unseen_free.${allocator}.js`));
    assert.equal(r.status, 0, r.stderr);
    const {seenBytes, aroundBytes} = r.tagged.UNSEEN;
    const s = r.tagged.SUMMARY;
    assert.equal(s.mode, 'exact');
    assert.ok(aroundBytes >= 5000);
    assert.deepEqual([s.liveBlocks, s.liveBytes], [4, seenBytes], 'the four blocks emheap saw, whole');
    assert.deepEqual([s.unseenFrees, s.unseenFreedBytes], [1, aroundBytes]);
    assert.equal(s.freeCalls, 1);
    const {modeNote} = require('../../model/sites');
    assert.match(modeNote({mode: s.mode, summary: s}), /1 blocks \(\d+ bytes\) were freed that emheap never saw allocated/);
  });
}

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

for (const allocator of ['dlmalloc', 'emmalloc', 'mimalloc']) {
  const program = path.join(BUILD, `block_churn.${allocator}.js`);
  test(`the block table under churn: every live block, at its address, of its size, at its site (${allocator}, checking runtime)`,
    {skip: skipReason(program) || false}, () => {
    const r = runWasmProgram(program);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const lines = (tag) => r.stdout.split('\n').filter((l) => l.startsWith(tag + ' ')).map((l) => JSON.parse(l.slice(tag.length + 1)));
    const tallies = lines('TALLY');
    const snaps = lines('SNAP');
    assert.deepEqual(tallies.map((t) => t.when), ['churned', 'huge', 'emptied']);
    assert.deepEqual(snaps.map((t) => t.when), ['churned', 'huge', 'emptied']);
    tallies.forEach((t, i) => {
      const s = snaps[i];
      assert.equal(s.lost, 0, t.when);
      assert.equal(s.blocks, s.liveBlocks, `${t.when}: the heap graph has every live block`);
      // every block recorded: the global count is the recorded blocks' usable bytes (emmalloc may
      // pad a block after it was counted: its free discharges what was counted)
      assert.equal(s.liveBytes, s.recordedUsable, `${t.when}: live bytes`);
      assert.equal(s.digest, t.digest, `${t.when}: the same addresses and sizes`);
      for (const [kind, [blocks, bytes]] of Object.entries(t.kinds)) {
        assert.deepEqual(s.kinds[kind], [blocks, bytes], `${t.when}: ${kind}`);
      }
    });
    assert.ok(tallies[1].kinds.plain_block[1] > 2 ** 27, 'the huge block is live at the second moment');
  });
}

// A module linked with --emit-symbol-map, run from a copy without the map:
// its frames read wasm-function[N]. -> {r, indexOf: name -> N (the map)}.
// (the map escapes characters of demangled names as \XX)
function runWithoutSymbolMap(name, env) {
  const unescapeSymbol = (fn) => fn.replace(/\\([0-9a-f]{2})/g, (m, hex) => String.fromCharCode(parseInt(hex, 16)));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-nomap-'));
  try {
    for (const ext of ['.js', '.wasm']) fs.copyFileSync(path.join(BUILD, name + ext), path.join(dir, name + ext));
    const indexOf = new Map(fs.readFileSync(path.join(BUILD, name + '.js.symbols'), 'utf8').trim().split('\n')
      .map((line) => line.split(':')).map(([i, fn]) => [unescapeSymbol(fn), Number(i)]));
    return {r: runWasmProgram(path.join(dir, name + '.js'), {env}), indexOf};
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

test('a build without names: frames read wasm-function[N], never empty; operator new is no site', () => {
  const {r, indexOf} = runWithoutSymbolMap('cpp_new.nonames');
  assert.equal(r.status, 0, r.stderr);
  const snap = r.tagged.SNAPSHOT;
  assert.deepEqual(validateSnapshot(snap), []);
  assert.ok(snap.sites.length >= 3);
  for (const f of snap.frames) {
    assert.ok(f.name.length > 0);
    if (f.funcIndex !== undefined) assert.match(f.name, /^wasm-function\[\d+\]$/);
  }
  // the runtime's frames (operator new is emheap's) are known without names
  const nameOf = new Map([...indexOf].map(([fn, i]) => [i, fn]));
  const runtime = [indexOf.get('emheap_code_first'), indexOf.get('emheap_code_last')];
  assert.ok(runtime[0] < runtime[1], JSON.stringify(runtime));
  const leaves = snap.sites.filter((s) => s.stack.length).map((s) => snap.frames[s.stack[0]].funcIndex);
  for (const i of leaves) {
    assert.ok(!(i >= runtime[0] && i <= runtime[1]) && !/^operator new/.test(nameOf.get(i)), `${nameOf.get(i)}: ${leaves.map((j) => nameOf.get(j))}`);
  }
  assert.ok(leaves.some((i) => nameOf.get(i) === 'build_list(int)'), leaves.map((j) => nameOf.get(j)).join(' '));
  // said once, with what to do
  assert.equal(r.stderr.split('emheap: this module has no function names (link with --profiling-funcs').length - 1, 1, r.stderr);
  // and again by every table of the CLI
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-nonames-'));
  try {
    const file = path.join(dir, 'snapshot.json');
    fs.writeFileSync(file, JSON.stringify(snap));
    const top = runCli(['top', file]);
    assert.equal(top.status, 0, top.stderr);
    assert.match(top.stdout, /^function names: none in the module \(link with --profiling-funcs, as emheap-config does\): frames read wasm-function\[N\]$/m);
    // a snapshot with names says nothing of them
    const named = runWasmProgram(path.join(BUILD, 'cpp_new.dlmalloc.js'));
    fs.writeFileSync(file, JSON.stringify(named.tagged.SNAPSHOT));
    assert.doesNotMatch(runCli(['top', file]).stdout, /function names/);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

for (const [build, how] of [['sourcemap', '-gsource-map'], ['singlefile', '-g -sSINGLE_FILE (the module inline)']]) {
  test(`with ${how}, wasm frames carry source file and line`, () => {
    const r = runWasmProgram(path.join(BUILD, `cpp_new.${build}.js`));
    assert.equal(r.status, 0, r.stderr);
    const snap = r.tagged.SNAPSHOT;
    assert.deepEqual(validateSnapshot(snap), []);
    const lists = snap.sites.filter((s) => /^build_list/.test(snap.frames[s.stack[0]].name));
    assert.equal(lists.length, 2);
    for (const s of lists) {
      const leaf = snap.frames[s.stack[0]];
      assert.match(leaf.file, /(^|\/)tests\/runtime\/cpp_new\.cpp$/);
      // -O2 line tables are approximate: `new Node` is line 23, but
      // binaryen may file the call under another line of build_list (its
      // loop, 22, or a later statement: 25 on Emscripten 5.0.7), never
      // outside it (lines 21 to 27).
      assert.ok(leaf.line >= 21 && leaf.line <= 27, `line ${leaf.line}`);
      // The caller's line where the DWARF has one: binaryen's at -O2 may
      // have no row at main's call (Emscripten 4.0.23), never another file.
      const caller = snap.frames[s.stack[1]];
      if (caller.file !== undefined) assert.match(caller.file, /cpp_new\.cpp$/);
    }
  });
}

test('sampled estimates land within 10% of exact for every site holding >= 1 MiB', () => {
  const file = path.join(BUILD, 'sampling.js');
  const run = (env) => {
    const r = runWasmProgram(file, {env});
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(validateSnapshot(r.tagged.SNAPSHOT), []);
    return Object.assign(r.tagged.SNAPSHOT, {kept: r.tagged.KEPT});
  };
  const exact = run({EMHEAP_MODE: 'exact'});
  // sqrt(R/B) is the relative error of a B-byte site of small blocks: with
  // R = 1 KiB a 1 MiB site is within ~3% (1 sigma), 10% is > 3 sigma.
  const sampled = run({EMHEAP_MODE: 'sampled', EMHEAP_SAMPLING_INTERVAL: '1024'});
  assert.equal(exact.mode, 'exact');
  assert.equal(sampled.mode, 'sampled');
  assert.equal(sampled.samplingInterval, 1024);
  // Global totals are exact in every mode: live bytes are what the kept
  // blocks hold (the program sums malloc_usable_size; which chunk dlmalloc
  // hands out, and so its slack, depends on the heap's layout, so bytes are
  // compared with each run's own truth).
  for (const k of ['liveBlocks', 'mallocCalls', 'freeCalls']) {
    assert.equal(sampled.summary[k], exact.summary[k], `summary.${k}`);
  }
  for (const snap of [exact, sampled]) assert.equal(snap.summary.liveBytes, snap.kept.liveBytes, `${snap.mode} live bytes`);
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
  // The ratio estimator: the sites' estimated parts are scaled to what the
  // unrecorded blocks hold in all (exact), so the sites never add up to
  // more than the heap, and their blocks add up to it but for rounding down.
  const total = (snap, k) => snap.sites.reduce((a, s) => a + s[k], 0);
  assert.ok(total(sampled, 'liveBytes') <= sampled.summary.liveBytes, `${total(sampled, 'liveBytes')} > ${sampled.summary.liveBytes}`);
  assert.ok(total(sampled, 'liveBlocks') <= sampled.summary.liveBlocks);
  assert.ok(total(sampled, 'liveBlocks') >= sampled.summary.liveBlocks - sampled.sites.length, 'blocks scaled to the exact count');
  assert.ok(sampled.sites.some((s) => s.estimatedLiveBytes > 0), 'small blocks make estimates');
  // Blocks freed again leave nothing behind, exactly, in sampled mode too.
  const churnExact = exact.sites.find((s) => s.liveBytes === 0 && s.totalAllocs >= 20000);
  assert.ok(churnExact, 'churn site in exact mode');
  const churnSampled = sampled.sites.find((s) => s.key === churnExact.key);
  assert.ok(churnSampled && churnSampled.totalAllocs > 0);
  assert.equal(churnSampled.liveBytes, 0);
  assert.equal(churnSampled.liveBlocks, 0);

  // Blocks of at least the interval are always recorded at their true size
  // (sites are matched by key: the same binary gives the same keys).
  const exactIn = (snap, minBlock) => {
    const sites = exact.sites.filter((site) => site.liveBlocks > 0 && site.liveBytes / site.liveBlocks >= minBlock);
    assert.ok(sites.length >= 1, `sites of blocks >= ${minBlock} bytes`);
    for (const site of sites) {
      const est = snap.sites.find((s) => s.key === site.key);
      assert.ok(est, `site ${site.key} recorded`);
      assert.equal(est.liveBytes, site.liveBytes, `${site.key}: exact at the interval ${snap.samplingInterval}`);
      assert.equal(est.liveBlocks, site.liveBlocks);
      assert.equal(est.estimatedLiveBytes, 0, 'and says it is exact');
    }
    return sites;
  };
  exactIn(sampled, 1024);

  // The default mode is exact; sampled mode's default interval is 512
  // KiB, still with exact totals; the 600,000-byte blocks are above the
  // interval: exact too.
  assert.equal(run({}).mode, 'exact');
  const byDefault = run({EMHEAP_MODE: 'sampled'});
  assert.equal(byDefault.mode, 'sampled');
  assert.equal(byDefault.samplingInterval, 524288);
  assert.equal(byDefault.summary.liveBytes, byDefault.kept.liveBytes);
  assert.equal(exactIn(byDefault, 524288).reduce((a, site) => a + site.liveBlocks, 0), 4, 'the four 600,000-byte blocks');
  assert.ok(total(byDefault, 'liveBytes') <= byDefault.summary.liveBytes, 'a few samples of 512 KiB never make more than the heap');

  // A fresh random seed per run (estimates differ), a fixed one on request
  // (runs repeat exactly).
  const estimates = (snap) => JSON.stringify(snap.sites.map((s) => [s.key, s.liveBytes]).sort());
  const seeded = (seed) => run({EMHEAP_MODE: 'sampled', EMHEAP_SAMPLING_INTERVAL: '4096', EMHEAP_SEED: seed});
  assert.equal(estimates(seeded('12345')), estimates(seeded('12345')), 'same seed, same estimates');
  const free1 = run({EMHEAP_MODE: 'sampled', EMHEAP_SAMPLING_INTERVAL: '4096'});
  const free2 = run({EMHEAP_MODE: 'sampled', EMHEAP_SAMPLING_INTERVAL: '4096'});
  assert.notEqual(estimates(free1), estimates(free2), 'two runs without a seed sample differently');
});

test('a bad mode or interval from the environment is reported and ignored', () => {
  const r = runWasmProgram(path.join(BUILD, 'sampling.js'),
    {env: {EMHEAP_MODE: 'fastest', EMHEAP_SAMPLING_INTERVAL: '-5'}});
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /emheap: ignoring mode "fastest" from the environment: use exact, sampled or off/);
  assert.match(r.stderr, /emheap: ignoring sampling interval "-5"/);
  assert.equal(r.tagged.SNAPSHOT.mode, 'exact', 'the default');
  assert.equal(r.tagged.SNAPSHOT.samplingInterval, 0);
});

// tests/runtime/symbols.c: which function asked for each size.
const SYMBOLS_CALLERS = [
  ['inner', [4096, 4104, 4112, 4120, 64, 72, 80, 88]],
  ['by_calloc', [400, 800, 28]],
  ['by_aligned_alloc', [6400, 12800, 448]],
  ['by_memalign', [100, 200, 7]],
  ['by_realloc', [103, 203, 10]],
];
const symbolsCaller = (bytes) => (SYMBOLS_CALLERS.find(([, sizes]) => sizes.includes(bytes)) || ['?'])[0];

test('a module without a name section: frames named from --emit-symbol-map, each block at its own caller', () => {
  const r = runWasmProgram(path.join(BUILD, 'symbols.js'));
  assert.equal(r.status, 0, r.stderr);
  const snap = r.tagged.SNAPSHOT;
  assert.deepEqual(validateSnapshot(snap), []);
  const leaves = snap.sites.map((s) => [s.totalBytes, snap.frames[s.stack[0]].name]);
  assert.equal(leaves.length, 20, JSON.stringify(leaves));
  // the runtime's frames are known by their function index, however many
  // of them inlining left: each entry point's block at its caller
  for (const [bytes, leaf] of leaves) assert.equal(leaf, symbolsCaller(bytes), `${bytes} B: ${JSON.stringify(leaves)}`);
  // the symbol map names the frames: nothing to say
  assert.ok(!/no function names/.test(r.stderr), r.stderr);
});

for (const contexts of ['on', 'off']) {
  test(`without names or a symbol map (contexts ${contexts}), a calloc leak is charged to its own caller`, () => {
    // the same module without its map: frames read wasm-function[N], and N
    // is the caller's index in the map left behind
    const {r, indexOf} = runWithoutSymbolMap('symbols', {EMHEAP_MODE: 'exact', EMHEAP_CONTEXTS: contexts});
    assert.equal(r.status, 0, r.stderr);
    const snap = r.tagged.SNAPSHOT;
    assert.equal(snap.sites.length, 20);
    for (const s of snap.sites) {
      const leaf = snap.frames[s.stack[0]];
      const caller = symbolsCaller(s.totalBytes);
      assert.equal(leaf.name, `wasm-function[${indexOf.get(caller)}]`, `${s.totalBytes} B from ${caller}`);
      assert.equal(leaf.funcIndex, indexOf.get(caller));
    }
    assert.equal(r.stderr.split('emheap: this module has no function names').length - 1, 1, r.stderr);
  });
}

test('pause/resume (C and JS): paused blocks go to site 0, counters and frees stay exact', () => {
  const r = runWasmProgram(path.join(BUILD, 'pause.dlmalloc.js'));
  assert.equal(r.status, 0, r.stderr);
  const {BASE: base, COUNTERS: c, SNAPSHOT: snap, SIZES: sizes} = r.tagged;
  assert.ok(base && c && snap && sizes, r.stdout + r.stderr);
  assert.deepEqual(validateSnapshot(snap), []);
  // 8 x 1000 tracked, 8 x 300 paused in C, 8 x 70 paused in JS; half of the
  // paused ones freed after resume. The global counters count usable sizes
  // (as the program measured them), sites the bytes asked for.
  const paused = sizes.pausedLive;
  assert.ok(sizes.tracked >= 8000 && paused >= 4 * 300 + 4 * 70);
  assert.equal(c.liveBytes, base.liveBytes + sizes.tracked + paused);
  assert.equal(c.liveBlocks, base.liveBlocks + 8 + 8);
  assert.equal(c.totalBytes - base.totalBytes, sizes.tracked + sizes.pausedEver);
  assert.equal(c.mallocCalls, base.mallocCalls + 24);
  assert.equal(c.freeCalls, base.freeCalls + 8);
  assert.equal(c.invalidFrees, 0, 'frees of paused blocks are valid');
  for (const k of ['liveBytes', 'liveBlocks', 'totalBytes', 'mallocCalls', 'freeCalls', 'invalidFrees']) {
    assert.equal(snap.summary[k], c[k], `summary.${k}`);
  }

  const names = (s) => s.stack.map((i) => snap.frames[i].name);
  // No site names the functions that allocated while paused.
  for (const s of snap.sites) {
    assert.ok(!names(s).some((n) => /paused_site/.test(n)), `paused allocation attributed: ${names(s).join(' < ')}`);
  }
  const unattributed = snap.sites.find((s) => s.id === 0);
  assert.ok(unattributed, 'site 0 is in the snapshot');
  assert.equal(unattributed.key, '(unattributed)');
  assert.deepEqual(unattributed.stack, []);
  assert.equal(unattributed.totalAllocs, 16);
  assert.equal(unattributed.liveBlocks, 8);
  assert.equal(unattributed.liveBytes, 4 * 300 + 4 * 70);
  // Tracking resumed: the tracked site holds exactly its blocks (the
  // unrolled loop may make one site per call offset).
  const tracked = snap.sites.filter((s) => names(s)[0] === 'tracked_site');
  assert.equal(tracked.reduce((a, s) => a + s.liveBytes, 0), 8 * 1000);
  assert.equal(tracked.reduce((a, s) => a + s.liveBlocks, 0), 8);
  // Sites add up to what the recorded blocks asked for, and with the
  // allocator's rounding to the global counters.
  assert.equal(snap.sites.reduce((a, s) => a + s.liveBytes, 0), snap.summary.requestedLiveBytes);
  assert.equal(snap.summary.requestedLiveBytes + snap.summary.allocatorRoundingBytes, snap.summary.liveBytes);
});

test('leakExitOn: which leaks fail the run (live, leaked, direct), as Valgrind\'s leak kinds', () => {
  const run = (on, args, mode = 'exact') => runWasmProgram(path.join(BUILD, 'leak_exit.js'),
    {env: {EMHEAP_LEAK_EXIT_CODE: '3', EMHEAP_LEAK_EXIT_ON: on, EMHEAP_MODE: mode}, args});
  // dropped pointers: all five blocks directly leaked (`sink` last held
  // the block freed_properly freed)
  const dropped = run('direct', []);
  assert.equal(dropped.status, 3, dropped.stderr);
  const bytes = dropped.tagged.LEAKED.bytes.toLocaleString('en-US');
  assert.match(dropped.stderr, new RegExp(`by a scan of the memory at exit .*: 5 blocks directly leaked \\(${bytes} bytes\\);`));
  // every block kept by a global: reachable, so only 'live' fails
  for (const [on, status] of [['live', 3], ['leaked', 0], ['direct', 0]]) {
    const kept = run(on, ['keep']);
    assert.equal(kept.status, status, `${on}: ${kept.stderr}`);
    assert.match(kept.stderr, /by a scan of the memory at exit .*: 5 blocks still reachable/);
  }
  // sampled mode has no heap graph: every live block counts, and it says so
  const sampled = run('direct', ['keep'], 'sampled');
  assert.equal(sampled.status, 3);
  assert.match(sampled.stderr, /leakExitOn "direct" needs the heap graph \(exact mode\): every live block counts/);
  const bad = run('some', []);
  assert.match(bad.stderr, /emheap: ignoring leakExitOn "some": use live, leaked, direct/);
  assert.equal(bad.status, 3);
});

test('-sASYNCIFY: blocks allocated before and after emscripten_sleep keep their own sites, contexts on, off and checked',
  {skip: skipReason(path.join(BUILD, 'asyncify.js')) || false}, () => {
  // tests/runtime/asyncify.c: round_trip(10), round_trip(5), each
  // before_sleep(n), before_sleep(1), sleep, after_sleep(n), sleep, after_sleep(1)
  const sizes = (base, n) => n * base + (n * (n - 1)) / 2;
  const expected = {
    before_sleep: sizes(1000, 10) + 1000 + sizes(1000, 5) + 1000,
    after_sleep: sizes(2000, 10) + 2000 + sizes(2000, 5) + 2000,
  };
  for (const contexts of ['on', 'off', 'verify']) {
    const r = runWasmProgram(path.join(BUILD, 'asyncify.js'), {env: {EMHEAP_MODE: 'exact', EMHEAP_CONTEXTS: contexts}});
    assert.equal(r.status, 0, r.stderr);
    const snap = r.tagged.SNAPSHOT;
    assert.deepEqual(validateSnapshot(snap), []);
    const byLeaf = {};
    for (const s of snap.sites) {
      const names = s.stack.map((i) => snap.frames[i].name);
      if (!/_sleep$/.test(names[0])) continue;
      assert.deepEqual(names.slice(1), ['round_trip', 'main'], names.join(' < '));
      byLeaf[names[0]] = (byLeaf[names[0]] || 0) + s.liveBytes;
    }
    assert.deepEqual(byLeaf, expected, `contexts ${contexts}`);
    if (contexts === 'verify') assert.match(r.stderr, /emheap: contexts checked against JS stacks: \d+ allocations, 0 named another site/);
  }
});

test('a --closure 1 build under node: the leak report at exit, its exit status, and an exit', () => {
  const r = runWasmProgram(path.join(BUILD, 'leak_exit.closure.js'),
    {env: {EMHEAP_LEAK_REPORT: '1', EMHEAP_LEAK_EXIT_CODE: '3'}, timeoutMs: 60e3});
  assert.ok(!r.timedOut, 'node exits (no timer of emheap\'s keeps it alive)');
  assert.equal(r.status, 3, r.stderr);
  const leaked = r.tagged.LEAKED.bytes.toLocaleString('en-US');
  assert.match(r.stderr, new RegExp(`emheap: ${leaked} bytes in 5 blocks still live at exit`));
  assert.match(r.stderr, /^ {4}at leak_buffers$/m);
  assert.match(r.stderr, /5 blocks directly leaked/);
  assert.ok(!fs.readFileSync(path.join(BUILD, 'leak_exit.closure.js'), 'utf8').includes('EMHEAP.profiler'), 'Closure ran');
});

test('leak report at exit (-sEXIT_RUNTIME=1), default mode: exact stacks by bytes, exit status, report file', () => {
  const os = require('os');
  // (leak_exit.js is linked with emheap's flags only: the default mode)
  const env = {EMHEAP_LEAK_REPORT: '1', EMHEAP_LEAK_EXIT_CODE: '3'};
  const leaky = runWasmProgram(path.join(BUILD, 'leak_exit.js'), {env});
  assert.equal(leaky.status, 3, 'a leak turns exit status 0 into EMHEAP_LEAK_EXIT_CODE\n' + leaky.stderr);
  const lines = leaky.stderr.split('\n');
  const headers = lines.filter((l) => /^emheap: .* still live, allocated at:$/.test(l));
  assert.ok(headers.length >= 2, leaky.stderr);
  // Largest first, leaf frame first, with file and line from the source map.
  const first = lines.indexOf(headers[0]);
  assert.match(lines[first + 1], /^ {4}at leak_buffers tests\/runtime\/leak_exit\.c:\d+$/);
  assert.match(lines[first + 2], /^ {4}at main tests\/runtime\/leak_exit\.c:\d+$/);
  const bytes = headers.map((h) => Number(/\(([\d,]+) bytes?\)/.exec(h)[1].replace(/,/g, '')));
  assert.deepEqual(bytes, bytes.slice().sort((a, b) => b - a), 'sorted by bytes descending');
  // leak_buffers' blocks (an unrolled loop may give two lines) come before leak_small's.
  const blame = (fn) => headers.map((h) => lines[lines.indexOf(h) + 1]).map((l, i) => l.includes(fn) ? i : -1).filter((i) => i >= 0);
  assert.ok(Math.max(...blame('leak_buffers')) < Math.min(...blame('leak_small')), leaky.stderr);
  assert.ok(!/freed_properly/.test(leaky.stderr), 'a freed block is not reported');
  const leaked = leaky.tagged.LEAKED.bytes.toLocaleString('en-US');
  assert.equal(leaky.tagged.LEAKED.bytes, 3 * 4096 + 2 * 100);
  // the bytes asked for, as LeakSanitizer counts them; and with dlmalloc's rounding
  const total = lines.find((l) => l.startsWith('emheap: ' + leaked + ' bytes in 5 blocks still live at exit (' + headers.length + ' stacks; '));
  assert.ok(total, leaky.stderr);
  const rounded = Number(/; ([\d,]+) bytes with the allocator's rounding\)$/.exec(total)[1].replace(/,/g, ''));
  assert.ok(rounded > 3 * 4096 + 2 * 100 && rounded <= 3 * 4096 + 2 * 100 + 5 * 12, total);
  // Exact mode scans the memory at exit: nothing points to these blocks
  // any more (the one global, `sink`, last held the freed block), so all
  // five are directly leaked, stack by stack and in all.
  for (const h of headers) {
    const at = lines.indexOf(h);
    const ofThese = lines.slice(at + 1).find((l) => !l.startsWith('    at '));
    assert.match(ofThese, /^ {4}of these: [\d,]+ blocks? directly leaked \([\d,]+ bytes?\)$/, leaky.stderr);
  }
  assert.ok(lines.includes('emheap: by a scan of the memory at exit (as LeakSanitizer classes blocks): 5 blocks directly leaked (' +
    leaked + ' bytes); still reachable = a pointer to it from static data, a C stack or a registered root'), leaky.stderr);

  const clean = runWasmProgram(path.join(BUILD, 'leak_clean.js'), {env});
  assert.equal(clean.status, 0, clean.stderr);
  assert.ok(!/still live/.test(clean.stderr), clean.stderr);
  assert.match(clean.stderr, /^emheap: no leaks/m);

  // Without the exit code setting the status stays 0; with a file name the
  // report goes to the file.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-leak-'));
  try {
    const file = path.join(dir, 'leaks.txt');
    const toFile = runWasmProgram(path.join(BUILD, 'leak_exit.js'), {env: {EMHEAP_LEAK_REPORT: file, EMHEAP_MODE: 'exact'}});
    assert.equal(toFile.status, 0, toFile.stderr);
    assert.match(toFile.stderr, /leak report written to .*leaks\.txt/);
    const text = fs.readFileSync(file, 'utf8');
    assert.match(text, /^emheap: \d+ blocks? \([\d,]+ bytes?\) still live, allocated at:\n {4}at leak_buffers /);
    assert.ok(text.includes(leaked + ' bytes in 5 blocks still live at exit'), text);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }

  // Not asked for: no report, status untouched.
  const quiet = runWasmProgram(path.join(BUILD, 'leak_exit.js'));
  assert.equal(quiet.status, 0);
  assert.ok(!/still live/.test(quiet.stderr), quiet.stderr);
});

test('leak report at exit: Module.emheapOptions asks for it too', () => {
  // The program with a Module object in front, as a page would define it
  // (under node a require()d module's `var Module` hides any global one).
  const file = path.join(BUILD, 'leak_exit.options.js');
  fs.writeFileSync(file, 'var Module = {emheapOptions: {leakReport: true, leakExitCode: 5}};\n' +
    fs.readFileSync(path.join(BUILD, 'leak_exit.js'), 'utf8'));
  try {
    const r = runWasmProgram(file, {env: {EMHEAP_MODE: 'exact'}});
    assert.equal(r.status, 5, r.stderr);
    assert.match(r.stderr, /still live, allocated at:\n {4}at leak_buffers /);
  } finally {
    fs.rmSync(file, {force: true});
  }
});

// The app's Module object is the app's: emheap reading it must not stop the
// module from starting, whatever it holds.
test('a Module.emheapOptions that throws or is not an object is reported and ignored', () => {
  const hostile = {
    'a throwing getter': "var Module = {}; Object.defineProperty(Module, 'emheapOptions', {get() { throw new Error('nope'); }});",
    'a throwing field': "var Module = {emheapOptions: {get mode() { throw new Error('no mode'); }, leakReport: true}};",
    'a string': "var Module = {emheapOptions: 'exact'};",
  };
  for (const [what, prelude] of Object.entries(hostile)) {
    const file = path.join(BUILD, 'leak_exit.hostile.js');
    fs.writeFileSync(file, prelude + '\n' + fs.readFileSync(path.join(BUILD, 'leak_exit.js'), 'utf8'));
    try {
      const r = runWasmProgram(file);
      assert.equal(r.status, 0, `${what}: ${r.stderr}`);
      assert.match(r.stderr, /emheap: ignoring Module\.emheapOptions/, what);
      if (what === 'a throwing field') assert.match(r.stderr, /still live, allocated at/, 'the readable fields still count');
    } finally {
      fs.rmSync(file, {force: true});
    }
  }
});

test('under node, downloadSnapshot() writes a new file each time and prints on stderr only', () => {
  const os = require('os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-save-'));
  const file = path.join(BUILD, 'leak_exit.save.js');
  // Same name twice (the timestamp is frozen): the second must not replace the first.
  fs.writeFileSync(file, "var Module = {onExit: function () { var d = Date.prototype.toISOString; " +
    "Date.prototype.toISOString = function () { return '2026-11-22T00:00:00.000Z'; }; " +
    "Module.emheap.downloadSnapshot('collapsed'); Module.emheap.downloadSnapshot('collapsed'); " +
    "Date.prototype.toISOString = d; }};\n" + fs.readFileSync(path.join(BUILD, 'leak_exit.js'), 'utf8'));
  try {
    fs.writeFileSync(path.join(dir, 'memory-profile-2026-11-22T00-00-00.000Z.collapsed.txt'), 'mine\n');
    const r = runWasmProgram(file, {cwd: dir, env: {EMHEAP_MODE: 'exact'}});
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /emheap/, 'nothing of emheap in the program\'s stdout');
    assert.match(r.stderr, /emheap: saved memory-profile-2026-11-22T00-00-00\.000Z-1\.collapsed\.txt/);
    assert.match(r.stderr, /emheap: saved memory-profile-2026-11-22T00-00-00\.000Z-2\.collapsed\.txt/);
    assert.equal(fs.readFileSync(path.join(dir, 'memory-profile-2026-11-22T00-00-00.000Z.collapsed.txt'), 'utf8'), 'mine\n');
    assert.match(fs.readFileSync(path.join(dir, 'memory-profile-2026-11-22T00-00-00.000Z-2.collapsed.txt'), 'utf8'), /leak_buffers/);
  } finally {
    fs.rmSync(file, {force: true});
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('timeline: under node too (its timer never keeps the program alive); off with emheapOptions.timeline = false', () => {
  const on = runWasmProgram(path.join(BUILD, 'pause.dlmalloc.js'));
  assert.equal(on.status, 0, on.stderr);
  const tl = on.tagged.SNAPSHOT.timeline;
  assert.ok(Array.isArray(tl) && tl.length >= 2, 'a point at start-up and one at the snapshot');
  assert.equal(tl[0].liveBytes, 0, 'sampled when the runtime attached, before main allocated');
  assert.equal(tl.at(-1).liveBytes, on.tagged.SNAPSHOT.summary.liveBytes);

  const file = path.join(BUILD, 'pause.options.js');
  fs.writeFileSync(file, 'var Module = {emheapOptions: {timeline: false}};\n' +
    fs.readFileSync(path.join(BUILD, 'pause.dlmalloc.js'), 'utf8'));
  try {
    const off = runWasmProgram(file);
    assert.equal(off.status, 0, off.stderr);
    assert.equal(off.tagged.SNAPSHOT.timeline, undefined);
  } finally {
    fs.rmSync(file, {force: true});
  }
});

test('exact-JS stacks: structured call sites and the text path agree', () => {
  const program = path.join(BUILD, 'cpp_new.dlmalloc.js');
  const structured = runWasmProgram(program);
  const text = runWasmProgram(program, {nodeArgs: ['-r', path.join(ROOT, 'tests', 'lib', 'no_structured_stacks.js')]});
  for (const r of [structured, text]) assert.equal(r.status, 0, r.stderr);
  const describe = (snap) => snap.sites.map((s) => ({
    key: s.key, liveBytes: s.liveBytes, totalAllocs: s.totalAllocs,
    stack: s.stack.map((i) => {
      const f = snap.frames[i];
      return `${f.name} ${f.funcIndex} ${f.offset} ${f.file || ''}:${f.line || ''}`;
    }),
  })).sort((a, b) => (a.key + a.stack.join()).localeCompare(b.key + b.stack.join()));
  const a = describe(structured.tagged.SNAPSHOT);
  assert.ok(a.length >= 3 && a.some((s) => s.stack.length >= 2), JSON.stringify(a));
  assert.deepEqual(describe(text.tagged.SNAPSHOT), a);
  assert.ok(!a.some((s) => s.stack.some((f) => f.startsWith('(stack truncated)'))), 'nothing truncated at 64');
});

test('exact-JS stacks: EMHEAP_STACK_DEPTH keeps the leaf frames and marks the cut', () => {
  const program = path.join(BUILD, 'cpp_new.dlmalloc.js');
  const full = runWasmProgram(program).tagged.SNAPSHOT;
  const depth = 6; // frames after capture: 1 glue, emheap_current_site, malloc, operator new...
  for (const nodeArgs of [[], ['-r', path.join(ROOT, 'tests', 'lib', 'no_structured_stacks.js')]]) {
    const r = runWasmProgram(program, {env: {EMHEAP_STACK_DEPTH: String(depth)}, nodeArgs});
    assert.equal(r.status, 0, r.stderr);
    const snap = r.tagged.SNAPSHOT;
    assert.deepEqual(validateSnapshot(snap), []);
    const names = (s, x) => s.stack.map((i) => x.frames[i].name);
    let cut = 0;
    for (const site of snap.sites) {
      const n = names(site, snap);
      assert.ok(n.length <= depth + 1, n.join(' < '));
      if (n.at(-1) === '(stack truncated)') {
        cut++;
        // The kept frames are the leaf end of the full stack of that site.
        const whole = full.sites.filter((s) => s.key === site.key).map((s) => names(s, full));
        assert.ok(whole.some((w) => w.length >= n.length - 1 &&
          w.slice(0, n.length - 1).join() === n.slice(0, -1).join()), `${n.join(' < ')} is a leaf end of ${whole.join(' | ')}`);
      }
    }
    assert.ok(cut >= 1, 'some stacks were cut');
    assert.equal(snap.summary.liveBytes, full.summary.liveBytes, 'depth never changes the byte counts');
  }
  const bad = runWasmProgram(program, {env: {EMHEAP_STACK_DEPTH: '0'}});
  assert.equal(bad.status, 0);
  assert.match(bad.stderr + bad.stdout, /ignoring stack depth "0" from the environment/);
});

// Threads (-pthread, the thread-safe runtime): 4 threads allocating at
// once, 16 more started and joined; Emscripten 3.1.6 frees thread data with
// its builtin allocator. Never a crash; with the threads quiet the totals
// equal the sum over sites; nothing is left beyond the kept blocks, not even
// the TSD arrays Emscripten frees behind emheap's back; the workers' blocks are
// named by their stacks in every mode. A worker's stack deeper than the 128
// frames it can hand the runtime (a stack depth of 300) keeps its leaf end
// and says where it was cut.
for (const variant of ['exact', 'proxied']) {
  test(`threads (${variant}): no crash, exact totals, sites add up`, () => {
    const env = variant === 'exact' ? {EMHEAP_STACK_DEPTH: '300'} : {};
    const r = runWasmProgram(path.join(BUILD, `threads.${variant}.js`), {env});
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.deepEqual(r.failedChecks, [], r.stdout + r.stderr);
    assert.equal(r.passedChecks.length, 4);
    const c = r.tagged.COUNTS;
    const snap = r.tagged.SNAPSHOT;
    assert.ok(c && snap, r.stdout + r.stderr);
    assert.deepEqual(validateSnapshot(snap), []);
    assert.equal(c.invalidFrees, 0);
    assert.equal(c.mallocCalls, snap.summary.mallocCalls);
    // Nothing beyond the kept blocks: each finished thread's TSD array,
    // which Emscripten 3.1.x frees behind emheap's back, left the books on
    // the thread's exit (before: 6 to 25 blocks of 516 bytes left here).
    // With main() on a pthread, Emscripten's queue of calls proxied to the
    // main thread is live, and exactly that: 3.1.6's CallQueue (2 blocks,
    // its allocation inlined into _emscripten_do_dispatch_to_thread;
    // 1,048 bytes), 4.x's proxying queue (its array, the main thread's
    // task queue and its tasks: 3 blocks, 1,600 bytes).
    const names = (s) => s.stack.map((i) => snap.frames[i].name);
    const proxying = snap.sites.filter((s) => names(s).some((n) => /^(GetOrAllocateQueue|_emscripten_do_dispatch_to_thread|get_or_add_tasks_for_thread)$/.test(n)));
    const queueBlocks = proxying.reduce((a, s) => a + s.liveBlocks, 0);
    const queueBytes = proxying.reduce((a, s) => a + s.liveBytes, 0);
    if (variant === 'proxied') assert.ok(queueBlocks >= 2, snap.sites.map((s) => names(s).join(' < ')).join('\n'));
    else assert.equal(queueBlocks, 0);
    const extraBlocks = c.liveBlocks - c.baseBlocks - 4000 - 1;
    const extraBytes = c.liveBytes - c.baseBytes - c.held - c.deep;
    assert.equal(extraBlocks, queueBlocks, 'blocks beyond the 4000 kept');
    // (live bytes are usable sizes, a site's what was asked for)
    assert.ok(extraBytes >= queueBytes && extraBytes <= queueBytes + 16 * queueBlocks, `bytes beyond the kept ones: ${extraBytes}, the queue ${queueBytes}`);
    const inWorker = (s) => /^worker/.test(names(s)[0]) && names(s).includes('worker');
    // No frame of the rewrite's own functions (a worker learns them when it
    // instantiates the module: through Emscripten's hook in 3.1.x, through
    // emheap's own in 4.x).
    for (const f of snap.frames) assert.ok(!/^emheap\$/.test(f.name), f.name);
    // Never the fallback of a worker whose stack could not be taken.
    assert.deepEqual(snap.sites.filter((s) => /^\(worker thread/.test(s.key)).map((s) => s.key), []);
    // The four 600 KiB blocks handed from fill() to drain(): recorded in
    // every mode, and gone from their site once freed on the other thread.
    // (the compiler may unroll the loop: one site per call then)
    const big = snap.sites.filter((s) => s.totalAllocs >= 1 && s.totalBytes / s.totalAllocs >= 600 * 1024 &&
      s.totalBytes / s.totalAllocs < 601 * 1024);
    assert.equal(big.reduce((a, s) => a + s.totalAllocs, 0), 4,
      snap.sites.map((s) => `${s.key} ${s.totalAllocs} ${s.totalBytes}`).join('\n'));
    assert.deepEqual(big.map((s) => s.liveBytes), big.map(() => 0), 'freed on another thread, taken out of its site');
    if (variant === 'proxied') {
      // main() on a pthread too, in the default mode: exact, the blocks
      // seen on workers, with their stacks.
      assert.equal(snap.mode, 'exact');
      assert.equal(snap.sites.reduce((a, s) => a + s.liveBlocks, 0), snap.summary.liveBlocks);
      assert.ok(snap.sites.some(inWorker), snap.sites.map((s) => names(s).join(' < ')).join('\n'));
      // (clang names a main(void) that something else than its own shim
      // calls `__original_main`, as Emscripten 4's _main_thread does)
      assert.ok(snap.sites.some((s) => names(s).some((n) => n === 'main' || n === '__original_main')), 'main() runs on a worker here');
      return;
    }
    const sum = (f) => snap.sites.reduce((a, s) => a + s[f], 0);
    assert.equal(sum('liveBytes'), snap.summary.requestedLiveBytes);
    assert.equal(snap.summary.requestedLiveBytes + snap.summary.allocatorRoundingBytes, snap.summary.liveBytes);
    assert.equal(sum('liveBlocks'), snap.summary.liveBlocks);
    // JS stacks are taken on each worker and handed to the runtime as wasm
    // positions, named on the main thread.
    assert.equal(snap.mode, 'exact');
    const kept = snap.sites.filter(inWorker);
    assert.equal(kept.reduce((a, s) => a + s.liveBlocks, 0), 4000, 'the 4000 kept blocks are charged to worker()');
    // one stack, one site, whichever of the 4 threads allocated
    const holding = kept.filter((s) => s.liveBlocks > 0);
    assert.equal(holding.length, 1, holding.map((s) => names(s).join(' < ')).join('\n'));
    const frame = snap.frames[holding[0].stack[0]];
    assert.ok(frame.funcIndex >= 0 && frame.offset > 0, JSON.stringify(frame));
    // (binaryen may inline deep_alloc into deep_recurse)
    const deep = snap.sites.filter((s) => /^deep_(alloc|recurse2?)$/.test(names(s)[0]));
    assert.equal(deep.length, 1, snap.sites.map((s) => names(s).slice(0, 3).join(' < ')).join('\n'));
    const deepNames = names(deep[0]);
    const levels = deepNames.filter((n) => /^deep_recurse2?$/.test(n)).length;
    assert.equal(deep[0].liveBytes, 64, 'what deep_alloc asked for');
    assert.ok(c.deep >= 64);
    // 128 pairs: the leaf end (deep_alloc, if not inlined, and the
    // innermost deep_recurse calls of 201), then the marker
    assert.equal(deepNames.at(-1), '(stack truncated)', deepNames.slice(-3).join(' < '));
    assert.equal(deepNames.length, 128);
    assert.equal(levels, 127 - (deepNames[0] === 'deep_alloc'));
    assert.ok(snap.summary.truncatedStacks >= 1, 'the cut is counted');
  });
}

// Emscripten's defaults (fixed 16 MB heap, ABORTING_MALLOC): emheap's
// tables never make the app abort. Sampled mode: 300,000 16-byte blocks
// (8.4 MB) fit as they do without emheap; exact mode (the default): 32,768
// distinct stacks fill the site table, then the 300,000 blocks the block
// table, within 1/16 of the heap; what could not be recorded exactly is
// sampled or counted, and the snapshot says so.
for (const variant of ['default', 'sampled']) {
  test(`fixed 16 MB heap (${variant}): the app never aborts because of emheap`, () => {
    const r = runWasmProgram(path.join(BUILD, `fixed_heap.${variant}.js`));
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const {START: start, STACKS: stacks, HELD: held, FREED: freed, SNAPSHOT: snap} = r.tagged;
    assert.ok(start && stacks && held && freed && snap, r.stdout + r.stderr);
    assert.deepEqual(validateSnapshot(snap), []);
    // Emscripten's default: 16 MiB of memory (3.1.x), or 16 MiB of heap
    // and the stack and static data on top (4.x)
    assert.ok(start.heapSize >= 16 * 1024 * 1024 && start.heapSize <= 17 * 1024 * 1024, `${start.heapSize}`);
    for (const at of [stacks, held, freed]) assert.equal(at.heapSize, start.heapSize, 'the heap never grew');
    assert.equal(held.failedAllocs, 0);
    assert.equal(held.liveBlocks, 300001, 'every block counted');
    assert.ok(held.tableBytes <= 1024 * 1024, `emheap's tables: ${held.tableBytes} bytes`);
    assert.equal(freed.liveBlocks, 1, 'the array is left');
    for (const k of ['lostSites', 'lostAllocs']) assert.equal(snap.summary[k], held[k]);
    if (variant === 'sampled') {
      assert.equal(snap.mode, 'sampled');
      assert.match(r.tagged.HEAPSCAN.error, /the heap graph needs every block recorded/);
      assert.equal(held.lostAllocs, 0);
      assert.equal(held.lostSites, 0);
    } else {
      assert.equal(snap.mode, 'exact');
      // The site table filled: every stack was asked for, the last ones
      // went to (unattributed). Then the block table could not double:
      // the blocks after were sampled (thinned), none lost; the sites'
      // blocks, exact and estimated, add up to the live ones but for
      // rounding down.
      assert.ok(stacks.lostSites > 0 && stacks.siteCount + stacks.lostSites > 32768, JSON.stringify(stacks));
      assert.ok(snap.summary.thinnedAtBytes > 0, JSON.stringify(snap.summary));
      assert.equal(held.lostAllocs, 0);
      const siteBlocks = snap.sites.reduce((a, s) => a + s.liveBlocks, 0);
      assert.ok(siteBlocks <= held.liveBlocks && siteBlocks >= held.liveBlocks - snap.sites.length, `${siteBlocks}`);
      assert.ok(snap.sites.some((s) => s.estimatedLiveBytes > 0));
      // the heap graph has only the recorded blocks, and says how many not
      const scan = r.tagged.HEAPSCAN;
      assert.ok(scan.blocks > 0 && scan.blocks < held.liveBlocks, JSON.stringify(scan));
      assert.equal(scan.notScanned.blocks, held.liveBlocks - scan.blocks);
      assert.match(scanCaveat(scan), new RegExp(`^incomplete scan: ${scan.notScanned.blocks.toLocaleString('en-US')} live blocks were not recorded .*shows as leaked$`));
    }
  });
}

test('mode off: every entry point forwards, nothing is counted, the summary says off', () => {
  const r = runWasmProgram(path.join(BUILD, 'sampling.js'), {env: {EMHEAP_MODE: 'off'}});
  assert.equal(r.status, 0, r.stderr);
  const snap = r.tagged.SNAPSHOT;
  assert.deepEqual(validateSnapshot(snap), []);
  assert.equal(snap.mode, 'off');
  assert.equal(snap.summary.mallocCalls, 0);
  assert.equal(snap.summary.liveBytes, 0);
  assert.deepEqual(snap.sites, []);
  assert.equal(snap.timeline, undefined, 'off runs no timeline timer (it would sample zeros)');
  assert.ok(r.tagged.KEPT.liveBytes > 10e6, 'the program ran as usual');
});
