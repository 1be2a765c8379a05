// leak_report.test.js -- model/leak_report.js, the text of the leak report
// at exit, on hand-made snapshots.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {leakReport, thousands} = require('../model/leak_report');

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
  ], {liveBytes: 12480, liveBlocks: 6, requestedLiveBytes: 12438, allocatorRoundingBytes: 42}));
  assert.equal(r.leaked, true);
  assert.equal(r.liveBytes, 12438, 'the bytes asked for, as LeakSanitizer counts');
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
    'emheap: 12,438 bytes in 6 blocks still live at exit (3 stacks; 12,480 bytes with the allocator\'s rounding)',
    '',
  ].join('\n'));
  assert.equal(r.stacks[0].callSites, 2, 'the two sites of one reading');
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
  // (sampled mode knows the total in usable sizes only)
  assert.match(sampled.text, /4,096 bytes in 1 block still live at exit \(1 stack; usable sizes\)\n$/);
});

test('with the heap graph: each stack says which of its blocks leaked, as LSan classes them', () => {
  const snap = snapshot([site(1, [0, 1], 300, 3), site(2, [2, 1], 50, 1)], {liveBytes: 350, liveBlocks: 4});
  // site 1: a leaked list (head direct, two indirect); site 2: kept by a global
  snap.heap = {blocks: {site: [1, 1, 1, 2], state: [1, 2, 2, 0], size: [100, 100, 100, 50]}};
  const r = leakReport(snap);
  const lines = r.text.split('\n');
  const at = lines.indexOf('emheap: 3 blocks (300 bytes) still live, allocated at:');
  assert.ok(at >= 0, r.text);
  assert.equal(lines[at + 3], '    of these: 1 block directly leaked (100 bytes), 2 blocks indirectly leaked (200 bytes)');
  const kept = lines.indexOf('emheap: 1 block (50 bytes) still live, allocated at:');
  assert.equal(lines[kept + 3], '    of these: 1 block still reachable (50 bytes)');
  assert.ok(lines.includes('emheap: by a scan of the memory at exit (as LeakSanitizer classes blocks): 1 block directly leaked ' +
    '(100 bytes), 2 blocks indirectly leaked (200 bytes), 1 block still reachable (50 bytes); still reachable = a pointer to it ' +
    'from static data, a C stack or a registered root'), r.text);
  // without the graph, no such lines
  delete snap.heap;
  assert.ok(!/of these|LeakSanitizer/.test(leakReport(snap).text));
});

test('blocks freed that emheap never saw allocated: said, clean or not', () => {
  const unseen = {unseenFrees: 2, unseenFreedBytes: 48};
  const clean = leakReport(snapshot([], Object.assign({liveBytes: 0, liveBlocks: 0}, unseen)));
  assert.equal(clean.leaked, false);
  assert.match(clean.text, /^emheap: no leaks: every block was freed before exit\nemheap: 2 blocks \(48 bytes\) freed that emheap never saw allocated/);
  const leaky = leakReport(snapshot([site(1, [0, 1], 100, 1)],
    Object.assign({liveBytes: 104, liveBlocks: 1, requestedLiveBytes: 100, allocatorRoundingBytes: 4}, unseen)));
  assert.match(leaky.text, /2 blocks \(48 bytes\) freed that emheap never saw allocated: .* still live are in no number here/);
  assert.doesNotMatch(leakReport(snapshot([], {liveBytes: 0, liveBlocks: 0})).text, /never saw/);
});

test('grouped as asked (leakBy, EMHEAP_LEAK_BY): by line two stacks of leak_memory stay apart, by function they are one', () => {
  const snap = () => {
    const s = snapshot([site(1, [0, 1], 8192, 2), site(2, [4, 1], 4096, 1)],
      {liveBytes: 12288, liveBlocks: 3, requestedLiveBytes: 12288, allocatorRoundingBytes: 0});
    s.frames.push({name: 'leak_memory', file: 'app.c', line: 44, module: 'app.wasm'}); // 4: the next line
    return s;
  };
  assert.deepEqual(leakReport(snap()).stacks.map((x) => [x.frames[0], x.liveBytes, x.callSites]),
    [['leak_memory app.c:42', 8192, 1], ['leak_memory app.c:44', 4096, 1]]);
  assert.deepEqual(leakReport(snap(), 'function').stacks.map((x) => [x.frames[0], x.liveBytes, x.callSites]),
    [['leak_memory app.c', 12288, 2]]);
  assert.deepEqual(leakReport(snap(), 'site').stacks.map((x) => x.liveBytes), [8192, 4096]);
});
