// tests/formats.test.js: formats/ builders against hand-made snapshots and
// the JSON schemas in schemas/ (plus speedscope's own schema).
// Run: node --test tests/formats.test.js
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');

const { toSpeedscope } = require('../formats/speedscope');
const { toPerfView } = require('../formats/perfview');
const { FORMATS, formatByName } = require('../formats/index');
const { validateSnapshot, validateSpeedscope, validatePerfView } = require('./lib/schemas');

const clone = (o) => JSON.parse(JSON.stringify(o));

function summary(over) {
  return Object.assign({
    liveBytes: 0, liveBlocks: 0, peakLiveBytes: 0, peakLiveBlocks: 0, totalBytes: 0,
    mallocCalls: 0, callocCalls: 0, reallocCalls: 0, memalignCalls: 0, freeCalls: 0,
    failedAllocs: 0, invalidFrees: 0, sampledAllocs: 0,
    siteCount: 0, heapSize: 16777216, heapGrowths: 0, preRunDone: true,
  }, over);
}

function site(id, key, stack, liveBytes, liveBlocks) {
  return { id, key, stack, liveBytes, liveBlocks, totalAllocs: liveBlocks + 2, totalBytes: liveBytes + 100, peakLiveBytes: liveBytes + 50 };
}

// A small program: main -> load_level -> parse_chunk -> leak_memory, with
// leak_memory called from two offsets (two snapshot frames, one function).
function makeSnapshot() {
  const frames = [
    { name: 'leak_memory', file: 'app.c', line: 42, module: 'http://localhost:8000/build/app.wasm', funcIndex: 12, offset: 0x1a2b }, // 0
    { name: 'leak_memory', file: 'app.c', line: 42, module: 'http://localhost:8000/build/app.wasm', funcIndex: 12, offset: 0x1a40 }, // 1: same fn, other offset
    { name: 'parse_chunk', file: 'parser.c', line: 7, module: 'http://localhost:8000/build/app.wasm', funcIndex: 9, offset: 0x900 },  // 2
    { name: 'load_level', module: 'app.wasm', funcIndex: 8, offset: 0x800 },                                                        // 3: no file/line
    { name: 'main', file: 'app.c', line: 100, module: 'app.wasm', funcIndex: 3, offset: 0x300 },                                    // 4
    { name: 'wasm-function[7]', module: 'app.wasm', funcIndex: 7, offset: 0x700 },                                                  // 5: no names
    { name: 'onClick' },                                                                                                             // 6: JS, nothing else known
  ];
  const sites = [
    site(3, 'leak_memory+0x1a2b', [0, 2, 3, 4], 4096, 4),
    site(4, 'leak_memory+0x1a40', [1, 3, 4], 1024, 1),
    site(0, '', [], 512, 2),                          // unattributed
    site(5, 'wasm-function[7]+0x700', [5, 6], 300, 3),
    site(6, 'parse_chunk+0x900', [2, 3, 4], 0, 0),    // everything freed
  ];
  return {
    format: 'emheap-snapshot', version: 1,
    capturedAt: '2026-11-22T02:22:24.123Z', source: 'http://localhost:8000/',
    mode: 'exact-js', samplingInterval: 0,
    summary: summary({ liveBytes: 5932, liveBlocks: 10, peakLiveBytes: 8000, peakLiveBlocks: 12, totalBytes: 9000, mallocCalls: 20, freeCalls: 10, siteCount: 5, heapGrowths: 1 }),
    frames, sites,
    heapGrowth: [{ fromBytes: 16777216, toBytes: 33554432, siteId: 3 }],
  };
}

function emptySnapshot() {
  return {
    format: 'emheap-snapshot', version: 1, capturedAt: '2026-11-22T02:22:24.123Z', source: '',
    mode: 'sampled', samplingInterval: 524288, summary: summary(), frames: [], sites: [], heapGrowth: [],
  };
}

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
  assert.notDeepEqual(bad((s) => { s.mode = 'exact'; }), []);
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
});

test('format registry', () => {
  assert.deepEqual(Object.keys(FORMATS), ['speedscope', 'perfview']);
  assert.equal(formatByName('speedscope').build, toSpeedscope);
  assert.equal(formatByName('speedscope').suffix, '.speedscope.json');
  assert.equal(formatByName('perfview').build, toPerfView);
  assert.equal(formatByName('perfview').suffix, '.PerfView.json');
  assert.equal(formatByName('perfview').mime, 'application/json');
  assert.throws(() => formatByName('pprof'), { message: 'unknown format "pprof": use one of speedscope, perfview' });
  assert.throws(() => formatByName('toString'), /unknown format "toString"/);
  assert.throws(() => formatByName(undefined), /unknown format/);
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
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const src = fs.readFileSync(path.join(dir, name), 'utf8');
    assert.ok(!src.includes('{{{'), `${name} contains {{{`);
    assert.ok(!/^[ \t]*#/m.test(src), `${name} has a line starting with #`);
    assert.ok(!/require\(['"](node:|fs|path)/.test(src), `${name} requires a node built-in`);
    assert.ok(!/\b(window|document)\./.test(src), `${name} uses the DOM`);
    if (acorn) acorn.parse(src, { ecmaVersion: 2019, sourceType: 'script' });
  }
  if (!acorn) t.diagnostic('acorn not found: ES2019 parse check skipped');
});
