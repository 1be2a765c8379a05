// save_snapshot.test.js -- a C program saves its own snapshots
// (emheap_save_snapshot, runtime/save_snapshot.c) and one more at exit
// (EMHEAP_SNAPSHOT_AT_EXIT, jslib/exit_snapshot.js): under node into the
// working folder, from the main thread and from a pthread, refused with
// profiling off, and in headless Chromium as downloads (with a collector:
// tests/e2e/remote.test.js). tests/runtime/save_snapshot.c's plan: keep_block
// keeps 40 blocks of 1,000 bytes and one of 24, the first save; a format
// that is none, refused; every other 1,000-byte block freed, a PerfView
// file saved; at exit, what was live then.
'use strict';

const {describe, test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {BUILD} = require('../lib/paths');
const {runWasmProgram} = require('../lib/run_wasm');
const {runCli} = require('../lib/cli');
const {newPage, servedProgramPage, CHROMIUM_SKIP} = require('../lib/browser');

const KEPT = [41, 40 * 1000 + 24]; // keep_block's blocks and bytes at the first save
const AFTER_FREES = [21, 20 * 1000 + 24]; // ... after every other 1,000-byte block went

// keep_block's row in `emheap top` of a file: [live blocks, live bytes].
function keepBlock(file) {
  const top = runCli(['top', file, '--json']);
  assert.equal(top.status, 0, top.stderr);
  const row = JSON.parse(top.stdout).sites.find((r) => r.label === 'keep_block');
  assert.ok(row, `${file}: no keep_block row`);
  return [row.liveBlocks, row.liveBytes];
}

function scratch(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-save-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  return dir;
}

for (const [build, how] of [['default', 'Emscripten\'s defaults'], ['threads', '-pthread, the first save from a pthread']]) {
  test(`emheap_save_snapshot under node (${how}): the heap at each call, and at exit`, (t) => {
    const dir = scratch(t);
    const run = runWasmProgram(path.join(BUILD, `save_snapshot.${build}.js`), {cwd: dir, env: {EMHEAP_SNAPSHOT_AT_EXIT: '1'},
      timeoutMs: 60000});
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.stdout.split('\n').filter((l) => /^[A-Z]+ -?\d+$/.test(l)), ['SAVE 0', 'BAD -1', 'PERFVIEW 0']);
    assert.equal(run.stderr.split('unknown format "no-such-format"').length - 1, 1, run.stderr);
    // three files, each under its own name, each said on stderr
    const files = fs.readdirSync(dir).sort();
    assert.equal(files.length, 3, files.join(', '));
    const [first, perfview, atExit] = files;
    assert.match(first, /^memory-profile-.*\.speedscope\.json$/);
    assert.match(perfview, /^memory-profile-.*\.PerfView\.json$/);
    assert.match(atExit, /^memory-profile-.*\.speedscope\.json$/);
    for (const f of files) assert.match(run.stderr, new RegExp(`emheap: saved ${f.replace(/\./g, '\\.')}`));
    assert.deepEqual(keepBlock(path.join(dir, first)), KEPT);
    assert.deepEqual(keepBlock(path.join(dir, perfview)), AFTER_FREES);
    assert.deepEqual(keepBlock(path.join(dir, atExit)), AFTER_FREES);
  });
}

test('EMHEAP_SNAPSHOT_AT_EXIT with a format that is none: one line, nothing else changes', (t) => {
  const dir = scratch(t);
  const run = runWasmProgram(path.join(BUILD, 'save_snapshot.default.js'), {cwd: dir, env: {EMHEAP_SNAPSHOT_AT_EXIT: 'pdf'}});
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /^emheap: no snapshot at exit: unknown format "pdf": use one of speedscope, perfview/m);
  assert.equal(run.stderr.split('no snapshot at exit').length - 1, 1);
  assert.equal(fs.readdirSync(dir).length, 2, 'the two saves the program made, no third');
});

test('emheap_save_snapshot with profiling off: -1 and one line for each call, no file', (t) => {
  const dir = scratch(t);
  const run = runWasmProgram(path.join(BUILD, 'save_snapshot.default.js'), {cwd: dir, env: {EMHEAP_MODE: 'off'}});
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(run.stdout.split('\n').filter((l) => /^[A-Z]+ -?\d+$/.test(l)), ['SAVE -1', 'BAD -1', 'PERFVIEW -1']);
  const lines = run.stderr.split('\n').filter((l) => l);
  // (what to do, as node takes it)
  assert.equal(lines.filter((l) => /^emheap: profiling is off .*nothing to save; run it again with EMHEAP_MODE=exact/.test(l)).length, 2,
    run.stderr);
  assert.equal(lines.filter((l) => /^emheap: unknown format "no-such-format"/.test(l)).length, 1, run.stderr);
  assert.equal(lines.length, 3, run.stderr);
  assert.deepEqual(fs.readdirSync(dir), []);
});

describe('emheap_save_snapshot in a page: downloads', {skip: CHROMIUM_SKIP}, () => {
  const {served} = servedProgramPage(path.join(BUILD, 'save_snapshot.default.js'));

  test('each call downloads its file, with the heap as it was at the call', async (t) => {
    const dir = scratch(t);
    const {context, page} = await newPage(served.browser);
    try {
      const downloads = [];
      const both = new Promise((resolve) => {
        page.on('download', async (d) => {
          const file = path.join(dir, d.suggestedFilename());
          await d.saveAs(file);
          downloads.push(file);
          if (downloads.length === 2) resolve();
        });
      });
      await page.goto(`${served.server.url}/`);
      await both;
      const names = downloads.map((f) => path.basename(f));
      assert.equal(names.filter((n) => /^memory-profile-.*\.speedscope\.json$/.test(n)).length, 1, names.join(', '));
      assert.equal(names.filter((n) => /^memory-profile-.*\.PerfView\.json$/.test(n)).length, 1, names.join(', '));
      // (the page goes on running after each call: the files still show the heap at the calls)
      assert.deepEqual(keepBlock(downloads.find((f) => /speedscope/.test(f))), KEPT);
      assert.deepEqual(keepBlock(downloads.find((f) => /PerfView/.test(f))), AFTER_FREES);
    } finally {
      await context.close();
    }
  });
});
