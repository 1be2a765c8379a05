// run-bench.js -- `make bench`: builds the workloads (bench/workloads/) in
// every configuration, runs them under node, headless Chromium and headless
// Firefox, and
// prints one table of ns per op and the ratio to the baseline build measured
// in the same run. Also two emheap tables: memory per live block, and the
// cost of exporting a snapshot of 100,000 and 1,000,000 sites (and of 5,000,000 live blocks).
// Writes build/bench/results.json and build/bench/results.md.
//
// Every run of a configuration is calibrated to take about BENCH_TARGET_MS in
// its own speed (slow profilers get fewer iterations; ns/op is per op, so
// they compare), then runs are interleaved across configurations and the
// median is reported. A failed build or run is an "error" cell with the
// reason; the rest of the table still prints.
//
// The single-threaded workloads (micro, sqlite, lua) run paired instead
// (bench/paired/driver.js): every configuration's build loaded side by side
// in one node process or page, one ~50 ms repetition at a time, each
// bracketed by repetitions of forwarding only; ratios are taken per
// repetition (lib/pairs.js). BENCH_PAIRED=0 runs them as the others.
//
// Settings (environment): BENCH_RUNS (7), BENCH_PAIRED_RUNS (3 processes or
// pages per paired workload and engine), BENCH_ROUNDS (30 per paired run),
// BENCH_CPU (auto|none|N, lib/cpu.js), BENCH_TARGET_MS (500),
// BENCH_WORKLOADS (micro,sqlite), BENCH_CONFIGS (names, comma separated),
// BENCH_BROWSER=0 (node only), BENCH_FIREFOX=0 (no Firefox column), BENCH_EXTRAS=0 (skip the emheap tables),
// BENCH_V8_FLAGS ("--no-liftoff"), EMHEAP_CONFIG (another emheap-config),
// EMHEAP_SAMPLING_INTERVAL (passed to node, and to the page as
// emheap_interval=).
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const {execSync} = require('child_process');

const {ROOT, OUT, EMCC, EMHEAP_CONFIG, buildKinds, build, ENV} = require('./lib/builds');
const {runNode, runBrowser, runPairedNode, runPairedBrowser, parseOutput, launchChromium, launchFirefox,
  chromiumAvailable, firefoxAvailable, V8_FLAGS} = require('./lib/run');
const {bracketedRatios, ratioSummary} = require('./lib/pairs');
const {median, ns, ratio, fixed, Notes, table} = require('./lib/report');
const {readTargets, targetRows} = require('./lib/targets');
const {generate} = require('./gen-sites');
const {startPauseProbe, stopPauseProbe} = require('../harness/pause_probe');
const {planCpus, tasksetPrefix, pinDescendants} = require('./lib/cpu');

const RUNS = Number(process.env.BENCH_RUNS || 7);
const TARGET_MS = Number(process.env.BENCH_TARGET_MS || 500);
const PAIRED = process.env.BENCH_PAIRED !== '0';
const PAIRED_RUNS = Number(process.env.BENCH_PAIRED_RUNS || 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 30);
// A build that has spent this long on its repetitions sits out the rest of
// a paired run (driver.js): exact/js on micro takes 8 s a repetition.
const PAIRED_BUDGET_MS = 20 * TARGET_MS;
const MAX_ITERATIONS = 5000;
const INTERVAL = process.env.EMHEAP_SAMPLING_INTERVAL || '';
// Where each cell runs; the browsers are engines of lib/run.js.
const ENVS = ['node', 'chromium', 'firefox'];
const ENV_LABEL = {node: 'node', chromium: 'Chromium', firefox: 'Firefox'};
const list = (name, all) => (process.env[name] ? process.env[name].split(',').map((s) => s.trim()) : all);

const ALL_CONFIGS = [
  {name: 'baseline', kind: 'plain'},
  // Runs alone, not paired (bench/paired/): its overlay needs the page (a
  // web worker has none).
  {name: 'memoryprofiler', kind: 'memoryprofiler', nodeNA: 'needs a page (browser only)', alone: true},
  // Runs alone too: LSan's build exits when main returns (it checks leaks
  // at exit), so the paired driver could not call its repetitions.
  {name: 'lsan', kind: 'lsan', env: {LSAN_OPTIONS: 'detect_leaks=0'}, browserOptional: true, alone: true},
  // malloc/free/calloc/realloc counted and forwarded, nothing else
  // (bench/workloads/forwarding_wrapper.c): the floor under every emheap row.
  {name: 'forwarding only', kind: 'forwarding'},
  // The same build once more, paired like every other row: an A/A control.
  // Its ratio to forwarding only is the bench's own error, 1.00 when the
  // pairing is fair (lib/targets.js reads it beside the targets).
  {name: 'forwarding again', kind: 'forwarding', control: true},
  // Threaded workloads: forwarding with one lock per call around an exact
  // live count and its peak (bench/workloads/forwarding_lock_wrapper.c):
  // what a global order of allocations costs by itself.
  {name: 'forwarding + lock', kind: 'forwarding-lock', threadsOnly: true},
  // emheap linked, profiling off (?emheap=off): one check per entry point.
  {name: 'off', kind: 'emheap-js', mode: 'off'},
  // Exact stacks from calling contexts (the module rewritten at load time:
  // contexts/wasm_instrument.js): a JS stack once per distinct context.
  {name: 'exact', kind: 'emheap-js', mode: 'exact'},
  // A JS stack for every allocation (contexts off).
  {name: 'exact/js', kind: 'emheap-js', mode: 'exact', contexts: false},
  // --memoryprofiler and LSan read `new Error().stack` at V8's default
  // Error.stackTraceLimit, 10 frames; exact/js takes 64 by default. This row
  // compares the mechanisms at equal depth.
  {name: 'exact/js depth 10', kind: 'emheap-js', mode: 'exact', contexts: false, stackDepth: 10},
  {name: 'sampled/js', kind: 'emheap-js', mode: 'sampled'},
];
const CONFIG = Object.fromEntries(ALL_CONFIGS.map((c) => [c.name, c]));
// The speed table's rows (baseline always); the emheap tables use their own.
// The control comes with forwarding only.
const chosen = (name) => list('BENCH_CONFIGS', [name]).includes(name);
const CONFIGS = ALL_CONFIGS.filter((c) => c.name === 'baseline' || chosen(c.name) || (c.control && chosen('forwarding only')));

