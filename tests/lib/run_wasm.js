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
function runWasmProgram(jsFile, {env = {}, args = [], nodeArgs = [], cwd} = {}) {
  const scratch = cwd ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-run-'));
  let r;
  try {
    r = spawnSync(process.execPath, ['--no-experimental-fetch', ...nodeArgs, path.resolve(jsFile), ...args], {
      encoding: 'utf8', env: {...process.env, ...env}, maxBuffer: 256 << 20, cwd: cwd || scratch,
    });
  } finally {
    if (scratch) fs.rmSync(scratch, {recursive: true, force: true});
  }
  const lines = (r.stdout || '').split('\n');
  const tagged = {};
  for (const line of lines) {
    const m = /^([A-Z_]+) (\{.*\})$/.exec(line);
    if (m) tagged[m[1]] = JSON.parse(m[2]);
  }
  return {
    status: r.status, stdout: r.stdout, stderr: r.stderr, tagged,
    failedChecks: lines.filter((l) => l.startsWith('not ok')),
    passedChecks: lines.filter((l) => l.startsWith('ok ')),
  };
}

module.exports = {runWasmProgram};
