// growth.js -- the wasm memory's growths and what made each one: the
// allocation whose sbrk grew the memory, charged to its site, with the
// sites that held the most just after (the runtime keeps the last 64 in a
// ring: runtime/state.c emheap_break_moved). The same lines in `emheap
// top` and, as each growth happens, on the console (capture/growth_log.js).
//
// A growth (snapshot.heapGrowth[i]): {fromBytes, toBytes, siteId, and
// from files of layout 13 on: requestBytes (0: not known), t (ms, on the
// timeline's clock), top: [{siteId, liveBytes, atLeast?}], estimated?}.
'use strict';

const { formatBytes, formatCount, plural } = require('./numbers');
const { shortStackText, siteLabel } = require('./sites');
const { UNATTRIBUTED } = require('./snapshot_file');

const STACK_FRAMES = 3;

// The text of a site of `snapshot`: its first frames, or its label.
function siteText(snapshot, siteId) {
  const site = snapshot.sites.find((s) => s.id === siteId);
  if (!site) return siteId === 0 ? UNATTRIBUTED : `(site ${siteId}, not in this snapshot)`;
  return site.stack.length ? shortStackText(snapshot, site.stack, STACK_FRAMES) : siteLabel(snapshot, site);
}

// 1234.5 ms -> "1.235 s"
function seconds(ms) {
  return `${(ms / 1000).toFixed(3)} s`;
}

// The lines of one growth: what grew, when, and at whose request; then the
// sites that held the most. cause: the allocation's stack as text;
// textOf(siteId): a top site's.
function growthEventLines(g, cause, textOf) {
  const what = g.requestBytes ? `a request of ${formatCount(g.requestBytes)} bytes at ` : 'an allocation at ';
  // (files of layouts before 13 have neither time nor request)
  const how = g.t !== undefined ? ` at ${seconds(g.t)}: ${what}` : ' at ';
  const lines = [`${formatBytes(g.fromBytes)} -> ${formatBytes(g.toBytes)}${how}${cause}`];
  if (g.top && g.top.length) lines.push(`  the most live then${g.estimated ? ' (estimated)' : ''}: ${mostLiveText(g, textOf)}`);
  return lines;
}

// "12.00 MiB leak < main; 1.00 MiB load < main": the sites that held the
// most just after the growth. Estimates (sampled mode) are said as such;
// so is a site the snapshot merged from parts the runtime did not all
// rank (capture/raw_snapshot.js): it held at least that much.
function mostLiveText(g, textOf) {
  const bytes = (t) => (t.atLeast ? 'at least ' : g.estimated ? '~' : '') + formatBytes(t.liveBytes);
  return (g.top || []).map((t) => `${bytes(t)} ${textOf(t.siteId)}`).join('; ');
}

// A growth with its sites renamed where sites were merged into one (the
// snapshot's stacks that clean to one, capture/raw_snapshot.js; an allocation
// layer left out, model/wrappers.js): kept(id) -> the id kept; parts(id)
// -> how many sites that one now holds (1: none merged). Top sites that
// merge are added up; one whose other parts were not among the top then
// gets atLeast: it held at least the bytes shown.
function withMergedSites(g, kept, parts) {
  const out = Object.assign({}, g, { siteId: kept(g.siteId) });
  if (!g.top) return out;
  const rows = new Map();
  for (const t of g.top) {
    const id = kept(t.siteId);
    const row = rows.get(id) || { siteId: id, liveBytes: 0, seen: 0, atLeast: false };
    row.liveBytes += t.liveBytes;
    row.seen++;
    row.atLeast = row.atLeast || !!t.atLeast;
    rows.set(id, row);
  }
  out.top = [...rows.values()].sort((a, b) => b.liveBytes - a.liveBytes).map((row) => {
    const t = { siteId: row.siteId, liveBytes: row.liveBytes };
    if (row.atLeast || row.seen < parts(row.siteId)) t.atLeast = true;
    return t;
  });
  return out;
}

// -> lines (no newline) on the last `last` growths, oldest first, and how
// many there were in all; [] when the memory never grew.
function growthLines(snapshot, last = 5) {
  const total = snapshot.summary.heapGrowths || 0;
  const events = snapshot.heapGrowth || [];
  if (!total || !events.length) return [];
  const shown = events.slice(-last);
  const lines = [`wasm memory grew ${plural(total, 'time')}` +
    (shown.length < total ? `; the last ${shown.length}:` : ':')];
  const textOf = (id) => siteText(snapshot, id);
  for (const g of shown) {
    for (const line of growthEventLines(g, textOf(g.siteId), textOf)) lines.push(`  ${line}`);
  }
  return lines;
}

module.exports = { growthLines, growthEventLines, mostLiveText, siteText, withMergedSites, STACK_FRAMES };
