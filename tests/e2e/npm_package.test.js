// npm_package.test.js -- emheap as a web developer gets it: the tarball that
// `npm pack` makes of this repository, installed into a scratch project.
// `npx emheap-config` builds the runtime with this machine's emcc on first
// use, into the package's own cache (nothing of the project outside
// node_modules is written); a C++ app (tests/package/app.cpp: exceptions,
// -O2, Emscripten's default fixed heap, a mark from emheap.h, found with
// `npx emheap-config --cflags`) is linked with its flags and run
// under node, and `npx emheap top` reads the snapshot it saved; another emcc
// gets a runtime built with it. Then the CMake way (emcmake) with
// emheap::emheap, which also gives the app emheap.h; a rebuilt runtime
// relinks the app; configured for wasm64, the same target links the
// wasm64 runtime.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const {spawnSync} = require('child_process');
const {runWasmProgram, skipReason} = require('../lib/run_wasm');

const {ROOT, BUILD, MEMORY64_NODE} = require('../lib/paths');
const APP_SOURCES = path.join(ROOT, 'tests', 'package');
// Debian's emcc needs node's module folder for its optimizer (../shared/TOOLCHAIN.md).
const ENV = {...process.env, NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':')};

function sh(cmd, args, cwd, env = ENV) {
  const r = spawnSync(cmd, args, {cwd, env, encoding: 'utf8', maxBuffer: 64 << 20});
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  }
  return r;
}

// Every file of the project outside node_modules, with its size and mtime.
function projectFiles(dir, prefix = '') {
  const out = [];
  for (const e of fs.readdirSync(dir, {withFileTypes: true})) {
    if (e.name === 'node_modules') continue;
    const rel = path.join(prefix, e.name);
    if (e.isDirectory()) out.push(...projectFiles(path.join(dir, e.name), rel));
    else {
      const st = fs.statSync(path.join(dir, e.name));
      out.push(`${rel} ${st.size} ${st.mtimeMs}`);
    }
  }
  return out.sort();
}

// node: which node runs it (a wasm64 app needs node 24: tests/tests.mk wasm64.check).
function runApp(js, cwd, node) {
  const r = runWasmProgram(js, {cwd, node, env: {EMHEAP_MODE: 'exact', EMHEAP_LEAK_REPORT: '1'}});
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /caught 8/);
  const m = /SNAPSHOT_FILE (\S+)/.exec(r.stdout);
  assert.ok(m, `the app printed its snapshot's name:\n${r.stdout}`);
  return {...r, snapshot: path.join(cwd, m[1])};
}

