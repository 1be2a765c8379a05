// wat.js -- wasm modules written in a test in the text format, assembled
// by wabt's wat2wasm (setup.sh installs wabt): small modules shaped as a
// test needs, no emcc.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

// t: the node:test context (the folder goes when the test ends). -> bytes.
function assemble(t, wat, flags = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-wat-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'm.wat'), wat);
  const r = spawnSync('wat2wasm', [...flags, 'm.wat', '-o', 'm.wasm'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return new Uint8Array(fs.readFileSync(path.join(dir, 'm.wasm')));
}

module.exports = { assemble };
