// tests/formats.test.js: formats/ builders against hand-made snapshots and
// the JSON schemas in schemas/ (plus speedscope's own schema).
// Run: node --test tests/formats.test.js
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { toSpeedscope } = require('../formats/speedscope');
const { toPerfView } = require('../formats/perfview');
const { toCollapsed } = require('../formats/collapsed');
const { toChromeTrace } = require('../formats/chrome_trace');
const { encodeProfile } = require('../formats/pprof');
const { FORMATS, formatByName } = require('../formats/index');
const { validateSnapshot, validateSpeedscope, validatePerfView, validateChromeTrace } = require('./lib/schemas');

const clone = (o) => JSON.parse(JSON.stringify(o));

const { makeSnapshot, emptySnapshot } = require('./lib/fixtures');

const frameNames = (file, sample) => sample.map((i) => file.shared.frames[i].name);

test('fixture snapshots are valid', () => {
  assert.deepEqual(validateSnapshot(makeSnapshot()), []);
  assert.deepEqual(validateSnapshot(emptySnapshot()), []);
});

test('speedscope: valid against speedscope and emheap schemas, snapshot kept unchanged', () => {
  const snap = makeSnapshot();
  const before = clone(snap);
  const file = toSpeedscope(snap);
  assert.deepEqual(validateSpeedscope(file), []);
  assert.deepEqual(validateSpeedscope(clone(file)), []); // survives JSON round trip
  assert.equal(file.$schema, 'https://www.speedscope.app/file-format-schema.json');
  assert.equal(file.name, 'emheap live bytes 2026-11-22T02:22:24.123Z');
  assert.equal(file.exporter, 'emheap');
  assert.equal(file.activeProfileIndex, 0);
  assert.deepEqual(file.emheap, before);
  assert.deepEqual(snap, before);
});

test('speedscope: frames deduplicated by (name, file, line), absent keys omitted', () => {
  const file = toSpeedscope(makeSnapshot());
  const frames = file.shared.frames;
  assert.equal(frames.filter((f) => f.name === 'leak_memory').length, 1);
  const keys = frames.map((f) => JSON.stringify([f.name, f.file, f.line]));
  assert.equal(new Set(keys).size, frames.length);
  assert.deepEqual(frames.find((f) => f.name === 'leak_memory'), { name: 'leak_memory', file: 'app.c', line: 42 });
  assert.deepEqual(frames.find((f) => f.name === 'load_level'), { name: 'load_level' });
  assert.deepEqual(frames.find((f) => f.name === 'wasm-function[7]'), { name: 'wasm-function[7]' });
  for (const f of frames) {
    for (const k of Object.keys(f)) assert.notEqual(f[k], null, `${f.name}.${k}`);
  }
  // the two leak_memory sites share one frame index
  const p = file.profiles[0];
  assert.equal(p.samples[0][p.samples[0].length - 1], p.samples[1][p.samples[1].length - 1]);
});

test('speedscope: samples root first, weights sorted descending and positive, endValue = sum', () => {
  const file = toSpeedscope(makeSnapshot());
  const p = file.profiles[0];
  assert.deepEqual(p.weights, [4096, 1024, 512, 300]); // zero-live site left out
  assert.equal(p.samples.length, p.weights.length);
  assert.deepEqual(frameNames(file, p.samples[0]), ['main', 'load_level', 'parse_chunk', 'leak_memory']);
  assert.deepEqual(frameNames(file, p.samples[1]), ['main', 'load_level', 'leak_memory']);
  assert.deepEqual(frameNames(file, p.samples[2]), ['(unattributed)']);
  assert.deepEqual(frameNames(file, p.samples[3]), ['onClick', 'wasm-function[7]']);
  for (let i = 1; i < p.weights.length; i++) assert.ok(p.weights[i - 1] >= p.weights[i]);
  assert.ok(p.weights.every((w) => w > 0));
  assert.equal(p.startValue, 0);
  assert.equal(p.endValue, 4096 + 1024 + 512 + 300);
  assert.equal(p.type, 'sampled');
  assert.equal(p.unit, 'bytes');
});

test('speedscope: sorts even if the snapshot sites are not sorted', () => {
  const snap = makeSnapshot();
  snap.sites.reverse();
  assert.deepEqual(toSpeedscope(snap).profiles[0].weights, [4096, 1024, 512, 300]);
});

