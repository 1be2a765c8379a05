// top_growing.js: `emheap top --growing`: the rows the timeline followed,
// by how steadily they grew, each with a verdict in words
// (model/growing.js).
'use strict';

const { EmheapError } = require('../errors');
const units = require('../units');
const { renderTable, clip } = require('../table');
const { topCount } = require('../common_options');
const { siteRows } = require('../site_rows');
const { KEY_WIDTH, rowTitle, rowsWord, stackColumn, snapshotHeader } = require('../snapshot_text');
const { growingSites, whyNoSeries, incompleteNote } = require('../../model/growing');
const { shortName } = require('../../model/names');

// The snapshot already read (args[0] names it) -> exit code.
function printGrowing(args, opts, snapshot, out) {
  if (opts.sort !== undefined || opts.instances !== undefined) {
    throw new EmheapError('--growing ranks by how steadily sites grew; --sort and --instances do not apply');
  }
  const why = whyNoSeries(snapshot);
  if (why) throw new EmheapError(`${args[0]}: --growing: ${why}`);
  const top = topCount(opts);
  const all = growingSites(snapshot);
  const shown = top > 0 ? all.slice(0, top) : all;
  const siteRow = siteRows(snapshot);
  const rows = shown.map((g, i) => Object.assign({ rank: i + 1 }, g, siteRow(g.siteId)));
  const span = snapshot.timeline.length > 1 ? (snapshot.timeline[snapshot.timeline.length - 1].t - snapshot.timeline[0].t) / 1000 : 0;
  if (opts.json) {
    out(JSON.stringify({
      file: args[0], capturedAt: snapshot.capturedAt, mode: snapshot.mode, timelinePoints: snapshot.timeline.length,
      timelineSeconds: span, focus: snapshot.focus, totalSites: all.length,
      sites: rows.map((r) => Object.assign({}, r, { liveBytes: undefined })),
    }, null, 2) + '\n');
    return 0;
  }
  const per = (g) => `${g.bytesPerSecond < 0 ? '-' : '+'}${units.formatBytes(Math.abs(Math.round(g.bytesPerSecond)))}/s`;
  const columns = [
    { title: '#', align: 'right' }, { title: 'verdict', align: 'left' }, { title: 'rise', align: 'right' },
    { title: 'rate', align: 'right' }, { title: 'grew in', align: 'right' }, { title: 'now', align: 'right' },
    { title: rowTitle(snapshot), align: 'left' }, { title: 'stack (leaf first)', align: 'left' },
  ];
  const approx = (g, bytes) => (g.estimated ? '~' : '') + units.formatBytes(bytes);
  let text = snapshotHeader(args[0], snapshot) + '\n' +
    `${rowsWord(snapshot)} tracked over ${snapshot.timeline.length} points (${span.toFixed(3)} s): ${all.length}` +
    (all.some((g) => g.estimated) ? ' (~: estimates from sampled blocks)' : '') + '\n\n';
  text += renderTable(columns, rows.map((r) => [
    r.rank, r.verdict, (r.estimated ? '~' : '') + (r.riseBytes < 0 ? '-' : '+') + units.formatBytes(Math.abs(r.riseBytes)),
    (r.estimated ? '~' : '') + per(r),
    r.segments ? `${Math.round(r.grewIn * r.segments)}/${r.segments} parts` : '-', approx(r, r.lastBytes),
    clip(shortName(r.label), KEY_WIDTH), stackColumn(r),
  ]));
  text += '\n"grew in": of the series cut into equal parts, those that ended higher than the one before.\n';
  const incomplete = incompleteNote(snapshot);
  if (incomplete) text += `note: ${incomplete}\n`;
  out(text);
  return 0;
}

module.exports = { printGrowing };
