// devtools_panel.js -- loads a .heapsnapshot into the real Memory panel of
// the DevTools inside Chromium (devtools://devtools/bundled/
// devtools_app.html, puppeteer-core, headless) and reads its Summary grid;
// optionally saves a screenshot of the panel (docs/take-screenshots.js).
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {CHROMIUM} = require('./browser');

// The rows of the Summary grid after loading `text` as a file, or an error.
// screenshot: a .png path to save the panel to, once the grid is filled.
async function panelSummary(text, {screenshot} = {}) {
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
    if (screenshot && Array.isArray(rows)) {
      // the heaviest site's row opened, as a person would look at it
      await page.evaluate(async () => {
        const Profiler = await import('./panels/profiler/profiler.js');
        const grid = Profiler.HeapProfilerPanel.HeapProfilerPanel.instance().visibleView.constructorsDataGrid;
        const first = grid.rootNode().children[0];
        if (first) { first.expand(); first.select(); }
      });
      await new Promise((r) => setTimeout(r, 1500));
      await page.screenshot({path: screenshot});
    }
    return {rows, errors};
  } finally {
    await browser.close();
    fs.rmSync(profile, {recursive: true, force: true});
  }
}

module.exports = {panelSummary};
