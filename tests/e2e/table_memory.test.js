// table_memory.test.js -- what emheap's tables take per live block
// (tests/runtime/table_memory.c, exact mode, dlmalloc): 100,000 blocks of
// 32 bytes side by side, and 4,000 blocks of 4 KiB, each alone in its 4 KiB
// region as a pool allocator's chunks are; with the records in footers
// (the default there) and in the block table (EMHEAP_FOOTERS=0, as with
// emmalloc, mimalloc or threads). docs/using.md quotes them; they must hold
// within 10%. (make bench measures a million live blocks.)
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runWasmProgram } = require('../lib/run_wasm');
const { ROOT, BUILD } = require('../lib/paths');

function perBlock(env) {
  const r = runWasmProgram(path.join(BUILD, 'table_memory.dlmalloc.js'), {env});
  assert.equal(r.status, 0, r.stderr);
  const { small, pool } = r.tagged.TABLES;
  return { dense: small.bytes / small.blocks, sparse: pool.bytes / pool.blocks };
}

test('bytes of tables per live block, dense and one per 4 KiB, footers and block table, as docs/using.md says', (t) => {
  const footers = perBlock({});
  const table = perBlock({ EMHEAP_FOOTERS: '0' });
  t.diagnostic(`per live block: footers ${footers.dense.toFixed(1)} B side by side, ${footers.sparse.toFixed(1)} B one per 4 KiB; ` +
    `block table ${table.dense.toFixed(1)} B, ${table.sparse.toFixed(1)} B`);
  // a footer is 8 bytes in its block, whatever the block's neighbours
  assert.equal(footers.dense, 8);
  assert.equal(footers.sparse, 8);
  // a table per 4 KiB of heap costs more where each block has its own
  assert.ok(table.dense > 0 && table.sparse > table.dense, `${table.dense} ${table.sparse}`);
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'using.md'), 'utf8').replace(/\s+/g, ' ');
  const f = /records in footers: ([\d.]+) bytes per live block/.exec(doc);
  const m = /\(([\d.]+) bytes per live block where blocks lie side by side, ([\d.]+) where each has its 4 KiB of heap to itself/.exec(doc);
  assert.ok(f && m, 'docs/using.md states them in the words this test reads');
  const near = (stated, measured) => Math.abs(stated - measured) <= 0.1 * measured;
  assert.ok(near(Number(f[1]), footers.dense), `docs: ${f[1]}, measured ${footers.dense}`);
  assert.ok(near(Number(m[1]), table.dense), `docs: ${m[1]}, measured ${table.dense.toFixed(1)}`);
  assert.ok(near(Number(m[2]), table.sparse), `docs: ${m[2]}, measured ${table.sparse.toFixed(1)}`);
});
