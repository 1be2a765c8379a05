// The bench's target verdicts (bench/lib/targets.js): a ratio is "met" or
// "missed" only when the run's spread leaves no doubt, and a run too noisy
// to read 5% says so.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const {readTargets, medianError, targetRows} = require('../bench/lib/targets');

// A cell as run-bench.js leaves it: runs in ns/op, their median and
// relative MAD.
function cell(workload, config, env, runs, heapBytes) {
  const sorted = [...runs].sort((a, b) => a - b);
  const median = sorted[runs.length >> 1];
  const dev = runs.map((x) => Math.abs(x - median)).sort((a, b) => a - b);
  return {workload, config, env, nsPerOp: runs, median, spread: dev[runs.length >> 1] / median, heapBytes};
}

const steady = (x) => [x * 0.995, x, x * 1.005, x, x * 0.998, x * 1.002, x];
const noisy = (x) => [x * 0.7, x, x * 1.3, x * 0.8, x * 1.25, x, x * 1.1];

test('clear readings are met or missed; a close one is not decided', () => {
  const cells = [
    cell('sqlite', 'forwarding only', 'node', steady(100)), cell('sqlite', 'sampled/js', 'node', steady(104)),
    cell('lua', 'forwarding only', 'node', steady(100)), cell('lua', 'sampled/js', 'node', steady(118)),
    cell('micro', 'forwarding only', 'node', steady(100)), cell('micro', 'sampled/js', 'node', steady(135.2)),
  ];
  const byWorkload = Object.fromEntries(readTargets(cells, ['node']).map((t) => [t.workload, t]));
  assert.equal(byWorkload.sqlite.verdict, 'met');
  assert.ok(Math.abs(byWorkload.sqlite.value - 1.04) < 1e-9);
  assert.equal(byWorkload.lua.verdict, 'missed');
  assert.equal(byWorkload.micro.verdict, 'too close to call');
  for (const t of Object.values(byWorkload)) assert.ok(t.readable, JSON.stringify(t));
});

test('a noisy run reads nothing to 5%, whatever its medians say', () => {
  const cells = [cell('sqlite', 'forwarding only', 'chromium', noisy(100)),
    cell('sqlite', 'sampled/js', 'chromium', noisy(106))];
  const [t] = readTargets(cells, ['chromium']);
  assert.equal(t.readable, false);
  assert.equal(t.verdict, 'too close to call');
  assert.ok(medianError(cells[0]) > 0.05);
});

test('off is read against the floor; heap against the baseline, node only; missing cells give no row', () => {
  const cells = [
    cell('micro', 'forwarding only', 'node', steady(100)), cell('micro', 'off', 'node', steady(110)),
    cell('lua', 'baseline', 'node', steady(50), 8 << 20), cell('lua', 'sampled/js', 'node', steady(60), 8.2 * (1 << 20)),
    cell('lua', 'baseline', 'firefox', steady(50), 8 << 20), cell('lua', 'sampled/js', 'firefox', steady(60), 16 << 20),
  ];
  const targets = readTargets(cells, ['node', 'firefox']);
  assert.deepEqual(targets.map((t) => `${t.what}|${t.workload}|${t.env}|${t.verdict}`), [
    'off vs forwarding only|micro|node|missed',
    'sampled mode heap vs baseline|lua|node|met',
  ]);
});

test('the A/A control reads fair at 1.00x within its ±, biased outside it', () => {
  const paired = (config, ratios) => ({workload: 'micro', config, env: 'firefox', median: 30, nsPerOp: [30],
    spread: 0.1, paired: {reference: 'forwarding only', ratios}});
  const around = (x) => Array.from({length: 90}, (_, i) => x * (1 + 0.04 * Math.sin(i)));
  const reference = {workload: 'micro', config: 'forwarding only', env: 'firefox', median: 30, nsPerOp: [30], spread: 0.1};
  const read = (x) => readTargets([reference, paired('forwarding again', around(x))], ['firefox'])
    .find((t) => t.control);
  assert.equal(read(1.004).verdict, 'fair');
  const biased = read(1.04);
  assert.equal(biased.verdict, 'biased');
  assert.ok(Math.abs(biased.value - 1.04) < 0.01, String(biased.value));
  assert.equal(targetRows([biased], {firefox: 'Firefox'})[0][4], '= 1.00x');
});
