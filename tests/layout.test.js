// layout.test.js -- the JS reader of the runtime state refuses memory it
// does not understand, with a message that says what to do.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const layout = require('../jslib/layout');
const {buildSnapshot} = require('../jslib/snapshot');
const {StackTable} = require('../jslib/stack_table');

function fakeState(magic, version) {
  const buffer = new ArrayBuffer(65536);
  const view = new DataView(buffer);
  view.setUint32(1024, magic, true);
  view.setUint32(1028, version, true);
  return {buffer, view, ptr: 1024};
}

test('a state of another layout version is refused with a readable message', () => {
  const {view, ptr} = fakeState(0x50484d45, layout.LAYOUT_VERSION + 1);
  assert.throws(() => layout.checkState(view, ptr),
    new RegExp(`runtime uses memory layout ${layout.LAYOUT_VERSION + 1} but this JS library reads layout ${layout.LAYOUT_VERSION}; rebuild`));
});

test('memory that is not an emheap state is refused', () => {
  const {view, ptr} = fakeState(0x12345678, 1);
  assert.throws(() => layout.checkState(view, ptr), /not initialized/);
});

test('no state yet (nothing allocated): an empty snapshot, not an error', () => {
  const snap = buildSnapshot(new ArrayBuffer(65536), 0, new StackTable('x.wasm'), {source: '', preRunDone: false});
  assert.equal(snap.sites.length, 0);
  assert.equal(snap.summary.liveBytes, 0);
  assert.equal(snap.summary.heapSize, 65536);
});
