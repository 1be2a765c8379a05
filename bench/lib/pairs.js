// pairs.js -- ratios from a paired run (bench/paired/driver.js): each
// repetition of a build divided by the reference build's repetitions just
// before and after it (their geometric mean), and one figure from many
// such ratios with its uncertainty.
'use strict';

const {median} = require('./report');

// sequence: [{round, build, ns}] in the order run (possibly several
// processes' sequences concatenated, each starting at a reference
// repetition). -> the ratios of `build` to `reference`, one per repetition
// of `build` that has a reference repetition on both sides.
function bracketedRatios(sequence, build, reference) {
  const out = [];
  for (let k = 1; k + 1 < sequence.length; k++) {
    const s = sequence[k];
    if (s.build !== build) continue;
    const before = sequence[k - 1];
    const after = sequence[k + 1];
    if (before.build !== reference || after.build !== reference) continue;
    out.push(s.ns / Math.sqrt(before.ns * after.ns));
  }
  return out;
}

// Many ratios -> {value: their median, u: its relative uncertainty, n}.
// u = 1.86 * MAD / sqrt(n), the MAD taken on the logs (relative spread): the
// standard error of a median (1.2533 sigma / sqrt(n), sigma ~ 1.4826 MAD),
// as targets.js uses for a cell's median.
function ratioSummary(ratios) {
  const n = ratios.length;
  if (!n) return {value: NaN, u: Infinity, n: 0};
  const value = median(ratios);
  const mad = median(ratios.map((r) => Math.abs(Math.log(r / value))));
  return {value, u: n > 1 ? 1.86 * mad / Math.sqrt(n) : Infinity, n};
}

module.exports = {bracketedRatios, ratioSummary};