// What one op is, and how a run's size is passed (argv[1]).
const WORKLOADS = {
  micro: {op: 'one malloc, calloc, realloc or free call', args: (n) => [n], paired: true},
  alloc_only: {op: 'one malloc or free call, and no other work', args: (n) => [n], paired: true},
  pool: {op: 'one object handed out or taken back by a pool of the program\'s own (emheap_pool.h)', args: (n) => [n],
    paired: true},
  sqlite: {op: 'one row processed: inserted, returned by a query, or changed by UPDATE/DELETE',
    args: (n) => [n, ...(process.env.BENCH_SQLITE_ORDERS ? [process.env.BENCH_SQLITE_ORDERS] : [])], paired: true},
  lua: {op: 'one call of the Lua interpreter\'s allocator (realloc or free) while it runs a table-heavy script',
    args: (n) => [n], paired: true},
  threads: {op: 'one malloc or free, 4 threads at once (wall time over all ops: throughput)', threaded: true,
    args: (n) => [n]},
};
// A threaded workload is built with the kinds' -pthread variants; the
// configurations that have none are n/a there.
const THREADED_KINDS = {plain: 'plain-mt', forwarding: 'forwarding-mt', 'forwarding-lock': 'forwarding-lock-mt',
  'emheap-js': 'emheap-js-mt'};
const kindFor = (workload, config) => {
  const threaded = WORKLOADS[workload] && WORKLOADS[workload].threaded;
  if (threaded) return THREADED_KINDS[config.kind];
  return config.threadsOnly ? undefined : config.kind;
};
const WORKLOAD_NAMES = list('BENCH_WORKLOADS', Object.keys(WORKLOADS)).filter((w) => WORKLOADS[w]);

const log = (...a) => console.error('bench:', ...a);

// ---- running one configuration once ---------------------------------------

function modeProblem(config, summary) {
  if (!config.mode) return null;
  if (!summary) return 'the build printed no emheap summary (no Module.emheap)';
  if (summary.error) return `emheap summary: ${summary.error}`;
  const mode = typeof summary.mode === 'string' ? summary.mode : summary.mode && summary.mode.mode;
  if (!mode) return null; // this runtime does not say; trust the request
  if (config.mode === 'off' ? mode !== 'off'
    : config.mode === 'sampled' ? !/sampl/i.test(mode) : !/exact/i.test(mode)) {
    return `runtime reports mode "${mode}" (asked ${config.name})`;
  }
  return null;
}

// How a configuration is asked for: a page's (or web worker's) query, and
// the environment under node. The emheap runtime reads both itself.
function pageQuery(js, args, config) {
  const q = new URLSearchParams({js: '/out/' + path.relative(OUT, js), args: args.join(',')});
  if (config.mode) q.set('emheap', config.mode);
  if (config.mode && INTERVAL) q.set('emheap_interval', INTERVAL);
  if (config.stackDepth) q.set('emheap_depth', String(config.stackDepth));
  if (config.contexts === false) q.set('emheap_contexts', '0');
  return q;
}

function runEnv(config) {
  return {...(config.env || {}), ...(config.mode ? {EMHEAP_MODE: config.mode} : {}),
    ...(config.stackDepth ? {EMHEAP_STACK_DEPTH: String(config.stackDepth)} : {}),
    ...(config.contexts === false ? {EMHEAP_CONTEXTS: '0'} : {})};
}

function pageUrl(ctx, js, args, config) {
  return `${ctx.server.url}/page/page.html?${pageQuery(js, args, config)}`;
}

async function runOnce(ctx, cell, iterations, extra = {}) {
  const config = CONFIG[cell.config];
  const args = extra.args || WORKLOADS[cell.workload].args(iterations);
  let r;
  if (cell.env === 'node') {
    r = runNode(cell.js, args, {env: runEnv(config), timeoutMs: extra.timeoutMs, prefix: tasksetPrefix(cpusFor(ctx, cell.workload))});
  } else {
    pinDescendants(cpusFor(ctx, cell.workload));
    r = await runBrowser(ctx.engines[cell.env], pageUrl(ctx, cell.js, args, config), extra);
  }
  if (!r.error) {
    const problem = modeProblem(config, r.summary);
    if (problem) r = {error: problem};
  }
  return r;
}

// The CPUs a run of `workload` may use (lib/cpu.js), or null.
function cpusFor(ctx, workload) {
  if (!ctx.cpus) return null;
  return WORKLOADS[workload] && WORKLOADS[workload].threaded ? ctx.cpus.threaded : ctx.cpus.single;
}

