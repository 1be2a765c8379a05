// leak_report.test.js -- jslib/leak_report.js, the text of the leak report
// at exit, on hand-made snapshots.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {leakReport, thousands} = require('../jslib/leak_report');

function snapshot(sites, summary, mode = 'exact-js') {
  return {
    format: 'emheap-snapshot', version: 1, mode, samplingInterval: mode === 'sampled' ? 262144 : 0,
    summary,
    frames: [
      {name: 'leak_memory', file: 'app.c', line: 42, module: 'app.wasm'},
      {name: 'main', file: 'app.c', line: 60, module: 'app.wasm'},
      {name: 'helper', module: 'app.wasm'},
      {name: 'wasm-function[7]'},
    ],
    sites,
  };
}
const site = (id, stack, liveBytes, liveBlocks) => ({id, key: 'k' + id, stack, liveBytes, liveBlocks, totalAllocs: liveBlocks, totalBytes: liveBytes, peakLiveBytes: liveBytes});

test('thousands', () => {
  assert.equal(thousands(12288), '12,288');
  assert.equal(thousands(999), '999');
  assert.equal(thousands(1234567), '1,234,567');
});

test('stacks with live blocks, largest first, leaf first, same-reading stacks merged', () => {
  const r = leakReport(snapshot([
    site(1, [2, 1], 100, 1),
    site(2, [0, 1], 8192, 2),
    site(3, [0, 1], 4096, 1),     // same frames as site 2 (another call offset)
    site(4, [3], 0, 0),           // all freed: not reported
    site(0, [], 50, 2),
  ], {liveBytes: 12438, liveBlocks: 6}));
  assert.equal(r.leaked, true);
  assert.equal(r.text, [
    'emheap: 3 blocks (12,288 bytes) still live, allocated at:',
    '    at leak_memory app.c:42',
    '    at main app.c:60',
    '',
    'emheap: 1 block (100 bytes) still live, allocated at:',
    '    at helper',
    '    at main app.c:60',
    '',
    'emheap: 2 blocks (50 bytes) still live, allocated at:',
    '    at (unattributed: allocated while tracking was paused, or no stack could be taken)',
    '',
    'emheap: 12,438 bytes in 6 blocks still live at exit (3 stacks)',
    '',
  ].join('\n'));
  assert.deepEqual(r.stacks[0].siteIds, [2, 3]);
});

test('nothing live: one line; sampled mode says the per-stack numbers are estimates', () => {
  const clean = leakReport(snapshot([site(1, [0], 0, 0)], {liveBytes: 0, liveBlocks: 0}));
  assert.equal(clean.leaked, false);
  assert.equal(clean.text, 'emheap: no leaks: every block was freed before exit\n');
  const sampled = leakReport(snapshot([site(1, [0], 262144, 64)], {liveBytes: 4096, liveBlocks: 1}, 'sampled'));
  assert.match(sampled.text, /sampled mode .* estimates .* the total below is exact/);
  // Each stack is labelled an estimate, with its precision: 262,144 bytes
  // at the default interval is one sampling point, +-100%.
  assert.match(sampled.text, /^emheap: about 64 blocks \(about 262,144 bytes, \+-100%, estimated\) still live/m);
  assert.match(sampled.text, /4,096 bytes in 1 block still live at exit \(1 stack\)\n$/);
});
