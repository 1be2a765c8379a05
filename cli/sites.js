// sites.js: naming and ranking the sites of one snapshot, for `emheap top`
// and the other commands. A site's label is its call site key
// ("leak_memory+0x1a2b"), or "(unattributed)" for site 0; its stack is the
// frame names leaf first.
'use strict';

const UNATTRIBUTED = '(unattributed)';

// --sort names -> what they rank by (descending), with tie-breakers.
const SORTS = {
  bytes: { title: 'live bytes', keys: ['liveBytes', 'liveBlocks', 'totalBytes'] },
  count: { title: 'live blocks', keys: ['liveBlocks', 'liveBytes', 'totalAllocs'] },
  allocs: { title: 'allocations', keys: ['totalAllocs', 'totalBytes', 'liveBytes'] },
};

function stackNames(snapshot, site) {
  return site.stack.map((i) => snapshot.frames[i].name);
}

function siteLabel(snapshot, site) {
  if (site.key) return site.key;
  return site.stack.length ? snapshot.frames[site.stack[0]].name : UNATTRIBUTED;
}

// "leak_memory < parse_chunk < main", or "(unattributed)".
function stackText(names) {
  return names.length ? names.join(' < ') : UNATTRIBUTED;
}

// Frames of a site for JSON output: {name, file?, line?}, leaf first.
function stackFrames(snapshot, site) {
  return site.stack.map((i) => {
    const f = snapshot.frames[i];
    const out = { name: f.name };
    if (f.file !== undefined) out.file = f.file;
    if (f.line !== undefined) out.line = f.line;
    return out;
  });
}

// Rows sorted by `keys` descending; Array.prototype.sort is stable, so ties
// keep their order.
function sortBy(rows, keys) {
  return rows.slice().sort((a, b) => {
    for (const k of keys) {
      if (a[k] !== b[k]) return b[k] - a[k];
    }
    return 0;
  });
}

// `emheap top`: every site, ranked; `top` = 0 keeps them all.
function topSites(snapshot, { sort = 'bytes', top = 0 } = {}) {
  const ranked = sortBy(snapshot.sites, SORTS[sort].keys);
  const shown = top > 0 ? ranked.slice(0, top) : ranked;
  return {
    sort,
    totalSites: ranked.length,
    sites: shown.map((site, i) => ({
      rank: i + 1,
      id: site.id,
      key: site.key,
      label: siteLabel(snapshot, site),
      stack: stackFrames(snapshot, site),
      liveBytes: site.liveBytes,
      liveBlocks: site.liveBlocks,
      totalAllocs: site.totalAllocs,
      totalBytes: site.totalBytes,
      peakLiveBytes: site.peakLiveBytes,
    })),
  };
}

// One line about how the per-site numbers were measured.
function modeNote(snapshot) {
  if (snapshot.mode === 'sampled') {
    return `mode sampled (one stack per ${snapshot.samplingInterval} bytes allocated on average): per-site numbers are estimates, totals are exact`;
  }
  return `mode ${snapshot.mode}: every allocation recorded, per-site numbers are exact`;
}

module.exports = { SORTS, UNATTRIBUTED, stackNames, siteLabel, stackText, stackFrames, sortBy, topSites, modeNote };
