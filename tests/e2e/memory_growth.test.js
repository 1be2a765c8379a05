// memory_growth.test.js -- every growth of the wasm memory with its cause
// (runtime/state.c, capture/growth_log.js, model/growth.js):
// tests/runtime/memory_growth.c keeps 2 MiB at load_assets, then grows
// its memory from 16 MiB by keeping 3 MiB a call at grow_cache. With
// EMHEAP_GROWTH=log each growth prints its lines as it happens, naming
// grow_cache; the snapshot carries the same events (the request, the
// time, the sites that held the most), `emheap top` prints the same
// lines, and the Chrome trace has an instant per growth. In headless
// Chromium, ?emheap_growth=log prints them on the page's console. The same
// program checks emheap's walk of the allocator's heap against mallinfo(),
// and the page's emheap.memory().
'use strict';

const {describe, test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {runCli} = require('../lib/cli');
const {validateSnapshot, validateChromeTrace} = require('../lib/schemas');
const {BUILD} = require('../lib/paths');
const {newPage, servedProgramPage, CHROMIUM_SKIP} = require('../lib/browser');

const program = (variant) => path.join(BUILD, `memory_growth.${variant}.js`);
const MIB = 1024 * 1024;
const REQUEST = 3 * MIB; // grow_cache's, each call

// The growth lines emheap printed, without the prefix: one entry per
// growth, [first line, second line].
function loggedGrowths(stderr) {
  const lines = stderr.split('\n').filter((l) => l.startsWith('emheap: ')).map((l) => l.slice(8));
  const out = [];
  lines.forEach((l, i) => {
    if (l.startsWith('wasm memory grew ')) out.push([l, lines[i + 1]]);
  });
  return out;
}

// A line's time ("at 0.012 s") as ms, and the line without it.
const timeOf = (line) => 1000 * Number(/ at (\d+\.\d{3}) s:/.exec(line)[1]);
const withoutTime = (line) => line.replace(/ at \d+\.\d{3} s:/, ' at T:');

function runIn(t, variant, env) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-growth-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  const run = runWasmProgram(program(variant), {cwd: dir, env: env || {}});
  assert.equal(run.status, 0, run.stderr.slice(-2000));
  const snapshot = run.tagged.SNAPSHOT;
  assert.ok(snapshot, 'the program printed its snapshot');
  const file = path.join(dir, 'growth.json');
  fs.writeFileSync(file, JSON.stringify(snapshot));
  return {run, snapshot, file, dir};
}

