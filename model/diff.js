// diff.js: compare two snapshots site by site, with the columns of Chrome
// DevTools' heap snapshot "Comparison" view (DIFF_COLUMNS).
// Sites are matched by call site key. Where a key is shared by several sites
// (in either snapshot: one call site reached through several stacks, or site
// 0's empty key), those sites are matched by their full stack, each frame
// by what the view kept of it (name, file, and line in a view by line);
// sites that still share an identity are added together. A row's `places`
// are its frames as text with their file:line, where they have one.
// The counters are cumulative within one page session, so the columns are
// meaningful for two snapshots of the same session, BEFORE taken first.
'use strict';

const { stackNames, siteLabel, stackText, sortBy } = require('./sites');
const { frameText } = require('./names');
const { hasSampledBlocks, allocationCalls } = require('./estimates');

// The columns, in DevTools' order: a row's field, the column's title and
// what it counts, as the CLI's table and help and the page's console table
// show them.
const DIFF_COLUMNS = [
  { key: 'newAllocs', title: '# New', about: 'allocations made in between' }, // after.totalAllocs - before.totalAllocs
  { key: 'freedBlocks', title: '# Deleted', about: 'blocks freed in between' }, // before.liveBlocks + # New - after.liveBlocks
  { key: 'countDelta', title: '# Delta', about: 'change in live blocks' }, // after.liveBlocks - before.liveBlocks
  { key: 'allocBytes', title: 'Alloc. Size', about: 'bytes allocated in between' }, // after.totalBytes - before.totalBytes
  { key: 'freedBytes', title: 'Freed Size', about: 'bytes freed in between' }, // before.liveBytes + Alloc. Size - after.liveBytes
  { key: 'sizeDelta', title: 'Size Delta', about: 'change in live bytes' }, // after.liveBytes - before.liveBytes
];
const COLUMNS = DIFF_COLUMNS.map((c) => c.key);

// --sort names -> ranking keys (descending: the largest growth first).
const DIFF_SORTS = {
  bytes: { title: 'size delta', keys: ['sizeDelta', 'allocBytes', 'countDelta'] },
  count: { title: '# delta', keys: ['countDelta', 'sizeDelta', 'newAllocs'] },
  allocs: { title: '# new', keys: ['newAllocs', 'allocBytes', 'sizeDelta'] },
};

function keyCounts(snapshot) {
  const counts = new Map();
  for (const s of snapshot.sites) counts.set(s.key, (counts.get(s.key) || 0) + 1);
  return counts;
}

// identity -> {key, label, stack, siteIds, liveBytes, liveBlocks, totalAllocs, totalBytes}
function groupSites(snapshot, collide) {
  const groups = new Map();
  for (const site of snapshot.sites) {
    const names = stackNames(snapshot, site);
    const places = site.stack.map((i) => frameText(snapshot.frames[i], true));
    const byStack = collide.has(site.key);
    const identity = byStack ? `${site.key}\n${site.stack.map((i) => frameIdentity(snapshot.frames[i])).join('\n')}` : site.key;
    let g = groups.get(identity);
    if (!g) {
      g = { key: site.key, label: siteLabel(snapshot, site), stack: names, places, matchedBy: byStack ? 'stack' : 'key',
        siteIds: [], liveBytes: 0, liveBlocks: 0, totalAllocs: 0, totalBytes: 0 };
      groups.set(identity, g);
    }
    g.siteIds.push(site.id);
    g.liveBytes += site.liveBytes;
    g.liveBlocks += site.liveBlocks;
    g.totalAllocs += site.totalAllocs;
    g.totalBytes += site.totalBytes;
  }
  return groups;
}

// What tells two frames of a view apart: its name, file and line (a view
// by function keeps no line; two static functions of one name in two files
// are two functions).
function frameIdentity(f) {
  return `${f.name}\u0000${f.file || ''}\u0000${f.line === undefined ? '' : f.line}`;
}

