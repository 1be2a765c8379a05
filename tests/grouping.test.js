// grouping.test.js -- model/grouping.js and model/merge_sites.js on
// hand-made snapshots: the call sites of one function (or line) become one
// site that holds all they held, whatever each view reads of it.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { groupSnapshot } = require('../model/grouping');
const { incompleteNote, growingSites } = require('../model/growing');
const { makeSnapshot, site } = require('./lib/fixtures');

// grow_list called twice from main through two call sites each (an
// unrolled loop), cache_put once; frames of one function at four offsets.
function unrolled() {
  const s = makeSnapshot();
  s.frames = [
    { name: 'grow_list', file: 'app.c', line: 10, funcIndex: 5, offset: 0x100 }, // 0
    { name: 'grow_list', file: 'app.c', line: 10, funcIndex: 5, offset: 0x120 }, // 1: same line, unrolled
    { name: 'grow_list', file: 'app.c', line: 11, funcIndex: 5, offset: 0x140 }, // 2: next line
    { name: 'main', file: 'app.c', line: 30, funcIndex: 9, offset: 0x900 },      // 3
    { name: 'main', file: 'app.c', line: 31, funcIndex: 9, offset: 0x920 },      // 4: main's second call
    { name: 'cache_put', file: 'cache.c', line: 5, funcIndex: 6, offset: 0x200 }, // 5
    { name: 'grow_list', file: 'other.c', line: 3, funcIndex: 7, offset: 0x300 }, // 6: a static namesake
  ];
  const withMarks = (x, rows) => Object.assign(x, { liveByMark: rows });
  s.sites = [
    withMarks(site(1, 'grow_list+0x100', [0, 3], 4000, 4), [0, 1000, 1, 0, 1, 3000, 3, 0]),
    withMarks(site(2, 'grow_list+0x120', [1, 3], 3000, 3), [1, 3000, 3, 0]),
    withMarks(site(3, 'grow_list+0x140', [2, 4], 2000, 2), [0, 2000, 2, 0]),
    withMarks(site(4, 'cache_put+0x200', [5, 3], 1500, 3), [0, 500, 1, 0, 1, 1000, 2, 0]),
    withMarks(site(5, 'grow_list+0x300', [6, 3], 700, 1), [1, 700, 1, 0]),
    site(0, '', [], 100, 1),
  ];
  s.heapGrowth = [{ fromBytes: 1, toBytes: 2, siteId: 2 }, { fromBytes: 2, toBytes: 3, siteId: 4 }];
  s.timeline = [0, 1, 2].map((t) => ({ t, liveBytes: 0, liveBlocks: 0, totalBytes: 0 }));
  s.siteTimeline = { series: [
    { siteId: 1, from: 0, liveBytes: [1000, 2000, 4000] },
    { siteId: 2, from: 0, liveBytes: [0, 1000, 3000] },
    { siteId: 3, from: 0, liveBytes: [0, 0, 2000] },
    { siteId: 4, from: 0, liveBytes: [500, 1000, 1500] },
  ] };
  s.outOfMemory = { how: 'null', requestedBytes: 9, stack: [1, 3] };
  return s;
}

const names = (g, x) => x.stack.map((i) => g.frames[i].name + (g.frames[i].line !== undefined ? ':' + g.frames[i].line : ''));

test('by function: one row per chain of functions, its counters, marks and call sites summed', () => {
  const g = groupSnapshot(unrolled(), 'function');
  assert.equal(g.groupedBy, 'function');
  const rows = g.sites.map((x) => [x.key, names(g, x).join('<'), x.liveBytes, x.liveBlocks, x.parts || 1]);
  assert.deepEqual(rows, [
    ['grow_list', 'grow_list<main', 9000, 9, 3], // the three call sites of app.c's grow_list
    ['cache_put', 'cache_put<main', 1500, 3, 1],
    ['grow_list', 'grow_list<main', 700, 1, 1], // other.c's: another function of the same name
    ['', '', 100, 1, 1],
  ]);
  const grow = g.sites[0];
  assert.equal(grow.id, 1, 'a group keeps the id of its largest site');
  assert.equal(grow.totalAllocs, (4 + 2) + (3 + 2) + (2 + 2));
  assert.deepEqual(grow.liveByMark, [0, 3000, 3, 0, 1, 6000, 6, 0]);
  // frames: the function (and its file), not the call site
  assert.deepEqual(g.frames[grow.stack[0]], { name: 'grow_list', file: 'app.c' });
  // what points at sites follows the group
  assert.deepEqual(g.heapGrowth.map((x) => x.siteId), [1, 4]);
  assert.deepEqual(g.outOfMemory.stack.map((i) => g.frames[i].name), ['grow_list', 'main']);
});

test('functionChain: sites of one chain are exactly the sites a view by function makes one row', () => {
  const { functionChain } = require('../model/grouping');
  const s = unrolled();
  const chainOf = (x) => functionChain(x.stack, (i) => s.frames[i]);
  const [one, two, three, cache, namesake] = s.sites;
  assert.equal(chainOf(one), chainOf(two), 'one line unrolled');
  assert.equal(chainOf(one), chainOf(three), 'another line of the same functions');
  assert.notEqual(chainOf(one), chainOf(namesake), 'a static function of the same name in another file');
  assert.notEqual(chainOf(one), chainOf(cache));
  const withStacks = s.sites.filter((x) => x.stack.length);
  const g = groupSnapshot(s, 'function');
  assert.equal(new Set(withStacks.map(chainOf)).size, g.sites.filter((x) => x.stack.length).length);
  // a direct recursion folded into the frame is another chain, as it is another row
  const folded = { ...s.frames[0], recursive: true };
  assert.notEqual(functionChain([0], (i) => s.frames[i]), functionChain([0], () => folded));
  assert.equal(functionChain([], (i) => s.frames[i]), '');
});

