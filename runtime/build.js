#!/usr/bin/env node
// build.js -- what emheap's C runtime is made of, and how to compile it.
//
// One list of sources and flags for both ways of getting emheap: in a
// checkout, the Makefile reads the lists from here (`--print core|modes|cflags`)
// and keeps its own per-file rules; an npm install has no Makefile, and its
// bin/emheap-config calls build() on first use to compile the runtime with
// the user's own emcc into a cache folder of the package.
//
// Objects (what `emheap-config --ldflags` names):
//   emheap.o, emheap-mt.o              the core, single-threaded and -pthread
//   emheap_mode_{exact,sampled,off}.o  a mode chosen on the link line
//   emheap-pic.o, emheap_mode_*-pic.o  the same, position-independent, for
//                                      a -sMAIN_MODULE program (its side
//                                      modules need nothing of emheap)
//   emheap64.o, emheap64-mt.o,         wasm64 (-m64, -sMEMORY64), built only
//   emheap_mode_*64.o                  when asked for (build(out, {wasm64}))
// The core is one relocatable object, not an archive: an archive member
// defining malloc would only be pulled in if malloc were still undefined
// when the linker reached it, so apps that allocate only through libc/libc++
// would silently go untracked. Objects on the command line are always linked.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const {spawn} = require('child_process');

const RUNTIME_DIR = __dirname;
// Everything that touches thread-local or shared state is built twice: for
// single-threaded programs, and with -pthread (atomics, a lock); objects
// built with atomics cannot be linked into a program without shared memory.
const CORE = ['code_first', 'alloc_hooks', 'alloc_token', 'allocator', 'block_table', 'context_table', 'cxx_new_delete', 'footer', 'lock', 'pools', 'record', 'roots',
  'marks', 'heap_check', 'save_snapshot', 'sampler', 'site_table', 'stack_capture', 'state', 'table_memory', 'thread_counts', 'thread_exit',
  'code_last'];
const MODES = ['exact', 'sampled', 'off'];
// Only in the position-independent core: stand-ins for what a static link
// takes weak (optional.c).
const PIC_ONLY = ['optional'];
const CFLAGS = ['-O2', '-std=c11', '-Wall', '-Wextra', '-fno-builtin-malloc', '-fno-builtin-free'];

// Each output: the objects it is made from, how, and from which sources.
// wasm64: the flag that makes an object wasm64 with this emcc (memory64Flag):
// the wasm64 objects instead (named ...64, no position-independent ones).
function plan(out, wasm64) {
  const w = wasm64 ? '64' : '';
  const width = wasm64 ? [wasm64] : [];
  const unit = (dir, name, extra) => ({
    file: path.join(out, dir + w, name + '.o'), source: path.join(RUNTIME_DIR, name + '.c'), extra: [...width, ...extra]});
  const st = (name) => unit('obj', name, []);
  const mt = (name) => unit('obj-mt', name, ['-pthread']);
  const pic = (name) => unit('obj-pic', name, ['-fPIC']);
  const modeSources = MODES.map((m) => 'mode_' + m);
  const units = [...CORE, ...modeSources].map(st).concat(CORE.map(mt),
    wasm64 ? [] : [...CORE, ...PIC_ONLY, ...modeSources].map(pic));
  const byName = (dir, name) => units.find((u) => u.file === path.join(out, dir + w, name + '.o'));
  const finals = [
    {file: path.join(out, `emheap${w}.o`), link: width, from: CORE.map((n) => byName('obj', n))},
    {file: path.join(out, `emheap${w}-mt.o`), link: [...width, '-pthread'], from: CORE.map((n) => byName('obj-mt', n))},
    ...MODES.map((m) => ({file: path.join(out, `emheap_mode_${m}${w}.o`), from: [byName('obj', 'mode_' + m)]})),
  ];
  if (!wasm64) {
    finals.push({file: path.join(out, 'emheap-pic.o'), link: [], from: [...CORE, ...PIC_ONLY].map((n) => byName('obj-pic', n))},
      ...MODES.map((m) => ({file: path.join(out, `emheap_mode_${m}-pic.o`), from: [byName('obj-pic', 'mode_' + m)]})));
  }
  return {units, finals};
}