test('speedscope: empty heap gives a valid empty profile', () => {
  const file = toSpeedscope(emptySnapshot());
  assert.deepEqual(validateSpeedscope(file), []);
  assert.deepEqual(file.shared.frames, []);
  assert.deepEqual(file.profiles[0].samples, []);
  assert.deepEqual(file.profiles[0].weights, []);
  assert.equal(file.profiles[0].endValue, 0);

  const allFreed = makeSnapshot();
  allFreed.sites.forEach((s) => { s.liveBytes = 0; s.liveBlocks = 0; });
  const freed = toSpeedscope(allFreed);
  assert.deepEqual(validateSpeedscope(freed), []);
  assert.deepEqual(freed.profiles[0].weights, []);
  assert.deepEqual(freed.shared.frames, []);
});

test('perfview: valid, leaf first, "module!name (file:line)" strings, sorted by Metric', () => {
  const snap = makeSnapshot();
  const before = clone(snap);
  const file = toPerfView(snap);
  assert.deepEqual(validatePerfView(file), []);
  assert.deepEqual(Object.keys(file), ['StackSource', 'emheap']);
  assert.deepEqual(file.emheap, before);
  const s = file.StackSource.Samples;
  assert.deepEqual(s.map((x) => x.Metric), [4096, 1024, 512, 300]);
  assert.deepEqual(s[0], {
    Time: 0, Metric: 4096,
    Stack: ['app.wasm!leak_memory (app.c:42)', 'app.wasm!parse_chunk (parser.c:7)', 'app.wasm!load_level', 'app.wasm!main (app.c:100)'],
  });
  assert.deepEqual(s[2].Stack, ['(unattributed)']);
  assert.deepEqual(s[3].Stack, ['app.wasm!wasm-function[7]', 'onClick']);
  for (const x of s) assert.deepEqual(Object.keys(x), ['Time', 'Metric', 'Stack']);
});

test('perfview: empty heap', () => {
  const file = toPerfView(emptySnapshot());
  assert.deepEqual(validatePerfView(file), []);
  assert.deepEqual(file.StackSource.Samples, []);
});

test('validators reject bad files', () => {
  const ss = toSpeedscope(makeSnapshot());
  const pv = toPerfView(makeSnapshot());

  const extraKey = clone(pv);
  extraKey.StackSource.Samples[0].Site = 3;
  assert.ok(validatePerfView(extraKey).some((e) => /additional properties.*Site/.test(e)));

  const extraArray = clone(pv);
  extraArray.StackSource.Samples[0].Frames = ['x'];
  assert.notDeepEqual(validatePerfView(extraArray), []);

  const zeroMetric = clone(pv);
  zeroMetric.StackSource.Samples[0].Metric = 0;
  assert.notDeepEqual(validatePerfView(zeroMetric), []);

  const emptyStack = clone(pv);
  emptyStack.StackSource.Samples[0].Stack = [];
  assert.notDeepEqual(validatePerfView(emptyStack), []);

  const bareSamples = { Samples: pv.StackSource.Samples, emheap: pv.emheap };
  assert.notDeepEqual(validatePerfView(bareSamples), []);

  const zeroWeight = clone(ss);
  zeroWeight.profiles[0].weights[3] = 0;
  assert.ok(validateSpeedscope(zeroWeight).some((e) => /weights\/3/.test(e)));

  // upstream schema alone catches a wrong type, ours catches a wrong unit
  const badType = clone(ss);
  badType.profiles[0].weights[0] = '4096';
  assert.ok(validateSpeedscope(badType).some((e) => e.startsWith('speedscope(upstream)')));
  const badUnit = clone(ss);
  badUnit.profiles[0].unit = 'seconds';
  assert.ok(validateSpeedscope(badUnit).some((e) => e.startsWith('speedscope(emheap)')));

  const mismatch = clone(ss);
  mismatch.profiles[0].weights.pop();
  assert.ok(validateSpeedscope(mismatch).some((e) => /4 samples but 3 weights/.test(e)));

  const outOfRange = clone(ss);
  outOfRange.profiles[0].samples[0].push(99);
  assert.ok(validateSpeedscope(outOfRange).some((e) => /out of range/.test(e)));

  const badEmheap = clone(ss);
  delete badEmheap.emheap.summary.liveBytes;
  assert.ok(validateSpeedscope(badEmheap).some((e) => /emheap\/summary/.test(e)));
});

