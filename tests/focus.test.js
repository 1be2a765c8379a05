// focus.test.js -- model/focus.js (pprof's -focus, -ignore, -hide) and the
// grouping by module, on a snapshot written in the test.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { focusSnapshot, focusNote } = require('../model/focus');
const { groupSnapshot } = require('../model/grouping');
const { makeSnapshot, site } = require('./lib/fixtures');

function game() {
  const s = makeSnapshot();
  s.frames = [
    { name: 'load_texture', file: 'gfx.c', module: 'game.wasm' }, // 0
    { name: 'load_level', file: 'level.c', module: 'game.wasm' }, // 1
    { name: 'pool_alloc', file: 'pool.c', module: 'game.wasm' }, // 2
    { name: 'spawn_enemy', file: 'ai.c', module: 'game.wasm' }, // 3
    { name: 'main', file: 'main.c', module: 'game.wasm' }, // 4
    { name: 'onclick', file: 'page.js', module: 'page.js' }, // 5
  ];
  s.sites = [
    site(1, 'load_texture+0x10', [0, 1, 4], 5000, 5),
    site(2, 'pool_alloc+0x20', [2, 3, 4], 3000, 30),
    site(3, 'pool_alloc+0x24', [2, 1, 4], 1000, 10),
    site(4, 'spawn_enemy+0x30', [3, 5], 700, 7),
  ];
  s.timeline = [0, 1].map((t) => ({ t, liveBytes: 0, liveBlocks: 0, totalBytes: 0 }));
  s.siteTimeline = { series: [{ siteId: 1, from: 0, liveBytes: [1, 2] }, { siteIds: [2, 3], from: 0, liveBytes: [3, 4] }] };
  return s;
}

const rows = (s) => s.sites.map((x) => [x.key, x.liveBytes]);

test('--focus keeps the sites with a matching frame (name, file or module), and says what it kept of the whole', () => {
  const f = focusSnapshot(game(), { focus: 'load_level' });
  assert.deepEqual(rows(f), [['load_texture+0x10', 5000], ['pool_alloc+0x24', 1000]]);
  assert.deepEqual(f.focus, { sites: 2, allSites: 4, liveBytes: 6000, allLiveBytes: 9700, liveBlocks: 15, allLiveBlocks: 52,
    focus: 'load_level' });
  assert.equal(focusNote(f, (b) => `${b} B`), '--focus "load_level": 6000 B (61.9%) of 9700 B live, 2 of 4 sites');
  assert.deepEqual(rows(focusSnapshot(game(), { focus: '^ai\\.c$' })), [['pool_alloc+0x20', 3000], ['spawn_enemy+0x30', 700]]);
  assert.deepEqual(rows(focusSnapshot(game(), { focus: 'page\\.js' })), [['spawn_enemy+0x30', 700]]);
  // a series that sums a kept site and a dropped one is no longer anyone's
  assert.deepEqual(f.siteTimeline.series, [{ siteId: 1, from: 0, liveBytes: [1, 2] }]);
});

test('--ignore drops the sites with a matching frame; with --focus both apply', () => {
  assert.deepEqual(rows(focusSnapshot(game(), { ignore: 'spawn_enemy' })), [['load_texture+0x10', 5000], ['pool_alloc+0x24', 1000]]);
  assert.deepEqual(rows(focusSnapshot(game(), { focus: 'main', ignore: 'texture' })), [['pool_alloc+0x20', 3000], ['pool_alloc+0x24', 1000]]);
});

test('--hide takes the matching frames out of every stack: the pool\'s callers name the rows, and sites that become one merge', () => {
  const h = focusSnapshot(game(), { hide: '^pool_' });
  assert.deepEqual(rows(h), [['load_texture+0x10', 5000], ['spawn_enemy', 3000], ['load_level', 1000], ['spawn_enemy+0x30', 700]]);
  // by function, spawn_enemy < main (from the pool) and spawn_enemy < onclick stay two chains
  const byFunction = groupSnapshot(h, 'function');
  assert.deepEqual(rows(byFunction), [['load_texture', 5000], ['spawn_enemy', 3000], ['load_level', 1000], ['spawn_enemy', 700]]);
  const all = focusSnapshot(game(), { hide: '.' });
  assert.deepEqual(rows(all), [['(every frame hidden)', 9700]]);
  assert.equal(all.sites[0].parts, 4);
});

test('no option: the snapshot itself; a bad regex is refused with the option\'s name', () => {
  const s = game();
  assert.equal(focusSnapshot(s, {}), s);
  assert.throws(() => focusSnapshot(s, { focus: '(' }), (e) => e.userError && /^--focus: "\(" is not a regular expression/.test(e.message));
});

test('by module: per-module totals, a module\'s run of frames one', () => {
  const g = groupSnapshot(game(), 'module');
  assert.deepEqual(g.sites.map((x) => [x.key, x.stack.map((i) => g.frames[i].name).join(' < '), x.liveBytes]),
    [['game.wasm', 'game.wasm', 9000], ['game.wasm', 'game.wasm < page.js', 700]]);
});

test('a view: filtered, then grouped; the page\'s options (a RegExp or a string) checked', () => {
  const { view, viewOptions } = require('../model/view');
  const v = view(game(), viewOptions({ by: 'function', hide: /^pool_/, ignore: 'texture' }));
  assert.deepEqual(rows(v), [['spawn_enemy', 3000], ['load_level', 1000], ['spawn_enemy', 700]]);
  assert.equal(v.focus.hide, '^pool_');
  assert.equal(v.focus.liveBytes, 4700);
  assert.deepEqual(viewOptions(undefined), { by: 'function' });
  assert.throws(() => viewOptions({ by: 'file' }), /unknown grouping "file": use function, line, site, module/);
});