// Times the baseline micro build on each CPU (a short run) to pick one.
function planPinning(ctx) {
  const micro = ctx.builds['micro|plain'] || build('micro', 'plain', buildKinds());
  if (!micro || micro.error) return {single: null, threaded: null, note: 'not pinned (no baseline micro build)'};
  return planCpus((cpu) => {
    const r = runNode(micro.js, [10], {prefix: tasksetPrefix([cpu])});
    return r.error ? null : r.result.ns_per_op;
  });
}

// ---- the speed table --------------------------------------------------------

function makeCells(ctx) {
  const cells = [];
  for (const workload of WORKLOAD_NAMES) {
    for (const config of CONFIGS) {
      const kind = kindFor(workload, config);
      const built = kind ? ctx.builds[`${workload}|${kind}`] : {error: 'no -pthread build of this configuration'};
      for (const env of ENVS) {
        const cell = {workload, config: config.name, env, js: built.js, samples: [], runs: RUNS};
        if (!kind) cell.na = config.threadsOnly ? 'threaded workloads only' : 'not built for threads';
        else if (config.control && !(PAIRED && WORKLOADS[workload].paired)) cell.na = 'an A/A control of paired runs';
        else if (env === 'node' && config.nodeNA) cell.na = config.nodeNA;
        else if (env !== 'node' && ctx.unavailable[env]) cell.na = ctx.unavailable[env];
        else if (built.error) cell.error = built.error;
        cells.push(cell);
      }
    }
  }
  return cells;
}

function fail(cell, error) {
  const config = CONFIG[cell.config];
  if (cell.env !== 'node' && config.browserOptional) cell.na = `does not run in ${ENV_LABEL[cell.env]}: ${error}`;
  else cell.error = error;
  log(`${cell.workload} ${cell.config} ${cell.env}: ${cell.na || cell.error}`);
}

// Finds the iteration count that makes one run take about TARGET_MS.
async function calibrate(ctx, cell) {
  let n = 1;
  let r;
  for (let step = 0; step < 6; step++) {
    r = await runOnce(ctx, cell, n);
    if (r.error) return fail(cell, r.error);
    if (r.result.ms >= TARGET_MS / 5 || n >= MAX_ITERATIONS) break;
    n = Math.min(MAX_ITERATIONS, n * Math.min(50, Math.max(2, Math.ceil(TARGET_MS / 2 / Math.max(r.result.ms, 0.5)))));
  }
  cell.iterations = Math.max(1, Math.min(MAX_ITERATIONS, Math.round(n * TARGET_MS / r.result.ms)));
  const runMs = r.result.ms * cell.iterations / n;
  cell.runs = runMs > 20000 ? 1 : runMs > 3000 ? Math.min(RUNS, 3) : RUNS;
  if (cell.iterations === n) cell.samples.push(r);
  log(`${cell.workload} ${cell.config} ${cell.env}: ${cell.iterations} iterations, ${cell.runs} runs of ~${Math.round(runMs)} ms`);
}

const isPaired = (cell) => PAIRED && WORKLOADS[cell.workload].paired && !CONFIG[cell.config].alone;

// One paired workload on one engine: PAIRED_RUNS processes (pages) of
// ROUNDS rounds each. Sets each cell's samples (its repetitions' ns/op),
// and `paired` = {reference, ratios}: its repetitions over the reference's
// on both sides (lib/pairs.js).
async function measurePaired(ctx, group) {
  const workload = group[0].workload;
  const env = group[0].env;
  const reference = group.find((c) => c.config === 'forwarding only') || group.find((c) => c.config === 'baseline');
  if (!reference) return group.forEach((c) => fail(c, 'no reference build (forwarding only or baseline) to pair with'));
  const sequence = [];
  const specFile = path.join(OUT, `paired-${workload}-${env}.json`);
  for (let run = 0; run < PAIRED_RUNS; run++) {
    const cells = group.filter((c) => !c.error && !c.na);
    if (!cells.includes(reference)) break;
    const spec = {rounds: ROUNDS, reference: cells.indexOf(reference), budgetMs: PAIRED_BUDGET_MS,
      builds: cells.map((cell) => buildSpec(ctx, cell))};
    log(`${workload} ${env}: paired run ${run + 1}/${PAIRED_RUNS}, ${cells.length} builds, ${ROUNDS} rounds`);
    let r;
    if (env === 'node') {
      r = runPairedNode(spec, specFile, {prefix: tasksetPrefix(cpusFor(ctx, workload))});
    } else {
      pinDescendants(cpusFor(ctx, workload));
      r = await runPairedBrowser(ctx.engines[env], `${ctx.server.url}/page/paired/page.html?${
        new URLSearchParams({spec: JSON.stringify(spec)})}`);
    }
    if (r.error && !sequence.length) return cells.forEach((c) => fail(c, r.error));
    if (r.error) {
      log(`${workload} ${env}: paired run ${run + 1} failed (${r.error}); keeping the runs before it`);
      break;
    }
    for (const [i, cell] of cells.entries()) {
      const b = r.builds[i];
      const {result, summary} = parseOutput(b.lines.join('\n'));
      const problem = b.error || (!result && `no result line: ${b.lines.slice(-3).join(' | ')}`) ||
        modeProblem(CONFIG[cell.config], summary);
      if (problem) {
        fail(cell, problem);
        continue;
      }
      cell.result = {result, summary};
    }
    // Cells, not this run's build indexes, so runs concatenate.
    sequence.push(...r.sequence.map((x) => ({round: x.round, build: cells[x.build], ns: x.ns})));
  }
  for (const cell of group) {
    if (cell.error || cell.na) continue;
    cell.samples = sequence.filter((x) => x.build === cell).map((x) => ({result: {...cell.result.result, ns_per_op: x.ns},
      summary: cell.result.summary}));
    cell.paired = {reference: reference.config,
      ratios: cell === reference ? [] : bracketedRatios(sequence, cell, reference)};
    delete cell.result;
  }
}

