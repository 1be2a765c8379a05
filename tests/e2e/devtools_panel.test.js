// devtools_panel.test.js -- the .heapsnapshot emheap writes, loaded into the
// real Memory panel of the DevTools that ship inside Chromium
// (devtools://devtools/bundled/devtools_app.html, driven headless with
// puppeteer-core): its Summary view lists one row per allocation site with
// the count, shallow and retained sizes that DevTools' heap snapshot code
// computes (tests/e2e/heapsnapshot.test.js checks that code against emheap's
// own numbers). Skipped without Chromium.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {CHROMIUM_SKIP} = require('../lib/browser');
const {panelSummary} = require('../lib/devtools_panel');
const {devtoolsLoad} = require('../lib/devtools');
const {toHeapSnapshot} = require('../../formats/heapsnapshot');

const {BUILD} = require('../lib/paths');
const skip = CHROMIUM_SKIP;

test('Chromium\'s own DevTools Memory panel shows the C heap by allocation site', {skip}, async () => {
  const r = runWasmProgram(path.join(BUILD, 'heap_graph.dlmalloc.js'));
  assert.equal(r.status, 0, r.stderr);
  const text = toHeapSnapshot(r.tagged.SNAPSHOT);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-panel-'));
  try {
    const file = path.join(tmp, 'heap.heapsnapshot');
    fs.writeFileSync(file, text);
    const want = devtoolsLoad(file).aggregates;
    const {rows, errors} = await panelSummary(text);
    assert.ok(Array.isArray(rows), String(rows));
    assert.deepEqual(errors, []);
    const got = {};
    for (const row of rows) got[row.name] = {count: row.count, self: row.shallowSize, maxRet: row.retainedSize};
    const expected = {};
    for (const [name, a] of Object.entries(want)) expected[name] = {count: a.count, self: a.self, maxRet: a.maxRet};
    assert.deepEqual(got, expected);
    assert.ok(Object.keys(got).some((n) => /^make_list/.test(n)), Object.keys(got).join(', '));
  } finally {
    fs.rmSync(tmp, {recursive: true, force: true});
  }
});
