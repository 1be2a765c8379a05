// out_of_memory.test.js -- when the memory runs out (capture/out_of_memory_moment.js,
// model/out_of_memory.js): tests/runtime/out_of_memory.c leaks at
// leak_entry until Emscripten's default 16 MB heap is full. With emheap
// linked and nothing asked for, the program's console says what filled the
// memory, naming leak_entry; a snapshot file is saved in the working
// directory that `emheap top` ranks with leak_entry first; and the program
// ends as it does without emheap (Aborted(OOM), or malloc's NULL). In
// headless Chromium the file is a download, and emheap.lastOutOfMemory
// holds the snapshot.
'use strict';

const {describe, test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {runCli} = require('../lib/cli');
const {validateSnapshot} = require('../lib/schemas');
const {BUILD} = require('../lib/paths');
const {newPage, servedProgramPage, CHROMIUM_SKIP} = require('../lib/browser');
const {unwrapSnapshot} = require('../../model/snapshot_file');

const program = (variant) => path.join(BUILD, `out_of_memory.${variant}.js`);

// Runs a build in a scratch directory: {run, files: [names saved there], dir}.
function runIn(t, variant, env) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-oom-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  const run = runWasmProgram(program(variant), {cwd: dir, env: env || {}, timeoutMs: 60000});
  return {run, dir, files: fs.readdirSync(dir)};
}

// The lines emheap printed, without the prefix.
const emheapLines = (stderr) => stderr.split('\n').filter((l) => l.startsWith('emheap: ')).map((l) => l.slice(8));
// The report's lines: from its first on (the file's "saved" line may come
// before it).
const reportLines = (stderr) => {
  const lines = emheapLines(stderr);
  return lines.slice(Math.max(0, lines.findIndex((l) => l.startsWith('out of memory:'))));
};

const plain = {};
test('without emheap the program aborts with OOM, or prints its NULL', (t) => {
  const r = runIn(t, 'plain').run;
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /Aborted\(OOM\)/);
  plain.status = r.status;
});

for (const variant of ['dlmalloc', 'emmalloc', 'nullmalloc', 'threads']) {
  test(`${variant}: the console names the site that filled the memory, and the file saved then ranks it first`, (t) => {
    const {run, dir, files} = runIn(t, variant);
    const lines = reportLines(run.stderr);
    // the program ends as it would without emheap
    if (variant === 'nullmalloc') {
      assert.equal(run.status, 3, run.stderr.slice(-2000));
      assert.match(run.stdout, /^malloc returned NULL after \d+ blocks$/m);
      assert.match(lines[0], /^out of memory: a request of 65,536 bytes returned NULL \(wasm memory 16\.\d\d MiB, its limit\)$/);
    } else {
      assert.equal(run.status, plain.status === undefined ? run.status : plain.status, 'the same exit as without emheap');
      assert.match(run.stderr, /Aborted\(OOM\)/);
      assert.ok(run.stderr.indexOf('Aborted(OOM)') > run.stderr.indexOf('emheap: out of memory'), 'the report comes before the abort');
      // (16 MiB of heap, and with Emscripten 4 on its static data and stack beside it)
      assert.match(lines[0], /^out of memory: the wasm memory \(16\.\d\d MiB, its limit\) could not grow to 16\.\d\d MiB: Emscripten aborted the program$/);
    }
    // on a thread, its start routine; no worker start-up JS
    const caller = variant === 'threads' ? 'leak_thread' : 'main';
    assert.equal(lines[1], `  the allocation: leak_entry < ${caller}`);
    assert.match(lines[2], /^ {2}wasm memory 16\.\d\d MiB: [\d.]+ [KM]iB static data and stacks, 1\d\.\d\d MiB live in \d+ blocks, /);
    // the allocator's heap walked then (with threads too: at the abort this
    // thread holds the allocator's lock); ABORTING_MALLOC=0's NULL comes
    // after the lock is let go, and the other thread is idle then
    assert.match(lines[2], /, [\d.]+ (?:[KM]i)?B free in \d+ blocks?, [\d.]+ (?:[KM]i)?B free at the top, /, lines[2]);
    const firstSite = lines.findIndex((l) => / {4}[ \d.]+%/.test(l));
    assert.match(lines[firstSite], new RegExp(`^ {4}\\s*[6-9]\\d\\.\\d%\\s+\\d+\\.\\d\\d MiB {2}leak_entry < ${caller}$`), lines.join('\n'));
    // the file: new, named for the moment, read by the CLI
    const saved = files.filter((f) => /^memory-profile-.*-oom\.speedscope\.json$/.test(f));
    assert.equal(saved.length, 1, files.join(', '));
    assert.ok(lines.includes(`  the snapshot: ${saved[0]} (\`emheap top ${saved[0]}\` ranks its sites), and emheap.lastOutOfMemory`),
      lines.join('\n'));
    const file = path.join(dir, saved[0]);
    const snapshot = unwrapSnapshot(JSON.parse(fs.readFileSync(file, 'utf8'))).snapshot;
    assert.deepEqual(validateSnapshot(snapshot), []);
    assert.equal(snapshot.allocatorHeap.error, undefined);
    assert.equal(snapshot.outOfMemory.how, variant === 'nullmalloc' ? 'null' : 'abort');
    assert.equal(snapshot.outOfMemory.memoryBytes, snapshot.outOfMemory.memoryLimitBytes, 'a fixed heap');
    assert.ok(snapshot.outOfMemory.memoryBytes >= 16 * 1024 * 1024);
    const top = runCli(['top', file, '--json']);
    assert.equal(top.status, 0, top.stderr);
    const ranked = JSON.parse(top.stdout);
    assert.match(ranked.sites[0].label, /^leak_entry/);
    // (with threads, each thread's stack is a block too: 2 MiB of the 11)
    assert.ok(ranked.sites[0].liveBytes > (variant === 'threads' ? 0.6 : 0.8) * ranked.summary.liveBytes);
    assert.equal(ranked.outOfMemory.how, snapshot.outOfMemory.how);
    const text = runCli(['top', file]).stdout;
    assert.match(text, new RegExp(`^out of memory: .*\\n {2}the allocation: leak_entry < ${caller}$`, 'm'));
  });
}