// What a paired run loads for a cell: under node, the .js and its
// environment; in a browser, the worker's URL with the same query as
// page.html's (pageUrl).
function buildSpec(ctx, cell) {
  const config = CONFIG[cell.config];
  const args = WORKLOADS[cell.workload].args(1);
  if (cell.env === 'node') return {js: cell.js, args, env: runEnv(config)};
  return {worker: `worker.js?${pageQuery(cell.js, args, config)}`};
}

async function measure(ctx, cells) {
  const live = () => cells.filter((c) => !c.error && !c.na && !isPaired(c));
  for (const workload of WORKLOAD_NAMES) {
    for (const env of ENVS) {
      const group = cells.filter((c) => c.workload === workload && c.env === env && !c.error && !c.na && isPaired(c));
      if (group.length) await measurePaired(ctx, group);
    }
  }
  for (const cell of live()) await calibrate(ctx, cell);
  // Interleaved: one run of every configuration per round.
  for (let round = 0; round < RUNS; round++) {
    for (const cell of live().filter((c) => c.samples.length < c.runs)) {
      const r = await runOnce(ctx, cell, cell.iterations);
      if (r.error) fail(cell, r.error);
      else cell.samples.push(r);
    }
  }
  for (const cell of cells) {
    cell.nsPerOp = cell.samples.map((s) => s.result.ns_per_op);
    cell.median = median(cell.nsPerOp);
    // Median absolute deviation, relative: how far a typical run is from
    // the median. Two rows whose difference is smaller than their spreads
    // cannot be told apart in this run.
    cell.spread = median(cell.nsPerOp.map((x) => Math.abs(x - cell.median))) / cell.median;
    const s = cell.samples[0];
    if (s && s.summary) cell.emheapMode = s.summary.mode;
    if (s) cell.opsPerRun = s.result.ops;
    if (s && s.result.alloc_calls !== undefined) cell.allocCallsPerRun = s.result.alloc_calls;
    if (s && s.result.heap_bytes !== undefined) cell.heapBytes = s.result.heap_bytes;
    delete cell.samples;
  }
  for (const cell of cells) {
    const base = cells.find((c) => c.workload === cell.workload && c.env === cell.env && c.config === 'baseline');
    cell.ratio = pairedRatio(cell, base) || cell.median / base.median;
  }
}

// cell over `over` from their paired ratios when both were paired with the
// same reference, else null.
function pairedRatio(cell, over) {
  if (!cell.paired || !over || !over.paired || cell.paired.reference !== over.paired.reference) return null;
  const vsReference = (c) => (c.config === c.paired.reference ? 1 : ratioSummary(c.paired.ratios).value);
  const value = vsReference(cell) / vsReference(over);
  return Number.isFinite(value) ? value : null;
}

// Heap size at the end of a run (workloads that print heap_bytes), node:
// what the profiler adds to the wasm memory the page holds.
function heapTable(cells) {
  const rows = [];
  for (const workload of WORKLOAD_NAMES) {
    const base = cells.find((c) => c.workload === workload && c.env === 'node' && c.config === 'baseline');
    if (!base || !base.heapBytes) continue;
    for (const config of CONFIGS) {
      const cell = cells.find((c) => c.workload === workload && c.env === 'node' && c.config === config.name);
      if (!cell || !cell.heapBytes) continue;
      rows.push([workload, config.name, fixed(cell.heapBytes / 1048576, 1), ratio(cell.heapBytes / base.heapBytes)]);
    }
  }
  return rows.length ? table(['workload', 'configuration', 'wasm heap MB at the end (node)', 'vs baseline'], rows) : '';
}

function speedTable(cells, notes) {
  const show = (cell, what) => {
    const where = `${cell.workload} ${cell.config} ${cell.env}`;
    if (cell.na) return notes.cell('n/a', cell.na, where, {brief: true});
    if (cell.error) return notes.cell('error', cell.error, where, {brief: what !== 'ns'});
    if (what !== 'ns') return ratio(cell.ratio);
    return Number.isFinite(cell.spread) ? `${ns(cell.median)} ±${(100 * cell.spread).toFixed(0)}%` : ns(cell.median);
  };
  const rows = [];
  for (const workload of WORKLOAD_NAMES) {
    for (const config of CONFIGS) {
      const get = (env) => cells.find((c) => c.workload === workload && c.config === config.name && c.env === env);
      rows.push([workload, config.name, ...ENVS.flatMap((env) => [show(get(env), 'ns'), show(get(env), 'ratio')])]);
    }
  }
  return table(['workload', 'configuration', ...ENVS.flatMap((env) => [`${env} ns/op`, `${env} ratio`])], rows);
}

// ---- emheap table (a): memory per live block --------------------------------

const MEMORY_CONFIGS = ['baseline', 'exact', 'exact/js', 'sampled/js'];
const MEMORY_TARGET = 16; // bytes of emheap's tables per live block, exact mode

