// snapshot.test.js -- completing the frames of a snapshot taken before the
// module's debug info arrived (jslib/snapshot.js completeFrames; the page
// does this when Ctrl+Shift+H comes early, tests/browser.test.js).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {completeFrames} = require('../jslib/snapshot');

const info = {
  functionName: (i) => ({7: 'leak_memory', 9: 'main'})[i] || null,
  sourceMap: {lookup: (offset) => (offset === 0x1fb ? {file: 'leaky.c', line: 34} : null)},
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
