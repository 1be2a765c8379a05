// pools.test.js -- a program's own allocators, annotated (tests/runtime/
// pools.c): a slab told through Valgrind's mempool macros, a frame arena
// reset every frame through emheap_pool.h, malloc-like blocks in a static
// buffer, plain malloc beside them, a pool destroyed with objects in it,
// and misuses. With dlmalloc (records in footers), emmalloc (the block
// table) and -pthread, on the default fixed heap. Expected numbers are the
// program's plan (its constants below, restated) and its allocators' own
// counts (PLAN), kept inside the annotated functions.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {validateSnapshot} = require('../lib/schemas');
const {runCli} = require('../lib/cli');
const {BUILD} = require('../lib/paths');

// tests/runtime/pools.c's plan
const POINTS = 3000, POINT_BYTES = 24;
const PAIRS = 1000, PAIR_BYTES = 16, TEMPORARIES = 5000;
const PARTICLES = 100, PARTICLE_BYTES = 40, FRAMES = 10;
const STATIC_KEPT = 9, STATIC_BYTES = 48;
const PLAIN = 7, PLAIN_BYTES = 100;
const LEAKED = 6; // pairs no pointer keeps (leak_objects)
const SLAB_CHUNK = 4096, ARENA = 64 * 1024;
// misuse kinds (runtime/state_layout.h): no pool, no object, created twice
const NO_POOL = 0, NOT_AN_OBJECT = 1, CREATED_TWICE = 2;

