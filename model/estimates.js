// estimates.js: how precise a sampled per-site number is, for the people
// who read it (the leak report in the page, `emheap top`, the demo).
'use strict';

// One standard error of a sampled estimate of `bytes` live bytes, as a
// fraction: sampling by bytes with mean interval R puts about B/R sampling
// points in B bytes, so the estimate is off by about sqrt(R/B). (Blocks of
// at least R are recorded exactly; a site made of them is exact, which
// this bound does not know.)
function estimateError(bytes, interval) {
  if (!(bytes > 0) || !(interval > 0)) return 1;
  return Math.min(1, Math.sqrt(interval / bytes));
}

// The ratio estimator (Cochran, Sampling Techniques, ch. 6): sampling gives
// each site an unbiased estimate of what its unrecorded blocks hold, but
// separately drawn estimates can add up to more than the heap (the sample
// page's one site once read ~4.26 MB of a 3.40 MB heap). What the blocks
// outside the exact records hold in all is known exactly: the global
// counters less the blocks recorded at their true size. So every site's
// estimated part is multiplied by that total over its own estimate (from
// the same samples, emheap_estimate_sums), which also lowers the variance
// when sites move together. Bytes: the sites count requested bytes, the
// totals usable ones; a block's request is at most its usable size, so
// the scaled sites never add up to more than the total. -> {bytes, blocks,
// bytesAtPeak, blocksAtPeak}: 1 where nothing is estimated. summary: the
// snapshot's (usable) counters; sums: capture/layout.js readEstimateSums.
function ratioScales(summary, sums) {
  function scale(total, exactPart, estimate) {
    if (!(estimate > 0)) return 1;
    return Math.max(0, total - exactPart) / estimate;
  }
  var now = sums.now;
  var peak = sums.atPeak;
  return {
    bytes: scale(summary.liveBytes, now.recordedUsable - now.usableActual, now.usable),
    blocks: scale(summary.liveBlocks, now.recorded - now.blocksActual, now.blocks),
    bytesAtPeak: scale(summary.peakLiveBytes, peak.recordedUsable - peak.usableActual, peak.usable),
    blocksAtPeak: scale(summary.liveBlocksAtPeak, peak.recorded - peak.blocksActual, peak.blocks),
  };
}

// The part of a site's live bytes that is an estimate: what it says
// (estimatedLiveBytes, files of layout 9 on), or all of it in a sampled
// snapshot that does not say.
function estimatedPart(snapshot, site) {
  if (site.estimatedLiveBytes !== undefined) return site.estimatedLiveBytes;
  return snapshot.mode === 'sampled' ? site.liveBytes : 0;
}

// Whether some of the snapshot's numbers were sampled: sampled mode, or
// exact mode that ran out of room for its tables (summary.thinnedAtBytes).
function hasSampledBlocks(snapshot) {
  return snapshot.mode === 'sampled' || (snapshot.summary || {}).thinnedAtBytes !== undefined;
}

// "+-12%" for a site's live bytes: one standard error of its estimated
// part (sqrt(R * E) bytes), against the whole; '' when exact.
function siteErrorText(snapshot, site, bytes) {
  var part = estimatedPart(snapshot, site);
  var whole = bytes === undefined ? site.liveBytes : bytes;
  if (!(part > 0)) return '';
  var interval = snapshot.samplingInterval || 0;
  var error = whole > 0 && interval > 0 ? Math.min(1, Math.sqrt(interval * part) / whole) : 1;
  return '+-' + Math.max(1, Math.round(error * 100)) + '%';
}

// The allocation calls of a summary, exact in every mode.
function allocationCalls(summary) {
  return summary.mallocCalls + summary.callocCalls + summary.reallocCalls + summary.memalignCalls;
}

// A row's allocations and allocated bytes where some blocks were sampled:
// estimates (a sampled block stands for 1/p blocks), which on a small
// program can read more than the program ever allocated (one 32-byte
// sample stands for 16,384 blocks at the default interval). The totals
// are exact (the global counters; sites count requested bytes, at most
// the usable sizes the total counts), so no row can hold more: each row
// is held to them. The rows of a snapshot without sampled blocks are
// exact and returned as they are. -> the rows, each with totalAllocs and
// totalBytes no more than the totals.
function boundedTotals(snapshot, rows) {
  var s = snapshot.summary;
  if (!hasSampledBlocks(snapshot) || !s || typeof s.totalBytes !== 'number') return rows;
  var allocs = allocationCalls(s);
  var within = function (r) { return r.totalAllocs <= allocs && r.totalBytes <= s.totalBytes; };
  if (rows.every(within)) return rows;
  return rows.map(function (r) {
    if (within(r)) return r;
    var bounded = Object.assign({}, r);
    bounded.totalAllocs = Math.min(r.totalAllocs, allocs);
    bounded.totalBytes = Math.min(r.totalBytes, s.totalBytes);
    return bounded;
  });
}

module.exports = { ratioScales: ratioScales, estimatedPart: estimatedPart,
  hasSampledBlocks: hasSampledBlocks, siteErrorText: siteErrorText, allocationCalls: allocationCalls, boundedTotals: boundedTotals};
