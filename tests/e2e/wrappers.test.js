// wrappers.test.js -- a program's own allocation layer (model/wrappers.js):
// declared by the user or detected, removed from every stack in the page's
// snapshot and in the CLI, on a C program shaped like Lua's allocator
// (tests/runtime/alloc_layer.c), compiled with emcc and run.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const {ROOT} = require('../lib/paths');
const {runWasmProgram} = require('../lib/run_wasm');
const {validateSnapshot} = require('../lib/schemas');
const {parseWrapperList, matcher} = require('../../model/wrappers');
const {finishSnapshot} = require('../../model/finish');

const PROGRAM = path.join(ROOT, 'build', 'tests', 'alloc_layer.dlmalloc.js');
const {runCli} = require('../lib/cli');
const LAYER = ['l_alloc', 'mem_realloc', 'new_object'];

function run(env) {
  const r = runWasmProgram(PROGRAM, {env: {EMHEAP_WRAPPERS: '', ...env}});
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.tagged.SNAPSHOT, 'program printed its snapshot');
  assert.deepEqual(validateSnapshot(r.tagged.SNAPSHOT), []);
  return r.tagged.SNAPSHOT;
}

const leafNames = (snap) => snap.sites.map((s) => snap.frames[s.stack[0]].name);
const sum = (snap, f) => snap.sites.reduce((a, s) => a + s[f], 0);

test('names and globs: a list, "none", C++ names with or without parameters', () => {
  assert.deepEqual(parseWrapperList(' l_alloc, luaM_* ,l_alloc'), {names: ['l_alloc', 'luaM_*'], detect: true});
  assert.deepEqual(parseWrapperList(['none', ['a'], 7, null]), {names: ['a'], detect: false});
  const is = matcher(['l_alloc', 'luaM_*', 'Pool::alloc']);
  assert.ok(is('l_alloc') && is('luaM_realloc_') && is('Pool::alloc(unsigned long)'));
  assert.ok(!is('l_alloc2') && !is('xluaM_') && !is('Pool::allocate(int)') && !is(undefined));
});

test('the page detects an l_alloc-style layer: sites are named after the constructors', () => {
  const raw = run({EMHEAP_WRAPPERS: 'none'});
  const snap = run({});
  assert.deepEqual(raw.wrappers, {declared: [], detected: [], detect: false}, 'nothing left out, and detection off, said');
  // binaryen may inline l_alloc into mem_realloc; what is left of the layer is found.
  assert.ok(snap.wrappers.detected.length >= 2, JSON.stringify(snap.wrappers));
  for (const name of snap.wrappers.detected) assert.ok(LAYER.includes(name), `${name} is not part of the layer`);
  assert.ok(leafNames(raw).every((n) => LAYER.includes(n) || n === 'make_tree'), leafNames(raw).join(' '));
  const leaves = leafNames(snap);
  assert.ok(leaves.every((n) => !LAYER.includes(n)), `layer frame left as a leaf: ${leaves.join(' ')}`);
  assert.ok(leaves.includes('make_tree'), 'the recursive builder that calls malloc itself stays a site');
  assert.ok(new Set(leaves).size >= 6, `sites named after many callers: ${[...new Set(leaves)].join(' ')}`);
  for (const s of snap.sites) assert.equal(s.key.split('+')[0], leaves[snap.sites.indexOf(s)]);
  // Removing frames merges sites, never loses bytes.
  assert.equal(sum(snap, 'liveBytes'), snap.summary.requestedLiveBytes);
  assert.equal(sum(snap, 'totalAllocs'), sum(raw, 'totalAllocs'));
  assert.ok(snap.sites.length < raw.sites.length, 'sites that differed only inside the layer are merged');
});

test('declared wrappers (EMHEAP_WRAPPERS, globs) add to what is detected', () => {
  const snap = run({EMHEAP_WRAPPERS: 'grow_*'});
  assert.deepEqual(snap.wrappers.declared, ['grow_*']);
  const leaves = leafNames(snap);
  assert.ok(!leaves.includes('grow_vector') && !leaves.some((n) => LAYER.includes(n)), leaves.join(' '));
  assert.ok(leaves.includes('code_grow') || leaves.includes('parse_chunk'), 'vector growth charged to its callers');
});