test('the packed tarball installs; npx emheap-config and npx emheap work; CMake links both targets', {timeout: 900e3}, async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-npm-'));
  t.after(() => fs.rmSync(tmp, {recursive: true, force: true}));

  // The tarball holds what a user needs and nothing of the repository's own.
  const packed = JSON.parse(sh('npm', ['pack', '--json', '--pack-destination', tmp], ROOT).stdout)[0];
  const files = packed.files.map((f) => f.path);
  for (const f of ['bin/emheap-config', 'cli/emheap.js', 'runtime/build.js', 'runtime/emheap.h', 'cmake/emheapConfig.cmake',
    'dist/library_emheap.js', 'dist/emheap_page.js', 'output/node_output.js', 'model/snapshot_file.js', 'symbolize/dwarf.js',
    'testing/index.js', 'model/heap_check.js', 'LICENSE']) {
    assert.ok(files.includes(f), `the tarball has ${f}`);
  }
  const strays = files.filter((f) => /^(tests|bench|harness|build|samples|node_modules|\.cache)\//.test(f));
  assert.deepEqual(strays, [], 'no tests, benchmarks, build output or cache in the tarball');

  const project = path.join(tmp, 'app');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({name: 'app', private: true}));
  sh('npm', ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', path.join(tmp, packed.filename)], project);
  fs.copyFileSync(path.join(APP_SOURCES, 'app.cpp'), path.join(project, 'app.cpp'));
  fs.copyFileSync(path.join(APP_SOURCES, 'CMakeLists.txt'), path.join(project, 'CMakeLists.txt'));
  const before = projectFiles(project);

  // First use builds the runtime into the package's cache, once.
  const first = sh('npx', ['--no-install', 'emheap-config', '--ldflags'], project);
  assert.match(first.stderr, /building emheap's runtime with \S*emcc /);
  const cache = path.join(project, 'node_modules', 'emheap', '.cache');
  const flags = first.stdout.trim().split(/\s+/);
  assert.ok(flags[0].startsWith(cache + path.sep) && flags[0].endsWith('emheap.o'), flags[0]);
  const again = sh('npx', ['--no-install', 'emheap-config', '--ldflags'], project);
  assert.equal(again.stdout, first.stdout);
  // a -sMAIN_MODULE program's position-independent runtime, built with the rest
  const pic = sh('npx', ['--no-install', 'emheap-config', '--ldflags', '--main-module'], project).stdout.trim().split(/\s+/)[0];
  assert.ok(pic.startsWith(path.dirname(flags[0]) + path.sep) && pic.endsWith('emheap-pic.o') && fs.existsSync(pic), pic);
  assert.doesNotMatch(again.stderr, /building/, 'the second call builds nothing');
  assert.deepEqual(projectFiles(project), before, 'emheap-config wrote nothing into the project');

  // Another emcc (here a wrapper elsewhere, as another emsdk would be) gets
  // a runtime of its own, built with it.
  const otherDir = path.join(tmp, 'other-emsdk');
  fs.mkdirSync(otherDir);
  const realEmcc = sh('sh', ['-c', 'command -v emcc'], project).stdout.trim();
  fs.writeFileSync(path.join(otherDir, 'emcc'), `#!/bin/sh\nexec ${realEmcc} "$@"\n`, {mode: 0o755});
  const other = sh('npx', ['--no-install', 'emheap-config', '--ldflags'], project, {...ENV, EMCC: path.join(otherDir, 'emcc')});
  assert.match(other.stderr, /building emheap's runtime with .*other-emsdk\/emcc/);
  const otherObject = other.stdout.trim().split(/\s+/)[0];
  assert.notEqual(path.dirname(otherObject), path.dirname(flags[0]), 'another emcc, another cache folder');
  assert.ok(fs.existsSync(otherObject));

  await t.test('em++ with $(npx emheap-config --ldflags), default heap, -O2 C++ with exceptions', () => {
    const cflags = sh('npx', ['--no-install', 'emheap-config', '--cflags'], project).stdout.trim().split(/\s+/);
    sh('em++', ['-O2', '-fexceptions', ...cflags, 'app.cpp', '-o', 'app.js', ...flags, '-fexceptions', '-sEXIT_RUNTIME=1'], project);
    const r = runApp(path.join(project, 'app.js'), project);
    assert.match(r.stderr, /leak_widgets/, 'the leak report at exit names the leaking function');
    const top = sh('npx', ['--no-install', 'emheap', 'top', r.snapshot, '--top', '3'], project).stdout;
    const rows = top.split('\n').filter((l) => /leak_widgets|keep_widgets/.test(l));
    assert.ok(rows.length >= 1 && /leak_widgets/.test(rows[0]), `npx emheap top puts leak_widgets first:\n${top}`);
    assert.match(top, /#1 "widgets made"/, 'the mark the app made through emheap.h');
  });

  await t.test('emheap/testing resolves from the project, by require and by import', () => {
    const cjs = sh(process.execPath, ['-e', "console.log(typeof require('emheap/testing').heapCheck)"], project);
    assert.equal(cjs.stdout.trim(), 'function');
    const esm = sh(process.execPath, ['--input-type=module', '-e',
      "import {heapCheck} from 'emheap/testing'; console.log(typeof heapCheck)"], project);
    assert.equal(esm.stdout.trim(), 'function');
  });

  await t.test('CMake: emheap::emheap; rebuilding the runtime relinks', () => {
    const build = path.join(project, 'build');
    sh('emcmake', ['cmake', '-S', project, '-B', build, `-Demheap_DIR=${path.join(project, 'node_modules', 'emheap', 'cmake')}`,
      '-DCMAKE_BUILD_TYPE=Release'], project);
    sh('cmake', ['--build', build], project);
    for (const variant of ['js']) {
      const r = runApp(path.join(build, `app_${variant}.js`), build);
      assert.match(r.stderr, /leak_widgets/, `app_${variant}: the leak report names the leaking function`);
      const profile = JSON.parse(fs.readFileSync(r.snapshot, 'utf8'));
      const names = profile.shared.frames.map((f) => f.name);
      assert.ok(names.some((n) => /leak_widgets/.test(n)), `app_${variant}: the speedscope file has leak_widgets`);
      assert.deepEqual(profile.emheap.marks.map((m) => m.name), ['widgets made'], `app_${variant}: emheap.h through the target`);
      fs.rmSync(r.snapshot);
    }
    const idle = sh('cmake', ['--build', build], project).stdout;
    assert.doesNotMatch(idle, /Linking/, 'nothing changed: nothing relinks');
    // A rebuilt runtime (newer files in the cache) relinks the app. Every
    // cache folder: CMake's emcc may be another path to an Emscripten than
    // the one on the PATH (a wrapper script), and gets its own folder.
    const later = new Date(Date.now() + 60e3);
    for (const dir of fs.readdirSync(cache).map((d) => path.join(cache, d)).filter((d) => fs.statSync(d).isDirectory())) {
      for (const f of fs.readdirSync(dir)) if (f.endsWith('.o')) fs.utimesSync(path.join(dir, f), later, later);
    }
    const relinked = sh('cmake', ['--build', build], project).stdout;
    assert.match(relinked, /Linking CXX executable app_js\.js/);
  });

  // The same project configured for wasm64: Emscripten's toolchain file
  // reads -m64 (or -sMEMORY64) in CMAKE_C_FLAGS, and emheap::emheap is then
  // the wasm64 runtime, built on first use with the project's emcc.
  const wasm64Skip = skipReason(path.join(BUILD, 'wasm64_heap.js'));
  await t.test('CMake, wasm64: the same target links the wasm64 runtime', {skip: wasm64Skip || false}, () => {
    const build = path.join(project, 'build64');
    const flag = sh(process.execPath, [path.join(ROOT, 'runtime', 'build.js'), '--memory64-flag'], project).stdout.trim();
    sh('emcmake', ['cmake', '-S', project, '-B', build, `-Demheap_DIR=${path.join(project, 'node_modules', 'emheap', 'cmake')}`,
      '-DCMAKE_BUILD_TYPE=Release', `-DCMAKE_C_FLAGS=${flag}`, `-DCMAKE_CXX_FLAGS=${flag}`, `-DCMAKE_EXE_LINKER_FLAGS=${flag}`], project);
    const made = sh('cmake', ['--build', build], project);
    const linked = fs.readFileSync(path.join(build, 'CMakeFiles', 'app_js.dir', 'link.txt'), 'utf8');
    assert.match(linked, /[/\\]emheap64\.o\b/, 'the wasm64 runtime on the link line');
    assert.doesNotMatch(linked, /[/\\]emheap\.o\b/);
    const r = runApp(path.join(build, 'app_js.js'), build, MEMORY64_NODE);
    assert.match(r.stderr, /leak_widgets/, 'the leak report names the leaking function');
    assert.ok(linked.includes(flag), `the link line has ${flag}`);
    const profile = JSON.parse(fs.readFileSync(r.snapshot, 'utf8'));
    assert.ok(profile.shared.frames.some((f) => /leak_widgets/.test(f.name)), made.stdout);
  });
});
