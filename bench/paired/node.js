// node.js -- a paired run under node (see driver.js): every build of one
// workload in a worker thread of this process, one repetition at a time.
//
//   node bench/paired/node.js SPEC.json
//   SPEC = {rounds, reference, builds: [{js, args: [..], env: {..}}]}
//
// Prints one line "PAIRED {json}": driver.js's runPaired result,
// {builds: [{lines, error}], sequence: [{round, build, ns}]}. `lines` is
// what the build printed: emheap's summary line after main, the result
// line after bench_report().
// The whole process is pinned by the harness (taskset), so the threads
// share one CPU and only one of them runs at a time.
'use strict';

const fs = require('fs');
const {Worker, isMainThread, parentPort, workerData} = require('worker_threads');

const {runPaired, channel} = require('./driver');
const {runBuild} = require('../lib/node-build');

// ---- worker thread: one build ----------------------------------------------

// An Emscripten build (no MODULARIZE) reads a global `Module` and node's
// require/__dirname; give it those in a function scope.
function loadBuild({js, args}) {
  const lines = [];
  const post = (message) => parentPort.postMessage({...message, lines: lines.splice(0)});
  const Module = {
    arguments: args.map(String),
    benchDriven: true,
    print: (text) => lines.push(String(text)),
    printErr: (text) => lines.push('stderr: ' + text),
    onAbort: (what) => post({error: `abort: ${what}`}),
    // After main (the warm-up) and emheap's summary line (bench-pre.js).
    postRun: [() => setTimeout(() => post({ready: true}), 0)],
  };
  parentPort.on('message', (command) => {
    try {
      if (command === 'rep') post({ns: Module._bench_repetition()});
      else if (command === 'report') {
        Module._bench_report();
        post({reported: true});
      }
    } catch (e) {
      post({error: String((e && e.message) || e)});
    }
  });
  runBuild(js, Module);
}

// ---- main thread: the coordinator ------------------------------------------

// A channel of driver.js's runPaired: build i in a worker thread.
function openWorker(build) {
  const worker = new Worker(__filename, {workerData: build, env: {...process.env, ...(build.env || {})},
    stdout: true, stderr: true});
  const early = []; // printed outside Module.print (stdout, stderr)
  worker.stdout.on('data', (d) => early.push(...String(d).split('\n').filter(Boolean)));
  worker.stderr.on('data', (d) => early.push(...String(d).split('\n').filter(Boolean).map((l) => 'stderr: ' + l)));
  let closing = false;
  const ch = channel((command) => worker.postMessage(command), () => {
    closing = true;
    return worker.terminate();
  });
  const deliver = (m) => ch.deliver({...m, lines: [...early.splice(0), ...(m.lines || [])]});
  worker.on('message', deliver);
  worker.on('error', (e) => deliver({error: String(e.message || e)}));
  worker.on('exit', (code) => { if (!closing) deliver({error: `the worker exited (${code})`}); });
  return ch;
}

async function coordinate(spec) {
  const run = await runPaired(spec.builds.length, spec, (i) => openWorker(spec.builds[i]));
  process.stdout.write('PAIRED ' + JSON.stringify(run) + '\n');
}

if (isMainThread) {
  coordinate(JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))).catch((e) => {
    console.error(e && e.stack || e);
    process.exit(1);
  });
} else {
  loadBuild(workerData);
}