test('by line: the unrolled call sites of one line are one row, the next line another', () => {
  const g = groupSnapshot(unrolled(), 'line');
  const rows = g.sites.map((x) => [x.key, names(g, x).join('<'), x.liveBytes, x.parts || 1]);
  assert.deepEqual(rows, [
    ['grow_list app.c:10', 'grow_list:10<main:30', 7000, 2],
    ['grow_list app.c:11', 'grow_list:11<main:31', 2000, 1],
    ['cache_put cache.c:5', 'cache_put:5<main:30', 1500, 1],
    ['grow_list other.c:3', 'grow_list:3<main:30', 700, 1],
    ['', '', 100, 1],
  ]);
});

test('a group keeps a series only where every one of its sites was followed', () => {
  const g = groupSnapshot(unrolled(), 'function');
  // grow_list (app.c): sites 1, 2 and 3 all followed: their sum, point by point
  const grow = g.siteTimeline.series.find((x) => x.siteId === 1);
  assert.deepEqual(grow.liveBytes, [1000, 3000, 9000]);
  assert.equal(g.siteTimeline.incomplete, undefined);
  const byLine = groupSnapshot(unrolled(), 'line');
  assert.deepEqual(byLine.siteTimeline.series.find((x) => x.siteId === 1).liveBytes, [1000, 3000, 7000]);
  // one site of the group not followed: no series for it, and said
  const partial = unrolled();
  partial.siteTimeline.series = partial.siteTimeline.series.filter((x) => x.siteId !== 3);
  const p = groupSnapshot(partial, 'function');
  assert.equal(p.siteTimeline.series.find((x) => x.siteId === 1), undefined);
  assert.equal(p.siteTimeline.incomplete, 1);
  assert.ok(p.siteTimeline.series.find((x) => x.siteId === 4), 'cache_put, followed whole, keeps its series');
});

test('a series the timeline followed for a chain of functions (its call sites summed) is that group\'s, whole or not at all', () => {
  const s = unrolled();
  s.siteTimeline.series = [
    { siteIds: [1, 2, 3], from: 0, liveBytes: [1000, 3000, 9000] }, // the runtime's group of grow_list<main
    { siteId: 4, from: 0, liveBytes: [500, 1000, 1500] },
  ];
  const g = groupSnapshot(s, 'function');
  assert.deepEqual(g.siteTimeline.series.find((x) => x.siteId === 1), { siteId: 1, from: 0, liveBytes: [1000, 3000, 9000] });
  assert.equal(g.siteTimeline.incomplete, undefined);
  // by line, sites 1 and 2 (line 10) and 3 (line 11) are two groups: the sum
  // is neither's, and both say they have none
  const byLine = groupSnapshot(s, 'line');
  assert.deepEqual(byLine.siteTimeline.series.map((x) => x.siteId), [4]);
  assert.equal(byLine.siteTimeline.together, 2);
  assert.equal(incompleteNote(byLine), '2 lines were followed only summed with others of the same chain of functions: --by function shows that series');
  // a part not followed: the group has no series, and says so
  const partial = unrolled();
  partial.siteTimeline.series = [{ siteIds: [1, 2], from: 0, liveBytes: [1000, 3000, 7000] }];
  const p = groupSnapshot(partial, 'function');
  assert.deepEqual(p.siteTimeline.series, []);
  assert.match(incompleteNote(p), /^1 function has no series: the timeline follows the call sites of one chain of functions together/);
  // by site: no one site's series either
  const bySite = groupSnapshot(s, 'site');
  assert.deepEqual(bySite.siteTimeline.series.map((x) => x.siteId), [4]);
  assert.equal(bySite.siteTimeline.together, 3);
  assert.match(incompleteNote(bySite), /^3 sites were followed only summed with others of the same chain of functions: --by function/);
  assert.deepEqual(growingSites(bySite).map((r) => r.siteId), [4]);
});

test('by site: the snapshot as it is; an unknown grouping is refused', () => {
  const s = unrolled();
  assert.equal(groupSnapshot(s, 'site'), s);
  assert.throws(() => groupSnapshot(s, 'file'), /unknown grouping "file": use function, line, site/);
});

test('by line, an inferred line (no row of its own: model/frame_names.js) is marked ~ until a call on that line has a row', () => {
  const { frameText } = require('../model/names');
  const s = unrolled();
  s.frames[0] = Object.assign({}, s.frames[0], { lineInferred: true });
  s.frames[1] = Object.assign({}, s.frames[1], { lineInferred: true });
  const g = groupSnapshot(s, 'line');
  const row = g.sites.find((x) => /^grow_list app\.c:~?10$/.test(x.key));
  assert.equal(row.key, 'grow_list app.c:~10');
  assert.equal(frameText(g.frames[row.stack[0]]), 'grow_list app.c:~10');
  // one of line 10's calls with a row of its own: the line is known
  const known = unrolled();
  known.frames[0] = Object.assign({}, known.frames[0], { lineInferred: true });
  const k = groupSnapshot(known, 'line');
  assert.equal(k.sites.find((x) => /^grow_list app\.c:~?10$/.test(x.key)).key, 'grow_list app.c:10');
});
