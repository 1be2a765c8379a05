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

// "+-12%": how a person reads the precision of an estimate.
function errorText(bytes, interval) {
  return '+-' + Math.max(1, Math.round(estimateError(bytes, interval) * 100)) + '%';
}

module.exports = {estimateError: estimateError, errorText: errorText};
