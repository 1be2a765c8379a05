// tests/lib/fixtures.js: hand-made emheap snapshots shared by the format,
// pprof and CLI tests.
'use strict';

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

module.exports = { summary, site, makeSnapshot, emptySnapshot };