test('wrappers named on the link line (emheap-config --wrappers) are applied, with the others', () => {
  const linked = path.join(ROOT, 'build', 'tests', 'alloc_layer.linkwrappers.js');
  const r = runWasmProgram(linked, {env: {EMHEAP_WRAPPERS: 'l_alloc'}});
  assert.equal(r.status, 0, r.stderr);
  const snap = r.tagged.SNAPSHOT;
  assert.deepEqual(validateSnapshot(snap), []);
  // The link line says grow_* and no detection; the environment adds l_alloc.
  assert.deepEqual(snap.wrappers.declared, ['grow_*', 'l_alloc']);
  assert.deepEqual(snap.wrappers.detected, []);
  const leaves = leafNames(snap);
  assert.ok(!leaves.includes('grow_vector') && !leaves.includes('l_alloc'), leaves.join(' '));
  // Detection off: the rest of the layer stays as the leaf of some sites.
  assert.ok(leaves.some((n) => n === 'mem_realloc' || n === 'new_object'), leaves.join(' '));
});

test('a file saved with EMHEAP_WRAPPERS=none answers in emheap top as in the page', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-wrappers-'));
  try {
    const file = path.join(dir, 'none.json');
    const page = run({EMHEAP_WRAPPERS: 'none'});
    fs.writeFileSync(file, JSON.stringify(page));
    const r = runCli(['top', file, '--json', '--top', '0', '--by', 'site']);
    assert.equal(r.status, 0, r.stderr);
    const cli = JSON.parse(r.stdout);
    assert.deepEqual(cli.wrappers, page.wrappers);
    // the same sites and bytes (ties may rank in either order)
    const rows = (sites) => sites.map((s) => `${s.key} ${s.liveBytes}`).sort();
    assert.deepEqual(rows(cli.sites), rows(page.sites));
    assert.ok(cli.sites.some((s) => LAYER.includes(s.key.split('+')[0])), 'the layer stays, as in the page');
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('the CLI detects the layer in a file that says nothing of it, and --wrappers none keeps it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-wrappers-'));
  try {
    const file = path.join(dir, 'raw.json');
    const raw = run({EMHEAP_WRAPPERS: 'none'});
    delete raw.wrappers; // as a file from before the setting was kept, or made by hand
    fs.writeFileSync(file, JSON.stringify(raw));
    const top = (args) => {
      const r = runCli(['top', file, '--json', '--top', '0', ...args]);
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    const page = run({});
    const cli = top([]);
    assert.deepEqual(cli.wrappers.detected, page.wrappers.detected);
    assert.ok(cli.sites.every((s) => !LAYER.includes(s.key.split('+')[0])));
    const kept = top(['--wrappers', 'none']);
    assert.deepEqual(kept.wrappers, {declared: [], detected: [], detect: false});
    assert.ok(kept.sites.some((s) => LAYER.includes(s.key.split('+')[0])));
    const text = runCli(['top', file]).stdout;
    assert.match(text, /allocation layer left out of sites: .*new_object.* \(detected\)/);
    // Applying it again to its own result changes nothing.
    const once = finishSnapshot(raw, {wrappers: parseWrapperList('')});
    assert.deepEqual(finishSnapshot(once, {wrappers: parseWrapperList('')}).sites, once.sites);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('no layer is found where there is none: a recursive builder, few sites, the fixtures', () => {
  // A binary tree built by one recursive function (emheap's micro benchmark):
  // every site's leaf is make_tree, called by make_tree or main.
  const frames = [{name: 'make_tree', offset: 10}, {name: 'make_tree', offset: 20}, {name: 'main', offset: 5}];
  const sites = [];
  for (let i = 0; i < 40; i++) {
    const stack = [0];
    for (let d = 0; d < 1 + (i % 9); d++) stack.push(i & (1 << d) ? 0 : 1);
    stack.push(2);
    sites.push({id: i + 1, key: 'make_tree+0xa', stack, liveBytes: 16, liveBlocks: 1, totalAllocs: 1, totalBytes: 16, peakLiveBytes: 16});
  }
  const tree = {frames, sites, heapGrowth: []};
  assert.equal(finishSnapshot(tree, {wrappers: parseWrapperList('')}), tree, 'nothing removed: the same snapshot');
  const {makeSnapshot} = require('../lib/fixtures');
  const small = makeSnapshot();
  assert.equal(finishSnapshot(small, {wrappers: parseWrapperList('')}), small);
});
