// report.js: `emheap report FILE`: the HTML page of the profile, written to
// a file (the page itself: cli/report.js and formats/report_html.js).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const { EmheapError } = require('../errors');
const units = require('../units');
const { readView } = require('../read_view');
const { withMoreHelp } = require('../options');
const { WRAPPERS, BY, FOCUS, IGNORE, HIDE, OUTPUT, FORCE, outputFile } = require('../common_options');
const { defaultOutput, checkTarget, writeReplacing } = require('../output_file');
const { reportCommand } = require('../report');

const SUFFIX = '.report.html';

function run({ args, opts }, out) {
  const given = outputFile(opts);
  const target = given !== undefined ? given : defaultOutput(args[0], SUFFIX);
  if (target === '-') throw new EmheapError('-o -: the report is a page to open; give it a file name');
  checkTarget(target, args[0], opts.force, 'report');
  const html = reportCommand(readView(args[0], opts), { file: path.basename(args[0]) });
  const written = writeReplacing(target, (fd) => {
    fs.writeSync(fd, html);
    return Buffer.byteLength(html);
  });
  out(`wrote ${target} (report, ${units.formatCount(written)} bytes)\n`);
  return 0;
}

module.exports = {
  name: 'report',
  summary: 'Write one self-contained HTML page to look at (docs/report.md): the live bytes over time with the marks, the ' +
    "growths of the wasm memory and the peak; the top rows' series stacked; why the wasm memory is this big; the top rows; " +
    'what was allocated after each mark; which rows keep growing. It needs no network: open it from disk.',
  positional: ['FILE'],
  options: [BY, FOCUS, IGNORE, HIDE, withMoreHelp(OUTPUT, ` by ${SUFFIX}`), FORCE, WRAPPERS],
  run,
};