const ZERO = { liveBytes: 0, liveBlocks: 0, totalAllocs: 0, totalBytes: 0, siteIds: [] };
const counters = (g) => ({ liveBytes: g.liveBytes, liveBlocks: g.liveBlocks, totalAllocs: g.totalAllocs, totalBytes: g.totalBytes });

function diffSnapshots(before, after) {
  const collide = new Set(['']);
  // forEach, not `for (const [key, n] of ...)`: the page embeds this file
  // (jslib/bundle.js), and Emscripten 3.1.6's JS optimizer drops the
  // destructuring of a for-of head.
  for (const counts of [keyCounts(before), keyCounts(after)]) {
    counts.forEach((n, key) => { if (n > 1) collide.add(key); });
  }
  const b = groupSites(before, collide);
  const a = groupSites(after, collide);
  const identities = [...a.keys(), ...[...b.keys()].filter((k) => !a.has(k))];

  const rows = [];
  for (const id of identities) {
    const x = b.get(id) || ZERO;
    const y = a.get(id) || ZERO;
    const shown = a.get(id) || b.get(id);
    const newAllocs = y.totalAllocs - x.totalAllocs;
    const allocBytes = y.totalBytes - x.totalBytes;
    const row = {
      key: shown.key,
      label: shown.label,
      stack: shown.stack,
      places: shown.places,
      matchedBy: shown.matchedBy,
      status: !b.has(id) ? 'new' : !a.has(id) ? 'gone' : 'both',
      newAllocs,
      freedBlocks: x.liveBlocks + newAllocs - y.liveBlocks,
      countDelta: y.liveBlocks - x.liveBlocks,
      allocBytes,
      freedBytes: x.liveBytes + allocBytes - y.liveBytes,
      sizeDelta: y.liveBytes - x.liveBytes,
      before: counters(x),
      after: counters(y),
    };
    row.siteIds = { before: x.siteIds, after: y.siteIds };
    // unchanged sites are left out, as in DevTools
    if (COLUMNS.some((c) => row[c] !== 0)) rows.push(row);
  }
  const blocks = before.heap && after.heap ? blockChanges(before, after, rows) : null;
  rows.forEach((r) => { delete r.siteIds; });

  const sum = {};
  for (const c of COLUMNS) sum[c] = rows.reduce((t, r) => t + r[c], 0);
  const total = (s, k) => s.summary[k];
  const allocCalls = (s) => allocationCalls(s.summary);
  const totals = {
    // exact in every mode: the global counters
    liveBytes: triple(total(before, 'liveBytes'), total(after, 'liveBytes')),
    liveBlocks: triple(total(before, 'liveBlocks'), total(after, 'liveBlocks')),
    totalBytes: triple(total(before, 'totalBytes'), total(after, 'totalBytes')),
    allocCalls: triple(allocCalls(before), allocCalls(after)),
    freeCalls: triple(total(before, 'freeCalls'), total(after, 'freeCalls')),
    sites: triple(before.sites.length, after.sites.length),
  };
  return { rows, sum, totals, blocks, notes: notes(before, after) };
}

// How many instances a row lists, of each change, largest first.
const INSTANCES = 5;