// The memory runs out on one thread while another allocates and frees
// without pause. With footers (runtime/footer.h) that thread takes
// dlmalloc's mutex for each block's flag; the report, made inside dlmalloc
// holding that mutex, takes emheap's lock: it must never wait for a thread
// that waits for the mutex. Five runs, each must end as without emheap,
// reported. (The allocator's heap is not asserted walked here: a walk at
// the abort with another thread allocating reads dlmalloc's bins
// inconsistent, with footers and without.)
test('threads, another one busy: the report never waits for it, five times', (t) => {
  for (let i = 0; i < 5; i++) {
    const {run} = runIn(t, 'threads_busy', {});
    assert.notEqual(run.status, null, 'ended, not killed');
    assert.match(run.stderr, /Aborted\(OOM\)/);
    const lines = reportLines(run.stderr);
    assert.equal(lines[1], '  the allocation: leak_entry < leak_thread', run.stderr.slice(-2000));
    // the first site (the two threads' stacks are 2 MiB blocks each)
    const firstSite = lines.find((l) => / {4}[ \d.]+%/.test(l));
    assert.match(firstSite, /^ {4}\s*\d\d\.\d%\s+\d+\.\d\d MiB {2}leak_entry < leak_thread$/, lines.join('\n'));
  }
});

test('EMHEAP_OOM=off: no report and no file, the program as before', (t) => {
  const {run, files} = runIn(t, 'dlmalloc', {EMHEAP_OOM: 'off'});
  assert.match(run.stderr, /Aborted\(OOM\)/);
  assert.deepEqual(emheapLines(run.stderr), []);
  assert.deepEqual(files, []);
});

describe('out of memory in headless Chromium', {skip: CHROMIUM_SKIP}, () => {
  const {served, dir} = servedProgramPage(program('dlmalloc'));
  test('the page says what filled the memory, downloads the snapshot, and keeps it as emheap.lastOutOfMemory', async () => {
    const {context, page, consoleMessages} = await newPage(served.browser);
    try {
      const downloaded = page.waitForEvent('download', {timeout: 30000});
      await page.goto(`${served.server.url}/index.html`);
      const download = await downloaded;
      assert.match(download.suggestedFilename(), /^memory-profile-.*-oom\.speedscope\.json$/);
      const file = path.join(dir, download.suggestedFilename());
      await download.saveAs(file);
      const said = consoleMessages.map((m) => m.text).join('\n');
      assert.match(said, /emheap: out of memory: the wasm memory \(16\.\d\d MiB, its limit\) could not grow/);
      assert.match(said, /emheap: {3}the allocation: leak_entry < main/);
      assert.match(said, /Aborted\(OOM\)/);
      const kept = await page.evaluate(() => emheap.lastOutOfMemory.outOfMemory);
      assert.equal(kept.how, 'abort');
      const ranked = JSON.parse(runCli(['top', file, '--json']).stdout);
      assert.match(ranked.sites[0].label, /^leak_entry/);
      assert.equal(ranked.outOfMemory.how, 'abort');
    } finally {
      await context.close();
    }
  });
});
