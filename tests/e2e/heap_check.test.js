// heap_check.test.js -- heap budgets inside test suites: emheap/testing's
// heapCheck (testing/index.js) in a node:test, a vitest and a jest suite as
// users write them (tests/heap_check_suites/), each run on the clean and the
// leaking build of tests/runtime/heap_check.c, on Emscripten's defaults
// (fixed heap, the default mode); the same checks from C
// (emheap_check_begin / emheap_check_end, the -DC_API build); and what a
// check says of its limits, its mode and the peak it restarted.
'use strict';

const {describe, test} = require('node:test');
const assert = require('node:assert/strict');
const {spawnSync} = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {BUILD, ROOT} = require('../lib/paths');
const {runWasmProgram} = require('../lib/run_wasm');
const {runCli} = require('../lib/cli');
const {heapCheck} = require('../../testing');
const {formatBytesExact} = require('../../model/numbers');

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const SUITES = path.join(ROOT, 'tests', 'heap_check_suites');
const moduleOf = (variant) => path.join(BUILD, `heap_check.${variant}.js`);

function runSuite(command, args, variant, env = {}) {
  const childEnv = Object.assign({}, process.env, {HEAP_CHECK_MODULE: moduleOf(variant), NO_COLOR: '1', FORCE_COLOR: '0'}, env);
  delete childEnv.NODE_TEST_CONTEXT; // (set for this file's own runner: the suite runs as a user's would)
  const run = spawnSync(command, args, {cwd: ROOT, encoding: 'utf8', timeout: 120000, env: childEnv});
  return {status: run.status, output: `${run.stdout}\n${run.stderr}`};
}

const FRAMEWORKS = {
  'node:test': (variant) => runSuite(process.execPath, ['--test', path.join(SUITES, 'parse.node.js')], variant),
  vitest: (variant) => runSuite(process.execPath, [path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run',
    '--root', SUITES, 'parse.vitest'], variant),
  jest: (variant) => runSuite(process.execPath, [path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci',
    '--rootDir', SUITES, '--testMatch', '**/parse.jest.cjs'], variant),
};

