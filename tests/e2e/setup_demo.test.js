// setup_demo.test.js -- the README's first command, as a newcomer runs it:
// `./setup.sh` (here everything is installed, so it goes straight to the
// build and the demo). It must end with the sample's profile saved and its
// sites printed, the leak first and exact; a file moved from under it turns
// this test red. Then `bin/emheap top` reads the file the demo saved, as the
// README says next.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {spawnSync} = require('node:child_process');
const {ROOT} = require('../lib/paths');
const {CHROMIUM_SKIP} = require('../lib/browser');

// What the sample leaks per press of "Leak": from its source, not copied.
function leakPerPress() {
  const source = fs.readFileSync(path.join(ROOT, 'samples', 'leaky-canvas', 'leaky.c'), 'utf8');
  const blocks = Number(/#define LEAK_BLOCKS (\d+)/.exec(source)[1]);
  const m = /#define LEAK_BLOCK_SIZE \((\d+) \* (\d+)\)/.exec(source);
  return {blocks, bytes: blocks * (Number(m[1]) * Number(m[2]) + 4)}; // + the list's next pointer (wasm32)
}

test('./setup.sh builds and profiles the sample, and bin/emheap reads its file', {skip: CHROMIUM_SKIP, timeout: 300e3}, () => {
  const run = spawnSync('bash', ['./setup.sh'], {cwd: ROOT, encoding: 'utf8', timeout: 280e3});
  const out = run.stdout + run.stderr;
  assert.equal(run.status, 0, out);
  const saved = /^saved (.*\.speedscope\.json)$/m.exec(run.stdout);
  assert.ok(saved, out);
  const file = path.resolve(ROOT, saved[1]);
  assert.ok(fs.existsSync(file), file);

  const leak = leakPerPress();
  const rows = run.stdout.split('\n').filter((l) => /^\s+~?\d+.*\s\S+ <|^\s+\d+\s+\d+\s+\S/.test(l));
  assert.ok(rows.length >= 1, out);
  const first = /^\s+(\d+)\s+(\d+)\s+(.*)$/.exec(rows[0]);
  assert.ok(first, rows[0]);
  assert.deepEqual([Number(first[1]), Number(first[2])], [3 * leak.bytes, 3 * leak.blocks], rows[0]);
  assert.match(first[3], /^leak_memory\b/);

  const top = spawnSync(path.join(ROOT, 'bin', 'emheap'), ['top', file], {encoding: 'utf8'});
  assert.equal(top.status, 0, top.stderr);
  assert.match(top.stdout, /leak_memory/);
});
