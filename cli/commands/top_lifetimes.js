// top_lifetimes.js: `emheap top --temporary` (rows ranked by their
// temporary allocations: blocks freed before their thread allocated again)
// and `emheap top --lifetimes` (how long each row's blocks lived), from the
// counts the runtime keeps per site (model/lifetimes.js).
'use strict';

const { EmheapError } = require('../errors');
const units = require('../units');
const { renderTable, clip } = require('../table');
const { topCount } = require('../common_options');
const { KEY_WIDTH, rowWord, rowsWord, snapshotHeader } = require('../snapshot_text');
const { siteLabel, stackFrames, stackText } = require('../../model/sites');
const { shortName } = require('../../model/names');
const lifetimes = require('../../model/lifetimes');

function checkCounted(args, opts, snapshot, option) {
  if (opts.sort !== undefined || opts.instances !== undefined) {
    throw new EmheapError(`${option} ranks rows its own way; --sort and --instances do not apply`);
  }
  const why = lifetimes.notCountedText(snapshot);
  if (why) throw new EmheapError(`${args[0]}: ${option}: ${why}`);
}

const percent = (share) => `${(100 * share).toFixed(share >= 0.1 || share === 0 ? 0 : 1)}%`;
const stackOf = (snapshot, site) => stackText(stackFrames(snapshot, site).map((f) => shortName(f.name)));

// --temporary: the rows with temporary allocations, most first.
function printTemporary(args, opts, snapshot, out) {
  checkCounted(args, opts, snapshot, '--temporary');
  const top = topCount(opts);
  const ranking = lifetimes.temporaryRanking(snapshot);
  const shown = top > 0 ? ranking.rows.slice(0, top) : ranking.rows;
  const atLeast = (r) => !!r.site.lifetimesAtLeast;
  if (opts.json) {
    out(JSON.stringify({
      file: args[0], capturedAt: snapshot.capturedAt, mode: snapshot.mode, by: rowWord(snapshot), lifetimes: snapshot.lifetimes,
      temporaryAllocs: ranking.temporary, totalAllocs: ranking.allocs, totalRows: ranking.rows.length,
      sites: shown.map((r, i) => Object.assign({
        rank: i + 1, id: r.site.id, label: siteLabel(snapshot, r.site), stack: stackFrames(snapshot, r.site),
        temporaryAllocs: r.temporary, totalAllocs: r.site.totalAllocs, shareOfAllocs: r.share,
      }, atLeast(r) ? { atLeast: true } : {})),
    }, null, 2) + '\n');
    return 0;
  }
  let text = snapshotHeader(args[0], snapshot) + '\n' +
    `temporary allocations (freed before their thread allocated again): ${units.formatCount(ranking.temporary)} of ` +
    `${units.formatCount(ranking.allocs)} allocations` +
    (ranking.allocs ? ` (${percent(ranking.temporary / ranking.allocs)})` : '') + '\n\n';
  if (!shown.length) {
    text += `no ${rowWord(snapshot)} made a temporary allocation\n`;
  } else {
    text += renderTable([
      { title: '#', align: 'right' }, { title: 'temporary', align: 'right' }, { title: 'of its allocs', align: 'right' },
      { title: 'allocs', align: 'right' }, { title: rowWord(snapshot), align: 'left' }, { title: 'stack (leaf first)', align: 'left' },
    ], shown.map((r, i) => [
      i + 1, (atLeast(r) ? '>=' : '') + units.formatCount(r.temporary), percent(r.share), units.formatCount(r.site.totalAllocs),
      clip(shortName(siteLabel(snapshot, r.site)), KEY_WIDTH), clip(stackOf(snapshot, r.site), 60),
    ]));
    text += `\n${shown.length} of ${ranking.rows.length} ${rowsWord(snapshot)} with temporary allocations` +
      (shown.length < ranking.rows.length ? ' (--top 0 shows all)' : '') + '\n';
  }
  out(text);
  return 0;
}

// --lifetimes: every row that allocated, by allocations made, with its
// blocks that ended by age bucket and those still live.
function printLifetimes(args, opts, snapshot, out) {
  checkCounted(args, opts, snapshot, '--lifetimes');
  const top = topCount(opts);
  const withTime = lifetimes.timeShown(snapshot);
  const rows = snapshot.sites.filter((s) => s.totalAllocs > 0)
    .sort((a, b) => b.totalAllocs - a.totalAllocs || a.id - b.id);
  const shown = top > 0 ? rows.slice(0, top) : rows;
  const lived = shown.map((s) => lifetimes.rowLifetimes(s, withTime));
  if (opts.json) {
    out(JSON.stringify({
      file: args[0], capturedAt: snapshot.capturedAt, mode: snapshot.mode, by: rowWord(snapshot), lifetimes: snapshot.lifetimes,
      note: lifetimes.lifetimesNote(snapshot), totalRows: rows.length,
      sites: shown.map((s, i) => Object.assign({
        rank: i + 1, id: s.id, label: siteLabel(snapshot, s), stack: stackFrames(snapshot, s), totalAllocs: s.totalAllocs,
      }, lived[i])),
    }, null, 2) + '\n');
    return 0;
  }
  let text = snapshotHeader(args[0], snapshot) + '\n' + lifetimes.lifetimesNote(snapshot) + '\n\n';
  if (!shown.length) {
    text += `no ${rowWord(snapshot)} allocated\n`;
  } else {
    const ages = lifetimes.AGE_BOUNDS.map((b, i) => ({ title: lifetimes.ageLabel(i), align: 'right' }));
    const times = withTime ? lifetimes.TIME_BOUNDS_MS.map((b, i) => ({ title: lifetimes.timeLabel(i), align: 'right' })) : [];
    text += 'ended blocks by the allocations made after them' + (withTime ? ', then by time' : '') + '\n';
    text += renderTable([
      { title: '#', align: 'right' }, { title: 'allocs', align: 'right' }, { title: 'still live', align: 'right' },
      { title: 'median', align: 'right' }, ...ages, ...times, { title: rowWord(snapshot), align: 'left' },
    ], shown.map((s, i) => {
      const l = lived[i];
      const n = (c) => (c ? units.formatCount(c) : '.');
      return [
        i + 1, units.formatCount(s.totalAllocs), units.formatCount(l.live), l.median === null ? '-' : l.median,
        ...l.byAge.map((b) => n(b.blocks)), ...(withTime ? l.byTime.map((b) => n(b.blocks)) : []),
        clip(shortName(siteLabel(snapshot, s)), KEY_WIDTH) + (l.atLeast ? ' (counts at least)' : ''),
      ];
    }));
    text += `\n${shown.length} of ${rows.length} ${rowsWord(snapshot)}, by allocations made` +
      (shown.length < rows.length ? ' (--top 0 shows all)' : '') + '\n';
  }
  out(text);
  return 0;
}

module.exports = { printTemporary, printLifetimes };