async function memoryTable(ctx, notes) {
  const rows = [];
  const results = [];
  let base = null;
  for (const name of MEMORY_CONFIGS) {
    const config = CONFIG[name];
    const built = ctx.builds[`live_blocks|${config.kind}`];
    const cell = {workload: 'live_blocks', config: name, env: 'node', js: built.js};
    const r = built.error ? {error: built.error} : await runOnce(ctx, cell, 0, {args: [1000000], timeoutMs: 600000});
    if (r.error) {
      const brief = notes.cell('error', r.error, `memory ${name}`, {brief: true});
      rows.push([name, notes.cell('error', r.error, `memory ${name}`), ...Array(5).fill(brief)]);
      results.push({config: name, error: r.error});
      continue;
    }
    const m = r.result;
    const s = r.summary || {};
    if (name === 'baseline') base = m;
    const perBlock = (key) => (base && name !== 'baseline' ? (m[key] - base[key]) / m.blocks : NaN);
    const MB = (x) => fixed(x / 1048576, 1);
    rows.push([name, s.liveBlocks !== undefined ? s.liveBlocks.toLocaleString('en-US') : '-',
      MB(m.malloc_in_use), MB(m.heap_size), fixed(perBlock('malloc_in_use')), fixed(perBlock('sbrk')),
      fixed(perBlock('heap_size'))]);
    results.push({config: name, ...m, emheapLiveBlocks: s.liveBlocks, emheapSampledAllocs: s.sampledAllocs,
      emheapHeapSize: s.heapSize, emheapMode: s.mode, bytesPerBlock: {mallocInUse: perBlock('malloc_in_use'),
        sbrk: perBlock('sbrk'), heapSize: perBlock('heap_size')}});
  }
  const md = table(['configuration', 'blocks emheap counts live', 'malloc in use MB', 'wasm heap MB',
    'B/block (malloc in use)', 'B/block (sbrk)', 'B/block (wasm heap)'], rows);
  // The target: exact mode's tables hold at most 16 bytes per live block
  // (1M blocks: 16 MB), what the allocator has in use beyond the baseline.
  const exact = results.find((r) => r.config === 'exact' && !r.error);
  const perBlock = exact ? exact.bytesPerBlock.mallocInUse : NaN;
  const target = Number.isFinite(perBlock)
    ? `Target: exact mode's tables at most ${MEMORY_TARGET} bytes per live block: ${fixed(perBlock)}, ` +
      (perBlock <= MEMORY_TARGET ? 'met' : 'missed')
    : 'Target: exact mode\'s tables per live block: not measured (see the errors above)';
  return {md: md + '\n\n' + target, results, target: {limit: MEMORY_TARGET, value: perBlock}};
}

// ---- emheap table (b): snapshot export at 100k and 1M sites, 1M and 5M blocks

// Three exports of the default file (speedscope) as Ctrl+Shift+H makes it:
// downloadSnapshot('speedscope') until the file is downloaded (the heap read
// at once, the snapshot and then the file built in slices). Measured: its
// time, the peak of the page's JS heap (CDP Runtime.getHeapUsage, polled
// every 20 ms, after a GC), and the longest pause of a 10 ms timer from the
// call to the download. Also timed apart: the synchronous emheap.snapshot()
// (an API a page may call), which blocks for all of its time.
// Runs action() in the page as measured: after a GC, the JS heap polled
// every 20 ms for its peak, a 10 ms timer for the longest pause. ->
// {ms, pause, peakHeapMB, heapBeforeMB, value: what action returned}.
async function measured(page, cdp, action) {
  const heap = async () => (await cdp.send('Runtime.getHeapUsage')).usedSize;
  await cdp.send('HeapProfiler.collectGarbage');
  const before = await heap();
  let peak = before;
  let polling = true;
  const poll = (async () => {
    while (polling) {
      peak = Math.max(peak, await heap());
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await startPauseProbe(page);
  const t0 = Date.now();
  const value = await action();
  const ms = Date.now() - t0;
  polling = false;
  await poll;
  const pause = await stopPauseProbe(page);
  return {ms, pause, peakHeapMB: peak / 1048576, heapBeforeMB: before / 1048576, value};
}

async function exportTiming(page, withGraph) {
  const cdp = await page.context().newCDPSession(page);
  const runs = [];
  let out = {};
  for (let i = 0; i < 3; i++) {
    const snap = await page.evaluate(() => {
      const t0 = performance.now();
      const s = globalThis.emheap.snapshot();
      return {ms: performance.now() - t0, sites: s.sites.length, liveBlocks: s.summary.liveBlocks};
    });
    const m = await measured(page, cdp, async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download', {timeout: 600000}),
        page.evaluate(() => globalThis.emheap.downloadSnapshot('speedscope')),
      ]);
      return download.path();
    });
    const bytes = fs.statSync(m.value).size;
    fs.rmSync(m.value, {force: true});
    runs.push({snapshot: snap.ms, export: m.ms, total: m.ms, peakHeapMB: m.peakHeapMB, heapBeforeMB: m.heapBeforeMB,
      pause: m.pause});
    if (i === 0) out = {sites: snap.sites, liveBlocks: snap.liveBlocks, bytes};
  }
  // The heap graph (exact modes): emheap.snapshotAsync({heap: true}), the
  // memory copied at the call and the graph built from the copy in slices.
  const graph = [];
  for (let i = 0; i < (withGraph ? 2 : 0); i++) {
    const m = await measured(page, cdp, () => page.evaluate(async () => {
      const s = await globalThis.emheap.snapshotAsync({heap: true});
      return {blocks: s.heap.blocks.address.length, edges: s.heap.edges.length};
    }));
    graph.push({ms: m.ms, pause: m.pause, peakHeapMB: m.peakHeapMB, heapBeforeMB: m.heapBeforeMB, ...m.value});
  }
  // A mark made in the page: in exact mode it records what every site
  // holds and the live blocks by mark (capture/mark_ranges.js), at once.
  // Last: a snapshot with marks reads the blocks' ages too.
  const marks = await page.evaluate(() => [1, 2, 3].map((i) => {
    const t0 = performance.now();
    globalThis.emheap.mark('bench ' + i);
    return performance.now() - t0;
  }));
  return {...out, times: runs, graph, markMs: marks};
}

