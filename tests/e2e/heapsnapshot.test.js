// heapsnapshot.test.js -- the C heap as a V8 heap snapshot
// (formats/heapsnapshot.js), opened by Chrome DevTools' own heap snapshot
// code: the worker sources of the npm package chrome-devtools-frontend,
// bundled by esbuild (tests/lib/devtools/build-loader.mjs) and run under
// node (tests/lib/devtools/load-heapsnapshot.mjs), as the Memory panel runs
// them. DevTools computes dominators and retained sizes itself: they must
// equal emheap's. The program is tests/runtime/heap_graph.c; the file comes
// from `emheap convert --to heapsnapshot`, and from the page's
// downloadSnapshot("heapsnapshot") in headless Chromium.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {toHeapSnapshot} = require('../../formats/heapsnapshot');
const {devtoolsLoad} = require('../lib/devtools');

const {BUILD} = require('../lib/paths');
const {runCli} = require('../lib/cli');

let tmp;
test.before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-hs-')); });
test.after(() => { if (tmp) fs.rmSync(tmp, {recursive: true, force: true}); });

// Checks DevTools' numbers against the snapshot's heap graph.
function checkAgainst(snap, dt) {
  const h = snap.heap;
  const first = h.groups.length + 1;
  assert.equal(dt.ok, true);
  assert.deepEqual(dt.brokenSnapshot, []);
  assert.deepEqual(dt.warnings, [], 'every node reachable: no unreachable-node warnings');
  assert.equal(dt.nodeCount, first + h.blocks.address.length);
  assert.equal(dt.edgeCount, h.edges.length);
  const total = h.blocks.size.reduce((a, b) => a + b, 0);
  assert.equal(dt.totalSize, total);
  // node ids: the root 2, groups even, blocks the heap section's odd ids
  const idOfNode = (v) => (v === 0 ? 2 : v < first ? 2 * (v + 1) : h.blocks.id[v - first]);
  const byId = new Map(dt.nodes.map((n) => [n.id, n]));
  for (let k = 0; k < h.blocks.address.length; k++) {
    const n = byId.get(h.blocks.id[k]);
    assert.ok(n, `block ${k} (id ${h.blocks.id[k]}) in DevTools' nodes`);
    assert.equal(n.type, 'native');
    assert.equal(n.selfSize, h.blocks.size[k]);
    assert.equal(n.retainedSize, h.blocks.retained[k], `retained size of block ${k} (${n.name})`);
    assert.equal(n.dominatorId, idOfNode(h.blocks.dominator[k]), `dominator of block ${k} (${n.name})`);
  }
  for (let g = 0; g < h.groups.length; g++) {
    const n = byId.get(idOfNode(g + 1));
    assert.equal(n.name, h.groups[g].name);
    assert.equal(n.retainedSize, h.groups[g].retainedBytes, h.groups[g].name);
  }
  // Summary: one class per site key, its count and shallow size
  const keyOf = new Map(snap.sites.map((s) => [s.id, s.key]));
  const want = {};
  h.blocks.site.forEach((site, k) => {
    const key = keyOf.get(site);
    want[key] = want[key] || {count: 0, self: 0};
    want[key].count++;
    want[key].self += h.blocks.size[k];
  });
  const got = {};
  for (const [name, a] of Object.entries(dt.aggregates)) got[name] = {count: a.count, self: a.self};
  assert.deepEqual(got, want);
  return byId;
}

for (const build of ['dlmalloc', 'threads']) {
  test(`DevTools' heap snapshot code opens emheap convert --to heapsnapshot and agrees on every retained size (${build})`, () => {
    const r = runWasmProgram(path.join(BUILD, `heap_graph.${build}.js`));
    assert.equal(r.status, 0, r.stderr);
    const snap = r.tagged.SNAPSHOT;
    const json = path.join(tmp, `${build}.json`);
    fs.writeFileSync(json, JSON.stringify(snap));
    const out = path.join(tmp, `${build}.heapsnapshot`);
    const conv = runCli(['convert', json, '--to', 'heapsnapshot', '-o', out]);
    assert.equal(conv.status, 0, conv.stderr);
    assert.equal(fs.readFileSync(out, 'utf8'), toHeapSnapshot(snap), 'the CLI writes what the builder makes');
    const byId = checkAgainst(snap, devtoolsLoad(out));
    // a leaked list's head, by name, as a user finds it in the Summary
    const lost = [...byId.values()].filter((n) => /^make_list/.test(n.name) && n.dominatorId === 2 * (snap.heap.groups.length + 1));
    assert.equal(lost.length, 1, 'the head of the leaked list hangs from "(leaked)"');
    assert.equal(lost[0].retainedSize, 3 * lost[0].selfSize, 'it retains the three nodes of the list');
  });
}

test('heapsnapshot without a heap graph: one clear error, no file', () => {
  const r = runWasmProgram(path.join(BUILD, 'heap_graph.dlmalloc.js'));
  const snap = r.tagged.SNAPSHOT;
  delete snap.heap;
  const json = path.join(tmp, 'noheap.json');
  fs.writeFileSync(json, JSON.stringify(snap));
  const out = path.join(tmp, 'noheap.heapsnapshot');
  const conv = runCli(['convert', json, '--to', 'heapsnapshot', '-o', out]);
  assert.equal(conv.status, 2);
  assert.match(conv.stderr, /^emheap: --to heapsnapshot: \S+noheap\.json has no heap graph: take the snapshot in exact mode with emheap\.snapshot\(\{heap: true\}\)/);
  assert.equal(fs.existsSync(out), false);
});