test('snapshot validator rejects bad snapshots', () => {
  const bad = (mutate) => { const s = makeSnapshot(); mutate(s); return validateSnapshot(s); };
  assert.notDeepEqual(bad((s) => { s.version = 2; }), []);
  assert.notDeepEqual(bad((s) => { s.mode = 'precise'; }), []);
  assert.notDeepEqual(bad((s) => { s.capturedAt = 'yesterday'; }), []);
  assert.notDeepEqual(bad((s) => { s.extra = 1; }), []);
  assert.notDeepEqual(bad((s) => { s.summary.freeCalls = -1; }), []);
  assert.notDeepEqual(bad((s) => { s.summary.heapSize = 1.5; }), []);
  assert.notDeepEqual(bad((s) => { delete s.frames[3].name; }), []);
  assert.notDeepEqual(bad((s) => { s.frames[0].line = null; }), []);
  assert.notDeepEqual(bad((s) => { delete s.sites[0].peakLiveBytes; }), []);
  assert.notDeepEqual(bad((s) => { s.sites[0].stack.push(-1); }), []);
  assert.ok(bad((s) => { s.sites[0].stack.push(7); }).some((e) => /out of range/.test(e)));
});

test('builders report a stack that points at a missing frame', () => {
  const snap = makeSnapshot();
  snap.sites[0].stack.push(99);
  assert.throws(() => toSpeedscope(snap), /missing frame 99/);
  assert.throws(() => toPerfView(snap), /missing frame 99/);
  assert.throws(() => encodeProfile(snap), /missing frame 99/);
  assert.throws(() => toCollapsed(snap), /missing frame 99/);
});

test('format registry', () => {
  assert.deepEqual(Object.keys(FORMATS), ['speedscope', 'perfview', 'pprof', 'collapsed', 'chrome-trace', 'heapsnapshot', 'dhat']);
  // only heapsnapshot needs the heap graph
  assert.deepEqual(Object.keys(FORMATS).filter((k) => FORMATS[k].heap), ['heapsnapshot']);
  assert.equal(formatByName('speedscope').object, toSpeedscope);
  assert.equal(formatByName('speedscope').suffix, '.speedscope.json');
  assert.equal(formatByName('perfview').object, toPerfView);
  assert.equal(formatByName('perfview').suffix, '.PerfView.json');
  assert.equal(formatByName('perfview').mime, 'application/json');
  assert.equal(formatByName('chrome-trace').object, toChromeTrace);
  assert.equal(formatByName('chrome-trace').suffix, '.trace.json');
  assert.equal(formatByName('pprof').suffix, '.pb.gz');
  assert.equal(formatByName('collapsed').suffix, '.collapsed.txt');
  // only pprof is binary, and gzipped by the writer
  assert.deepEqual(Object.keys(FORMATS).filter((k) => FORMATS[k].binary), ['pprof']);
  assert.deepEqual(Object.keys(FORMATS).filter((k) => FORMATS[k].gzip), ['pprof']);
  // the chunks of a JSON format are the text of its object
  const snap = makeSnapshot();
  // (DHAT wants the numbers at the peak, which layout 5 snapshots have)
  snap.summary.totalBytesAtPeak = 7000;
  snap.sites.forEach((x) => Object.assign(x, {liveBytesAtPeak: x.liveBytes, liveBlocksAtPeak: x.liveBlocks, blocksAtPeakLiveBytes: x.liveBlocks}));
  for (const name of ['speedscope', 'perfview', 'chrome-trace', 'dhat']) {
    assert.equal(Array.from(FORMATS[name].chunks(snap)).join(''), JSON.stringify(FORMATS[name].object(snap)), name);
  }
  assert.equal(Array.from(FORMATS.collapsed.chunks(snap)).join(''), toCollapsed(snap));
  assert.throws(() => formatByName('xml'),
    { message: 'unknown format "xml": use one of speedscope, perfview, pprof, collapsed, chrome-trace, heapsnapshot, dhat' });
  assert.throws(() => formatByName('toString'), /unknown format "toString"/);
  assert.throws(() => formatByName(undefined), /unknown format/);
});

test('collapsed: root first, live bytes, heaviest first, zero-live sites left out', () => {
  const snap = makeSnapshot();
  const before = clone(snap);
  assert.equal(toCollapsed(snap),
    'main;load_level;parse_chunk;leak_memory 4096\n' +
    'main;load_level;leak_memory 1024\n' +
    '(unattributed) 512\n' +
    'onClick;wasm-function[7] 300\n');
  assert.deepEqual(snap, before, 'snapshot unchanged');
  const reversed = makeSnapshot();
  reversed.sites.reverse();
  assert.equal(toCollapsed(reversed), toCollapsed(snap), 'sorted whatever the site order');
});

