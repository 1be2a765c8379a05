// builds.js -- builds every bench workload in every build kind with emcc,
// into build/bench/<kind>/<workload>.js (+ .wasm). A failed build is a value
// ({error}), never an exception, so the bench table still prints.
//
// Objects are shared between kinds that compile the same way: baseline,
// --memoryprofiler, -fsanitize=leak (it adds no compile-time instrumentation
// on wasm: the objects are byte-identical) and emheap exact/js differ only
// at link time. A binary is rebuilt when its command line changed or an input
// (source, object, or any file named on the command line, such as
// build/emheap.o) is newer.
'use strict';

const fs = require('fs');
const path = require('path');
const {spawnSync} = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, 'build', 'bench');
const EMCC = process.env.EMCC || 'emcc';
const EMHEAP_CONFIG = process.env.EMHEAP_CONFIG || path.join(ROOT, 'bin', 'emheap-config');
const SQLITE_DIR = path.join(ROOT, 'build', 'third_party', 'sqlite'); // third_party/third_party.mk
const LUA_DIR = path.join(ROOT, 'build', 'third_party', 'lua', 'src');
const PRE_JS = path.join(ROOT, 'bench', 'bench-pre.js');
const RUNTIME_FAILED = path.join(OUT, 'runtime-build.failed');

const CFLAGS = ['-O2'];
const LDFLAGS = ['-O2', '-sALLOW_MEMORY_GROWTH=1', '--pre-js', PRE_JS];
const SQLITE_CFLAGS = ['-DSQLITE_OMIT_LOAD_EXTENSION', '-DSQLITE_THREADSAFE=0', '-DSQLITE_OMIT_DEPRECATED'];
// Threaded builds: a fixed heap large enough for the workload (memory
// growth with threads makes every JS access to memory slower), a pool of
// workers started at load.
const THREAD_CFLAGS = ['-pthread'];
// EXIT_RUNTIME: otherwise node waits for the pool's workers forever.
const THREAD_LDFLAGS = ['-pthread', '-sPTHREAD_POOL_SIZE=4', '-sINITIAL_MEMORY=128MB', '-sALLOW_MEMORY_GROWTH=0',
  '-sEXIT_RUNTIME=1'];

// Lua's own sources: every l*.c but the two programs (lua.c, luac.c).
function luaSources() {
  if (!fs.existsSync(LUA_DIR)) return [{file: path.join(LUA_DIR, 'lapi.c')}];
  return fs.readdirSync(LUA_DIR).filter((f) => /^l.*\.c$/.test(f) && f !== 'lua.c' && f !== 'luac.c').sort()
    .map((f) => ({file: path.join(LUA_DIR, f), cflags: ['-DLUA_COMPAT_ALL']}));
}

// Emscripten's JS tools need Debian's node modules (../shared/TOOLCHAIN.md).
const ENV = {...process.env, NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':')};

// Included by the single-threaded workloads: a change to it rebuilds them.
const REPETITIONS_H = path.join(ROOT, 'bench', 'workloads', 'repetitions.h');
const BINARY_TREES_H = path.join(ROOT, 'bench', 'workloads', 'binary_trees.h');

const WORKLOADS = {
  micro: {sources: [{file: path.join(ROOT, 'bench', 'workloads', 'micro.c'), deps: [REPETITIONS_H, BINARY_TREES_H]}]},
  alloc_only: {sources: [{file: path.join(ROOT, 'bench', 'workloads', 'alloc_only.c'), deps: [REPETITIONS_H, BINARY_TREES_H]}]},
  // its pool's objects told through emheap_pool.h (nothing is called where emheap is not linked)
  pool: {sources: [{file: path.join(ROOT, 'bench', 'workloads', 'pool_bench.c'), cflags: ['-I' + path.join(ROOT, 'runtime')],
    deps: [REPETITIONS_H, BINARY_TREES_H, path.join(ROOT, 'runtime', 'emheap_pool.h')]}]},
  sqlite: {
    sources: [
      {file: path.join(SQLITE_DIR, 'sqlite3.c'), cflags: SQLITE_CFLAGS},
      {file: path.join(ROOT, 'bench', 'workloads', 'sqlite_bench.c'), cflags: ['-I' + SQLITE_DIR],
        deps: [path.join(SQLITE_DIR, 'sqlite3.h'), REPETITIONS_H]},
    ],
  },
  lua: {
    get sources() {
      return [...luaSources(), {file: path.join(ROOT, 'bench', 'workloads', 'lua_bench.c'), cflags: ['-I' + LUA_DIR],
        deps: [REPETITIONS_H]}];
    },
  },
  // -pthread: built with the kinds' threaded variants (kind + '-mt').
  threads: {threaded: true, sources: [{file: path.join(ROOT, 'bench', 'workloads', 'threads_bench.c')}]},
  live_blocks: {sources: [{file: path.join(ROOT, 'bench', 'workloads', 'live_blocks.c')}]},
  sites: {sources: [{file: path.join(OUT, 'gen', 'sites.c')}]}, // written by bench/gen-sites.js
  sites1m: {sources: [{file: path.join(OUT, 'gen', 'sites1m.c')}]}, // the same, 1,000,000 sites
  sites5m: {sources: [{file: path.join(OUT, 'gen', 'sites5m.c')}]}, // 100,000 sites, 50 blocks each: 5,000,000 live blocks
};

// What bin/emheap-config prints for `args`, as an argument list, or {error}.
function emheapConfig(...args) {
  if (fs.existsSync(RUNTIME_FAILED)) {
    return {error: `make runtime failed (see ${path.relative(ROOT, path.join(OUT, 'runtime-build.log'))})`};
  }
  const r = spawnSync(EMHEAP_CONFIG, args, {encoding: 'utf8'});
  if (r.error || r.status !== 0) {
    const why = (r.stderr || '').trim().split('\n')[0] || String(r.error || `exit ${r.status}`);
    return {error: `emheap-config ${args.join(' ')}: ${why}`};
  }
  return {flags: r.stdout.trim().split(/\s+/).filter(Boolean)};
}