for (const variant of ['dlmalloc', 'emmalloc', 'threads']) {
  test(`${variant}: each growth is charged to grow_cache, logged as it happens, and in the file, top and the trace`, (t) => {
    const {run, snapshot, file, dir} = runIn(t, variant, {EMHEAP_GROWTH: 'log'});
    assert.deepEqual(validateSnapshot(snapshot), []);
    const caller = variant === 'threads' ? 'fill_cache' : 'main';
    const grower = snapshot.sites.find((s) => /^grow_cache/.test(s.key));
    const assets = snapshot.sites.find((s) => /^load_assets/.test(s.key));
    assert.ok(grower && assets, snapshot.sites.map((s) => s.key).join(', '));
    assert.equal(grower.liveBytes, 12 * REQUEST);

    // the events: every growth (fewer than the ring's 64), each made by a
    // grow_cache call, in time order, the memory only ever larger
    const events = snapshot.heapGrowth;
    assert.ok(events.length >= 3, `${events.length} growths`);
    assert.equal(events.length, snapshot.summary.heapGrowths);
    // the initial memory: 16 MiB (Emscripten 4: 16 MiB of heap and, beside it, the static data and stack)
    assert.ok(events[0].fromBytes >= 16 * MIB && events[0].fromBytes < 17 * MIB, `${events[0].fromBytes}`);
    assert.equal(events.at(-1).toBytes, snapshot.summary.heapSize);
    const lastPoint = snapshot.timeline.at(-1).t;
    events.forEach((g, i) => {
      assert.equal(g.siteId, grower.id, `growth ${i + 1}'s site`);
      assert.equal(g.requestBytes, REQUEST);
      if (i) assert.equal(g.fromBytes, events[i - 1].toBytes);
      if (i) assert.ok(g.t >= events[i - 1].t);
      assert.ok(g.t > 0 && g.t <= lastPoint, `t ${g.t} within the timeline (to ${lastPoint})`);
      // the most live then: grow_cache's blocks so far, this one included
      assert.equal(g.top[0].siteId, grower.id);
      assert.equal(g.top[0].liveBytes % REQUEST, 0);
      assert.ok(g.top[0].liveBytes >= REQUEST && g.top[0].liveBytes <= 12 * REQUEST);
      if (i) assert.ok(g.top[0].liveBytes > events[i - 1].top[0].liveBytes);
      assert.ok(g.top.some((s) => s.siteId === assets.id && s.liveBytes === 2 * MIB), JSON.stringify(g.top));
      assert.equal(g.estimated, undefined, 'exact mode: no estimates');
    });

    // the log: one entry per growth, as it happened, the same words as top's
    const logged = loggedGrowths(run.stderr);
    assert.equal(logged.length, events.length, run.stderr);
    logged.forEach(([first, second], i) => {
      assert.match(first, new RegExp(`^wasm memory grew \\d+\\.\\d\\d MiB -> \\d+\\.\\d\\d MiB at \\d+\\.\\d{3} s: ` +
        `a request of 3,145,728 bytes at grow_cache < ${caller} \\(growth ${i + 1}\\)$`));
      assert.ok(Math.abs(timeOf(first) - events[i].t) <= 1, `logged at ${timeOf(first)} ms, in the file ${events[i].t} ms`);
      // a worker cannot read the main thread's stacks: load_assets is named there only
      assert.match(second, new RegExp(`^ {2}the most live then: \\d+\\.00 MiB grow_cache < ${caller}; 2\\.00 MiB ` +
        (variant === 'threads' ? '\\(a site of the main thread\\)' : `load_assets < main`)));
    });
    const top = runCli(['top', file], {cwd: dir});
    assert.equal(top.status, 0, top.stderr);
    const printed = top.stdout.split('\n');
    const head = printed.findIndex((l) => l.startsWith('wasm memory grew '));
    assert.equal(printed[head], `wasm memory grew ${events.length} times${events.length > 5 ? '; the last 5' : ''}:`);
    const shown = printed.slice(head + 1, head + 11);
    logged.slice(-5).forEach(([first, second], k) => {
      assert.equal(withoutTime(shown[2 * k]), '  ' + withoutTime(first).replace(/^wasm memory grew /, '').replace(/ \(growth \d+\)$/, ''));
      if (variant !== 'threads') assert.equal(shown[2 * k + 1], '  ' + second);
    });

    // the Chrome trace: an instant per growth, and the memory's size
    const out = path.join(dir, 'growth.trace.json');
    const converted = runCli(['convert', file, '--to', 'chrome-trace', '-o', out], {cwd: dir});
    assert.equal(converted.status, 0, converted.stderr);
    const trace = JSON.parse(fs.readFileSync(out, 'utf8'));
    assert.deepEqual(validateChromeTrace(trace), []);
    const instants = trace.traceEvents.filter((e) => e.name === 'wasm memory grew');
    assert.equal(instants.length, events.length);
    instants.forEach((e, i) => {
      assert.equal(e.args.site, `grow_cache < ${caller}`);
      assert.equal(e.args.toBytes, events[i].toBytes);
      assert.equal(e.ts, Math.round(events[i].t * 1000));
    });
    const sizes = trace.traceEvents.filter((e) => e.name === 'wasm memory').map((e) => e.args.bytes);
    assert.deepEqual(sizes, [events[0].fromBytes, ...events.map((g) => g.toBytes)]);
  });
}

// grow_cache allocating from two call sites in turn: the runtime ranks two
// sites of one function at each growth, and the log shows them as one row
// (grouped by function, as every view is), its bytes their sum, said as
// "at least" (the function may have call sites outside the runtime's top).
test('two call sites in grow_cache: the growth log shows one grow_cache row, "at least" their sum', (t) => {
  const {run, snapshot} = runIn(t, 'twosites', {EMHEAP_GROWTH: 'log'});
  const growers = snapshot.sites.filter((s) => /^grow_cache/.test(s.key));
  assert.equal(growers.length, 2, snapshot.sites.map((s) => s.key).join(', '));
  assert.equal(growers[0].liveBytes + growers[1].liveBytes, 12 * REQUEST);
  const ids = new Set(growers.map((s) => s.id));
  const events = snapshot.heapGrowth;
  const logged = loggedGrowths(run.stderr);
  assert.equal(logged.length, events.length, run.stderr);
  let merged = 0;
  logged.forEach(([, second], i) => {
    const rows = events[i].top.filter((r) => ids.has(r.siteId));
    const sum = rows.reduce((a, r) => a + r.liveBytes, 0);
    assert.equal(second.split('grow_cache').length - 1, 1, second);
    const bytes = rows.length > 1 ? `at least ${(sum / MIB).toFixed(2)} MiB` : `${(sum / MIB).toFixed(2)} MiB`;
    assert.equal(second, `  the most live then: ${bytes} grow_cache < main; 2.00 MiB load_assets < main`);
    if (rows.length > 1) merged++;
  });
  assert.ok(merged >= 2, `${merged} growths ranked both call sites`);
});