test('collapsed: one line per name path, separators escaped, empty heap is empty text', () => {
  const snap = makeSnapshot();
  // a second site through the other leak_memory frame on the same path: one line
  snap.sites.push({ id: 9, key: 'leak_memory+0x1a40', stack: [1, 2, 3, 4], liveBytes: 4, liveBlocks: 1, totalAllocs: 1, totalBytes: 4, peakLiveBytes: 4 });
  snap.frames[6].name = 'on;click\nhandler x';
  const text = toCollapsed(snap);
  assert.match(text, /^main;load_level;parse_chunk;leak_memory 4100\n/);
  assert.ok(text.includes('on:click handler x;wasm-function[7] 300\n'), text);
  for (const line of text.trimEnd().split('\n')) assert.match(line, /^[^\n]+ [1-9]\d*$/);
  assert.equal(toCollapsed(emptySnapshot()), '');
  const proto = emptySnapshot();
  proto.frames = [{ name: '__proto__' }];
  proto.sites = [{ id: 1, key: 'x', stack: [0], liveBytes: 8, liveBlocks: 1, totalAllocs: 1, totalBytes: 8, peakLiveBytes: 8 }];
  assert.equal(toCollapsed(proto), '__proto__ 8\n');
});

// The merge by name path is hashed: check it against the plain rule (text of
// the path as the key) on many sites whose frames share names.
test('collapsed: merging by name path agrees with a string-keyed merge on 20,000 sites', () => {
  const snap = emptySnapshot();
  for (let i = 0; i < 60; i++) snap.frames.push({ name: `fn${i % 23}` });
  let x = 7;
  for (let i = 0; i < 20000; i++) {
    const stack = [];
    const depth = 1 + (i % 4);
    for (let d = 0; d < depth; d++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      stack.push((x >>> 8) % 60);
    }
    snap.sites.push({ id: i + 1, key: `k${i}`, stack, liveBytes: 1 + (i % 50), liveBlocks: 1, totalAllocs: 1, totalBytes: 1, peakLiveBytes: 1 });
  }
  const want = new Map();
  for (const site of snap.sites) {
    const line = site.stack.map((f) => snap.frames[f].name).reverse().join(';');
    want.set(line, (want.get(line) || 0) + site.liveBytes);
  }
  const got = new Map(toCollapsed(snap).trimEnd().split('\n').map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]));
  assert.ok(want.size < 20000 && want.size > 1000, `${want.size} distinct paths`);
  assert.deepEqual(got, want);
});

test('chrome-trace: one point from the summary when there is no timeline', () => {
  const snap = makeSnapshot();
  const before = clone(snap);
  const trace = toChromeTrace(snap);
  assert.deepEqual(validateChromeTrace(trace), []);
  assert.deepEqual(validateChromeTrace(clone(trace)), []);
  assert.deepEqual(snap, before);
  const counters = trace.traceEvents.filter((e) => e.ph === 'C');
  assert.deepEqual(counters.map((e) => [e.name, e.ts, e.args]),
    [['live bytes', 0, { bytes: 5932 }], ['live blocks', 0, { blocks: 10 }]]);
  const meta = trace.traceEvents.filter((e) => e.ph === 'M');
  assert.deepEqual(meta.map((e) => e.name), ['process_name', 'thread_name']);
  assert.equal(meta[0].args.name, 'emheap http://localhost:8000/');
  const instant = trace.traceEvents.find((e) => e.ph === 'I');
  assert.equal(instant.args.liveBytes, 5932);
  assert.equal(instant.args.sites, 5);
  assert.equal(trace.displayTimeUnit, 'ms');
  assert.equal(trace.otherData.mode, 'exact-js');
  // every event has the keys the Trace Event Format requires
  for (const e of trace.traceEvents) {
    for (const k of ['name', 'ph', 'pid', 'args']) assert.ok(k in e, `${JSON.stringify(e)} lacks ${k}`);
    assert.equal(typeof e.pid, 'number');
  }
});

