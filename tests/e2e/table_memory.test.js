// table_memory.test.js -- what emheap's tables take per live block
// (tests/runtime/table_memory.c, exact mode, dlmalloc): 100,000 blocks of
// 32 bytes side by side, and 4,000 blocks of 4 KiB, each alone in its 4 KiB
// region as a pool allocator's chunks are. docs/using.md quotes both; they
// must hold within 10%. (make bench measures a million live blocks.)
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runWasmProgram } = require('../lib/run_wasm');
const { ROOT, BUILD } = require('../lib/paths');

test('bytes of tables per live block, dense and one per 4 KiB, as docs/using.md says', (t) => {
  const r = runWasmProgram(path.join(BUILD, 'table_memory.dlmalloc.js'));
  assert.equal(r.status, 0, r.stderr);
  const { small, pool } = r.tagged.TABLES;
  const dense = small.bytes / small.blocks;
  const sparse = pool.bytes / pool.blocks;
  t.diagnostic(`tables per live block: ${dense.toFixed(1)} B side by side, ${sparse.toFixed(1)} B one per 4 KiB`);
  assert.ok(dense > 0 && sparse > dense, `${dense} ${sparse}`);
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'using.md'), 'utf8').replace(/\s+/g, ' ');
  const m = /\(([\d.]+) bytes per live block where blocks lie side by side, ([\d.]+) where each has its 4 KiB of heap to itself/.exec(doc);
  assert.ok(m, 'docs/using.md states both in the words this test reads');
  const near = (stated, measured) => Math.abs(stated - measured) <= 0.1 * measured;
  assert.ok(near(Number(m[1]), dense), `docs: ${m[1]}, measured ${dense.toFixed(1)}`);
  assert.ok(near(Number(m[2]), sparse), `docs: ${m[2]}, measured ${sparse.toFixed(1)}`);
});
