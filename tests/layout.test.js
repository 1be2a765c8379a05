// layout.test.js -- the JS reader of the runtime state refuses memory it
// does not understand, with a message that says what to do, and reads the
// site table's chunks wherever they are.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const layout = require('../capture/layout');
const blockCopy = require('../capture/block_copy');
const lock = require('../capture/lock');
const {buildSnapshot} = require('../capture/raw_snapshot');
const {StackTable} = require('../capture/stack_table');
const {placeSites, placeBlocks} = require('../harness/fake_sites');

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

test('sites in chunks anywhere in memory read the same in place and copied end to end', () => {
  const count = 600; // chunks 0 (0-255), 1 (256-511) and 2 (512-1023)
  const buffer = new ArrayBuffer(1 << 20);
  const view = new DataView(buffer);
  const ptr = 1024;
  view.setUint32(ptr, layout.MAGIC, true);
  view.setUint32(ptr + 4, layout.LAYOUT_VERSION, true);
  view.setUint32(ptr + layout.STATE.counters + layout.COUNTER.site_count, count, true); // siteCount
  // chunk 2 lowest, chunk 0 highest: the runtime's chunks come from the
  // allocator, in no order
  const chunkAt = (k) => [600000, 400000, 100000][k];
  const siteAt = placeSites(view, ptr, count, 0, chunkAt);
  for (let s = 0; s < count; s++) {
    view.setFloat64(siteAt(s) + 8, 1000 + s, true); // live bytes
    view.setFloat64(siteAt(s) + 16, 2000 + s, true); // total bytes
    view.setFloat64(siteAt(s) + 32, 3 + s, true); // total blocks
  }
  const inPlace = layout.siteTablesInPlace(view, ptr);
  const copy = layout.copySiteTables(view, ptr, count);
  assert.equal(inPlace.count, count);
  assert.equal(copy.count, count);
  assert.equal(copy.sites.byteLength, count * layout.SITE_SIZE);
  for (const s of [0, 1, 255, 256, 511, 512, 599]) {
    assert.equal(layout.siteRawLiveBytes(inPlace, s), 1000 + s, `site ${s} in place`);
    assert.equal(layout.siteRawLiveBytes(copy, s), 1000 + s, `site ${s} copied`);
    assert.equal(copy.sites.getFloat64(s * layout.SITE_SIZE + layout.SITE.live_bytes, true), 1000 + s, `site ${s} at s * SITE_SIZE`);
    assert.equal(layout.siteRawTotals(copy, s, 0), 2000 + s);
    assert.equal(layout.readSite(inPlace, s, null).totalAllocs, 3 + s);
    assert.equal(layout.readSite(copy, s, null).totalBytes, 2000 + s);
  }
});

test('no site table (it could not be made): no sites, in place or copied', () => {
  const {view, ptr} = fakeState(0x50484d45, layout.LAYOUT_VERSION);
  view.setUint32(ptr + layout.STATE.counters + layout.COUNTER.site_count, 1, true);
  assert.equal(layout.siteTablesInPlace(view, ptr).count, 0);
  assert.equal(layout.copySiteTables(view, ptr, 1).count, 0);
});

test('the live blocks copied whole, or only those made after a serial (in arrays that grow)', () => {
  // 10 regions of 1,000 blocks each
  const buffer = new ArrayBuffer(1 << 20);
  const view = new DataView(buffer);
  const ptr = 1024;
  const perRegion = 1000;
  const blocks = [];
  for (let r = 0; r < 10; r++) {
    for (let i = 0; i < perRegion; i++) blocks.push({addr: r * 4096 + i * 4, site: i % 7, size: 16 + i % 5, serial: r * perRegion + i + 1});
  }
  placeBlocks(view, ptr, blocks, 32768);
  const all = blockCopy.copyBlocks(view, ptr, null, false);
  assert.equal(all.addr.length, 10000);
  assert.deepEqual([all.addr[1001], all.site[1001], all.size[1001], all.serial[1001]], [4096 + 4, 1, 17, 1002]);
  const after = blockCopy.copyBlocks(view, ptr, null, false, 5000);
  assert.equal(after.serial.length, 5000, 'the 5,000 made after serial 5,000, past the first 4,096 of room');
  for (let k = 0; k < after.serial.length; k++) {
    const serial = after.serial[k];
    const i = (serial - 1) % perRegion;
    assert.equal(serial, 5001 + k);
    assert.equal(after.addr[k], Math.floor((serial - 1) / perRegion) * 4096 + i * 4);
    assert.equal(after.site[k], i % 7);
    assert.equal(after.size[k], 16 + i % 5);
  }
  assert.equal(blockCopy.copyBlocks(view, ptr, null, false, 10000).serial.length, 0, 'none after the last');
});

// withLock on shared memory (a threaded program): the allocator's mutex is
// taken inside the runtime's lock and let go before it; from inside the
// allocator (an out-of-memory report, capture/out_of_memory_moment.js) it is not
// taken again, and a lock another thread keeps is waited for 1 s, then
// refused with a reason instead of a hang.
test('withLock holds the allocator inside the lock, and from inside the allocator waits a bounded time', () => {
  const buffer = new SharedArrayBuffer(65536);
  const ptr = 1024;
  const word = new Int32Array(buffer, ptr + layout.STATE.lock, 1);
  const calls = [];
  lock.holdAllocatorWith((hold) => calls.push([hold, Atomics.load(word, 0)]));
  try {
    assert.equal(lock.withLock(buffer, ptr, () => 'read'), 'read');
    assert.deepEqual(calls, [[1, 1], [0, 1]], 'held and let go while the lock word is held');
    assert.equal(Atomics.load(word, 0), 0, 'the lock let go');
    calls.length = 0;
    assert.equal(lock.whileAllocatorHeld(() => lock.withLock(buffer, ptr, () => 'inside')), 'inside');
    assert.deepEqual(calls, [], 'not taken again from inside the allocator');
    Atomics.store(word, 0, 1); // another thread keeps the lock
    const started = Date.now();
    assert.throws(() => lock.whileAllocatorHeld(() => lock.withLock(buffer, ptr, () => 'never')),
      /lock stayed held for 1 s by a thread that waits for the allocator, which this one holds: not read/);
    const waited = Date.now() - started;
    assert.ok(waited >= 1000 && waited < 5000, `${waited} ms`);
    assert.equal(Atomics.load(word, 0), 1, 'the other thread\'s lock left as it was');
  } finally {
    lock.holdAllocatorWith(null);
  }
});
