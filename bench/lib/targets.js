// targets.js -- the speed and heap targets of `make bench`, read from one bench
// run: each is a ratio of two cells of the same workload and engine, and a
// verdict that says whether this run can tell.
//
// Paired cells (bench/paired/, lib/pairs.js) give the ratio directly: the
// median of the per-repetition ratios of one cell to the other, uncertain
// by u = 1.86 * MAD / sqrt(n) of those ratios. Otherwise:
// a ratio of two medians is uncertain by the runs' spread. The standard
// error of a median of n runs is about 1.2533 * sigma / sqrt(n), and sigma
// is about 1.4826 * MAD, so a cell's median is uncertain by about
// 1.86 * MAD / sqrt(n) (relative); a ratio's uncertainty u combines both
// cells'. The verdict is "met" or "missed" only when the target lies
// outside ratio +- 2u; otherwise "too close to call". A run whose 2u is
// over 5% cannot read a 5% difference, and says so: its spreads, not the
// code, decide such a verdict.
'use strict';

const {ratio} = require('./report');
const {ratioSummary} = require('./pairs');

// Each mode against the floor: the forwarding-only wrapper of the same run.
const SPEED_TARGETS = [
  // The default: exact stacks from calling contexts, every allocation recorded.
  {config: 'exact', over: 'forwarding only', limit: 1.05, workloads: ['sqlite'], what: 'exact mode (default) vs forwarding only'},
  {config: 'exact', over: 'forwarding only', limit: 1.20, workloads: ['lua'], what: 'exact mode (default) vs forwarding only'},
  {config: 'exact', over: 'forwarding only', limit: 1.5, workloads: ['micro'], what: 'exact mode (default) vs forwarding only'},
  {config: 'exact', over: 'forwarding only', limit: 2.0, workloads: ['alloc_only'], what: 'exact mode (default) vs forwarding only'},
  // With threads, against what one lock per call costs by itself (the
  // order of allocations exact mode needs): unpaired, a ratio of medians.
  {config: 'exact', over: 'forwarding + lock', limit: 1.25, workloads: ['threads'],
    what: 'exact mode with threads vs forwarding + lock'},
  {config: 'sampled/js', over: 'forwarding only', limit: 1.10, workloads: ['sqlite', 'lua'],
    what: 'sampled mode vs forwarding only'},
  {config: 'sampled/js', over: 'forwarding only', limit: 1.35, workloads: ['micro'],
    what: 'sampled mode vs forwarding only'},
  {config: 'off', over: 'forwarding only', limit: 1.03, workloads: ['micro', 'sqlite', 'lua'],
    what: 'off vs forwarding only'},
];
// The A/A control (run-bench.js): the forwarding-only build against itself
// in the same paired runs. It reads 1.00x when the bench is fair; "biased"
// when 1.00 lies outside its ±, and then the targets of that workload and
// engine carry that much of the bench's own error.
const CONTROL = {config: 'forwarding again', over: 'forwarding only', limit: 1, control: true,
  workloads: ['micro', 'alloc_only', 'sqlite', 'lua'], what: 'A/A control: forwarding again vs forwarding only'};
// The wasm heap at the end of a run, sampled mode against the baseline (node).
const HEAP_TARGET = {config: 'sampled/js', over: 'baseline', limit: 1.05, workloads: ['sqlite', 'lua'],
  what: 'sampled mode heap vs baseline'};
const READABLE = 0.05;

// Relative uncertainty of a cell's median (see the top of the file).
function medianError(cell) {
  const n = cell.nsPerOp ? cell.nsPerOp.length : 0;
  return n && Number.isFinite(cell.spread) ? 1.86 * cell.spread / Math.sqrt(n) : Infinity;
}

// a over b: {value, u, paired}. From a's per-repetition ratios when a was
// paired with b itself; else the ratio of the two cells' medians.
function targetRatio(a, b) {
  if (a.paired && a.paired.reference === b.config && a.paired.ratios.length) {
    const {value, u, n} = ratioSummary(a.paired.ratios);
    return {value, u, paired: n};
  }
  return {value: a.median / b.median, u: Math.hypot(medianError(a), medianError(b)), paired: 0};
}

function verdict(value, limit, u) {
  if (!Number.isFinite(value)) return 'no reading';
  if (value * (1 + 2 * u) <= limit) return 'met';
  if (value * (1 - 2 * u) > limit) return 'missed';
  return 'too close to call';
}

function controlVerdict(value, u) {
  if (!Number.isFinite(value)) return 'no reading';
  return value * (1 - 2 * u) <= 1 && 1 <= value * (1 + 2 * u) ? 'fair' : 'biased';
}

// cells: the bench's speed cells ({workload, config, env, median, spread,
// nsPerOp, heapBytes}). -> [{what, workload, env, value, limit, u,
// verdict, readable}], one per target, workload and engine that ran.
function readTargets(cells, envs) {
  const find = (workload, config, env) => cells.find((c) => c.workload === workload && c.config === config &&
    c.env === env && !c.error && !c.na && Number.isFinite(c.median));
  const out = [];
  for (const t of [...SPEED_TARGETS, CONTROL]) {
    for (const workload of t.workloads) {
      for (const env of envs) {
        const a = find(workload, t.config, env);
        const b = find(workload, t.over, env);
        if (!a || !b) continue;
        const {value, u, paired} = targetRatio(a, b);
        out.push({what: t.what, workload, env, value, limit: t.limit, control: !!t.control, u,
          verdict: t.control ? controlVerdict(value, u) : verdict(value, t.limit, u), readable: 2 * u <= READABLE, paired});
      }
    }
  }
  for (const workload of HEAP_TARGET.workloads) {
    const a = find(workload, HEAP_TARGET.config, 'node');
    const b = find(workload, HEAP_TARGET.over, 'node');
    if (!a || !b || !a.heapBytes || !b.heapBytes) continue;
    // The heap at the end does not vary between runs: no spread.
    const value = a.heapBytes / b.heapBytes;
    out.push({what: HEAP_TARGET.what, workload, env: 'node', value, limit: HEAP_TARGET.limit, u: 0,
      verdict: verdict(value, HEAP_TARGET.limit, 0), readable: true});
  }
  return out;
}

// Markdown rows for the report's table.
function targetRows(targets, envLabel) {
  return targets.map((t) => [t.what, t.workload, envLabel[t.env] || t.env, ratio(t.value),
    `${t.control ? '=' : '<='} ${t.limit.toFixed(2)}x`, `±${(200 * t.u).toFixed(1)}%`,
    t.verdict === 'too close to call' && !t.readable ? 'too close to call: ± over 5%' : t.verdict,
    t.paired ? String(t.paired) : '-']);
}

module.exports = {readTargets, targetRows, medianError, targetRatio, SPEED_TARGETS, HEAP_TARGET, CONTROL};