test('chrome-trace: counters follow snapshot.timeline (ms -> us), sorted', () => {
  const snap = makeSnapshot();
  snap.timeline = [
    { t: 0, liveBytes: 0, liveBlocks: 0 },
    { t: 16.5, liveBytes: 1024, liveBlocks: 1 },
    { t: 1000.25, liveBytes: 5932, liveBlocks: 10 },
    { t: 33.0001, liveBytes: 2048, liveBlocks: 2 },
  ];
  assert.deepEqual(validateSnapshot(snap), [], 'the snapshot schema knows timeline');
  const trace = toChromeTrace(snap);
  assert.deepEqual(validateChromeTrace(trace), []);
  const bytes = trace.traceEvents.filter((e) => e.name === 'live bytes');
  assert.deepEqual(bytes.map((e) => [e.ts, e.args.bytes]), [[0, 0], [16500, 1024], [33000.1, 2048], [1000250, 5932]]);
  const blocks = trace.traceEvents.filter((e) => e.name === 'live blocks');
  assert.deepEqual(blocks.map((e) => e.args.blocks), [0, 1, 2, 10]);
  assert.equal(trace.traceEvents.find((e) => e.ph === 'I').ts, 1000250);

  const empty = emptySnapshot();
  empty.timeline = [];
  assert.deepEqual(toChromeTrace(empty).traceEvents.filter((e) => e.ph === 'C').map((e) => e.ts), [0, 0], 'empty timeline: the summary point');
  for (const bad of [{ t: -1, liveBytes: 0, liveBlocks: 0 }, { t: 1, liveBytes: 1.5, liveBlocks: 0 }, { t: 'x', liveBytes: 0, liveBlocks: 0 }, null]) {
    const s = makeSnapshot();
    s.timeline = [bad];
    assert.throws(() => toChromeTrace(s), /timeline\[0\]/);
  }
});

test('chrome-trace: each timed growth is an instant naming its site, and a step of the wasm memory', () => {
  const snap = makeSnapshot();
  snap.heapGrowth = [
    { fromBytes: 16 * 2 ** 20, toBytes: 20 * 2 ** 20, siteId: 3, requestBytes: 4096, t: 12.5, top: [{ siteId: 3, liveBytes: 5000 }] },
    { fromBytes: 20 * 2 ** 20, toBytes: 24 * 2 ** 20, siteId: 0, requestBytes: 0, t: 40, top: [] },
  ];
  assert.deepEqual(validateSnapshot(snap), []);
  const trace = toChromeTrace(snap);
  assert.deepEqual(validateChromeTrace(trace), []);
  const grew = trace.traceEvents.filter((e) => e.name === 'wasm memory grew');
  assert.deepEqual(grew.map((e) => [e.ts, e.args.site, e.args.requestBytes, e.args.mostLive]), [
    [12500, 'leak_memory app.c:42 < parse_chunk parser.c:7 < load_level < ...', 4096,
      '4.88 KiB leak_memory app.c:42 < parse_chunk parser.c:7 < load_level < ...'],
    [40000, '(unattributed)', 0, ''],
  ]);
  assert.deepEqual(trace.traceEvents.filter((e) => e.name === 'wasm memory').map((e) => [e.ts, e.args.bytes]),
    [[0, 16 * 2 ** 20], [12500, 20 * 2 ** 20], [40000, 24 * 2 ** 20]]);
  // growths of files before layout 13 have no time: no events
  delete snap.heapGrowth[0].t;
  delete snap.heapGrowth[1].t;
  assert.equal(toChromeTrace(snap).traceEvents.filter((e) => /^wasm memory/.test(e.name)).length, 0);
  // the validator sees a counter that does not step with its growth
  const broken = toChromeTrace(Object.assign(makeSnapshot(), { heapGrowth: [Object.assign({}, grew[0].args, { siteId: 3, t: 1 })] }));
  broken.traceEvents.find((e) => e.name === 'wasm memory' && e.ts > 0).args.bytes = 1;
  assert.match(validateChromeTrace(broken).join('\n'), /does not step/);
});

test('chrome-trace validator rejects bad traces', () => {
  const trace = toChromeTrace(makeSnapshot());
  const bad = (mutate) => { const t = clone(trace); mutate(t); return validateChromeTrace(t); };
  assert.notDeepEqual(bad((t) => { delete t.traceEvents; }), []);
  assert.notDeepEqual(bad((t) => { t.traceEvents[2].ph = 'X'; }), []);
  assert.notDeepEqual(bad((t) => { t.traceEvents[2].args.bytes = -1; }), []);
  assert.notDeepEqual(bad((t) => { t.traceEvents[2].ts = 'now'; }), []);
  assert.notDeepEqual(bad((t) => { t.traceEvents.splice(3, 1); }), []);   // blocks point gone
  assert.notDeepEqual(bad((t) => { t.otherData.samplingInterval = 0; }), []);
  assert.notDeepEqual(bad((t) => { t.displayTimeUnit = 'us'; }), []);
});