const EXPORT_CELLS = [
  {workload: 'sites', config: 'exact/js'},
  {workload: 'sites5m', config: 'exact/js', graph: false},
  {workload: 'sites1m', config: 'exact/js'},
];
// Ctrl+Shift+H must not stop the page for longer than this (ms), measured
// at 5M live blocks (the sites5m cell): the at-once read and allocator walk
// grow with the blocks, every other step is sliced.
const PAUSE_TARGET = {workload: 'sites5m', limitMs: 100};

// The pause target's line: the longest pause of the target cell's exports.
function pauseVerdict(results) {
  const r = results.find((x) => x.workload === PAUSE_TARGET.workload);
  const head = `Target: no pause over ${PAUSE_TARGET.limitMs} ms from Ctrl+Shift+H to the download at 5M live blocks: `;
  if (!r || r.error || !r.times) return head + 'not measured (see the errors above)';
  const longest = Math.max(...r.times.map((t) => t.pause));
  return head + `${Math.round(longest)} ms, ` + (longest <= PAUSE_TARGET.limitMs ? 'met' : 'missed');
}

async function exportTable(ctx, notes) {
  const rows = [];
  const graphRows = [];
  const results = [];
  for (const {workload, config: name, graph} of EXPORT_CELLS) {
    const config = CONFIG[name];
    const built = ctx.builds[`${workload}|${config.kind}`];
    const cell = {workload, config: name, env: 'chromium', js: built.js};
    let r = built.error ? {error: built.error} : ctx.unavailable.chromium ? {error: ctx.unavailable.chromium}
      : await runOnce(ctx, cell, 0, {args: [], timeoutMs: 900000, after: (page) => exportTiming(page, graph !== false)});
    if (!r.error && !r.extra) r = {error: 'no timing'};
    if (r.error) {
      const brief = notes.cell('error', r.error, `export ${workload} ${name}`, {brief: true});
      rows.push([name, notes.cell('error', r.error, `export ${workload} ${name}`), ...Array(8).fill(brief)]);
      results.push({workload, config: name, error: r.error});
      continue;
    }
    const x = r.extra;
    const med = (k) => median(x.times.map((t) => t[k]));
    rows.push([name, Number(x.liveBlocks).toLocaleString('en-US'), Number(x.sites).toLocaleString('en-US'),
      Math.round(med('snapshot')).toLocaleString('en-US'),
      Math.round(x.times[0].total).toLocaleString('en-US'), Math.round(med('total')).toLocaleString('en-US'),
      `${Math.round(med('heapBeforeMB'))} -> ${Math.round(Math.max(...x.times.map((t) => t.peakHeapMB)))}`,
      Math.round(Math.max(...x.times.map((t) => t.pause))).toLocaleString('en-US'),
      fixed(x.bytes / 1048576, 1), x.markMs ? fixed(median(x.markMs), 1) : '-']);
    results.push({workload, config: name, allocMs: r.result.ms, ...x});
    const g = x.graph || [];
    if (g.length) {
      graphRows.push([name, Number(g[0].blocks).toLocaleString('en-US'), Number(x.sites).toLocaleString('en-US'),
        Number(g[0].edges).toLocaleString('en-US'), Math.round(median(g.map((t) => t.ms))).toLocaleString('en-US'),
        Math.round(Math.max(...g.map((t) => t.pause))).toLocaleString('en-US'),
        `${Math.round(median(g.map((t) => t.heapBeforeMB)))} -> ${Math.round(Math.max(...g.map((t) => t.peakHeapMB)))}`]);
    }
  }
  const md = table(['configuration', 'live blocks', 'sites', 'snapshot() ms, synchronous (median)',
    'first Ctrl+Shift+H export ms', 'median export ms (of 3)', 'JS heap MB before -> peak', 'longest pause ms', 'speedscope file MB',
    'emheap.mark() ms (median of 3)'], rows) +
    '\n\n' + pauseVerdict(results) +
    '\n\nHeap graph, `emheap.snapshotAsync({heap: true})` (median of 2):\n\n' +
    table(['configuration', 'live blocks', 'sites', 'edges', 'ms', 'longest pause ms', 'JS heap MB before -> peak'], graphRows);
  return {md, results};
}

// ---- machine, builds, main -------------------------------------------------

