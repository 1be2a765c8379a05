// sampled_totals.test.js -- in sampled mode a row's allocations and
// allocated bytes are estimates (a sampled block stands for 1/p blocks):
// on a small program one sample can stand for more blocks than the program
// ever made. tests/runtime/heap_check.c's parse(100) makes 100 tokens of
// 24-31 bytes (2,750 bytes asked for); at a sampling interval of 8 KiB a
// sampled token stands for about 290. Each row is held to the exact
// totals (model/estimates.js boundedTotals) and marked ~, in the page's API,
// in `emheap top` and in the report.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {spawnSync} = require('node:child_process');

const {BUILD} = require('../lib/paths');
const {runCli} = require('../lib/cli');

const TOKENS = 100;
const ASKED = Array.from({length: TOKENS}, (_, i) => 24 + i % 8).reduce((a, b) => a + b, 0);
const SEEDS = 10; // (about one seed in four samples a token at all)

test('sampled mode: a row\'s allocations and bytes are marked ~ and never exceed what the program allocated', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-sampled-totals-'));
  try {
    // one process, a fresh module per seed, each snapshot saved with what the API's top() said
    const script = `
      const fs = require('fs');
      const createModule = require(${JSON.stringify(path.join(BUILD, 'heap_check.clean.js'))});
      (async () => {
        for (let seed = 1; seed <= ${SEEDS}; seed++) {
          process.env.EMHEAP_SEED = String(seed);
          const m = await createModule();
          m._parse(${TOKENS});
          const snapshot = m.emheap.snapshot();
          fs.writeFileSync(${JSON.stringify(dir)} + '/seed' + seed + '.json', JSON.stringify({snapshot, top: m.emheap.top()}));
        }
      })();`;
    const run = spawnSync(process.execPath, ['--no-experimental-fetch', '-e', script], {encoding: 'utf8', timeout: 120000,
      env: Object.assign({}, process.env, {EMHEAP_MODE: 'sampled', EMHEAP_SAMPLING_INTERVAL: '8192'})});
    assert.equal(run.status, 0, run.stderr);
    let sampled = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const {snapshot, top} = JSON.parse(fs.readFileSync(path.join(dir, `seed${seed}.json`), 'utf8'));
      assert.equal(snapshot.mode, 'sampled');
      const s = snapshot.summary;
      assert.equal(s.mallocCalls, TOKENS, 'the plan: 100 allocations, nothing else');
      const raw = snapshot.sites.find((x) => x.totalAllocs > 0);
      if (!raw) continue; // no token sampled with this seed
      sampled++;
      // the raw estimate, kept in the file, stands for more than there were
      assert.ok(raw.totalAllocs > TOKENS, `seed ${seed}: ${raw.totalAllocs}`);
      // the page's view: held to the totals
      const row = top.sites.find((x) => x.totalAllocs > 0);
      assert.equal(row.totalAllocs, TOKENS, `seed ${seed}`);
      assert.ok(row.totalBytes <= s.totalBytes && row.totalBytes >= ASKED, `seed ${seed}: ${row.totalBytes} of ${s.totalBytes}`);
      // the CLI's: the same, marked as estimates
      const file = path.join(dir, `seed${seed}.snapshot.json`);
      fs.writeFileSync(file, JSON.stringify(snapshot));
      const cli = runCli(['top', file]);
      assert.equal(cli.status, 0, cli.stderr);
      assert.match(cli.stdout, new RegExp(`^1 +\\d+ B +\\d+ +~${TOKENS} +~[\\d.]+ KiB +make_token `, 'm'), cli.stdout);
      // and the report's
      const page = path.join(dir, `seed${seed}.html`);
      const report = runCli(['report', file, '-o', page]);
      assert.equal(report.status, 0, report.stderr);
      assert.match(fs.readFileSync(page, 'utf8'), new RegExp(`<td class="num" data-allocs="${TOKENS}">~${TOKENS}</td>`));
    }
    assert.ok(sampled > 0, `no seed of ${SEEDS} sampled a token`);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});