// With the heap graph in both (snapshot.heap): the blocks live in one and
// not in the other, matched by id (2 * serial + 1: the same block keeps it
// across the snapshots of a run, and a block made again at a freed one's
// address gets another), as DevTools' Comparison matches objects. Each row
// gets `blocks` {new, newBytes, deleted, deletedBytes, instances: [{change,
// address, size, id}]}; -> the totals, or null when the snapshots are of
// two runs (no id in common: blocks cannot be matched).
function blockChanges(before, after, rows) {
  const index = (heap) => {
    const m = new Map();
    const b = heap.blocks;
    for (let k = 0; k < b.id.length; k++) m.set(b.id[k], k);
    return m;
  };
  const bi = index(before.heap);
  const ai = index(after.heap);
  let common = 0;
  ai.forEach((k, id) => { if (bi.has(id)) common++; });
  if (common === 0 && bi.size && ai.size) return null;
  const rowOf = { before: new Map(), after: new Map() };
  for (const r of rows) {
    r.blocks = { new: 0, newBytes: 0, deleted: 0, deletedBytes: 0, instances: [] };
    r.siteIds.before.forEach((id) => rowOf.before.set(id, r));
    r.siteIds.after.forEach((id) => rowOf.after.set(id, r));
  }
  const total = { new: 0, newBytes: 0, deleted: 0, deletedBytes: 0 };
  const note = (change, heap, k, r) => {
    const size = heap.blocks.size[k];
    total[change]++;
    total[change + 'Bytes'] += size;
    if (!r) return;
    r.blocks[change]++;
    r.blocks[change + 'Bytes'] += size;
    r.blocks.instances.push({ change, address: heap.blocks.address[k], size, id: heap.blocks.id[k] });
  };
  ai.forEach((k, id) => { if (!bi.has(id)) note('new', after.heap, k, rowOf.after.get(after.heap.blocks.site[k])); });
  bi.forEach((k, id) => { if (!ai.has(id)) note('deleted', before.heap, k, rowOf.before.get(before.heap.blocks.site[k])); });
  for (const r of rows) {
    const list = r.blocks.instances;
    const keep = (change) => list.filter((b) => b.change === change).sort((p, q) => q.size - p.size || p.address - q.address)
      .slice(0, INSTANCES);
    r.blocks.instances = keep('new').concat(keep('deleted'));
  }
  return total;
}

const triple = (before, after) => ({ before, after, delta: after - before });

// Things the reader must know to trust the columns.
function notes(before, after) {
  const out = [];
  if (after.summary.totalBytes < before.summary.totalBytes || after.summary.freeCalls < before.summary.freeCalls) {
    out.push('AFTER has fewer allocations in total than BEFORE: the files are swapped or come from two page sessions, so # New and # Deleted are not meaningful');
  } else if (Date.parse(after.capturedAt) < Date.parse(before.capturedAt)) {
    out.push('AFTER was captured before BEFORE: are the files swapped?');
  }
  if (before.source !== after.source) out.push(`the snapshots come from different sources (${before.source || '?'} and ${after.source || '?'})`);
  if (before.mode !== after.mode) out.push(`the snapshots were taken in different modes (${before.mode} and ${after.mode})`);
  if (hasSampledBlocks(before) || hasSampledBlocks(after)) {
    const interval = Math.max(before.samplingInterval || 0, after.samplingInterval || 0);
    out.push(`sampled blocks: per-site numbers that hold them are estimates (a site of B sampled bytes is off by ` +
      `about +-sqrt(${interval}/B), +-${Math.round(100 * Math.sqrt(interval / 16777216))}% at 16 MiB); the totals are exact`);
  }
  return out;
}

function sortDiffRows(rows, sort = 'bytes') {
  return sortBy(rows, DIFF_SORTS[sort].keys);
}

// The JSON a diff is saved as, by `emheap diff --json` and the page's
// emheap.downloadDiff() alike: the two snapshots (files: their names, when
// read from files), every total, the sites in `sort` order, the first `top`
// of them (0: all). diff: diffSnapshots(before, after) when made already.
function diffReport(before, after, { sort = 'bytes', top = 0, files = null, diff = diffSnapshots(before, after) } = {}) {
  const ranked = sortDiffRows(diff.rows, sort);
  const side = (s, file) => Object.assign(file ? { file } : {}, { capturedAt: s.capturedAt, mode: s.mode });
  return {
    before: side(before, files && files[0]), after: side(after, files && files[1]),
    totals: diff.totals, sum: diff.sum, blocks: diff.blocks, notes: diff.notes, sort,
    changedSites: ranked.length, sites: top > 0 ? ranked.slice(0, top) : ranked,
  };
}

module.exports = { diffSnapshots, sortDiffRows, diffReport, DIFF_SORTS, DIFF_COLUMNS, COLUMNS, stackText };
