// devtools-panel.test.js -- the .heapsnapshot emheap writes, loaded into the
// real Memory panel of the DevTools that ship inside Chromium
// (devtools://devtools/bundled/devtools_app.html, driven headless with
// puppeteer-core): its Summary view lists one row per allocation site with
// the count, shallow and retained sizes that DevTools' heap snapshot code
// computes (tests/heapsnapshot.test.js checks that code against emheap's
// own numbers). Skipped without Chromium.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('./lib/run_wasm');
const {haveChromium, CHROMIUM} = require('./lib/browser');
const {devtoolsLoad} = require('./lib/devtools');
const {toHeapSnapshot} = require('../formats/heapsnapshot');

const BUILD = path.join(__dirname, '..', 'build', 'tests');
const skip = haveChromium() ? false : `no Chromium at ${CHROMIUM}`;

// The rows of the Summary grid after loading `text` as a file, or an error.
async function panelSummary(text) {
  const puppeteer = require('puppeteer-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-devtools-'));
  const browser = await puppeteer.launch({executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', `--user-data-dir=${profile}`]});
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto('devtools://devtools/bundled/devtools_app.html', {waitUntil: 'load'});
    // DevTools is ready once its UI strings have loaded (asynchronously,
    // after 'load'): until then its views throw "No locale data registered"
    await page.waitForFunction(async () => {
      try {
        const i18n = await import('./core/i18n/i18n.js');
        i18n.i18n.getLocalizedString(i18n.i18n.registerUIStrings('emheap', {x: 'x'}), 'x');
        return true;
      } catch (e) {
        return false;
      }
    }, {timeout: 30000, polling: 100});
    const rows = await page.evaluate(async (fileText) => {
      const UI = await import('./ui/legacy/legacy.js');
      await UI.ViewManager.ViewManager.instance().showView('heap-profiler');
      const Profiler = await import('./panels/profiler/profiler.js');
      const panel = Profiler.HeapProfilerPanel.HeapProfilerPanel.instance();
      await panel.loadFromFile(new File([fileText], 'emheap.heapsnapshot'));
      for (let i = 0; i < 300; ++i) {
        await new Promise((r) => setTimeout(r, 100));
        const prof = Profiler.ProfilesPanel.ProfilesPanel.registry.heapSnapshotProfileType.getProfiles()[0];
        if (!prof || !prof.snapshotProxy) continue;
        if (panel.visibleView !== panel.viewForProfile(prof)) panel.showProfile(prof);
        const grid = panel.visibleView && panel.visibleView.constructorsDataGrid;
        if (!grid || !grid.rootNode().children.length) continue;
        return grid.rootNode().children.map((n) => ({name: n.nameInternal, count: n.count,
          shallowSize: n.shallowSize, retainedSize: n.retainedSize}));
      }
      return 'the Summary view never filled';
    }, text);
    return {rows, errors};
  } finally {
    await browser.close();
    fs.rmSync(profile, {recursive: true, force: true});
  }
}

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
