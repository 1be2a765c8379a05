#!/usr/bin/env node
// library-choices.js -- the measurements behind emheap's choices between a
// well-kept library and its own code (results in bench/README.md).
//
//   node bench/library-choices.js MODULE.wasm MODULE.wasm.map
//
// 1. source maps: symbolize/source_map.js (its lookup rule over
//    @jridgewell/sourcemap-codec's decoder) against @jridgewell/trace-mapping
//    (what Vite, Babel and Jest use): parse time, lookup time, and how many
//    lookups give another file or line (trace-mapping takes the last of
//    several entries at one offset; a frame wants the first).
// 2. pprof: formats/pprof.js (a streaming encoder) against pprof-format (the
//    protobuf Profile class): time and peak resident memory for a
//    200,000-site snapshot, each encoder in a process of its own.
// 3. wasm custom sections: symbolize/wasm_sections.js against the engine's own
//    WebAssembly.Module.customSections (which needs the module compiled).
//
// Each timing is a median (9 runs after 3 to warm up for source maps, 5
// for sections, 3 for pprof). Run it alone: the machine has
// 2 cores.
'use strict';

const fs = require('fs');
const path = require('path');
const {execFileSync} = require('child_process');

const ROOT = path.join(__dirname, '..');
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

function time(fn, runs = 5) {
  const out = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    result = fn();
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return {ms: median(out), result};
}

function sourceMaps(mapFile, moduleBytes) {
  const {parseSourceMap} = require(path.join(ROOT, 'symbolize/source_map'));
  const {TraceMap, originalPositionFor, decodedMappings} = require('@jridgewell/trace-mapping');
  const text = fs.readFileSync(mapFile, 'utf8');
  // (a TraceMap decodes its mappings at the first lookup: timed with it)
  const traceMap = () => {
    const map = new TraceMap(JSON.parse(text));
    decodedMappings(map);
    return map;
  };
  // warmed up first, then each timed over 9 runs
  time(() => parseSourceMap(JSON.parse(text)), 3);
  time(traceMap, 3);
  const own = time(() => parseSourceMap(JSON.parse(text)), 9);
  const lib = time(traceMap, 9);
  // offsets to look up: every 7th byte of the module
  const offsets = [];
  for (let o = 0; o < moduleBytes; o += 7) offsets.push(o);
  const ownLookups = time(() => offsets.map((o) => own.result.lookup(o)));
  const libLookups = time(() => offsets.map((o) => originalPositionFor(lib.result, {line: 1, column: o})));
  let differ = 0;
  const clean = (p) => String(p).replace(/^(\.\.?\/)+/, '');
  for (let i = 0; i < offsets.length; i++) {
    const a = ownLookups.result[i];
    const b = libLookups.result[i];
    const same = (!a && b.source === null) || (a && b.source !== null && a.file === clean(b.source) && a.line === b.line);
    if (!same) differ++;
  }
  return {
    bytes: text.length, lookups: offsets.length,
    parseMs: {own: own.ms, traceMapping: lib.ms},
    lookupMs: {own: ownLookups.ms, traceMapping: libLookups.ms},
    differingLookups: differ,
  };
}

// One encoder, in this process (a child): its time and the process's peak
// resident memory, which for the library includes the whole Profile.
function pprofChild(which) {
  const {bigSnapshot} = require(path.join(ROOT, 'harness/big_snapshot'));
  const snap = bigSnapshot(200000, 30);
  const rssBefore = process.resourceUsage().maxRSS;
  let encode;
  if (which === 'own') {
    const {profileChunks} = require(path.join(ROOT, 'formats/pprof'));
    encode = () => {
      let bytes = 0;
      for (const chunk of profileChunks(snap)) bytes += chunk.length;
      return bytes;
    };
  } else {
    const {Profile, ValueType, Sample, Location, Line, Function: Fn, StringTable} = require('pprof-format');
    // the same samples, locations and functions as formats/pprof.js writes
    encode = () => {
      const strings = new StringTable();
      const functions = snap.frames.map((f, i) => new Fn({id: i + 1, name: strings.dedup(f.name), filename: strings.dedup(f.file || '')}));
      const locations = snap.frames.map((f, i) => new Location({id: i + 1, line: [new Line({functionId: i + 1, line: f.line || 0})]}));
      const types = ['alloc_objects', 'alloc_space', 'inuse_objects', 'inuse_space'].map((t, i) =>
        new ValueType({type: strings.dedup(t), unit: strings.dedup(i % 2 ? 'bytes' : 'count')}));
      const samples = snap.sites.map((site) => new Sample({locationId: site.stack.map((k) => k + 1),
        value: [site.totalAllocs, site.totalBytes, site.liveBlocks, site.liveBytes]}));
      return new Profile({sampleType: types, sample: samples, location: locations, function: functions,
        stringTable: strings}).encode().length;
    };
  }
  const t = time(encode, 3);
  return {bytes: t.result, ms: t.ms, peakRssMbAboveSnapshot: (process.resourceUsage().maxRSS - rssBefore) / 1024};
}

function pprof() {
  const run = (which) => JSON.parse(execFileSync(process.execPath, [__filename, '--pprof-child', which],
    {encoding: 'utf8', maxBuffer: 1 << 20}));
  return {sites: 200000, depth: 30, own: run('own'), pprofFormat: run('library')};
}

function sections(wasmFile) {
  const {customSections} = require(path.join(ROOT, 'symbolize/wasm_sections'));
  const bytes = new Uint8Array(fs.readFileSync(wasmFile));
  const own = time(() => Object.keys(customSections(bytes)).length);
  const engine = time(() => {
    const m = new WebAssembly.Module(bytes);
    return WebAssembly.Module.customSections(m, 'name').length;
  }, 3);
  return {moduleBytes: bytes.length, ms: {own: own.ms, engineCompileAndRead: engine.ms}};
}

if (process.argv[2] === '--pprof-child') {
  console.log(JSON.stringify(pprofChild(process.argv[3])));
} else {
  const [wasmFile, mapFile] = process.argv.slice(2);
  if (!wasmFile || !mapFile) {
    console.error('usage: node bench/library-choices.js MODULE.wasm MODULE.wasm.map');
    process.exit(2);
  }
  console.log(JSON.stringify({date: new Date().toISOString(), node: process.version,
    sourceMaps: sourceMaps(mapFile, fs.statSync(wasmFile).size), pprof: pprof(), wasmSections: sections(wasmFile)}, null, 2));
}
