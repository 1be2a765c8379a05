// growth.js -- the wasm memory's growths and what made each one: the
// allocation whose sbrk grew the memory, charged to its site (the runtime
// keeps the last 64 in a ring: runtime/state.c emheap_break_moved). The
// lines `emheap top` prints.
'use strict';

const { formatBytes, formatCount } = require('./numbers');
const { shortStackText, siteLabel } = require('./sites');
const { UNATTRIBUTED } = require('./snapshot_file');

const STACK_FRAMES = 3;

// The site a growth was charged to, as text: its first frames, or its label.
function growthSite(snapshot, siteId) {
  const site = snapshot.sites.find((s) => s.id === siteId);
  if (!site) return siteId === 0 ? UNATTRIBUTED : `(site ${siteId}, not in this snapshot)`;
  return site.stack.length ? shortStackText(snapshot, site.stack, STACK_FRAMES) : siteLabel(snapshot, site);
}

// -> lines (no newline) on the last `last` growths, oldest first, and how
// many there were in all; [] when the memory never grew.
function growthLines(snapshot, last = 5) {
  const total = snapshot.summary.heapGrowths || 0;
  const events = snapshot.heapGrowth || [];
  if (!total || !events.length) return [];
  const shown = events.slice(-last);
  const lines = [`wasm memory grew ${formatCount(total)} time${total === 1 ? '' : 's'}` +
    (shown.length < total ? `; the last ${shown.length}:` : ':')];
  for (const g of shown) {
    lines.push(`  ${formatBytes(g.fromBytes)} -> ${formatBytes(g.toBytes)} at ${growthSite(snapshot, g.siteId)}`);
  }
  return lines;
}

module.exports = { growthLines };
