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
// repetitions run in sampled mode while V8's CPU profiler samples every
// 50 us. Per sample taken by emheap it prints:
//   - js: the profiler's time under emheap_js_capture_stack, the import
//     that wasm calls to capture a stack: everything JS does for a sample;
//   - v8: V8's part of that, timed around Error.captureStackTrace (the
//     stack walk) and the first read of the holder's .stack (V8 building a
//     call site object per frame): a wrapper installed for this probe, cut
//     from the captured stack as emheap's own frames are;
//   - emheap: js - v8, emheap's walk of the call sites into its stack trie;
//   - frames: call sites per capture.
// The C side of a sample (the site and block tables) is not in js; it is
// under 1 us (exact mode records every block at ~15 us, nearly all capture).
'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');
const inspector = require('inspector');

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

function post(session, method, params) {
  return new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
}

// Time (ms) the profile spent in frames named `name` and everything they called.
function inclusiveMs(profile, name) {
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const under = new Map();
  const isUnder = (id) => {
    if (under.has(id)) return under.get(id);
    const n = byId.get(id);
    const u = n.callFrame.functionName === name || (parent.has(id) && isUnder(parent.get(id)));
    under.set(id, u);
    return u;
  };
  let us = 0;
  profile.samples.forEach((id, i) => { if (isUnder(id)) us += profile.timeDeltas[i] || 0; });
  return us / 1000;
}

async function measure(Module) {
  const summary = () => JSON.parse(Module.emheap.getSnapshotJson());
  if (summary().mode !== 'sampled') throw new Error(`the build runs in ${summary().mode} mode, not sampled`);
  const session = new inspector.Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', {interval: 50});
  const before = summary().sampledAllocs;
  Object.assign(v8Part, {ms: 0, captures: 0, frames: 0});
  await post(session, 'Profiler.start');
  const started = performance.now();
  for (let i = 0; i < repetitions; i++) Module._bench_repetition();
  const wallMs = performance.now() - started;
  const {profile} = await post(session, 'Profiler.stop');
  session.disconnect();
  const samples = summary().sampledAllocs - before;
  const jsMs = inclusiveMs(profile, '_emheap_js_capture_stack');
  const us = (ms) => (samples ? (1000 * ms / samples).toFixed(1) : '-');
  console.log(JSON.stringify({
    build: path.relative(ROOT, js), node: process.version, repetitions, wallMs: Math.round(wallMs), samples,
    samplesPerSecond: Math.round(samples / wallMs * 1000), captures: v8Part.captures,
    framesPerCapture: v8Part.captures ? +(v8Part.frames / v8Part.captures).toFixed(1) : 0,
    usPerSample: {js: +us(jsMs), v8: +us(v8Part.ms), emheap: +us(jsMs - v8Part.ms)},
    shareOfWall: +(jsMs / wallMs).toFixed(4),
  }));
}

const Module = {
  arguments: [],
  benchDriven: true,
  print: () => {},
  printErr: (text) => console.error(text),
  postRun: [() => setTimeout(() => measure(Module).catch((e) => {
    console.error(`sample-cost: ${e.message}`);
    process.exitCode = 1;
  }), 0)],
};
// Compiled under its file name, as require() would (bench/paired/node.js).
const source = fs.readFileSync(js, 'utf8');
vm.runInThisContext(`(function (require, __dirname, __filename, Module) {${source}\n})`, {filename: js})(
  require, path.dirname(js), js, Module);