// The allocator's heap as emheap walked it (capture/allocator_walk.js) is
// what the allocator's own mallinfo() says at the same moment: dlmalloc
// counts the top chunk among its free blocks with its 40-byte foot;
// emmalloc counts free regions' payloads (8 bytes of header each) and
// keeps the top span as keepcost.
for (const variant of ['dlmalloc', 'emmalloc']) {
  test(`${variant}: the walk of the allocator's heap agrees with its mallinfo(), and the breakdown adds up`, (t) => {
    const {run, snapshot, file, dir} = runIn(t, variant);
    const info = run.tagged.MALLINFO;
    const heap = snapshot.allocatorHeap;
    assert.ok(info && heap && heap.error === undefined, JSON.stringify(heap));
    const top = heap.topFreeBytes;
    assert.equal(info.keepcost, top, 'the free span at the top');
    if (variant === 'dlmalloc') {
      assert.equal(info.fordblks, heap.freeBytes + top + 40);
      assert.equal(info.ordblks, heap.freeBlocks + 1);
    } else {
      const spans = heap.freeBlocks + (top > 0 ? 1 : 0);
      assert.equal(info.fordblks, heap.freeBytes + top - 8 * spans);
      assert.equal(info.ordblks + info.smblks, spans);
    }
    // every live block the program holds is a block in use, with its header
    // (dlmalloc's heap is read through its free bins, which do not count them)
    if (variant === 'dlmalloc') assert.equal(heap.inUseBlocks, undefined);
    else assert.ok(heap.inUseBlocks >= snapshot.summary.liveBlocks);
    assert.ok(heap.inUseBytes >= snapshot.summary.liveBytes + snapshot.summary.tableBytes);
    assert.ok(heap.largestFreeBytes >= top && heap.largestFreeBytes <= heap.freeBytes + top);
    // the parts `emheap top` prints add up to the memory
    const text = runCli(['top', file], {cwd: dir}).stdout;
    const line = text.split('\n').find((l) => l.startsWith('wasm memory ') && l.includes('static data'));
    assert.match(line, /the allocator's own \(headers, blocks emheap did not see\), .* free in \d+ blocks?, .* free at the top, /);
    const json = JSON.parse(runCli(['top', file, '--json'], {cwd: dir}).stdout);
    const b = json.memory;
    assert.equal(b.walked, true);
    assert.equal(b.staticBytes + b.liveBytes + b.emheapBytes + b.allocatorOwnBytes + b.freeBytes + b.topFreeBytes +
      b.unusedBytes, snapshot.summary.heapSize);
  });
}

test('without the log setting no line is printed; the events are kept all the same', (t) => {
  const {run, snapshot} = runIn(t, 'dlmalloc');
  assert.deepEqual(loggedGrowths(run.stderr), []);
  assert.ok(snapshot.heapGrowth.length >= 3);
});

test('a bad EMHEAP_GROWTH is said and ignored', (t) => {
  const {run} = runIn(t, 'dlmalloc', {EMHEAP_GROWTH: 'loud'});
  assert.match(run.stderr, /emheap: ignoring growth "loud" from the environment: use log or off/);
  assert.deepEqual(loggedGrowths(run.stderr), []);
});

describe('growth log in headless Chromium', {skip: CHROMIUM_SKIP}, () => {
  const {served} = servedProgramPage(program('dlmalloc'));
  test('?emheap_growth=log prints each growth on the console, naming grow_cache', async () => {
    const {context, page, consoleMessages} = await newPage(served.browser);
    try {
      await page.goto(`${served.server.url}/index.html?emheap_growth=log`);
      await page.waitForFunction(() => typeof emheap !== 'undefined' && emheap.getSnapshotJson &&
        JSON.parse(emheap.getSnapshotJson()).liveBytes >= 38 * 1024 * 1024, null, {timeout: 30000});
      const growths = await page.evaluate(() => emheap.snapshot().heapGrowth.length);
      assert.ok(growths >= 3, `${growths} growths`);
      const logged = loggedGrowths(consoleMessages.map((m) => m.text).join('\n'));
      assert.equal(logged.length, growths);
      for (const [first] of logged) assert.match(first, /a request of 3,145,728 bytes at grow_cache < main \(growth \d+\)$/);
      // the page API's breakdown: the same parts as emheap top's, adding up to the memory
      const b = await page.evaluate(() => emheap.memory());
      assert.equal(b.walked, true, JSON.stringify(b));
      assert.equal(b.staticBytes + b.liveBytes + b.emheapBytes + b.allocatorOwnBytes + b.freeBytes + b.topFreeBytes +
        b.unusedBytes, b.memoryBytes);
      assert.equal(b.memoryBytes, await page.evaluate(() => JSON.parse(emheap.getSnapshotJson()).heapSize));
      assert.match(b.text, /^wasm memory [\d.]+ MiB: .* live in \d+ blocks, .* free at the top, /);
    } finally {
      await context.close();
    }
  });
});
