// snapshot.test.js -- completing the frames of a snapshot taken before the
// module's debug info arrived (jslib/snapshot.js completeFrames; the page
// does this when Ctrl+Shift+H comes early, tests/browser.test.js).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {completeFrames} = require('../jslib/snapshot');

const info = {
  functionName: (i) => ({7: 'leak_memory', 9: 'main'})[i] || null,
  sourceLines: {lookup: (offset) => (offset === 0x1fb ? {file: 'leaky.c', line: 34} : null)},
};

test('placeholder wasm names get the real name; wasm offsets get file and line', () => {
  const snap = {sites: [{id: 1, stack: [0, 1]}], frames: [
    {name: 'wasm-function[7]', module: 'app.wasm', funcIndex: 7, offset: 0x1fb},
    {name: 'wasm-function[9]', module: 'app.wasm', funcIndex: 9}, // a shadow frame: no offset
  ]};
  completeFrames(snap, info);
  assert.deepEqual(snap.frames, [
    {name: 'leak_memory', module: 'app.wasm', funcIndex: 7, offset: 0x1fb, file: 'leaky.c', line: 34},
    {name: 'main', module: 'app.wasm', funcIndex: 9},
  ]);
  assert.deepEqual(snap.sites, [{id: 1, stack: [0, 1]}], 'sites untouched');
});

test('frames that already have names or lines, JS frames and unknown functions are kept', () => {
  const frames = [
    {name: 'draw', module: 'app.wasm', funcIndex: 7, offset: 0x1fb, file: 'game.c', line: 3},
    {name: 'onclick', file: 'http://h/', line: 1, col: 8},
    {name: 'wasm-function[12]', module: 'app.wasm', funcIndex: 12, offset: 0x10},
    {name: '(stack truncated)', url: '', wasm: false},
  ];
  const snap = completeFrames({sites: [], frames: frames.map((f) => ({...f}))}, info);
  assert.deepEqual(snap.frames, frames);
  // no debug info at all: nothing changes
  assert.deepEqual(completeFrames({sites: [], frames: frames.map((f) => ({...f}))}, {}).frames, frames);
});

// A runtime state in a plain buffer (jslib/layout.js offsets): the given
// sites, JS stack references as the runtime stores them.
function stateWithSites(sites) {
  const layout = require('../jslib/layout');
  const buffer = new ArrayBuffer(65536);
  const view = new DataView(buffer);
  const ptr = 1024;
  const S = layout.STATE;
  view.setUint32(ptr + S.magic, layout.MAGIC, true);
  view.setUint32(ptr + S.layoutVersion, layout.LAYOUT_VERSION, true);
  view.setUint32(ptr + S.mode, layout.MODE_EXACT, true);
  view.setUint32(ptr + S.counters + 96, sites.length, true); // siteCount
  const table = 8192;
  view.setUint32(ptr + S.sites, table, true);
  sites.forEach((s, i) => {
    const at = table + i * layout.SITE_SIZE;
    view.setFloat64(at + 8, s.liveBytes, true);
    view.setFloat64(at + 16, s.liveBytes, true);
    view.setFloat64(at + 24, s.liveBytes, true);
    view.setFloat64(at + 32, s.liveBlocks, true);
    view.setFloat64(at + 40, s.liveBlocks, true);
    view.setUint32(at + 48, s.ref ? layout.STACK_JS : 0, true);
    view.setUint32(at + 52, s.ref || 0, true);
  });
  return {buffer, ptr};
}

test('JS sites whose raw stacks clean to the same frames are one site; others stay apart', () => {
  const {buildSnapshot} = require('../jslib/snapshot');
  const {StackTable} = require('../jslib/stack_table');
  const stacks = new StackTable('x.wasm');
  // Pure JS under node: no wasm frame, so both clean to the same (empty)
  // stack although their raw stacks differ.
  const fromA = (function a() { return stacks.capture(); })();
  const fromB = (function b() { return stacks.capture(); })();
  assert.notEqual(fromA, fromB, 'two raw stacks, two references');
  assert.equal(stacks.resolve(fromA), stacks.resolve(fromB), 'one stack once cleaned');
  assert.equal(stacks.resolve(0), 0, 'reference 0: no stack');
  assert.equal(stacks.resolve(1e6), 0, 'a reference this table never made: no stack');
  const {buffer, ptr} = stateWithSites([
    {liveBytes: 0, liveBlocks: 0}, // site 0, unattributed, never used
    {ref: fromA, liveBytes: 100, liveBlocks: 1},
    {ref: fromB, liveBytes: 50, liveBlocks: 2},
    {ref: 1e6, liveBytes: 7, liveBlocks: 1}, // unknown reference: unattributed
  ]);
  const snap = buildSnapshot(buffer, ptr, stacks, {source: '', preRunDone: true});
  assert.equal(snap.sites.length, 2);
  assert.deepEqual(snap.sites.map((s) => [s.id, s.liveBytes, s.liveBlocks, s.totalBytes]), [[1, 150, 3, 150], [3, 7, 1, 7]]);
  assert.equal(snap.sites[1].key, '(unattributed)');
});
