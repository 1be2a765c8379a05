// budget.js: `emheap check` budgets. The live-bytes budget is checked
// against the bytes the program asked for, as the rows count them, in
// exact mode, else against the usable sizes (model/sites.js
// budgetLiveBytes: exact either way); the per-site budget against each
// site's live bytes (estimates in sampled mode).
'use strict';

const { siteLabel, stackNames, sortBy, budgetLiveBytes } = require('../model/sites');

// -> {ok, live: {bytes, requested}, failures: [{kind: 'live' | 'site', limit,
// value, sites: [...]}], largestSite}
function checkBudgets(snapshot, { maxLiveBytes, maxSiteBytes } = {}) {
  const ranked = sortBy(snapshot.sites, ['liveBytes', 'liveBlocks']).filter((s) => s.liveBytes > 0);
  const describe = (s) => ({ id: s.id, label: siteLabel(snapshot, s), stack: stackNames(snapshot, s), liveBytes: s.liveBytes, liveBlocks: s.liveBlocks });
  const failures = [];
  const live = budgetLiveBytes(snapshot);
  if (maxLiveBytes !== undefined && live.bytes > maxLiveBytes) {
    // name the sites holding the most, where the bytes are to be found
    failures.push({ kind: 'live', limit: maxLiveBytes, value: live.bytes, sites: ranked.slice(0, 3).map(describe) });
  }
  if (maxSiteBytes !== undefined) {
    const over = ranked.filter((s) => s.liveBytes > maxSiteBytes);
    if (over.length) failures.push({ kind: 'site', limit: maxSiteBytes, value: over[0].liveBytes, sites: over.map(describe) });
  }
  return { ok: failures.length === 0, live, failures, largestSite: ranked.length ? describe(ranked[0]) : null };
}

module.exports = { checkBudgets };
