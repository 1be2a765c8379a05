// diff.test.js -- model/diff.js without emcc: two hand-made snapshots of one
// session compared site by site (DevTools' Comparison columns, matching by
// key and by stack, sites only on one side, the heap graph's block changes,
// sort orders, totals, the notes on snapshots that do not compare well).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { diffSnapshots, sortDiffRows, diffReport, DIFF_SORTS, DIFF_COLUMNS, COLUMNS } = require('../model/diff');
const { summary } = require('./lib/fixtures');

// rows: [id, stack ('name+0xOFF', leaf first), liveBytes, liveBlocks, totalAllocs, totalBytes];
// the key is the leaf frame's; the summary is the sites' sum.
function snapshot(rows, over = {}) {
  const frames = [];
  const index = new Map();
  const frame = (text) => {
    if (!index.has(text)) {
      const [name, off] = text.split('+0x');
      index.set(text, frames.length);
      frames.push({ name, offset: parseInt(off, 16), module: 'app.wasm' });
    }
    return index.get(text);
  };
  const sites = rows.map(([id, stack, liveBytes, liveBlocks, totalAllocs, totalBytes]) => ({
    id, key: stack.length ? stack[0] : '', stack: stack.map(frame), liveBytes, liveBlocks, totalAllocs, totalBytes, peakLiveBytes: liveBytes,
  }));
  const sum = (k) => sites.reduce((t, s) => t + s[k], 0);
  return Object.assign({
    format: 'emheap-snapshot', version: 1, capturedAt: '2026-11-22T03:00:01.000Z', source: 'http://localhost:8000/',
    mode: 'exact', samplingInterval: 0, frames, sites, heapGrowth: [],
    summary: summary({ liveBytes: sum('liveBytes'), liveBlocks: sum('liveBlocks'), totalBytes: sum('totalBytes'),
      mallocCalls: sum('totalAllocs'), freeCalls: sum('totalAllocs') - sum('liveBlocks'), siteCount: sites.length }),
  }, over);
}

const MAIN = 'main+0x5';
// grow+0x20 is one call site reached through two callers: its key collides.
const before = (extra = []) => snapshot([
  [1, ['leak+0x10', MAIN], 100, 1, 1, 100],
  [2, ['grow+0x20', 'caller_a+0x1', MAIN], 50, 1, 3, 150],
  [3, ['grow+0x20', 'caller_b+0x2', MAIN], 0, 0, 1, 40],
  [5, ['steady+0x40', MAIN], 10, 1, 1, 10],
  [0, [], 5, 1, 2, 12],
  ...extra,
]);
// the same session later; other site ids on purpose (matching must not use them)
const after = () => snapshot([
  [21, ['leak+0x10', MAIN], 400, 6, 7, 500],
  [22, ['grow+0x20', 'caller_a+0x1', MAIN], 20, 1, 4, 170],
  [23, ['grow+0x20', 'caller_b+0x2', MAIN], 60, 2, 3, 100],
  [25, ['steady+0x40', MAIN], 10, 1, 1, 10],
  [26, ['fresh+0x50', MAIN], 8, 1, 1, 8],
  [0, [], 5, 1, 3, 17],
], { capturedAt: '2026-11-22T03:00:05.000Z' });

const pick = (row) => Object.fromEntries(COLUMNS.map((c) => [c, row[c]]));
const rowOf = (d, key, caller) => d.rows.find((r) => r.key === key && (!caller || r.stack[1] === caller));

