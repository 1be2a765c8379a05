// top_since.js: `emheap top --since MARK`: what was allocated after a mark
// and is still live, by row (model/marks.js).
'use strict';

const { EmheapError } = require('../errors');
const units = require('../units');
const { renderTable, clip } = require('../table');
const { topCount } = require('../common_options');
const { siteRows } = require('../site_rows');
const { KEY_WIDTH, rowWord, rowTitle, rowsWord, stackColumn, snapshotHeader } = require('../snapshot_text');
const { plural } = units;
const { liveSince, windowText } = require('../../model/marks');
const { siteErrorText, hasSampledBlocks } = require('../../model/estimates');
const { shortName } = require('../../model/names');

// The snapshot already read (args[0] names it) -> exit code.
function printSince(args, opts, snapshot, out) {
  if (snapshot.view === 'peak') {
    throw new EmheapError('--since reads the blocks live when the snapshot was taken, not at the peak: ' +
      'leave --at peak out');
  }
  if (opts.sort !== undefined || opts.instances !== undefined) {
    throw new EmheapError('--since ranks by live bytes; --sort and --instances do not apply');
  }
  const top = topCount(opts);
  let result;
  try {
    result = liveSince(snapshot, opts.since);
  } catch (e) {
    if (e.userError) throw new EmheapError(`${args[0]}: ${e.message}`);
    throw e;
  }
  const shown = top > 0 ? result.sites.slice(0, top) : result.sites;
  const siteRow = siteRows(snapshot);
  const rows = shown.map((s, i) => {
    const site = siteRow(s.id);
    return Object.assign({ rank: i + 1, id: s.id }, site, {
      liveBytesAll: site.liveBytes, liveBytes: s.liveBytes, liveBlocks: s.liveBlocks, estimatedLiveBytes: s.estimatedLiveBytes,
    });
  });
  if (opts.json) {
    out(JSON.stringify({
      file: args[0], capturedAt: snapshot.capturedAt, mode: snapshot.mode, marks: snapshot.marks,
      since: result.since, until: result.until, liveBytes: result.liveBytes, liveBlocks: result.liveBlocks,
      estimatedLiveBytes: result.estimatedLiveBytes, focus: snapshot.focus, totalSites: result.sites.length, sites: rows,
    }, null, 2) + '\n');
    return 0;
  }
  // (in a sampled snapshot even 0 is an estimate: blocks nobody sampled
  // are in no site)
  const sampled = hasSampledBlocks(snapshot);
  const approx = (bytes, part) => (part > 0 || sampled ? `~${units.formatBytes(bytes)}` : units.formatBytesExact(bytes));
  const error = (bytes, part) => (part > 0 ? ' ' + siteErrorText(snapshot, { estimatedLiveBytes: part, liveBytes: bytes }) : '');
  let text = snapshotHeader(args[0], snapshot) + '\n' +
    `allocated ${windowText(result)} and still live: ${approx(result.liveBytes, result.estimatedLiveBytes)}` +
    `${error(result.liveBytes, result.estimatedLiveBytes)} in ${plural(result.liveBlocks, 'block')}` +
    (sampled ? ' (~: estimates from the sampled blocks, +-: one standard error)' : '') + '\n\n';
  if (!rows.length) {
    text += `no ${rowWord(snapshot)} holds a block from that window\n`;
  } else {
    const columns = [
      { title: '#', align: 'right' }, { title: 'bytes since', align: 'right' }, { title: 'blocks since', align: 'right' },
      { title: 'live bytes (all)', align: 'right' }, { title: rowTitle(snapshot), align: 'left' },
      { title: 'stack (leaf first)', align: 'left' },
    ];
    text += renderTable(columns, rows.map((r) => [
      r.rank, approx(r.liveBytes, r.estimatedLiveBytes) + error(r.liveBytes, r.estimatedLiveBytes),
      (r.estimatedLiveBytes > 0 ? '~' : '') + units.formatCount(r.liveBlocks), units.formatBytes(r.liveBytesAll),
      clip(shortName(r.label), KEY_WIDTH), stackColumn(r),
    ]));
    text += `\n${rows.length} of ${result.sites.length} ${rowsWord(snapshot)}` +
      (rows.length < result.sites.length ? ' (--top 0 shows all)' : '') + '\n';
  }
  out(text);
  return 0;
}

module.exports = { printSince };