// formats/ is embedded into an Emscripten --js-library: check its rules here
// (formats/README.md) so a violation fails in node, not in the emcc build.
test('formats/ follows the --js-library rules', (t) => {
  const fs = require('node:fs');
  const path = require('node:path');
  const dir = path.join(__dirname, '..', 'formats');
  let acorn = null;
  try { acorn = require('acorn'); } catch (e) {
    try { acorn = require('/usr/share/nodejs/acorn'); } catch (e2) { /* parse check skipped */ }
  }
  const files = fs.readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.js'));
  assert.ok(files.includes(path.join('report', 'page.js')), 'the folders below formats/ are read too');
  for (const name of files) {
    const src = fs.readFileSync(path.join(dir, name), 'utf8');
    assert.ok(!src.includes('{{{'), `${name} contains {{{`);
    assert.ok(!/^[ \t]*#/m.test(src), `${name} has a line starting with #`);
    assert.ok(!/require\(['"](node:|fs|path)/.test(src), `${name} requires a node built-in`);
    assert.ok(!/\b(window|document)\./.test(src), `${name} uses the DOM`);
    if (acorn) acorn.parse(src, { ecmaVersion: 2019, sourceType: 'script' });
  }
  if (!acorn) t.diagnostic('acorn not found: ES2019 parse check skipped');
});

test('formats with work before their first byte pause in it: empty chunks, the same file', () => {
  // 3,000 sites out of order: speedscope and PerfView sort them, collapsed
  // merges and sorts its lines, pprof walks frames and sites; each yields
  // empty chunks (points where a page's writer may stop) on the way.
  const frames = Array.from({length: 40}, (_, i) => ({name: `f${i}`, file: 'a.c', line: i + 1}));
  const sites = Array.from({length: 3000}, (_, i) => ({
    id: i + 1, key: `f${i % 40}`, stack: [i % 40, (i * 7) % 40, (i * 13) % 40],
    liveBytes: (i * 7919) % 1009, liveBlocks: 1, totalAllocs: 2, totalBytes: 2 * ((i * 7919) % 1009) + 1, peakLiveBytes: 0,
  }));
  const snap = {...makeSnapshot(), frames, sites};
  for (const name of ['speedscope', 'perfview', 'collapsed', 'pprof']) {
    const chunks = Array.from(FORMATS[name].chunks(snap));
    const empty = chunks.filter((c) => c.length === 0).length;
    assert.ok(empty >= 3, `${name}: ${empty} empty chunks`);
    if (name === 'pprof') {
      assert.deepEqual(Buffer.concat(chunks.map((c) => Buffer.from(c))), Buffer.from(encodeProfile(snap)));
    } else if (name === 'collapsed') {
      assert.equal(chunks.join(''), toCollapsed(snap));
    } else {
      assert.equal(chunks.join(''), JSON.stringify(FORMATS[name].object(snap)), name);
    }
  }
});

test("formats/README.md's snapshot names every field the schema has, and only those", () => {
  const schema = require('../schemas/emheap-snapshot.schema.json');
  const md = fs.readFileSync(path.join(__dirname, '..', 'formats', 'README.md'), 'utf8');
  const section = md.slice(md.indexOf('## The snapshot (input)'));
  const start = section.indexOf('```js');
  const block = section.slice(start, section.indexOf('```', start + 5));
  const named = (field) => new RegExp(`\\b${field}\\b`).test(block);
  const fields = {
    top: Object.keys(schema.properties),
    summary: Object.keys(schema.properties.summary.properties),
    site: Object.keys(schema.definitions.site.properties),
    frame: Object.keys(schema.definitions.frame.properties),
    growth: Object.keys(schema.definitions.growth.properties),
  };
  for (const [where, list] of Object.entries(fields)) {
    assert.deepEqual(list.filter((f) => !named(f)), [], `${where} fields the README does not name`);
  }
  // and the README names no field of the summary the schema lacks
  const summaryText = block.slice(block.indexOf('summary: {'), block.indexOf('},', block.indexOf('summary: {')));
  const words = summaryText.replace(/\/\/.*$/gm, '').match(/\b[a-z][A-Za-z]+\b/g).filter((w) => w !== 'summary');
  assert.deepEqual(words.filter((w) => !fields.summary.includes(w)), []);
});