test('the DevTools columns, from the counters as the header of diff.js defines them', () => {
  const d = diffSnapshots(before(), after());
  // leak: 7-1 = 6 made; 1+6-6 = 1 freed; 6-1 = 5 more live; 500-100 = 400 bytes made;
  // 100+400-400 = 100 bytes freed; 400-100 = 300 more live bytes
  assert.deepEqual(pick(rowOf(d, 'leak+0x10')), { newAllocs: 6, freedBlocks: 1, countDelta: 5, allocBytes: 400, freedBytes: 100, sizeDelta: 300 });
  // grow via caller_a: 4-3 = 1 made, 1+1-1 = 1 freed, 0; 170-150 = 20 made, 50+20-20 = 50 freed, 20-50 = -30
  assert.deepEqual(pick(rowOf(d, 'grow+0x20', 'caller_a')), { newAllocs: 1, freedBlocks: 1, countDelta: 0, allocBytes: 20, freedBytes: 50, sizeDelta: -30 });
  // grow via caller_b: 3-1 = 2 made, 0+2-2 = 0 freed, +2; 100-40 = 60 made, 0+60-60 = 0 freed, +60
  assert.deepEqual(pick(rowOf(d, 'grow+0x20', 'caller_b')), { newAllocs: 2, freedBlocks: 0, countDelta: 2, allocBytes: 60, freedBytes: 0, sizeDelta: 60 });
  // site 0: one block of 5 bytes made and one freed: the live numbers do not move, the row is still shown
  assert.deepEqual(pick(rowOf(d, '')), { newAllocs: 1, freedBlocks: 1, countDelta: 0, allocBytes: 5, freedBytes: 5, sizeDelta: 0 });
  assert.equal(rowOf(d, 'steady+0x40'), undefined, 'a site whose counters did not change is left out');
  assert.equal(d.rows.length, 5);
});

test('matching: by key where it is unique, by full stack where it collides (site 0 always), one side only', () => {
  const d = diffSnapshots(before(), after());
  const how = (r) => [r.key, r.matchedBy, r.status];
  assert.deepEqual(how(rowOf(d, 'leak+0x10')), ['leak+0x10', 'key', 'both']);
  assert.deepEqual(how(rowOf(d, 'grow+0x20', 'caller_a')), ['grow+0x20', 'stack', 'both']);
  assert.deepEqual(how(rowOf(d, 'grow+0x20', 'caller_b')), ['grow+0x20', 'stack', 'both']);
  assert.deepEqual([rowOf(d, '').matchedBy, rowOf(d, '').label], ['stack', '(unattributed)']);
  // only in AFTER: everything it has is new
  const fresh = rowOf(d, 'fresh+0x50');
  assert.equal(fresh.status, 'new');
  assert.deepEqual(pick(fresh), { newAllocs: 1, freedBlocks: 0, countDelta: 1, allocBytes: 8, freedBytes: 0, sizeDelta: 8 });
  assert.deepEqual(fresh.before, { liveBytes: 0, liveBlocks: 0, totalAllocs: 0, totalBytes: 0 });
  // only in BEFORE (two sessions, or a file edited): its AFTER counters are zero, so the
  // columns are the same formulas with after = 0: # New = -totalAllocs, # Deleted = 1 + (-1) - 0 = 0
  const gone = rowOf(diffSnapshots(before([[4, ['old+0x30', MAIN], 30, 1, 1, 30]]), after()), 'old+0x30');
  assert.equal(gone.status, 'gone');
  assert.deepEqual(pick(gone), { newAllocs: -1, freedBlocks: 0, countDelta: -1, allocBytes: -30, freedBytes: 0, sizeDelta: -30 });
  assert.deepEqual(gone.stack, ['old', 'main']);
});

test('a unique key is matched whatever its stack; sites of one key and one stack of names are added together', () => {
  const b = before();
  const a = after();
  // AFTER reaches leak+0x10 from elsewhere: its key is still unique, so it is the same row, shown with AFTER's stack
  a.frames.push({ name: 'on_click', offset: 0x9 });
  a.sites[0].stack = [a.sites[0].stack[0], a.frames.length - 1];
  const leak = diffSnapshots(b, a).rows.filter((r) => r.key === 'leak+0x10');
  assert.deepEqual(leak.map((r) => [r.status, r.matchedBy, r.stack.join('<')]), [['both', 'key', 'leak<on_click']]);
  // caller_a calling grow at a second offset: another stack of frames, the same names: one identity
  const a2 = after();
  a2.frames.push({ name: 'caller_a', offset: 0x3 });
  a2.sites.push({ id: 27, key: 'grow+0x20', stack: [a2.sites[1].stack[0], a2.frames.length - 1, a2.sites[1].stack[2]],
    liveBytes: 70, liveBlocks: 7, totalAllocs: 9, totalBytes: 90, peakLiveBytes: 70 });
  const row = rowOf(diffSnapshots(b, a2), 'grow+0x20', 'caller_a');
  // AFTER's two sites summed: 20+70 live bytes, 1+7 blocks, 4+9 allocations, 170+90 bytes
  assert.deepEqual(row.after, { liveBytes: 90, liveBlocks: 8, totalAllocs: 13, totalBytes: 260 });
  assert.equal(row.sizeDelta, 90 - 50);
  assert.equal(diffSnapshots(b, a2).rows.filter((r) => r.key === 'grow+0x20').length, 2);
});

