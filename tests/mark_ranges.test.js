// mark_ranges.test.js -- what capture/mark_ranges.js records at marks, over
// a runtime state laid out as the runtime lays it out: the live blocks by
// the kept mark they came after, summed in arrays per mark or, past their
// memory budget, in a Map, to the same numbers.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const layout = require('../capture/layout');
const markLog = require('../capture/mark_log');
const {createMarkRanges} = require('../capture/mark_ranges');
const {placeSites, placeBlocks} = require('../harness/fake_sites');

const PTR = 1024;
const SITES = 300;

// 3 marks, at block serials 100, 200, 300; blocks 1..300 at site serial % 7
// (+ 1), of serial bytes each. -> the mark ranges' read().
function marksOver(ranges) {
  const view = new DataView(new ArrayBuffer(4 << 20));
  view.setUint32(PTR + layout.STATE.counters + layout.COUNTER.site_count, SITES, true); // site count
  placeSites(view, PTR, SITES, 65536);
  const blocks = [];
  for (let serial = 1; serial <= 300; serial++) blocks.push({addr: 1 << 20 | serial * 16, site: serial % 7 + 1, size: serial, serial});
  for (const [number, serial] of [[1, 100], [2, 200], [3, 300]]) {
    placeBlocks(view, PTR, blocks.slice(0, serial), 2 << 20); // the blocks made so far
    view.setUint32(PTR + layout.STATE.block_serial, serial, true);
    markLog.writeMark(view, PTR, new TextEncoder().encode(`m${number}`), number * 1000);
    ranges.atMark(view, PTR, number);
  }
  return ranges.read();
}

// What each site's blocks made after mark `after` and by mark `at` hold.
function expected(site, after, at) {
  let bytes = 0;
  let count = 0;
  for (let serial = after * 100 + 1; serial <= after * 100 + 100 && serial <= at * 100; serial++) {
    if (serial % 7 + 1 === site) { bytes += serial; count++; }
  }
  return [bytes, count];
}

test('the live blocks by the mark they came after, in arrays per mark and in the Map past their budget, alike', () => {
  const dense = marksOver(createMarkRanges());
  const mapped = marksOver(createMarkRanges(16, 0)); // no arrays: all in the Map
  const some = marksOver(createMarkRanges(16, 8 * SITES)); // one mark's arrays, the other's in the Map
  assert.deepEqual(dense.marks, [1, 2, 3]);
  for (let site = 1; site <= 7; site++) {
    const rows = dense.bySite.get(site).after;
    // at mark 3: blocks after mark 1 (101-200) and after mark 2 (201-300)
    assert.deepEqual(rows.slice(-8), [3, 1, ...expected(site, 1, 3), 3, 2, ...expected(site, 2, 3)], `site ${site}`);
    // at mark 2: the blocks after mark 1
    assert.deepEqual(rows.slice(0, 4), [2, 1, ...expected(site, 1, 2)], `site ${site}`);
    assert.deepEqual(mapped.bySite.get(site).after, rows, `site ${site}, Map`);
    assert.deepEqual(some.bySite.get(site).after, rows, `site ${site}, arrays and Map`);
  }
});
