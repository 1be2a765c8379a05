// devtools_panel.js -- loads a .heapsnapshot into the real Memory panel of
// the DevTools inside Chromium (devtools://devtools/bundled/
// devtools_app.html, puppeteer-core, headless) and reads its Summary grid;
// optionally saves a screenshot of the panel (docs/take-screenshots.js).
'use strict';

const {withDevtoolsApp} = require('./devtools_app');

// The rows of the Summary grid after loading `text` as a file, or an error.
// screenshot: a .png path to save the panel to, once the grid is filled.
async function panelSummary(text, {screenshot} = {}) {
  return withDevtoolsApp(async (page, errors) => {
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
  });
}

module.exports = {panelSummary};
