// run_wasm.js -- runs an emcc-built node program and splits its output into
// TAP check lines and the tagged JSON lines (COUNTERS, SNAPSHOT...) it prints.
'use strict';

const {spawnSync} = require('child_process');

// Emscripten 3.1.6 output needs --no-experimental-fetch under node >= 18
// to load its .wasm (see ../shared/TOOLCHAIN.md).
function runWasmProgram(jsFile, {env = {}, args = [], nodeArgs = [], cwd} = {}) {
  const r = spawnSync(process.execPath, ['--no-experimental-fetch', ...nodeArgs, jsFile, ...args], {
    encoding: 'utf8', env: {...process.env, ...env}, maxBuffer: 256 << 20, cwd,
  });
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
