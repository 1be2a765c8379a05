// run_wasm.js -- runs an emcc-built node program and splits its output into
// TAP check lines and the tagged JSON lines (COUNTERS, SNAPSHOT...) it prints.
'use strict';

const {spawnSync} = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

// Emscripten 3.1.6 output needs --no-experimental-fetch under node >= 18
// to load its .wasm (see ../shared/TOOLCHAIN.md).
// Without `cwd` the program runs in a fresh directory removed afterwards: what
// it saves there (heap dumps, snapshots) must not land in the repository.
// Output goes to files, not pipes: a program that dies of an uncaught error
// has node print the whole source line (a minified Emscripten line is
// 200+ KB) and exit, and into a pipe only the first 64 KB of that arrive,
// the message after it lost; a file gets every byte. timeoutMs: killed
// after that long (status null, timedOut true), for a program that must exit.
// node: another node binary (a current Emscripten's output, which needs
// no --no-experimental-fetch).
function runWasmProgram(jsFile, {env = {}, args = [], nodeArgs = [], cwd, timeoutMs, node} = {}) {
  const scratch = cwd ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-run-'));
  const outputs = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-output-'));
  const outFile = path.join(outputs, 'stdout');
  const errFile = path.join(outputs, 'stderr');
  const r = {};
  try {
    const out = fs.openSync(outFile, 'w');
    const err = fs.openSync(errFile, 'w');
    try {
      const flags = node ? nodeArgs : ['--no-experimental-fetch', ...nodeArgs];
      const run = spawnSync(node || process.execPath, [...flags, path.resolve(jsFile), ...args], {
        env: {...process.env, ...env}, cwd: cwd || scratch, stdio: ['ignore', out, err], timeout: timeoutMs,
      });
      r.status = run.status;
      r.timedOut = !!(run.error && run.error.code === 'ETIMEDOUT');
    } finally {
      fs.closeSync(out);
      fs.closeSync(err);
    }
    r.stdout = fs.readFileSync(outFile, 'utf8');
    r.stderr = fs.readFileSync(errFile, 'utf8');
  } finally {
    if (scratch) fs.rmSync(scratch, {recursive: true, force: true});
    fs.rmSync(outputs, {recursive: true, force: true});
  }
  const lines = (r.stdout || '').split('\n');
  const tagged = {};
  for (const line of lines) {
    const m = /^([A-Z_]+) (\{.*\})$/.exec(line);
    if (m) tagged[m[1]] = JSON.parse(m[2]);
  }
  return {
    status: r.status, timedOut: r.timedOut, stdout: r.stdout, stderr: r.stderr, tagged,
    failedChecks: lines.filter((l) => l.startsWith('not ok')),
    passedChecks: lines.filter((l) => l.startsWith('ok ')),
  };
}

// A program built only where the emcc can (tests/tests.mk writes PROGRAM.skip
// saying why not): the reason to skip, or null.
function skipReason(program) {
  const skip = program + '.skip';
  return fs.existsSync(skip) ? fs.readFileSync(skip, 'utf8').trim() : null;
}

module.exports = {runWasmProgram, skipReason};