for (const variant of ['dlmalloc', 'emmalloc', 'threads']) {
  test(`${variant}: pool objects are charged to their stacks, their chunks to their pools, no byte twice`, () => {
    const run = runWasmProgram(path.join(BUILD, `pools.${variant}.js`), {});
    assert.equal(run.status, 0, run.stderr.slice(-2000));
    const {SNAPSHOT: snapshot, PLAN: plan} = run.tagged;
    assert.ok(snapshot && plan, 'the program printed its plan and a snapshot');
    assert.deepEqual(validateSnapshot(snapshot), []);

    // the allocators' own counts are the plan's
    assert.equal(plan.slab.objects, POINTS + PAIRS + LEAKED);
    assert.equal(plan.slab.bytes, POINTS * POINT_BYTES + (PAIRS + LEAKED) * PAIR_BYTES);
    assert.equal(plan.frame.objects, PARTICLES);
    assert.equal(plan.frame.bytes, PARTICLES * PARTICLE_BYTES);
    assert.deepEqual(plan.exists, [1, 0], 'VALGRIND_MEMPOOL_EXISTS: the slab lives, the scratch pool was destroyed');

    // each pool as its allocator counts it
    const pools = snapshot.pools;
    const slab = pools.find((p) => p.number === 1);
    assert.deepEqual([slab.live, slab.objects, slab.bytes, slab.chunks, slab.chunkBytes, slab.outsideObjects],
      [true, plan.slab.objects, plan.slab.bytes, plan.slab.chunks, plan.slab.chunks * SLAB_CHUNK, 0]);
    assert.equal(slab.createdIn, 'main');
    const frame = pools.find((p) => p.name === 'frame arena');
    assert.deepEqual([frame.objects, frame.bytes, frame.chunks, frame.chunkBytes, frame.outsideObjects],
      [plan.frame.objects, plan.frame.bytes, 1, ARENA, 0], 'only the last frame lives: the resets ended the rest');
    const statics = pools.find((p) => p.malloclike);
    assert.deepEqual([statics.objects, statics.bytes, statics.outsideObjects, statics.chunks],
      [STATIC_KEPT, STATIC_KEPT * STATIC_BYTES, STATIC_KEPT, 0], 'a static buffer is no heap block');
    const scratch = pools.find((p) => !p.live);
    assert.deepEqual([scratch.objects, scratch.bytes, scratch.chunks, scratch.chunkBytes],
      [0, 0, plan.scratchChunks, plan.scratchChunks * SLAB_CHUNK], 'destroyed: its objects ended, its chunk is still there');

    // misuses: counted, each kind said once
    assert.equal(snapshot.poolMisuse[NOT_AN_OBJECT], 2);
    assert.equal(snapshot.poolMisuse[NO_POOL], 1);
    assert.equal(snapshot.poolMisuse[CREATED_TWICE], 1);
    assert.equal(snapshot.poolMisuse.reduce((a, b) => a + b, 0), 4);
    const said = run.stderr.split('\n').filter((l) => /^emheap: .*docs\/pools\.md$/.test(l));
    assert.equal(said.length, 3, said.join('\n'));

    // no byte counted twice: the sites add up to what the program asked
    // malloc for, plus the objects in no heap block
    const sitesLive = snapshot.sites.reduce((n, s) => n + s.liveBytes, 0);
    assert.equal(sitesLive, snapshot.summary.requestedLiveBytes + statics.bytes);

    // the page's breakdown of the memory says what is in pools
    const memory = run.tagged.MEMORY;
    const objects = plan.slab.objects + plan.frame.objects + STATIC_KEPT;
    assert.deepEqual([memory.pools.objects, memory.pools.bytes], [objects, plan.slab.bytes + plan.frame.bytes + statics.bytes]);
    assert.equal(memory.pools.freeInside, (plan.slab.chunks + plan.scratchChunks) * SLAB_CHUNK + ARENA - plan.slab.bytes -
      plan.frame.bytes);
    assert.match(memory.text, new RegExp(`\\(in pools: ${objects.toLocaleString('en-US')} objects, `));

    // the heap graph: the objects are its nodes, their chunks are not
    const graph = run.tagged.GRAPH;
    assert.deepEqual(validateSnapshot(graph), []);
    const nodesAt = (pred) => graph.sites.filter(pred).reduce((n, s) => n + (s.heapBlocks || 0), 0);
    const stackHas = (s, name) => s.stack.some((f) => graph.frames[f].name === name);
    assert.equal(nodesAt((s) => s.pool === slab.number && stackHas(s, 'make_point')), POINTS);
    assert.equal(nodesAt((s) => s.pool === frame.number), PARTICLES);
    assert.equal(nodesAt((s) => s.pool && !s.stack.length), 0, 'no chunk is a node');
    assert.equal(nodesAt((s) => stackHas(s, 'leak_plain')), PLAIN);

    // by function, as `emheap top` shows them
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-pools-'));
    try {
      const file = path.join(dir, 'pools.json');
      fs.writeFileSync(file, JSON.stringify(snapshot));
      const top = runCli(['top', file, '--json', '--top', '50'], {cwd: dir});
      assert.equal(top.status, 0, top.stderr);
      const rows = JSON.parse(top.stdout);
      assert.ok(rows.wrappers.detected.includes('slab_alloc'), 'the slab\'s allocator is left out of the stacks');
      const live = {};
      const add = (into, r, bytes, blocks) => {
        const had = into[r.label] || [0, 0];
        into[r.label] = [had[0] + bytes, had[1] + blocks];
      };
      // (rows by function are by chain of functions: make_pair's kept and leaked are two;
      // Emscripten 6's threaded runtime makes its main thread's mailbox with
      // em_task_queue_create: the runtime's, not the program's)
      const runtimeStartup = (r) => r.stack.some((f) => f.name === 'em_task_queue_create');
      for (const r of rows.sites) if (r.liveBytes && !runtimeStartup(r)) add(live, r, r.liveBytes, r.liveBlocks);
      assert.deepEqual(live, {
        make_point: [POINTS * POINT_BYTES, POINTS],
        make_pair: [(PAIRS + LEAKED) * PAIR_BYTES, PAIRS + LEAKED],
        make_particle: [PARTICLES * PARTICLE_BYTES, PARTICLES],
        static_block: [STATIC_KEPT * STATIC_BYTES, STATIC_KEPT],
        leak_plain: [PLAIN * PLAIN_BYTES, PLAIN],
        // the room in each pool's chunks that no object takes
        '(pool #1 made in main: free inside its chunks)': [plan.slab.chunks * SLAB_CHUNK - plan.slab.bytes, plan.slab.chunks],
        '(pool frame arena: free inside its chunks)': [ARENA - plan.frame.bytes, 1],
        [`(pool #${scratch.number} made in main: free inside its chunks)`]: [plan.scratchChunks * SLAB_CHUNK, plan.scratchChunks],
      });
      const pairs = rows.sites.filter((r) => r.label === 'make_pair').reduce((n, r) => n + r.totalAllocs, 0);
      assert.equal(pairs, PAIRS + TEMPORARIES + LEAKED, 'the temporaries are allocations of make_pair too');
      const particle = rows.sites.find((r) => r.label === 'make_particle');
      assert.equal(particle.totalAllocs, PARTICLES * FRAMES);

      // after the mark "pairs": the kept pairs and the last frame's
      // particles, objects; the chunks are not allocations of their own there
      const since = JSON.parse(runCli(['top', file, '--since', 'pairs', '--json'], {cwd: dir}).stdout);
      const sinceRows = {};
      for (const r of since.sites) if (r.liveBytes) add(sinceRows, r, r.liveBytes, r.liveBlocks);
      assert.deepEqual(sinceRows, {
        make_pair: [(PAIRS + LEAKED) * PAIR_BYTES, PAIRS + LEAKED],
        make_particle: [PARTICLES * PARTICLE_BYTES, PARTICLES],
        static_block: [STATIC_KEPT * STATIC_BYTES, STATIC_KEPT],
        leak_plain: [PLAIN * PLAIN_BYTES, PLAIN],
      });
      // lifetimes: the churned pairs were temporaries; nine frames' particles ended
      const lifetimes = JSON.parse(runCli(['top', file, '--lifetimes', '--json'], {cwd: dir}).stdout);
      const lt = (name) => lifetimes.sites.find((r) => r.label === name && r.totalAllocs > 1);
      assert.deepEqual([lt('make_pair').ended, lt('make_pair').temporary], [TEMPORARIES, TEMPORARIES]);
      assert.equal(lt('make_particle').ended, PARTICLES * (FRAMES - 1));

      const text = runCli(['top', file], {cwd: dir});
      assert.equal(text.status, 0, text.stderr);
      assert.match(text.stdout, /pool frame arena: 100 objects, 3\.91 KiB, in 1 chunk of 64\.00 KiB \(60\.09 KiB free inside\)/);
      assert.match(text.stdout, new RegExp(`\\(in pools: ${objects.toLocaleString('en-US')} objects, `));
    } finally {
      fs.rmSync(dir, {recursive: true, force: true});
    }
  });
}

