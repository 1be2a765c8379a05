// top_between.js: `emheap top --between A B`: what the range from mark A to
// mark B (or now; times pick the marks around them) did, by row, in four classes: made in it and freed in
// it, made in it and live at its end, made before and freed in it, made
// before and live through it (model/ranges.js).
'use strict';

const { EmheapError } = require('../errors');
const units = require('../units');
const { renderTable, clip } = require('../table');
const { topCount } = require('../common_options');
const { KEY_WIDTH, rowWord, rowTitle, rowsWord, stackColumn, snapshotHeader } = require('../snapshot_text');
const { betweenRows, CLASSES, CLASS_TITLES: TITLES } = require('../../model/ranges');
const { shortName } = require('../../model/names');

const seconds = (ms) => `${(ms / 1000).toFixed(3)} s`;
// What was asked for, times as times and marks as marks.
const askedText = (result) => (result.times.fromMs !== null ? seconds(result.times.fromMs) : `mark #${result.start.number}`) +
  ' to ' + (result.times.toMs !== null ? seconds(result.times.toMs) : result.end ? `mark #${result.end.number}` : 'now');
const markText = (m) => (m ? `mark #${m.number} "${m.name}" (at ${(m.t / 1000).toFixed(3)} s)` : 'now');

function printBetween(args, opts, snapshot, out) {
  if (opts.sort !== undefined || opts.instances !== undefined) {
    throw new EmheapError('--between ranks rows by the bytes the range made and freed; --sort and --instances do not apply');
  }
  const top = topCount(opts);
  let result;
  try {
    result = betweenRows(snapshot, opts.between[0], opts.between[1]);
  } catch (e) {
    if (e.userError) throw new EmheapError(`${args[0]}: ${e.message}`);
    throw e;
  }
  const rows = top > 0 ? result.sites.slice(0, top) : result.sites;
  if (opts.json) {
    out(JSON.stringify({
      file: args[0], capturedAt: snapshot.capturedAt, mode: snapshot.mode, by: snapshot.groupedBy || 'site', start: result.start,
      end: result.end || 'now', ...(result.times ? { times: result.times } : {}), estimated: result.estimated, keptMarks: snapshot.markRanges.marks, totals: result.totals,
      totalRows: result.sites.length, sites: rows,
    }, null, 2) + '\n');
    return 0;
  }
  const tilde = result.estimated ? '~' : '';
  const cell = (c) => (c.blocks ? `${tilde}${units.formatBytes(c.bytes)} / ${units.formatCount(c.blocks)}` : '.');
  let text = snapshotHeader(args[0], snapshot) + '\n' +
    `from ${markText(result.start)} to ${markText(result.end)} (bytes / blocks` +
    (result.estimated ? '; ~: estimates, exact mode had begun to sample' : '; exact') + '):\n' +
    (result.times ? `  (asked for ${askedText(result)}: a range runs between marks, the only moments at which what ` +
      'each site held is recorded; these are the marks around those times)\n' : '') +
    CLASSES.map((k) => `  ${TITLES[k]}: ${cell(result.totals[k])}`).join('\n') + '\n\n';
  if (!rows.length) {
    text += `no ${rowWord(snapshot)} held a block in that range\n`;
  } else {
    text += renderTable([
      { title: '#', align: 'right' }, ...CLASSES.map((k) => ({ title: TITLES[k], align: 'right' })),
      { title: rowTitle(snapshot), align: 'left' }, { title: 'stack (leaf first)', align: 'left' },
    ], rows.map((r) => [r.rank, ...CLASSES.map((k) => cell(r[k])), clip(shortName(r.label), KEY_WIDTH), stackColumn(r)]));
    text += `\n${rows.length} of ${result.sites.length} ${rowsWord(snapshot)}, by the bytes the range made and freed` +
      (rows.length < result.sites.length ? ' (--top 0 shows all)' : '') + '\n';
  }
  out(text);
  return 0;
}

module.exports = { printBetween };
