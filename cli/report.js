// report.js: `emheap report FILE -o report.html`: the node side of the
// HTML report. formats/report_html.js makes the page and stays pure (no
// file system), so the charting library it inlines, uPlot, is read here,
// from the npm package the CLI depends on (uplot, exact version in
// package.json): the page then needs no network, from disk or anywhere.
'use strict';

const fs = require('node:fs');
const { reportHtml } = require('../formats/report_html');

// uPlot's script and CSS, read once per process.
let uplot = null;
function uplotFiles() {
  if (!uplot) {
    uplot = {
      js: fs.readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
      css: fs.readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
    };
  }
  return uplot;
}

// snapshot: as readSnapshot gives it; opts.file: the file's name as the
// user gave it (for the page's header). -> the HTML text.
function reportCommand(snapshot, opts = {}) {
  const { js, css } = uplotFiles();
  return reportHtml(snapshot, { uplotJs: js, uplotCss: css, file: opts.file });
}

module.exports = { reportCommand };
