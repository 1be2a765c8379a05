// top_lifetimes.js: `emheap top --temporary` (rows ranked by their
// temporary allocations: blocks freed before their thread allocated again)
// and `emheap top --lifetimes` (how long each row's blocks lived), from the
// counts the runtime keeps per site (model/lifetimes.js).
'use strict';

const { EmheapError } = require('../errors');
const units = require('../units');
const { renderTable, clip } = require('../table');
const { topCount } = require('../common_options');
const { KEY_WIDTH, rowWord, rowTitle, rowsWord, stackColumn, snapshotHeader } = require('../snapshot_text');
const { shortName } = require('../../model/names');
const lifetimes = require('../../model/lifetimes');

function checkCounted(args, opts, snapshot, option) {
  if (opts.sort !== undefined || opts.instances !== undefined) {
    throw new EmheapError(`${option} ranks rows its own way; --sort and --instances do not apply`);
  }
  const why = lifetimes.notCountedText(snapshot);
  if (why) throw new EmheapError(`${args[0]}: ${option}: ${why}`);
}

// --json: what the view is of, and `fields`.
function printJson(out, args, snapshot, fields) {
  out(JSON.stringify(Object.assign({
    file: args[0], capturedAt: snapshot.capturedAt, mode: snapshot.mode, by: snapshot.groupedBy || 'site', lifetimes: snapshot.lifetimes,
  }, fields), null, 2) + '\n');
  return 0;
}

const percent = (share) => `${(100 * share).toFixed(share >= 0.1 || share === 0 ? 0 : 1)}%`;

// --temporary: the rows with temporary allocations, most first.
function printTemporary(args, opts, snapshot, out) {
  checkCounted(args, opts, snapshot, '--temporary');
  const top = topCount(opts);
  const result = lifetimes.temporaryRows(snapshot);
  const shown = top > 0 ? result.sites.slice(0, top) : result.sites;
  if (opts.json) {
    return printJson(out, args, snapshot, {temporaryAllocs: result.temporaryAllocs, totalAllocs: result.totalAllocs,
      totalRows: result.sites.length, sites: shown});
  }
  let text = snapshotHeader(args[0], snapshot) + '\n' +
    `temporary allocations (freed before their thread allocated again): ${units.formatCount(result.temporaryAllocs)} of ` +
    `${units.formatCount(result.totalAllocs)} allocations` +
    (result.totalAllocs ? ` (${percent(result.temporaryAllocs / result.totalAllocs)})` : '') + '\n\n';
  if (!shown.length) {
    text += `no ${rowWord(snapshot)} made a temporary allocation\n`;
  } else {
    text += renderTable([
      { title: '#', align: 'right' }, { title: 'temporary', align: 'right' }, { title: 'of its allocs', align: 'right' },
      { title: 'allocs', align: 'right' }, { title: rowTitle(snapshot), align: 'left' }, { title: 'stack (leaf first)', align: 'left' },
    ], shown.map((r) => [
      r.rank, (r.atLeast ? '>=' : '') + units.formatCount(r.temporaryAllocs), percent(r.shareOfAllocs),
      units.formatCount(r.totalAllocs), clip(shortName(r.label), KEY_WIDTH), stackColumn(r),
    ]));
    text += `\n${shown.length} of ${result.sites.length} ${rowsWord(snapshot)} with temporary allocations` +
      (shown.length < result.sites.length ? ' (--top 0 shows all)' : '') + '\n';
  }
  out(text);
  return 0;
}

// --lifetimes: every row that allocated, by allocations made, with its
// blocks that ended by age bucket (and time, when measured) and those
// still live.
function printLifetimes(args, opts, snapshot, out) {
  checkCounted(args, opts, snapshot, '--lifetimes');
  const top = topCount(opts);
  const result = lifetimes.lifetimeRows(snapshot);
  const shown = top > 0 ? result.sites.slice(0, top) : result.sites;
  if (opts.json) return printJson(out, args, snapshot, {note: result.note, totalRows: result.sites.length, sites: shown});
  let text = snapshotHeader(args[0], snapshot) + '\n' + result.note + '\n\n';
  if (!shown.length) {
    text += `no ${rowWord(snapshot)} allocated\n`;
  } else {
    const ages = lifetimes.AGE_BOUNDS.map((b, i) => ({ title: lifetimes.ageLabel(i), align: 'right' }));
    const times = result.timeShown ? lifetimes.TIME_BOUNDS_MS.map((b, i) => ({ title: lifetimes.timeLabel(i), align: 'right' })) : [];
    text += 'ended blocks by the allocations made after them' + (result.timeShown ? ', then by time' : '') + '\n';
    const n = (c) => (c ? units.formatCount(c) : '.');
    text += renderTable([
      { title: '#', align: 'right' }, { title: 'allocs', align: 'right' }, { title: 'still live', align: 'right' },
      { title: 'median', align: 'right' }, ...ages, ...times, { title: rowTitle(snapshot), align: 'left' },
    ], shown.map((r) => [
      r.rank, units.formatCount(r.totalAllocs), units.formatCount(r.live), r.median === null ? '-' : r.median,
      ...r.byAge.map((b) => n(b.blocks)), ...(r.byTime ? r.byTime.map((b) => n(b.blocks)) : []),
      clip(shortName(r.label), KEY_WIDTH) + (r.atLeast ? ' (counts at least)' : ''),
    ]));
    text += `\n${shown.length} of ${result.sites.length} ${rowsWord(snapshot)}, by allocations made` +
      (shown.length < result.sites.length ? ' (--top 0 shows all)' : '') + '\n';
  }
  out(text);
  return 0;
}

module.exports = { printTemporary, printLifetimes };