// How this emcc is told to compile for wasm64: -m64 since Emscripten
// 6.0.1 (where -sMEMORY64 is deprecated), -sMEMORY64=1 before. Asked of
// the emcc itself, not read from its version: the compile flags it would
// use with -m64 name wasm64 where it takes -m64 as its own (3.1.6 hands it
// to clang, whose wasm64 objects its link refuses).
async function memory64Flag(emcc) {
  const said = await new Promise((resolve) => {
    const child = spawn(emcc, ['-m64', '--cflags'], {stdio: ['ignore', 'pipe', 'ignore']});
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('error', () => resolve(''));
    child.on('close', () => resolve(out));
  });
  return /\bwasm64\b/.test(said) ? '-m64' : '-sMEMORY64=1';
}

function mtime(file) {
  try { return fs.statSync(file).mtimeMs; } catch { return -1; }
}

function run(emcc, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(emcc, args, {stdio: ['ignore', 'pipe', 'pipe']});
    let errors = '';
    child.stdout.on('data', (d) => { errors += d; });
    child.stderr.on('data', (d) => { errors += d; });
    child.on('error', (e) => reject(new Error(`cannot run ${emcc}: ${e.message}`)));
    child.on('close', (code) => code === 0 ? resolve()
      : reject(new Error(`${emcc} ${args.join(' ')} failed (exit ${code}):\n${errors.trim()}`)));
  });
}

// Writes go to a temporary name first: two builds of one folder at once (two
// link lines of a parallel build) each see only whole files.
async function produce(file, make) {
  fs.mkdirSync(path.dirname(file), {recursive: true});
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await make(tmp);
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, {force: true});
  }
}

async function pool(jobs, width) {
  let next = 0;
  const worker = async () => { while (next < jobs.length) await jobs[next++](); };
  await Promise.all(Array.from({length: Math.min(width, jobs.length)}, worker));
}

// Compiles what is missing or older than its sources into `out`; returns the
// number of files written. options: {emcc, jobs, wasm64 (the wasm64
// objects instead), werror}. Used by bin/emheap-config, without -Werror: the
// user's emcc may warn where this one does not.
async function build(out, options = {}) {
  const emcc = options.emcc || process.env.EMCC || 'emcc';
  const headers = fs.readdirSync(RUNTIME_DIR).filter((f) => f.endsWith('.h')).map((f) => path.join(RUNTIME_DIR, f));
  const newestHeader = Math.max(mtime(__filename), ...headers.map(mtime));
  const {units, finals} = plan(out, options.wasm64 ? await memory64Flag(emcc) : null);
  const cflags = options.werror ? [...CFLAGS, '-Werror'] : CFLAGS;
  const stale = units.filter((u) => mtime(u.file) < Math.max(newestHeader, mtime(u.source)));
  await pool(stale.map((u) => () => produce(u.file, (tmp) =>
    run(emcc, [...cflags, ...u.extra, '-c', u.source, '-o', tmp]))), options.jobs || os.cpus().length);
  const relink = finals.filter((f) => mtime(f.file) < Math.max(...f.from.map((u) => mtime(u.file))));
  await pool(relink.map((f) => () => produce(f.file, (tmp) => f.link
    ? run(emcc, [...f.link, '-r', ...f.from.map((u) => u.file), '-o', tmp])
    : fs.promises.copyFile(f.from[0].file, tmp))), options.jobs || os.cpus().length);
  return stale.length + relink.length;
}

module.exports = {build, run, memory64Flag, CORE, MODES, PIC_ONLY, CFLAGS};

if (require.main === module) {
  const lists = {core: CORE, modes: MODES, 'pic-only': PIC_ONLY, cflags: CFLAGS};
  const args = process.argv.slice(2);
  if (args[0] === '--memory64-flag') {
    memory64Flag(process.env.EMCC || 'emcc').then((flag) => console.log(flag));
  } else if (args[0] === '--build-wasm64' && args[1]) {
    // tests/tests.mk's wasm64 programs: the wasm64 objects into args[1], with $EMCC
    build(args[1], {wasm64: true, werror: true}).catch((e) => {
      console.error(e.message);
      process.exit(1);
    });
  } else if (args[0] !== '--print' || !lists[args[1]]) {
    console.error('usage: build.js --print core|modes|pic-only|cflags | --build-wasm64 DIR | --memory64-flag');
    process.exit(2);
  } else {
    console.log(lists[args[1]].join(' '));
  }
}
