#!/usr/bin/env node
// side_module_cost.js -- what an allocation costs in a side module of a
// -sMAIN_MODULE program against one in the main module, with emheap (exact
// mode, linked with emheap-config --main-module) and without: calling
// contexts cover the main module only, so each allocation a side module
// makes takes a JS stack. The program (bench/workloads/dylink_churn.c) runs
// the same loop (bench/workloads/churn.h) in each module in turns and
// prints medians; this runs each build in BENCH_SIDE_RUNS (default 3) node
// processes and prints the medians of those, as a Markdown table.
//
// Usage: node bench/side_module_cost.js PLAIN_DIR EMHEAP_DIR   (each holds
// main.js and side_churn.wasm; bench/bench.mk builds them)
'use strict';

const {spawnSync} = require('child_process');
const path = require('path');

const RUNS = Number(process.env.BENCH_SIDE_RUNS || 3);

function median(values) {
  const s = values.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}

// One build, RUNS processes -> {mainNsPerCall, sideNsPerCall} (medians).
function measure(dir) {
  const results = [];
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync(process.execPath, ['--no-experimental-fetch', 'main.js'], {cwd: dir, encoding: 'utf8'});
    const line = (r.stdout || '').split('\n').find((l) => l.startsWith('{'));
    if (r.status !== 0 || !line) throw new Error(`${dir}/main.js failed (${r.status}): ${(r.stderr || '').slice(-500)}`);
    results.push(JSON.parse(line));
  }
  return {main: median(results.map((x) => x.mainNsPerCall)), side: median(results.map((x) => x.sideNsPerCall))};
}

function main() {
  const [plainDir, emheapDir] = process.argv.slice(2);
  if (!plainDir || !emheapDir) {
    console.error('usage: side_module_cost.js PLAIN_DIR EMHEAP_DIR');
    process.exit(2);
  }
  const plain = measure(path.resolve(plainDir));
  const emheap = measure(path.resolve(emheapDir));
  const f = (x) => x.toFixed(1);
  const r = (x) => x.toFixed(2) + 'x';
  console.log([
    '| ns per allocator call (malloc or free; median) | main module | side module | side / main |',
    '|---|---|---|---|',
    `| without emheap | ${f(plain.main)} | ${f(plain.side)} | ${r(plain.side / plain.main)} |`,
    `| emheap, exact mode | ${f(emheap.main)} | ${f(emheap.side)} | ${r(emheap.side / emheap.main)} |`,
    `| emheap / without | ${r(emheap.main / plain.main)} | ${r(emheap.side / plain.side)} | |`,
  ].join('\n'));
}

main();
