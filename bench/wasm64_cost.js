#!/usr/bin/env node
// wasm64_cost.js -- what an allocator call costs in a wasm64 (-m64)
// program against the same program in wasm32, each without emheap, with
// emheap forwarding only (mode off: the floor) and in exact mode. The
// program (bench/workloads/width_churn.c) prints the median ns per call of
// its repetitions; this runs the six builds in turns, BENCH_WASM64_RUNS
// (default 5) times each, and prints the medians as a Markdown table.
//
// Usage: node bench/wasm64_cost.js DIR NODE   (DIR holds {wasm32,wasm64}-
// {plain,off,exact}.js, bench/bench.mk builds them; NODE runs wasm64)
'use strict';

const {spawnSync} = require('child_process');
const path = require('path');

const RUNS = Number(process.env.BENCH_WASM64_RUNS || 5);
const WIDTHS = ['wasm32', 'wasm64'];
const CONFIGS = ['plain', 'off', 'exact'];

function median(values) {
  const s = values.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}

function runOnce(node, file) {
  const r = spawnSync(node, [path.basename(file)], {cwd: path.dirname(file), encoding: 'utf8'});
  const line = (r.stdout || '').split('\n').find((l) => l.startsWith('{'));
  if (r.status !== 0 || !line) throw new Error(`${file} failed (${r.status}): ${(r.stderr || '').slice(-500)}`);
  return JSON.parse(line).nsPerCall;
}

function main() {
  const [dir, node] = process.argv.slice(2);
  if (!dir || !node) {
    console.error('usage: wasm64_cost.js DIR NODE');
    process.exit(2);
  }
  const samples = {};
  for (let i = 0; i < RUNS; i++) {
    for (const width of WIDTHS) {
      for (const config of CONFIGS) {
        const key = `${width}-${config}`;
        (samples[key] = samples[key] || []).push(runOnce(node, path.resolve(dir, key + '.js')));
      }
    }
  }
  const ns = (width, config) => median(samples[`${width}-${config}`]);
  const f = (x) => x.toFixed(1);
  const r = (x) => x.toFixed(2) + 'x';
  console.log([
    `| ns per allocator call (median of ${RUNS} runs; ${path.basename(node)} ${spawnSync(node, ['--version'], {encoding: 'utf8'}).stdout.trim()}) | without emheap | forwarding only | exact | exact / forwarding only |`,
    '|---|---|---|---|---|',
    ...WIDTHS.map((w) => `| ${w} | ${f(ns(w, 'plain'))} | ${f(ns(w, 'off'))} | ${f(ns(w, 'exact'))} | ${r(ns(w, 'exact') / ns(w, 'off'))} |`),
  ].join('\n'));
}

main();
