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
const {devtoolsLoad, checkAgainst} = require('../lib/devtools');

const {BUILD} = require('../lib/paths');
const {runCli} = require('../lib/cli');

let tmp;
test.before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-hs-')); });
test.after(() => { if (tmp) fs.rmSync(tmp, {recursive: true, force: true}); });

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