test('totals: the global counters of each side and their delta; sum: the rows\' columns added', () => {
  const b = before();
  const a = after();
  a.summary.callocCalls = 3; // allocCalls counts malloc, calloc, realloc and memalign calls
  const d = diffSnapshots(b, a);
  assert.deepEqual(d.totals.liveBytes, { before: 165, after: 503, delta: 338 }); // 100+50+0+10+5, 400+20+60+10+8+5
  // mallocCalls are the sites' totalAllocs: 1+3+1+1+2 and 7+4+3+1+1+3, plus AFTER's 3 callocs
  assert.deepEqual(d.totals.allocCalls, { before: 8, after: 19 + 3, delta: 14 });
  assert.deepEqual(d.totals.sites, { before: 5, after: 6, delta: 1 });
  // every changed site is a row and the summaries are the sites' sums: the rows add up to the deltas
  assert.equal(d.sum.sizeDelta, d.totals.liveBytes.delta);
  assert.equal(d.sum.countDelta, d.totals.liveBlocks.delta);
  assert.equal(d.sum.allocBytes, d.totals.totalBytes.delta);
  assert.equal(d.blocks, null, 'no heap graph on either side: no block changes');
  assert.deepEqual(d.notes, []);
});

test('with heap graphs on both sides, blocks are matched by id and charged to the rows', () => {
  const b = before();
  const a = after();
  // BEFORE: leak 1 block (id 1), grow_a 1 (id 3), steady 1 (id 7, kept), site 0 1 (id 9)
  b.heap = { blocks: { id: [1, 3, 7, 9], address: [100, 200, 300, 400], size: [100, 50, 10, 5], site: [1, 2, 5, 0] } };
  // AFTER: steady's id 7 stays; leak's 6 new blocks (400 bytes), grow_a 1, grow_b 2, fresh 1, site 0 1
  a.heap = { blocks: {
    id: [7, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31],
    address: [300, 1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900, 2000],
    size: [10, 50, 100, 70, 100, 30, 50, 20, 30, 30, 8, 5],
    site: [25, 21, 21, 21, 21, 21, 21, 22, 23, 23, 26, 0],
  } };
  const d = diffSnapshots(b, a);
  // nothing was made and freed in between here, so the block changes are the counter columns
  assert.deepEqual(d.blocks, { new: 11, newBytes: 493, deleted: 3, deletedBytes: 155 });
  assert.equal(d.blocks.new, d.sum.newAllocs);
  assert.equal(d.blocks.deletedBytes, d.sum.freedBytes);
  const leak = rowOf(d, 'leak+0x10').blocks;
  assert.deepEqual([leak.new, leak.newBytes, leak.deleted, leak.deletedBytes], [6, 400, 1, 100]);
  // instances: the largest new ones first (ties by address), at most 5 (diff.js INSTANCES) of each change
  assert.deepEqual(leak.instances.map((x) => [x.change, x.size, x.address]),
    [['new', 100, 1100], ['new', 100, 1300], ['new', 70, 1200], ['new', 50, 1000], ['new', 50, 1500], ['deleted', 100, 100]]);
  assert.equal(rowOf(d, '').blocks.deleted, 1);
  assert.equal(d.rows[0].siteIds, undefined, 'the working site ids are not left on the rows');
  // two runs (no id in common): blocks cannot be matched
  a.heap.blocks.id = a.heap.blocks.id.map((x) => x + 1000);
  assert.equal(diffSnapshots(b, a).blocks, null);
  delete a.heap;
  assert.equal(diffSnapshots(b, a).blocks, null, 'one side only');
});