// The build kinds: {cflags, ldflags} or {error}. `objects` names the
// directory of objects the kind shares with others.
function buildKinds() {
  const js = emheapConfig('--ldflags');
  const jsMt = emheapConfig('--pthread', '--ldflags');
  const mt = (kind) => (kind.error ? kind : {objects: kind.objects + '-mt', cflags: [...THREAD_CFLAGS, ...kind.cflags],
    ldflags: [...THREAD_LDFLAGS, ...kind.ldflags]});
  const threaded = {
    'plain-mt': mt({objects: 'plain', cflags: [], ldflags: []}),
    'forwarding-mt': mt({objects: 'plain', cflags: [],
      ldflags: [path.join(ROOT, 'bench', 'workloads', 'forwarding_wrapper.c')]}),
    // forwarding with one lock per call (threaded workloads only)
    'forwarding-lock-mt': mt({objects: 'plain', cflags: [],
      ldflags: [path.join(ROOT, 'bench', 'workloads', 'forwarding_lock_wrapper.c'), path.join(ROOT, 'runtime', 'lock.c')]}),
    'emheap-js-mt': jsMt.error ? {error: jsMt.error} : mt({objects: 'plain', cflags: [], ldflags: jsMt.flags}),
  };
  return {
    ...threaded,
    plain: {objects: 'plain', cflags: [], ldflags: []},
    memoryprofiler: {objects: 'plain', cflags: [], ldflags: ['--memoryprofiler']},
    lsan: {objects: 'plain', cflags: [], ldflags: ['-fsanitize=leak']},
    forwarding: {objects: 'plain', cflags: [],
      ldflags: [path.join(ROOT, 'bench', 'workloads', 'forwarding_wrapper.c')]},
    'emheap-js': js.error ? {error: js.error} : {objects: 'plain', cflags: [], ldflags: js.flags},
  };
}

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch (e) {
    return -1;
  }
}

// Runs `cmd` unless `out` is newer than every input and was made by the
// same command. Returns null or an error message.
function make(out, cmd, inputs) {
  const stamp = out + '.cmd';
  const line = JSON.stringify(cmd);
  const files = inputs.concat(cmd.filter((a) => a.startsWith('/') && fs.existsSync(a) && fs.statSync(a).isFile()));
  const missing = files.find((f) => mtime(f) < 0);
  if (missing) return `missing ${path.relative(ROOT, missing)}`;
  const outTime = mtime(out);
  if (outTime >= 0 && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === line &&
      files.every((f) => mtime(f) <= outTime)) return null;
  fs.mkdirSync(path.dirname(out), {recursive: true});
  fs.rmSync(stamp, {force: true});
  const started = Date.now();
  process.stderr.write(`bench: ${path.basename(cmd[0])} -> ${path.relative(ROOT, out)} ... `);
  const r = spawnSync(cmd[0], cmd.slice(1), {encoding: 'utf8', env: ENV, maxBuffer: 64 << 20});
  process.stderr.write(`${((Date.now() - started) / 1000).toFixed(1)} s${r.status === 0 ? '' : ' FAILED'}\n`);
  if (r.error || r.status !== 0) {
    fs.rmSync(out, {force: true});
    const lines = `${r.stderr || ''}\n${r.stdout || ''}`.split('\n').map((l) => l.trim()).filter(Boolean);
    const why = lines.find((l) => /error/i.test(l)) || lines[lines.length - 1] || String(r.error || `exit ${r.status}`);
    return `${path.basename(cmd[0])} failed: ${why.slice(0, 300)}`;
  }
  fs.writeFileSync(stamp, line);
  return null;
}

// Builds `workload` as `kindName`: {js} (absolute path) or {error}.
function build(workload, kindName, kinds) {
  const kind = kinds[kindName];
  if (kind.error) return {error: kind.error};
  const spec = WORKLOADS[workload];
  if (kind.ldflags.includes('-pthread') !== !!spec.threaded) {
    return {error: spec.threaded ? 'a threaded workload needs a -pthread build' : 'not a threaded workload'};
  }
  const objects = [];
  for (const src of spec.sources) {
    if (!fs.existsSync(src.file)) {
      const hint = workload === 'sqlite' ? ' (make bench fetches it with npm pack better-sqlite3)'
        : workload === 'lua' ? ' (make bench fetches it with npm pack lua.vm.js)' : '';
      return {error: `missing ${path.relative(ROOT, src.file)}${hint}`};
    }
    const obj = path.join(OUT, 'obj', kind.objects, path.basename(src.file).replace(/\.c$/, '.o'));
    const cmd = [EMCC, ...CFLAGS, ...kind.cflags, ...(src.cflags || []), '-c', src.file, '-o', obj];
    const error = make(obj, cmd, [src.file, ...(src.deps || [])]);
    if (error) return {error};
    objects.push(obj);
  }
  const js = path.join(OUT, kindName, `${workload}.js`);
  const ldflags = spec.threaded ? LDFLAGS.filter((f) => f !== '-sALLOW_MEMORY_GROWTH=1') : LDFLAGS;
  const error = make(js, [EMCC, ...objects, ...ldflags, ...kind.ldflags, '-o', js], objects);
  return error ? {error} : {js};
}

module.exports = {ROOT, OUT, SQLITE_DIR, LUA_DIR, EMCC, EMHEAP_CONFIG, WORKLOADS, buildKinds, build, ENV};
