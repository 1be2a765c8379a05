#!/usr/bin/env node
// load-cost.js -- what the load-time rewrite for calling contexts
// (contexts/wasm_instrument.js) costs a page load: for each module, in fresh
// node processes (a page rewrites once, with cold JIT), the rewrite's time
// against the time V8 takes to compile the module as the page would
// (WebAssembly.compile, V8's default tiers), and the compile of the
// rewritten module. Medians of BENCH_LOAD_RUNS (default 5) processes.
//
// Usage: node bench/load-cost.js MODULE.wasm...   (prints a Markdown table)
'use strict';

const {spawnSync} = require('child_process');
const fs = require('fs');
const path = require('path');

const RUNS = Number(process.env.BENCH_LOAD_RUNS || 5);
const INSTRUMENT = path.join(__dirname, '..', 'contexts', 'wasm_instrument.js');

// One fresh process: {rewriteMs, compileMs, compileRewrittenMs, bytes, rewrittenBytes}
// (compile times with the process's V8 flags).
const CHILD = `
const {instrument} = require(${JSON.stringify(INSTRUMENT)});
const bytes = new Uint8Array(require('fs').readFileSync(process.argv[1]));
const now = () => Number(process.hrtime.bigint()) / 1e6;
(async () => {
  let t = now();
  await WebAssembly.compile(bytes);
  const compileMs = now() - t;
  t = now();
  const out = instrument(bytes, null);
  const rewriteMs = now() - t;
  t = now();
  await WebAssembly.compile(out.bytes);
  const compileRewrittenMs = now() - t;
  console.log(JSON.stringify({rewriteMs, compileMs, compileRewrittenMs, bytes: bytes.length,
    rewrittenBytes: out.bytes.length, sites: out.info.stats.instrumentedSites}));
})();`;

function median(values) {
  const s = values.slice().sort((a, b) => a - b);
  return s[s.length >> 1];
}

const TIERS = {lazy: [], liftoff: ['--no-wasm-lazy-compilation', '--liftoff-only'],
  turbofan: ['--no-wasm-lazy-compilation', '--no-liftoff']};

function measure(file) {
  const runs = {};
  for (const [tier, flags] of Object.entries(TIERS)) {
    runs[tier] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = spawnSync(process.execPath, [...flags, '-e', CHILD, file], {encoding: 'utf8'});
      if (r.status !== 0) return {error: (r.stderr || '').trim().split('\n').pop()};
      runs[tier].push(JSON.parse(r.stdout));
    }
  }
  const pick = (tier, k) => median(runs[tier].map((r) => r[k]));
  const first = runs.lazy[0];
  return {bytes: first.bytes, rewrittenBytes: first.rewrittenBytes, sites: first.sites,
    rewriteMs: pick('lazy', 'rewriteMs'), lazyMs: pick('lazy', 'compileMs'), liftoffMs: pick('liftoff', 'compileMs'),
    turbofanMs: pick('turbofan', 'compileMs'), turbofanRewrittenMs: pick('turbofan', 'compileRewrittenMs')};
}

function main() {
  const files = process.argv.slice(2);
  if (!files.length) {
    console.error('usage: node bench/load-cost.js MODULE.wasm...');
    process.exit(2);
  }
  console.log(`node ${process.versions.node}, ${RUNS} fresh processes each, medians\n`);
  console.log('| module | MB | rewrite ms | ms per MB | V8 compile ms: lazy / Liftoff / TurboFan | rewrite / TurboFan | TurboFan, rewritten module ms | MB after |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const file of files) {
    if (!fs.existsSync(file)) {
      console.log(`| ${path.basename(file)} | missing | | | | | | |`);
      continue;
    }
    const m = measure(file);
    if (m.error) {
      console.log(`| ${path.basename(file)} | error: ${m.error} | | | | | | |`);
      continue;
    }
    const mb = m.bytes / 1048576;
    console.log(`| ${path.basename(file)} | ${mb.toFixed(2)} | ${m.rewriteMs.toFixed(1)} | ${(m.rewriteMs / mb).toFixed(1)} | ` +
      `${m.lazyMs.toFixed(1)} / ${m.liftoffMs.toFixed(1)} / ${m.turbofanMs.toFixed(0)} | ` +
      `${(100 * m.rewriteMs / m.turbofanMs).toFixed(0)}% | ${m.turbofanRewrittenMs.toFixed(0)} | ` +
      `${(m.rewrittenBytes / 1048576).toFixed(2)} |`);
  }
}

main();
