// failure_paths.test.js -- allocations that fail (tests/runtime/failure_paths.c)
// return what they return without emheap and set errno as they do without
// it; a failed realloc leaves its block counted and at its site, so that
// its free brings the counters back to 0; a request no memory could meet
// gets one line and no file, a full memory the report and its file.
'use strict';

const {describe, test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {BUILD} = require('../lib/paths');

// Runs a build in a scratch directory: {run, files}.
function runIn(t, variant) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-failure-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  const run = runWasmProgram(path.join(BUILD, `failure_paths.${variant}.js`), {cwd: dir});
  assert.equal(run.status, 0, run.stdout + run.stderr);
  return {run, files: fs.readdirSync(dir)};
}

const resultLines = (stdout) => stdout.split('\n').filter((l) => l.startsWith('RESULT '));
// Calls that failed, from the RESULT lines: NULL, or posix_memalign's error.
const failures = (lines) => lines.filter((l) => / NULL errno=/.test(l) || /posix_memalign.*: [1-9]\d* errno=/.test(l)).length;

const plain = {};
for (const allocator of ['dlmalloc', 'emmalloc']) {
  test(`without emheap (${allocator}): the program's own results`, (t) => {
    const {run} = runIn(t, `plain.${allocator}`);
    plain[allocator] = resultLines(run.stdout);
    assert.ok(plain[allocator].length >= 20, run.stdout);
    assert.ok(plain[allocator].includes('RESULT memory filled: 1'), 'the memory really filled');
    assert.ok(plain[allocator].every((l) => !/intact: 0/.test(l)), 'every failed realloc left its block intact');
  });
}

for (const variant of ['exact.dlmalloc', 'exact.emmalloc', 'sampled.dlmalloc', 'threads.dlmalloc']) {
  const allocator = variant.split('.')[1];
  const exact = !variant.startsWith('sampled');
  describe(`with emheap (${variant})`, () => {
    test('every call returns what it returns without emheap, errno included; counters exact', (t) => {
      const {run, files} = runIn(t, variant);
      const lines = resultLines(run.stdout);
      assert.ok(plain[allocator], 'the plain build ran first');
      assert.deepEqual(lines, plain[allocator]);

      const {START, KEPT, AFTER_FAILURES, FULL, FULL_REALLOC, END} = run.tagged;
      // (Emscripten 4.x's threaded runtime has allocated a few blocks of its
      // own before main: counted from START)
      assert.equal(KEPT.liveBlocks - START.liveBlocks, 6);
      // the failures changed no live count, and each was counted as failed
      assert.equal(AFTER_FAILURES.liveBytes, KEPT.liveBytes);
      assert.equal(AFTER_FAILURES.liveBlocks, KEPT.liveBlocks);
      const upToFill = lines.slice(0, lines.findIndex((l) => l.startsWith('RESULT memory filled')));
      assert.equal(AFTER_FAILURES.failedAllocs, failures(upToFill));
      assert.equal(AFTER_FAILURES.reallocCalls, 6 + (lines.some((l) => l.includes('reallocarray')) ? 1 : 0));
      // realloc in a full memory: the same
      assert.equal(FULL_REALLOC.liveBytes, FULL.liveBytes);
      assert.equal(FULL_REALLOC.liveBlocks, FULL.liveBlocks);
      assert.equal(FULL_REALLOC.failedAllocs, FULL.failedAllocs + 1);
      // everything freed: nothing left live (a lost record would stay)
      assert.deepEqual([END.liveBytes - START.liveBytes, END.liveBlocks - START.liveBlocks], [0, 0]);

      // impossible requests: one line each (the first five), with a stack
      const said = run.stderr.split('\n').filter((l) => /^emheap: .*returned NULL at /.test(l));
      assert.equal(said.length, 5, run.stderr);
      assert.match(said[0], /a request of 4,294,967,291 bytes, more than the wasm memory can ever hold \(16\.\d\d MiB\)/);
      assert.ok(said.some((l) => /calloc\(2,147,483,647, 4\), whose size overflows/.test(l)), said.join('\n'));
      for (const l of said) assert.match(l, / at main\b/, 'the program\'s frame, never emheap\'s');
      // the real out of memory: the report names the aligned request and
      // its caller, and its file is the only one saved
      const report = run.stderr.split('\n').filter((l) => l.startsWith('emheap: out of memory:'));
      assert.equal(report.length, 1, run.stderr);
      assert.match(report[0], /a request of 1,048,576 bytes aligned to 4,096 returned NULL/);
      assert.match(run.stderr, /emheap: {3}the allocation: fill_block < main/);
      assert.deepEqual(files.filter((f) => f.endsWith('.json')).length, 1, files.join(', '));
    });

    if (!exact) return;
    test('a block whose realloc failed keeps its site', (t) => {
      const {run} = runIn(t, variant);
      const snap = run.tagged.SNAPSHOT;
      const sum = (f) => snap.sites.reduce((a, s) => a + s[f], 0);
      assert.equal(sum('liveBytes'), snap.summary.requestedLiveBytes);
      assert.equal(sum('liveBlocks'), snap.summary.liveBlocks);
      const at = (name) => snap.sites.filter((s) => snap.frames[s.stack[0]].name === name)
        .reduce((a, s) => [a[0] + s.liveBytes, a[1] + s.liveBlocks], [0, 0]);
      assert.deepEqual(at('keep_malloc'), [2001, 2]);
      assert.deepEqual(at('keep_calloc'), [4001, 2]);
      assert.deepEqual(at('keep_memalign'), [6001, 2]);
      // the sites' totals count each block once
      const total = snap.sites.filter((s) => snap.frames[s.stack[0]].name === 'keep_malloc')
        .reduce((a, s) => a + s.totalBytes, 0);
      assert.equal(total, 2001);
    });
  });
}