test('built without emheap, the annotations call nothing and the program runs as it would', () => {
  const run = runWasmProgram(path.join(BUILD, 'pools_unlinked.js'), {});
  assert.equal(run.status, 0, run.stderr.slice(-2000));
  // 0 + 1 + ... + 15; no pool exists where emheap is not; not under Valgrind
  assert.deepEqual(run.tagged.RESULT, {sum: 120, exists: [0, 0], running: 0});
  assert.equal(run.stderr, '');
});

// tests/runtime/quickjs_pools.c's plan
const QJS_NATIVE = 700, QJS_NATIVE_BYTES = 40, QJS_PLAIN = 5, QJS_PLAIN_BYTES = 300;

test('QuickJS, its small-block allocator annotated: objects, not arenas, each exact', () => {
  const run = runWasmProgram(path.join(BUILD, 'quickjs_pools.js'), {});
  assert.equal(run.status, 0, run.stderr.slice(-2000));
  const {SNAPSHOT: snapshot, PLAN: plan} = run.tagged;
  assert.deepEqual(validateSnapshot(snapshot), []);
  assert.equal(snapshot.poolMisuse, undefined, 'the annotations misuse nothing');
  // the pool as the test's own count inside the annotated functions has it
  assert.equal(snapshot.pools.length, 1);
  const pool = snapshot.pools[0];
  assert.deepEqual([pool.objects, pool.bytes, pool.outsideObjects], [plan.objects, plan.bytes, 0]);
  assert.ok(pool.chunks > 0 && pool.chunkBytes > pool.bytes, JSON.stringify(pool));
  // no byte twice: the arenas' bytes are in the pool's row, not at the calls that opened them
  const sitesLive = snapshot.sites.reduce((n, s) => n + s.liveBytes, 0);
  assert.equal(sitesLive, snapshot.summary.requestedLiveBytes);
  const arenaLive = snapshot.sites.filter((s) => s.stack.some((f) => snapshot.frames[f].name === 'js_malloc_new_arena'))
    .reduce((n, s) => n + s.liveBytes, 0);
  assert.equal(arenaLive, 0, 'no site holds an arena');

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-quickjs-'));
  try {
    const file = path.join(dir, 'quickjs.json');
    fs.writeFileSync(file, JSON.stringify(snapshot));
    const top = runCli(['top', file, '--json', '--top', '0'], {cwd: dir});
    assert.equal(top.status, 0, top.stderr);
    const rows = JSON.parse(top.stdout);
    assert.deepEqual(rows.wrappers.detected, ['__js_malloc'], 'the pool\'s allocator, and only it, is left out');
    const byLabel = (label) => rows.sites.filter((r) => r.label === label);
    const sum = (list, f) => list.reduce((n, r) => n + r[f], 0);
    assert.deepEqual([sum(byLabel('keep_native_objects'), 'liveBytes'), sum(byLabel('keep_native_objects'), 'liveBlocks')],
      [QJS_NATIVE * QJS_NATIVE_BYTES, QJS_NATIVE], 'the native objects, exactly');
    assert.deepEqual([sum(byLabel('leak_plain'), 'liveBytes'), sum(byLabel('leak_plain'), 'liveBlocks')],
      [QJS_PLAIN * QJS_PLAIN_BYTES, QJS_PLAIN], 'plain malloc beside the pool, exactly');
    // the kept JS objects (a Point or a Map each, with its properties) are
    // objects where QuickJS makes them, tens of thousands of them
    const made = sum(byLabel('JS_NewObjectFromShape'), 'liveBlocks');
    assert.ok(made >= plan.points + plan.maps, `${made} live objects at JS_NewObjectFromShape`);

    const text = runCli(['top', file], {cwd: dir});
    assert.match(text.stdout, new RegExp(`pool #1 made in \\w+: ${plan.objects.toLocaleString('en-US')} objects, `));
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('QuickJS as it ships: its arenas are named as a pool whose objects are not seen, in top and the report', () => {
  const unannotated = runWasmProgram(path.join(BUILD, 'quickjs_unannotated.js'), {});
  assert.equal(unannotated.status, 0, unannotated.stderr.slice(-2000));
  const annotated = runWasmProgram(path.join(BUILD, 'quickjs_pools.js'), {});
  assert.equal(annotated.status, 0, annotated.stderr.slice(-2000));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-quickjs-'));
  try {
    const said = (snapshot, name) => {
      const file = path.join(dir, name + '.json');
      fs.writeFileSync(file, JSON.stringify(snapshot));
      const top = runCli(['top', file], {cwd: dir});
      assert.equal(top.status, 0, top.stderr);
      const report = runCli(['report', file, '-o', path.join(dir, name + '.html')], {cwd: dir});
      assert.equal(report.status, 0, report.stderr);
      const html = fs.readFileSync(path.join(dir, name + '.html'), 'utf8');
      const note = /this looks like a pool allocator whose objects are not seen: [\d,]+ live blocks of about [\d.]+ KiB .*\(docs\/pools\.md\)/;
      return {top: note.test(top.stdout), report: note.test(html), topText: top.stdout, html};
    };
    const seen = said(unannotated.tagged.SNAPSHOT, 'unannotated');
    assert.deepEqual([seen.top, seen.report], [true, true], seen.topText.slice(0, 3000));
    assert.equal(seen.topText.match(/looks like a pool allocator/g).length, 1, 'said once');
    const told = said(annotated.tagged.SNAPSHOT, 'annotated');
    assert.deepEqual([told.top, told.report], [false, false], 'annotated, its objects are seen');
    assert.match(told.html, /<p class="pool">pool #1 made in \w+: [\d,]+ objects/);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('C++ std::pmr on an arena resource, at -O2 with exceptions: its objects exact, by function', () => {
  const run = runWasmProgram(path.join(BUILD, 'pools_pmr.js'), {});
  assert.equal(run.status, 0, run.stderr.slice(-2000));
  const {SNAPSHOT: snapshot, PLAN: plan} = run.tagged;
  assert.deepEqual(validateSnapshot(snapshot), []);
  // tests/runtime/pools_pmr.cpp's plan: 10,000 ints in one vector, 300 names
  // (and their vector), 50 temporary vectors of 1,000 ints
  assert.equal(plan.numbers, 10000 * 4);
  assert.equal(plan.names.objects, 300 + 1);
  const pool = snapshot.pools.find((p) => p.name === 'pmr');
  assert.deepEqual([pool.objects, pool.bytes, pool.createdIn], [plan.objects, plan.bytes, 'main']);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-pmr-'));
  try {
    const file = path.join(dir, 'pmr.json');
    fs.writeFileSync(file, JSON.stringify(snapshot));
    const top = runCli(['top', file, '--json'], {cwd: dir});
    assert.equal(top.status, 0, top.stderr);
    const rows = JSON.parse(top.stdout);
    const row = (name) => rows.sites.find((r) => r.label.startsWith(name + '('));
    assert.deepEqual([row('make_names').liveBytes, row('make_names').liveBlocks], [plan.names.bytes, plan.names.objects]);
    // the ints, and the vector itself (new: from malloc)
    const numbers = row('make_numbers');
    assert.equal(numbers.liveBlocks, 2);
    assert.ok(numbers.liveBytes > plan.numbers && numbers.liveBytes <= plan.numbers + 16, String(numbers.liveBytes));
    assert.deepEqual([row('make_temporary').liveBlocks, row('make_temporary').totalAllocs], [0, 50]);
    assert.equal(rows.sites.filter((r) => r.liveBytes === 0 && r.totalAllocs === 0).length, 0, 'no empty rows');
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('sampled mode records no pool: the calls do nothing, and its sites stay estimates of malloc\'s blocks', () => {
  const run = runWasmProgram(path.join(BUILD, 'pools.dlmalloc.js'), {env: {EMHEAP_MODE: 'sampled'}});
  assert.equal(run.status, 0, run.stderr.slice(-2000));
  const snapshot = run.tagged.SNAPSHOT;
  assert.equal(snapshot.mode, 'sampled');
  assert.equal(snapshot.pools, undefined);
  assert.equal(snapshot.sites.filter((s) => s.pool).length, 0);
  assert.equal(run.stderr, '', 'no misuse said: nothing was looked at');
});

test('the leak report at exit classes pool objects as LeakSanitizer classes blocks, and leaves their chunks out', () => {
  const run = runWasmProgram(path.join(BUILD, 'pools.dlmalloc.js'), {env: {EMHEAP_LEAK_REPORT: '1'}});
  assert.equal(run.status, 0, run.stderr.slice(-2000));
  const report = run.stderr;
  // the pairs no pointer keeps: directly leaked, at their own stack
  assert.match(report, new RegExp(`emheap: ${LEAKED} blocks \\(${LEAKED * PAIR_BYTES} bytes\\) still live, allocated at:\\n` +
    '    at make_pair\\n    at leak_objects\\n    at main\\n' +
    `    of these: ${LEAKED} blocks directly leaked \\(${LEAKED * PAIR_BYTES} bytes\\)`));
  // the points, which a static array keeps
  assert.match(report, new RegExp(`${POINTS.toLocaleString('en-US')} blocks still reachable`));
  assert.doesNotMatch(report, /at \(unattributed/, 'no chunk is a stack of the report');
  assert.match(report, /are the program's pool objects, inside those blocks or a buffer of its own \(docs\/pools\.md\)/);
});