test('sortDiffRows: each DIFF_SORTS order, with its tie-breakers, stable, not in place', () => {
  assert.deepEqual(Object.keys(DIFF_SORTS).sort(), ['allocs', 'bytes', 'count'], 'a new sort needs a case below');
  const r = (name, sizeDelta, allocBytes, countDelta, newAllocs) => ({ name, sizeDelta, allocBytes, countDelta, newAllocs });
  const rows = [r('a', 100, 10, 1, 12), r('b', 100, 50, 5, 1), r('c', -20, 500, 5, 2), r('d', 300, 0, -1, 2)];
  const expected = {
    bytes: 'dbac', // size delta 300, then a and b tie at 100: allocBytes 50 > 10
    count: 'bcad', // # delta 5 for b and c: size delta 100 > -20 (before # new, where c leads)
    allocs: 'acdb', // # new 12, then c and d tie at 2: allocBytes 500 > 0, then b's 1
  };
  for (const sort of Object.keys(DIFF_SORTS)) {
    assert.equal(sortDiffRows(rows, sort).map((x) => x.name).join(''), expected[sort], sort);
  }
  assert.equal(sortDiffRows(rows).map((x) => x.name).join(''), expected.bytes, 'bytes by default');
  assert.equal(rows.map((x) => x.name).join(''), 'abcd', 'the rows given are not reordered');
  const tied = [r('x', 1, 1, 1, 1), r('y', 1, 1, 1, 1)];
  assert.equal(sortDiffRows(tied, 'count').map((x) => x.name).join(''), 'xy');
});

test('diffReport: the two sides, the sort, the first `top` rows of all the changed ones', () => {
  const b = before();
  const a = after();
  const rep = diffReport(b, a, { sort: 'count', top: 2, files: ['b.json', 'a.json'] });
  assert.deepEqual(rep.before, { file: 'b.json', capturedAt: b.capturedAt, mode: 'exact' });
  assert.deepEqual(rep.after, { file: 'a.json', capturedAt: a.capturedAt, mode: 'exact' });
  assert.equal(rep.sort, 'count');
  assert.equal(rep.changedSites, 5);
  // # delta: leak +5, grow via caller_b +2 (then the others)
  assert.deepEqual(rep.sites.map((x) => [x.key, x.countDelta]), [['leak+0x10', 5], ['grow+0x20', 2]]);
  const all = diffReport(b, a);
  assert.equal(all.sites.length, 5, 'top 0: every row');
  assert.equal('file' in all.before, false);
  // a diff made already is used as it is
  const d = diffSnapshots(b, a);
  d.rows = d.rows.slice(0, 1);
  assert.equal(diffReport(b, a, { diff: d }).changedSites, 1);
});

test('snapshots that do not compare well are still compared, with notes saying why', () => {
  const swapped = diffSnapshots(after(), before());
  // (and only that: its AFTER was captured first too, which this note explains already)
  assert.equal(swapped.notes.length, 1);
  assert.match(swapped.notes[0], /^AFTER has fewer allocations in total than BEFORE/);
  assert.equal(swapped.rows.length, 5);
  const early = after();
  early.capturedAt = '2026-11-22T03:00:00.000Z'; // before BEFORE's 03:00:01, with more allocated
  assert.deepEqual(diffSnapshots(before(), early).notes, ['AFTER was captured before BEFORE: are the files swapped?']);
  const other = after();
  Object.assign(other, { source: 'http://example.test/', mode: 'sampled', samplingInterval: 524288 });
  const notes = diffSnapshots(before(), other).notes;
  assert.ok(notes.includes('the snapshots come from different sources (http://localhost:8000/ and http://example.test/)'), notes.join('\n'));
  assert.ok(notes.includes('the snapshots were taken in different modes (exact and sampled)'), notes.join('\n'));
  // the error at 16 MiB: sqrt(interval / 16 MiB) = sqrt(1/32) = 17.7%
  const pct = Math.round(100 * Math.sqrt(524288 / 16777216));
  assert.ok(notes.some((n) => n.startsWith('sampled blocks:') && n.includes(`+-${pct}% at 16 MiB`)), notes.join('\n'));
  // exact mode that ran out of room (thinned) is sampled too
  const thin = after();
  thin.summary.thinnedAtBytes = 1000;
  assert.equal(diffSnapshots(before(), thin).notes.length, 1);
});

test("the columns are DevTools' six, in its order, titled once for the CLI's table and help and the page's", () => {
  assert.deepEqual(DIFF_COLUMNS.map((c) => c.title), ['# New', '# Deleted', '# Delta', 'Alloc. Size', 'Freed Size', 'Size Delta']);
  assert.deepEqual(COLUMNS, DIFF_COLUMNS.map((c) => c.key));
  const help = require('../cli/emheap').parseArgs(['help', 'diff']).help;
  for (const c of DIFF_COLUMNS) assert.match(help, new RegExp(`^  .*${c.title.replace(/[.#]/g, '\\$&')} +${c.about}`, 'm'), c.title);
});
