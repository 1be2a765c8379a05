#!/usr/bin/env node
// sample-cost.js -- what one sample of the default (sampled, JS stacks) mode
// costs under node, and where the time goes (bench/README.md, "The cost of
// a sample").
//
//   node --no-liftoff --no-wasm-lazy-compilation bench/sample-cost.js [BUILD.js] [REPETITIONS]
//
// BUILD.js: an emheap build of a bench workload (default: the Lua one that
// `make bench` leaves in build/bench/emheap-js/lua.js). It runs driven, as in
// a paired run (Module.benchDriven): main warms up, then REPETITIONS (40)
// repetitions run in sampled mode. Per sample taken by emheap it prints:
//   - js: the time in emheap_js_capture_stack, the import that wasm calls
//     to capture a stack: everything JS does for a sample (timed by a
//     wrapper around the import, whose frame adds one JS frame to each
//     captured stack);
//   - v8: V8's part of that, timed around Error.captureStackTrace (the
//     stack walk) and the first read of the holder's .stack (V8 building a
//     call site object per frame): a wrapper cut from the captured stack,
//     as emheap's own frames are;
//   - emheap: js - v8, emheap's walk of the call sites into its stack trie;
//   - frames: call sites per capture.
// The C side of a sample (the site and block tables) is not in js; it is
// a few hash probes. No profiler runs: V8's CPU profiler doubles v8.
'use strict';

const fs = require('fs');
const path = require('path');
const {runBuild} = require('./lib/node-build');

const ROOT = path.join(__dirname, '..');
const js = path.resolve(process.argv[2] || path.join(ROOT, 'build', 'bench', 'emheap-js', 'lua.js'));
const repetitions = Number(process.argv[3] || 40);
if (!fs.existsSync(js)) {
  console.error(`sample-cost: no ${js} (make bench builds it; or name an emheap build of a bench workload)`);
  process.exit(2);
}
process.env.EMHEAP_MODE = 'sampled';

// V8's part, timed at its two calls. The wrapper's frame sits leaf-side of
// the frame emheap cuts at, so the stacks emheap sees are unchanged.
const v8Part = {ms: 0, captures: 0, frames: 0};
const captureStackTrace = Error.captureStackTrace;
Error.captureStackTrace = function timedCaptureStackTrace(holder, above) {
  const started = performance.now();
  captureStackTrace.call(Error, holder, above || timedCaptureStackTrace);
  const stack = holder.stack; // formatted now, with emheap's formatter installed
  v8Part.ms += performance.now() - started;
  v8Part.captures++;
  if (Array.isArray(stack)) v8Part.frames += stack.length;
};

// The import wasm calls for a stack, timed.
const jsPart = {ms: 0, calls: 0};
function timeCaptureImport(imports) {
  const env = imports.env;
  const capture = env.emheap_js_capture_stack;
  if (typeof capture !== 'function') throw new Error('the build imports no emheap_js_capture_stack: not an emheap JS-stack build');
  env.emheap_js_capture_stack = function timedCaptureImport() {
    const started = performance.now();
    const ref = capture();
    jsPart.ms += performance.now() - started;
    jsPart.calls++;
    return ref;
  };
}

function measure(Module) {
  const summary = () => JSON.parse(Module.emheap.getSnapshotJson());
  if (summary().mode !== 'sampled') throw new Error(`the build runs in ${summary().mode} mode, not sampled`);
  const before = summary().sampledAllocs;
  Object.assign(v8Part, {ms: 0, captures: 0, frames: 0});
  Object.assign(jsPart, {ms: 0, calls: 0});
  const started = performance.now();
  for (let i = 0; i < repetitions; i++) Module._bench_repetition();
  const wallMs = performance.now() - started;
  const samples = summary().sampledAllocs - before;
  const us = (ms) => +(1000 * ms / jsPart.calls).toFixed(1);
  console.log(JSON.stringify({
    build: path.relative(ROOT, js), node: process.version, repetitions, wallMs: Math.round(wallMs), samples,
    samplesPerSecond: Math.round(samples / wallMs * 1000), captures: jsPart.calls,
    framesPerCapture: v8Part.captures ? +(v8Part.frames / v8Part.captures).toFixed(1) : 0,
    usPerCapture: {js: us(jsPart.ms), v8: us(v8Part.ms), emheap: us(jsPart.ms - v8Part.ms)},
    shareOfWall: +(jsPart.ms / wallMs).toFixed(4),
  }));
}

const Module = {
  arguments: [],
  benchDriven: true,
  print: () => {},
  printErr: (text) => console.error(text),
  instantiateWasm: (imports, receive) => {
    timeCaptureImport(imports);
    const wasm = path.join(path.dirname(js), path.basename(js, '.js') + '.wasm');
    WebAssembly.instantiate(fs.readFileSync(wasm), imports).then((r) => receive(r.instance, r.module));
    return {};
  },
  postRun: [() => setTimeout(() => {
    try {
      measure(Module);
    } catch (e) {
      console.error(`sample-cost: ${e.message}`);
      process.exitCode = 1;
    }
  }, 0)],
};
runBuild(js, Module);
