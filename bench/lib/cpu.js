// cpu.js -- which CPUs the bench's runs may use.
//
// Why: on the 2-vCPU VMs this bench runs on, one vCPU can be much slower
// than the other for long stretches (measured 2026-11-22: SQLite baseline
// 2,650-2,700 ns/op pinned to cpu0, 1,756-1,788 pinned to cpu1, five runs
// each, interleaved). Unpinned, a run lands on either, so every cell's
// samples were bimodal and a ratio moved by 50% from one run to the next.
// So the bench times each CPU once at start and runs every single-threaded
// workload pinned to the fastest one (node runs through `taskset`, the
// browsers' process trees by affinity before each run); threaded workloads
// get every CPU, since 4 threads spinning on one CPU would measure the
// scheduler. BENCH_CPU=none turns this off, BENCH_CPU=N pins to CPU N.
'use strict';

const fs = require('fs');
const os = require('os');
const {spawnSync} = require('child_process');

function haveTaskset() {
  const r = spawnSync('taskset', ['-p', String(process.pid)], {encoding: 'utf8'});
  return !r.error && r.status === 0;
}

function allCpus() {
  return os.cpus().map((_, i) => i);
}

// Median ns/op of `runs` runs of `runOn(cpu)` per CPU, interleaved; picks
// the fastest CPU. runOn returns ns/op or null.
function timeCpus(runOn, runs = 3) {
  const cpus = allCpus();
  const samples = new Map(cpus.map((c) => [c, []]));
  for (let r = 0; r < runs; r++) {
    for (const c of cpus) {
      const ns = runOn(c);
      if (ns) samples.get(c).push(ns);
    }
  }
  const medians = cpus.map((c) => {
    const s = samples.get(c).sort((a, b) => a - b);
    return {cpu: c, nsPerOp: s.length ? s[s.length >> 1] : Infinity};
  });
  const best = medians.reduce((a, b) => (b.nsPerOp < a.nsPerOp ? b : a));
  return {best: best.nsPerOp === Infinity ? null : best.cpu, medians};
}

// The plan: {single: [cpu] | null, threaded: [cpus] | null, note}. null =
// do not pin. `runOn(cpu)` times a short single-threaded run on one CPU.
function planCpus(runOn) {
  const setting = (process.env.BENCH_CPU || 'auto').trim();
  if (setting === 'none') return {single: null, threaded: null, note: 'not pinned (BENCH_CPU=none)'};
  if (!haveTaskset()) return {single: null, threaded: null, note: 'not pinned (no taskset)'};
  const cpus = allCpus();
  if (/^\d+$/.test(setting)) {
    return {single: [Number(setting)], threaded: cpus, note: `single-threaded runs pinned to CPU ${setting} (BENCH_CPU)`};
  }
  if (cpus.length < 2) return {single: null, threaded: null, note: 'one CPU, not pinned'};
  const {best, medians} = timeCpus(runOn);
  const speeds = medians.map((m) => `cpu${m.cpu} ${m.nsPerOp === Infinity ? 'failed' : m.nsPerOp.toFixed(1)}`).join(', ');
  if (best === null) return {single: null, threaded: null, note: `not pinned (calibration failed: ${speeds})`};
  return {single: [best], threaded: cpus,
    note: `single-threaded runs pinned to CPU ${best}, the fastest at start (baseline micro ns/op: ${speeds}); threaded runs use every CPU`};
}

// `taskset -c LIST` prefix for a command, or [] when not pinning.
function tasksetPrefix(cpus) {
  return cpus ? ['taskset', '-c', cpus.join(',')] : [];
}

// Every process below `root` (this bench's browsers and their renderers).
function descendants(root) {
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch (e) {
      continue; // gone
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(name));
  }
  const out = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()) || []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

// Sets the affinity of every thread of every process below this one. New
// renderers are forked from a browser process that already has it.
let lastTreeSetting = '';
function pinDescendants(cpus) {
  const list = (cpus || allCpus()).join(',');
  if (list === lastTreeSetting) return;
  for (const pid of descendants(process.pid)) {
    spawnSync('taskset', ['-a', '-cp', list, String(pid)], {stdio: 'ignore'});
  }
  lastTreeSetting = list;
}

module.exports = {planCpus, tasksetPrefix, pinDescendants};