function machine(engines) {
  const sh = (cmd) => {
    try {
      return execSync(cmd, {encoding: 'utf8', env: ENV}).trim().split('\n')[0];
    } catch (e) {
      return '?';
    }
  };
  const cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
  return {
    date: new Date().toISOString(),
    nproc: sh('nproc'),
    cpu: (cpuinfo.match(/^model name\s*:\s*(.*)$/m) || [])[1] || os.cpus()[0].model,
    node: process.version,
    chromium: engines.chromium ? engines.chromium.version : 'no Chromium',
    firefox: engines.firefox ? engines.firefox.version : 'no Firefox',
    emcc: `emcc ${(sh(`${EMCC} --version`).match(/\d+\.\d+\.\d+/) || ['?'])[0]}`,
    v8Flags: V8_FLAGS.join(' '),
  };
}

function buildAll() {
  fs.mkdirSync(path.join(OUT, 'gen'), {recursive: true});
  // 100,000 sites x 10 blocks, x 50 blocks, and 1,000,000 sites x 1 block
  for (const [file, text] of [['sites.c', generate()], ['sites5m.c', generate(5, 10, 50)], ['sites1m.c', generate(6, 10, 1)]]) {
    const target = path.join(OUT, 'gen', file);
    if (!fs.existsSync(target) || fs.readFileSync(target, 'utf8') !== text) fs.writeFileSync(target, text);
  }
  const kinds = buildKinds();
  const wanted = new Set();
  for (const w of WORKLOAD_NAMES) {
    for (const c of CONFIGS) if (kindFor(w, c)) wanted.add(`${w}|${kindFor(w, c)}`);
  }
  if (process.env.BENCH_EXTRAS !== '0') {
    for (const k of ['plain', 'emheap-js']) wanted.add(`live_blocks|${k}`);
    wanted.add('sites|emheap-js');
    wanted.add('sites5m|emheap-js');
    wanted.add('sites1m|emheap-js');
  }
  const builds = {};
  for (const key of wanted) {
    const [workload, kind] = key.split('|');
    builds[key] = build(workload, kind, kinds);
    if (builds[key].error) log(`build ${workload} ${kind}: ${builds[key].error}`);
  }
  return builds;
}

async function main() {
  const started = Date.now();
  const ctx = {builds: buildAll()};
  ctx.engines = {};
  ctx.unavailable = {
    chromium: process.env.BENCH_BROWSER === '0' ? 'BENCH_BROWSER=0' : chromiumAvailable(),
    firefox: process.env.BENCH_BROWSER === '0' ? 'BENCH_BROWSER=0'
      : process.env.BENCH_FIREFOX === '0' ? 'BENCH_FIREFOX=0' : firefoxAvailable(),
  };
  const launchers = {chromium: launchChromium, firefox: launchFirefox};
  for (const env of Object.keys(launchers)) {
    if (ctx.unavailable[env]) continue;
    try {
      ctx.engines[env] = await launchers[env]();
    } catch (e) {
      ctx.unavailable[env] = `cannot start ${ENV_LABEL[env]}: ${String(e.message || e).split('\n')[0]}`;
    }
  }
  if (Object.keys(ctx.engines).length) {
    const {serve} = require('../harness/serve');
    ctx.server = await serve({'/page/': path.join(ROOT, 'bench'), '/out/': OUT});
  }
  ctx.cpus = planPinning(ctx);
  log(`CPUs: ${ctx.cpus.note}`);
  const info = machine(ctx.engines);
  info.cpus = ctx.cpus.note;
  const notes = new Notes();
  try {
    const cells = makeCells(ctx);
    await measure(ctx, cells);
    const speed = speedTable(cells, notes);
    let memory = null;
    let exported = null;
    if (process.env.BENCH_EXTRAS !== '0') {
      memory = await memoryTable(ctx, notes);
      exported = await exportTable(ctx, notes);
    }
    const targets = readTargets(cells, ENVS);
    const md = report(info, speed, targets, memory, exported, notes, cells, started);
    fs.writeFileSync(path.join(OUT, 'results.md'), md);
    fs.writeFileSync(path.join(OUT, 'results.json'), JSON.stringify({
      machine: info, settings: {runs: RUNS, targetMs: TARGET_MS, v8Flags: V8_FLAGS, emheapConfig: EMHEAP_CONFIG,
        samplingInterval: INTERVAL || 'default'},
      ops: Object.fromEntries(WORKLOAD_NAMES.map((w) => [w, WORKLOADS[w].op])),
      speed: cells, targets, memoryPerBlock: memory && memory.results, snapshotExport: exported && exported.results,
      notes: notes.list(), seconds: (Date.now() - started) / 1000,
    }, null, 2) + '\n');
    process.stdout.write(md);
  } finally {
    for (const engine of Object.values(ctx.engines)) await engine.browser.close().catch(() => {});
    if (ctx.server) await ctx.server.close();
  }
}

// For SQLite: how often it calls the allocator, which is what a heap
// profiler's overhead follows.
function allocDensity(cells, workload) {
  const base = cells.find((c) => c.workload === workload && c.config === 'baseline' && c.allocCallsPerRun);
  if (!base) return '';
  return ` It makes ${Math.round(1000 * base.allocCallsPerRun / base.opsPerRun)} malloc/realloc/free calls per 1,000 ops.`;
}