// The tests each runner says passed and failed, from its closing lines
// ("# pass 1", "Tests  1 passed (1)", "Tests: 1 passed, 1 total"): an exit
// status alone passes a suite that ran no test (node --test exits 0 then).
const SUMMARY_LINE = {'node:test': null, vitest: /^ +Tests +(.+)$/m, jest: /^Tests: +(.+)$/m};
function tally(framework, output) {
  const count = (re) => { const m = re.exec(output); return m ? Number(m[1]) : NaN; };
  if (!SUMMARY_LINE[framework]) return {passed: count(/^# pass (\d+)$/m), failed: count(/^# fail (\d+)$/m)};
  const line = SUMMARY_LINE[framework].exec(output);
  if (!line) return {passed: NaN, failed: NaN};
  const word = (w) => { const m = new RegExp(`(\\d+) ${w}`).exec(line[1]); return m ? Number(m[1]) : 0; };
  return {passed: word('passed'), failed: word('failed')};
}

for (const [framework, run] of Object.entries(FRAMEWORKS)) {
  describe(`a ${framework} suite with heapCheck`, () => {
    // (each suite is one test: parse.*)
    test('passes on the clean module', () => {
      const {status, output} = run('clean');
      assert.equal(status, 0, output);
      assert.deepEqual(tally(framework, output), {passed: 1, failed: 0}, output);
    });
    test('fails on the leaking module, naming the leak\'s functions and what it measured', () => {
      const {status, output} = run('leaky');
      assert.notEqual(status, 0, output);
      assert.deepEqual(tally(framework, output), {passed: 0, failed: 1}, output);
      assert.match(output, /heap check failed \(after 1 warm-up run\):/);
      // every fourth of 1000 tokens, 24 to 31 bytes each: 250 blocks
      assert.match(output, /leaked: 250 blocks \([\d.]+ KiB \(6,500 B\)\) allocated by the run are still live after it \(no leak allowed\); by function:/);
      assert.match(output, /6\.35 KiB in 250 blocks +make_token < parse\b/);
      // the rows stop at the checked function: no frame of the framework
      assert.doesNotMatch(output, /in 250 blocks .*heapCheckedRun/);
    });
  });
}

// parse(n) asks for 24 + i % 8 bytes for token i (tests/runtime/heap_check.c)
const tokenBytes = (i) => 24 + i % 8;
const planned = (n) => Array.from({length: n}, (_, i) => tokenBytes(i)).reduce((a, b) => a + b, 0);

describe('heap checks from C (emheap_check_begin / emheap_check_end)', () => {
  const builds = [['c_api', ''], ['c_api_threads', ', -pthread, after a thread came and went']];
  for (const [variant, label] of builds) test(`each verdict with its status and text, as a C test suite sees them${label}`, () => {
    const run = runWasmProgram(moduleOf(variant), {timeoutMs: 60000});
    assert.equal(run.status, 0, run.stderr);
    const verdicts = new Map(run.stdout.split('--\n').filter((b) => b.trim()).map((block) => {
      const [, what, status, text] = /^([^:]+): (-?\d+)(?:, )?([\s\S]*)$/.exec(block.trim());
      return [what, {status: Number(status), text: text.trim()}];
    }));
    // live_bytes, checked first, while the heap holds only the tokens
    // keep_one keeps and what the runtime held before (the program says:
    // Emscripten 6's threaded runtime makes its mailbox before main): one
    // passes at its bytes, two fail a byte under theirs
    const before = verdicts.get('held before the checks').status;
    assert.ok(before >= 0 && before < 4096, `held before the checks: ${before}`);
    assert.equal(verdicts.get('keep one, its bytes live allowed').status, 0);
    assert.equal(verdicts.get('keep one, its bytes live allowed').text, '');
    const held = verdicts.get('keep another, a byte less live allowed');
    assert.equal(held.status, 1);
    assert.match(held.text, new RegExp(`^heap check "keep another, live" failed:\n {2}live: the heap held ` +
      `${escapeRegExp(formatBytesExact(before + 2 * tokenBytes(1)))} live when the run ended \\(maxLiveBytes ` +
      `${escapeRegExp(formatBytesExact(before + 2 * tokenBytes(1) - 1))}\\); by function:\n(?: {4}.*\n)* {4}${2 * tokenBytes(1)} B in 2 blocks +make_token\\b`));
    assert.equal(verdicts.get('parse, no leak allowed').status, 0);
    assert.equal(verdicts.get('parse, no leak allowed').text, '');
    const kept = verdicts.get('keep one, no leak allowed');
    assert.equal(kept.status, 1);
    assert.match(kept.text, /^heap check "keep one" failed:\n {2}leaked: 1 block \(25 B\) allocated by the run is still live after it \(no leak allowed\); by function:\n {4}25 B in 1 block +make_token\b/);
    assert.equal(verdicts.get('small burst, peak 512 KiB over').status, 0);
    const large = verdicts.get('large burst, peak 512 KiB over');
    assert.equal(large.status, 1);
    // (the limit: what was live before the check, a few KiB, + 512 KiB)
    const limit = /peak: the heap's live bytes rose to 1\.00 MiB \(1,0\d\d,\d\d\d B\) during the run \(maxPeakBytes ([\d.]+) KiB/.exec(large.text);
    assert.ok(limit && Number(limit[1]) >= 512 && Number(limit[1]) < 520, large.text);
    assert.match(large.text, /1\.00 MiB in 1 block +\S/);
    assert.equal(verdicts.get('1000 tokens, 1000 allocations allowed').status, 0);
    const over = verdicts.get('1001 tokens, 1000 allocations allowed');
    assert.equal(over.status, 1);
    assert.match(over.text, /total: the run made 1,001 allocations \(maxAllocs 1,000\); by function:\n {4}1,001 allocations, [\d.]+ KiB make_token\b/);
    // total_bytes: the bytes the 1,000 tokens ask for (27,500) pass, one less fails
    assert.equal(verdicts.get('1000 tokens, their bytes allowed').status, 0);
    const less = verdicts.get('1000 tokens, a byte less allowed');
    assert.equal(less.status, 1);
    assert.match(less.text, new RegExp(`total: the run allocated [\\d.]+ KiB \\(${planned(1000).toLocaleString('en-US')} B\\) ` +
      `\\(maxTotalBytes [\\d.]+ KiB \\(${(planned(1000) - 1).toLocaleString('en-US')} B\\)\\); ` +
      `by function:\n {4}1,000 allocations, [\\d.]+ KiB make_token\\b`));
    // a message buffer too small: cut, NUL-terminated, never overrun
    assert.match(verdicts.get('small buffer').text, /^39 bytes: heap check "small buffer" failed:\n {2}lea$/);
    assert.equal(verdicts.get('small buffer').status, 1);
    const twice = verdicts.get('a check ended twice');
    assert.equal(twice.status, -1);
    assert.match(twice.text, /^heap check: check \d+ is not open \(each check ends once\)$/);
  });
});

describe('what heapCheck says of its limits, its mode and the peak', () => {
  const load = (variant) => require(moduleOf(variant))();

  test('a bad or missing limit is refused before the function runs', async () => {
    const Module = await load('clean');
    let runs = 0;
    const fn = () => { runs++; Module._parse(10); };
    await assert.rejects(heapCheck(Module, fn, {}), /no limit given: set at least one of leaks, maxLiveBytes, maxPeakBytes, maxAllocs/);
    await assert.rejects(heapCheck(Module, fn, {maxPeak: 10}), /unknown limit "maxPeak"/);
    await assert.rejects(heapCheck(Module, fn, {maxAllocs: -1}), /maxAllocs: give a whole number >= 0/);
    await assert.rejects(heapCheck(Module, fn, {leaks: 'yes'}), /leaks: give true/);
    await assert.rejects(heapCheck({}, fn, {leaks: true}), /this module has no emheap API/);
    assert.equal(runs, 0);
    // a function that throws fails with its own error, and the check is closed
    await assert.rejects(heapCheck(Module, () => { throw new Error('boom'); }, {leaks: true}), /^Error: boom$/);
  });

  test('byte budgets count the bytes the program asked for: pass at the plan, fail one byte under', async () => {
    const Module = await load('clean');
    const total = planned(1000); // 27,500 B
    const passed = await heapCheck(Module, () => Module._parse(1000), {maxTotalBytes: total});
    assert.equal(passed.totalBytes, total);
    assert.equal(passed.bytes, 'requested');
    const under = await heapCheck(Module, () => Module._parse(1000), {maxTotalBytes: total - 1}).catch((e) => e);
    assert.ok(under instanceof assert.AssertionError, String(under));
    assert.match(under.message, new RegExp(`total: the run allocated [\\d.]+ KiB \\(${total.toLocaleString('en-US')} B\\) ` +
      `\\(maxTotalBytes [\\d.]+ KiB \\(${(total - 1).toLocaleString('en-US')} B\\)\\); by function:\\n {4}1,000 allocations, 26\\.86 KiB make_token\\b`));
    // the peak: one buffer of a known size on top of what was live before,
    // nothing: the module has no main and every parse freed its tokens
    const before = 0;
    const burst = 100003;
    assert.equal((await heapCheck(Module, () => Module._burst(burst), {maxPeakBytes: before + burst, maxLiveBytes: before})).peakBytes,
      before + burst);
    await assert.rejects(heapCheck(Module, () => Module._burst(burst), {maxPeakBytes: before + burst - 1}),
      new RegExp(`peak: the heap's live bytes rose to [\\d.]+ KiB \\(${(before + burst).toLocaleString('en-US')} B\\)`));
    // what is live when the run ends: keep_one keeps token 1
    assert.equal((await heapCheck(Module, Module._keep_one, {maxLiveBytes: before + tokenBytes(1)})).liveBytes, before + tokenBytes(1));
    await assert.rejects(heapCheck(Module, Module._keep_one, {maxLiveBytes: before + 2 * tokenBytes(1) - 1}),
      new RegExp(`heap check failed:\n {2}live: the heap held ${before + 2 * tokenBytes(1)} B live when the run ended ` +
        `\\(maxLiveBytes ${before + 2 * tokenBytes(1) - 1} B\\); by function:\n {4}${2 * tokenBytes(1)} B in 2 blocks +make_token < keep_one$`));
  });

  test('the peak is the most the program asked for at once, even when the allocator rounded a smaller request more', async () => {
    // the leaking build keeps tokens 0, 4, ... 996; at token 999 (31 B)
    // the run holds all 250 kept and that one: the highest. Token 997 (29 B)
    // got the same usable size from dlmalloc, so the usable sizes peaked
    // there, 2 bytes under.
    const Module = await load('leaky');
    const before = 0; // (a fresh module: no main, nothing allocated yet)
    const kept = Array.from({length: 250}, (_, k) => tokenBytes(4 * k)).reduce((a, b) => a + b, 0);
    const peak = before + kept + tokenBytes(999);
    const result = await heapCheck(Module, () => Module._parse(1000), {maxPeakBytes: peak});
    assert.equal(result.peakBytes, peak);
    assert.equal(result.liveBytes, before + kept);
    const over = await heapCheck(Module, () => Module._parse(1000), {maxPeakBytes: peak + kept - 1}).catch((e) => e);
    // (a second run: the first one's 250 tokens are live before it)
    assert.match(over.message, new RegExp(`peak: the heap's live bytes rose to [\\d.]+ KiB \\(${(peak + kept).toLocaleString('en-US')} B\\) ` +
      `during the run \\(maxPeakBytes [^)]+\\)\\); by function, at the peak of its usable sizes, when [\\d.]+ KiB \\(${(peak + kept - 2).toLocaleString('en-US')} B\\) were live:`));
  });

  test('the checked function is shown by its own name, an anonymous one as (test function)', async () => {
    const Module = await load('leaky');
    const anonymous = await heapCheck(Module, () => Module._parse(8), {warmups: 1, leaks: true}).catch((e) => e);
    assert.match(anonymous.message, /in 2 blocks +make_token < parse < \(test function\)$/m);
    assert.doesNotMatch(anonymous.message, /heapCheck\./);
    async function parseDocument() { Module._parse(8); }
    const named = await heapCheck(Module, parseDocument, {leaks: true}).catch((e) => e);
    assert.match(named.message, /in 2 blocks +make_token < parse < parseDocument$/m);
    // a wasm export given as the function keeps its own name
    const direct = await heapCheck(Module, Module._keep_one, {leaks: true}).catch((e) => e);
    assert.match(direct.message, /in 1 block +make_token < (keep_one|remember_token)\b/);
    assert.doesNotMatch(direct.message, /test function/);
  });

  test('by groups the rows as `emheap top --by` does, and the text says by what', async () => {
    const Module = await load('clean');
    // keep_one keeps token 1 (25 B), called from two lines of the checked
    // function: one chain of functions (one row by function), two lines of
    // JS (two rows by line, and by site), one chain of modules
    function keepTwo() {
      Module._keep_one();
      Module._keep_one();
    }
    const kept = tokenBytes(1);
    const rows = async (by) => {
      const e = await heapCheck(Module, keepTwo, {leaks: true, maxTotalBytes: 2 * kept - 1, by}).catch((x) => x);
      assert.ok(e instanceof assert.AssertionError, String(e));
      const [leaked, total] = e.message.split('\n  total: ');
      assert.match(leaked, new RegExp(`leaked: 2 blocks \\(${2 * kept} B\\) allocated by the run are still live after it \\(no leak allowed\\); ` +
        `by ${by || 'function'}:\n`));
      assert.match(total, new RegExp(`^the run allocated ${2 * kept} B \\(maxTotalBytes ${2 * kept - 1} B\\); by ${by || 'function'}:\n`));
      return {leaked: leaked.split('\n').slice(2), total: total.split('\n').slice(1)};
    };
    for (const by of [undefined, 'function']) {
      const {leaked, total} = await rows(by);
      assert.deepEqual(leaked.map((r) => r.trim().split(/ {2,}/)), [[`${2 * kept} B in 2 blocks`, 'make_token < keep_one < keepTwo']]);
      assert.deepEqual(total.map((r) => r.trim().split(/ {2,}/)), [[`2 allocations, ${2 * kept} B`, 'make_token < keep_one < keepTwo']]);
    }
    for (const by of ['line', 'site']) {
      const {leaked, total} = await rows(by);
      assert.equal(leaked.length, 2, leaked.join('\n'));
      for (const row of leaked) assert.match(row, new RegExp(`^ {4}${kept} B in 1 block +make_token\\b`));
      assert.equal(total.length, 2, total.join('\n'));
      for (const row of total) assert.match(row, new RegExp(`^ {4}1 allocation, ${kept} B +make_token\\b`));
      // each row says which line of keepTwo it is: the two differ
      for (const shown of [leaked, total]) {
        const lines = shown.map((r) => /keepTwo \S+:(\d+)/.exec(r)).map((m) => m && m[1]);
        assert.ok(lines.every(Boolean) && lines[0] !== lines[1], shown.join('\n'));
      }
    }
    const {leaked, total} = await rows('module');
    assert.match(leaked.join('\n'), new RegExp(`^ {4}${2 * kept} B in 2 blocks +heap_check\\.clean\\.wasm\\b`));
    assert.match(total.join('\n'), new RegExp(`^ {4}2 allocations, ${2 * kept} B +heap_check\\.clean\\.wasm\\b`));
    // a bad grouping is refused before the function runs
    let ran = 0;
    await assert.rejects(heapCheck(Module, () => { ran++; }, {leaks: true, by: 'file'}), /unknown grouping "file": use function, line, site, module, type/);
    assert.equal(ran, 0);
  });

  test('leaks are refused in sampled mode; the totals are exact there', () => {
    // (a process of its own: without calling contexts Emscripten 3.1.6
    // loads its .wasm with fetch under node unless told not to)
    const script = `
      const {heapCheck} = require(${JSON.stringify(path.join(ROOT, 'testing'))});
      require(process.env.HEAP_CHECK_MODULE)().then(async (Module) => {
        await heapCheck(Module, () => Module._parse(100), {leaks: true}).catch((e) => console.log('REFUSED ' + e.message));
        const result = await heapCheck(Module, () => Module._parse(100), {maxAllocs: 100, maxTotalBytes: 100 * 36});
        console.log('ALLOCS ' + result.allocs + ' ' + result.ok + ' ' + result.bytes);
        await heapCheck(Module, () => Module._parse(100), {maxTotalBytes: 100 * 24}).catch((e) => console.log('OVER ' + e.message));
      });`;
    const {status, output} = runSuite(process.execPath, ['--no-experimental-fetch', '-e', script], 'clean', {EMHEAP_MODE: 'sampled'});
    assert.equal(status, 0, output);
    assert.match(output, /REFUSED heap check: leaks are counted exactly only in exact mode, where every block is recorded \(this snapshot: sampled\)/);
    // (the bytes asked for are estimates there: usable sizes, said so)
    assert.match(output, /ALLOCS 100 true usable/);
    assert.match(output, /OVER heap check failed:\n {2}total: the run allocated [\d.]+ KiB \([\d,]+ B\) \(usable sizes\) \(maxTotalBytes/);
  });

  test('the peak is restarted at the check, and every view says since which mark', async () => {
    const Module = await load('clean');
    Module._burst(4 << 20); // a peak before the check, higher than any inside it
    const result = await heapCheck(Module, () => Module._burst(64 << 10), {maxPeakBytes: 1 << 20, name: 'small'});
    // the run's own peak, the burst alone: nothing else is live in a fresh
    // module (no main), and the 4 MiB before the check was freed
    assert.equal(result.peakBytes, 64 << 10);
    await assert.rejects(heapCheck(Module, () => Module._burst(2 << 20), {maxPeakBytes: 1 << 20, name: 'big'}),
      /heap check "big" failed:\n {2}peak: the heap's live bytes rose to 2\.00 MiB \(2,097,152 B\) during the run \(maxPeakBytes 1\.00 MiB \(1,048,576 B\)\); by function:\n {4}2\.00 MiB in 1 block +burst/);
    const snapshot = Module.emheap.snapshot();
    const mark = snapshot.marks.find((m) => m.name === 'check: big');
    assert.equal(snapshot.summary.peakSinceMark, mark.number);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-check-'));
    try {
      const file = path.join(dir, 'after.json');
      fs.writeFileSync(file, JSON.stringify(snapshot));
      const top = runCli(['top', file]);
      assert.equal(top.status, 0, top.stderr);
      assert.match(top.stdout, new RegExp(`; peak 2\\.00 MiB since mark #${mark.number} "check: big";`));
    } finally {
      fs.rmSync(dir, {recursive: true, force: true});
    }
  });
});
