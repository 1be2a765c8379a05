#!/usr/bin/env node
// wasm64_cost.js -- what an allocator call costs in a wasm64 (-m64)
// program against the same program in wasm32, each without emheap, with
// emheap forwarding only (mode off: the floor) and in exact mode. The
// program (bench/workloads/width_churn.c) prints the median ns per call of
// its repetitions; this runs the builds in turns, BENCH_WASM64_RUNS
// (default 5) times each, and prints the medians as a Markdown table.
//
// Usage: node bench/wasm64_cost.js DIR NODE   (DIR holds {wasm32,wasm64}-
// {plain,off,exact}.js, bench/bench.mk builds them; NODE runs wasm64)
'use strict';

const {spawnSync} = require('child_process');
const path = require('path');

const RUNS = Number(process.env.BENCH_WASM64_RUNS || 5);
// Each row: a width, and its exact mode's records where wasm32 keeps them
// in dlmalloc's blocks (footers, runtime/footer.h) by default, which
// wasm64 does not: wasm32 again with them in the block table is the
// like-for-like row.
const ROWS = [
  {label: 'wasm32', width: 'wasm32', env: {}},
  {label: 'wasm32, records in the block table (EMHEAP_FOOTERS=0)', width: 'wasm32', env: {EMHEAP_FOOTERS: '0'}},
  {label: 'wasm64 (records in the block table)', width: 'wasm64', env: {}},
];
const CONFIGS = ['plain', 'off', 'exact'];

function median(values) {
  const s = values.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}

function runOnce(node, file, env) {
  const r = spawnSync(node, [path.basename(file)], {cwd: path.dirname(file), encoding: 'utf8', env: {...process.env, ...env}});
  const line = (r.stdout || '').split('\n').find((l) => l.startsWith('{'));
  if (r.status !== 0 || !line) {
    throw new Error(`${file} failed (${r.error ? r.error.message : 'status ' + r.status}): ${(r.stderr || '').slice(-500)}`);
  }
  return JSON.parse(line).nsPerCall;
}

function main() {
  const [dir, nodeArg] = process.argv.slice(2);
  const node = nodeArg && path.resolve(nodeArg); // (each run's folder is its program's)
  if (!dir || !node) {
    console.error('usage: wasm64_cost.js DIR NODE');
    process.exit(2);
  }
  const samples = ROWS.map(() => ({}));
  for (let i = 0; i < RUNS; i++) {
    ROWS.forEach((row, k) => {
      for (const config of CONFIGS) {
        (samples[k][config] = samples[k][config] || []).push(runOnce(node, path.resolve(dir, `${row.width}-${config}.js`), row.env));
      }
    });
  }
  const f = (x) => x.toFixed(1);
  const r = (x) => x.toFixed(2) + 'x';
  const version = spawnSync(node, ['--version'], {encoding: 'utf8'}).stdout.trim();
  console.log([
    `| ns per allocator call (median of ${RUNS} runs; node ${version}) | without emheap | forwarding only | exact | exact / forwarding only |`,
    '|---|---|---|---|---|',
    ...ROWS.map((row, k) => {
      const ns = (config) => median(samples[k][config]);
      return `| ${row.label} | ${f(ns('plain'))} | ${f(ns('off'))} | ${f(ns('exact'))} | ${r(ns('exact') / ns('off'))} |`;
    }),
  ].join('\n'));
}

main();