function report(info, speed, targets, memory, exported, notes, cells, started) {
  const counts = [...new Set(cells.filter((c) => c.nsPerOp && c.nsPerOp.length).map((c) => c.nsPerOp.length))].sort();
  const out = [
    '# emheap bench', '',
    `${info.date} | ${info.nproc} cores, ${info.cpu} | node ${info.node} | ${info.chromium} | ${info.firefox} | ${info.emcc}`, '',
    '## Speed', '',
    ...WORKLOAD_NAMES.map((w) => `- ${w}: an op is ${WORKLOADS[w].op}.${allocDensity(cells, w)}`),
    ...(PAIRED ? [
      `- ${WORKLOAD_NAMES.filter((w) => WORKLOADS[w].paired).join(', ')}: paired runs (bench/paired/). Every configuration's`,
      `  build is loaded in one node process or page (worker threads, web workers), then ${ROUNDS} rounds run one`,
      '  repetition of each build at a time (~20-60 ms), each between two repetitions of forwarding only',
      `  (a build that has spent ${PAIRED_BUDGET_MS / 1000} s on its repetitions sits out the later rounds: the slow profilers);`,
      `  ${PAIRED_RUNS} such processes or pages per engine. --memoryprofiler (needs the page) and LSan (exits after`,
      '  main) run alone, as the other workloads do.',
      '  ns/op: median over all repetitions. Ratio: median over repetitions of (this repetition / the',
      '  geometric mean of the two forwarding-only repetitions around it), over the same for baseline.',
      '  Why: this VM\'s speed drifts by 10-30% within seconds; repetitions 20-60 ms apart share the drift',
      '  (bench/README.md, "Paired runs").'] : []),
    `- Other workloads: median ns/op of ${counts.join(' or ') || RUNS} runs per cell (fewer for runs over 3 s), interleaved across`,
    `  configurations; each run sized to ~${TARGET_MS} ms at its own speed (at least one iteration); a run's`,
    '  ns/op is the median over its repetitions (rounds, iterations) where the workload has several.',
    '  Ratio = median / median of baseline, same workload, same engine, same bench run.',
    '  ±: median absolute deviation of the runs (repetitions when paired), relative to the median.',
    `- CPUs: ${info.cpus}.`,
    `- V8 flags: ${V8_FLAGS.join(' ') || '(none)'}; Firefox: wasm baseline compiler off`,
    '  (javascript.options.wasm_baselinejit=false), its counterpart of --no-liftoff.',
    '  emheap mode by EMHEAP_MODE (node) or ?emheap= (page).',
    '- exact/js takes up to 64 JS stack frames per allocation; "exact/js depth 10" takes 10, as many as',
    '  --memoryprofiler and LSan get from `new Error().stack` (V8\'s default Error.stackTraceLimit).',
    '- "forwarding only": malloc, free, calloc and realloc wrapped by functions that count the call and',
    '  forward it, nothing else: the floor under every emheap row (one more call level per allocation).',
    '- "forwarding again": the forwarding-only build a second time, paired like every row: an A/A control',
    '  whose ratio to forwarding only should read 1.00x; how far it is is the bench\'s own error.',
    '- "forwarding + lock" (threads only): forwarding with one lock per call (runtime/word_lock.h, the',
    '  runtime\'s kind) around an exact count of live bytes and their peak: what a global order of',
    '  allocations costs with next to nothing under the lock.', '',
    speed, '',
  ];
  if (targets.length) {
    const unreadable = targets.filter((t) => !t.readable).length;
    out.push('## Targets', '',
      'Paired workloads: median of the per-repetition ratios (n of them in the last column); ± is twice its',
      'uncertainty, 1.86 x MAD / sqrt(n). Others: ratio of the two cells\' medians, ± from both cells\'',
      'spreads. "met" or "missed" only when the limit lies outside the ± (bench/lib/targets.js).',
      ...(unreadable ? [`${unreadable} of ${targets.length} readings are uncertain by more than ±5%: this run cannot read a`,
        '5% difference there (a verdict is still given where the limit lies outside the ±).'] : []), '',
      table(['target', 'workload', 'engine', 'ratio', 'limit', '±', 'verdict', 'paired n'], targetRows(targets, ENV_LABEL)), '');
  }
  const heap = heapTable(cells);
  if (heap) out.push('## Heap size', '', heap, '');
  if (memory) {
    out.push('## emheap memory per live block', '',
      '1,000,000 live blocks of 32 bytes, node; B/block = (this build - baseline) / 1,000,000.', '',
      memory.md, '');
  }
  if (exported) {
    out.push('## emheap snapshot export in headless Chromium', '',
      '1,000,000 and 5,000,000 live blocks in 100,000 distinct call chains, and 1,000,000 blocks in 1,000,000 chains',
      '(bench/gen-sites.js). Export = `downloadSnapshot("speedscope")` (what Ctrl+Shift+H calls) until the',
      'download is done: the tables are read and the allocator\'s heap walked at once, the snapshot and the file',
      'built in 30 ms slices. Peak JS',
      'heap: CDP Runtime.getHeapUsage, polled every 20 ms; longest pause: the largest gap of a 10 ms timer from',
      'the call to the download. `snapshot()` is the synchronous API, timed apart. `emheap.mark()`: a mark, which in',
      'exact mode records what each site holds and the live blocks by mark (capture/mark_ranges.js), after the exports.', '',
      exported.md, '');
  }
  if (notes.list().length) out.push('## Notes: errors and n/a, in full', '', ...notes.markdown(), '');
  out.push(`Bench took ${Math.round((Date.now() - started) / 1000)} s. Full data: build/bench/results.json.`, '');
  return out.join('\n');
}

main().catch((e) => {
  console.error(e && e.stack || e);
  process.exit(1);
});
