// emheap on programs this project did not write (tests/third_party/programs.mk):
// Lua 5.2's own interpreter (lua.c) running a script, and SQLite used by
// four threads with main() on a pthread (under node and as a page in
// headless Chromium), all at -O2 with Emscripten's
// defaults (16 MB heap, no growth, aborting malloc). Under emheap, in every
// mode, each prints what it prints without emheap. What emheap says about
// their heap is read as a user reads it (the file emheap.downloadSnapshot()
// saves under node, or Ctrl+Shift+H in a page, then the CLI) and checked against what each program
// counts itself: Lua's collectgarbage('count'), SQLite's sqlite3_status.
'use strict';

const {describe, test} = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');

const {runWasmProgram} = require('../lib/run_wasm');
const {assertAgrees} = require('../lib/mallinfo');
const {newPage, servedChromium, crashedIn, CHROMIUM_SKIP} = require('../lib/browser');

const {ROOT} = require('../lib/paths');
const {runCli} = require('../lib/cli');
const BUILD = path.join(ROOT, 'build', 'tests', 'third_party');
const SNAPSHOT_AT_EXIT = path.join(ROOT, 'tests', 'third_party', 'snapshot_at_exit.js');
const program = (name) => path.join(BUILD, `${name}.js`);

// Lua: `keep` holds n strings of 51-56 characters; `objs`, n/4 tables with
// a string and a table each. The collector is stopped first, so that what
// Lua counts (every byte its allocator holds, garbage included) is what
// stays in the heap until os.exit, which leaves without lua_close.
const luaScript = (n) => `
collectgarbage('stop')
keep = {}
for i = 1, ${n} do keep[i] = string.rep('x', 50) .. i end
local objs = {}
for i = 1, ${n / 4} do objs[i] = {id = i, name = 'n' .. i, tags = {i % 7, i % 11}} end
local chars = 0
for i = 1, #keep do chars = chars + #keep[i] end
print(#keep, #objs, chars)
io.write('LUA {"bytes":', string.format('%d', collectgarbage('count') * 1024), '}\\n')
os.exit(0)`;

// A saved file as `emheap top --json` reads it, with the text `emheap top` prints.
function readTop(file) {
  const cli = runCli(['top', '--json', '--top', '100000', file], {maxBuffer: 256 << 20});
  assert.equal(cli.status, 0, cli.stderr);
  const top = JSON.parse(cli.stdout);
  top.text = runCli(['top', file]).stdout;
  return top;
}

// Runs one build in a fresh directory with the snapshot preload; returns the
// run and, when emheap saved one, the snapshot as `emheap top --json` reads it.
function runSaved(js, {env = {}, args = []} = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-third-party-'));
  try {
    const r = runWasmProgram(js, {env, args, cwd: dir, nodeArgs: ['-r', SNAPSHOT_AT_EXIT]});
    const saved = fs.readdirSync(dir).filter((f) => f.endsWith('.speedscope.json'));
    return {...r, saved, top: saved.length === 1 ? readTop(path.join(dir, saved[0])) : null};
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

// What the program printed, without emheap's own lines and heap_probe.c's.
const appOutput = (r) => r.stdout.split('\n').filter((l) => !/^(emheap:|MALLINFO |MALLINFO_AFTER |HEAP )/.test(l)).join('\n');
const leaf = (site) => site.stack[0].name;
const names = (site) => site.stack.map((f) => f.name);
const sum = (sites, field) => sites.reduce((a, s) => a + s[field], 0);

test('Lua: the interpreter prints the same in every mode and frees everything it had (no leak report)', () => {
  const script = luaScript(2000).replace('os.exit(0)', ''); // lua.c then calls lua_close
  const plain = runWasmProgram(program('lua.plain'), {args: ['-e', script]});
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stdout, /^2000\t500\t/);
  for (const mode of ['off', 'sampled', 'exact']) {
    const r = runWasmProgram(program('lua.emheap'), {args: ['-e', script],
      env: {EMHEAP_MODE: mode, EMHEAP_LEAK_REPORT: '1', EMHEAP_LEAK_EXIT_CODE: '3'}});
    assert.equal(r.status, 0, `${mode}: ${r.stdout}${r.stderr}`);
    assert.equal(appOutput(r), plain.stdout, mode);
    if (mode !== 'off') assert.match(r.stderr, /emheap: no leaks: every block was freed before exit/, mode);
  }
});

// Calling contexts checked on code this project did not write: every
// allocation whose context was seen before also takes its JS stack, and
// the two must name one site (tests/e2e/contexts.test.js does the same on a
// program made for it).
test('Lua and SQLite on four threads: every calling context names the site its JS stack names', () => {
  const runs = [
    ['lua', runWasmProgram(program('lua.emheap'), {args: ['-e', luaScript(2000)],
      env: {EMHEAP_MODE: 'exact', EMHEAP_CONTEXTS: 'verify'}})],
    ['sqlite', runWasmProgram(program('sqlite_threads.emheap'), {env: {EMHEAP_MODE: 'exact', EMHEAP_CONTEXTS: 'verify'}})],
  ];
  for (const [name, r] of runs) {
    assert.equal(r.status, 0, `${name}: ${r.stderr}`);
    const m = /contexts checked against JS stacks: (\d+) allocations, (\d+) named another site/.exec(r.stderr);
    assert.ok(m, `${name}: ${r.stderr}`);
    assert.ok(Number(m[1]) >= 1000, `${name}: only ${m[1]} allocations checked`);
    assert.equal(Number(m[2]), 0, `${name}: ${m[0]}`);
  }
});

test('Lua on a 16 MB heap, exact mode: every block recorded, sites named past Lua\'s allocator, bytes as Lua counts them', () => {
  const args = ['-e', luaScript(3000)];
  const plain = runWasmProgram(program('lua.plain'), {args});
  assert.equal(plain.status, 0, plain.stderr);
  const r = runSaved(program('lua.emheap'), {args, env: {EMHEAP_MODE: 'exact'}});
  assert.equal(r.status, 0, r.stderr);
  assert.equal(appOutput(r), plain.stdout, 'the same output as without emheap');
  const luaBytes = r.tagged.LUA.bytes;
  const {summary, sites, wrappers} = r.top;
  assert.equal(summary.lostAllocs, 0, 'everything fits in emheap\'s share of the heap');
  assert.equal(sum(sites, 'liveBytes'), summary.requestedLiveBytes);
  assert.equal(summary.requestedLiveBytes + summary.allocatorRoundingBytes, summary.liveBytes);
  assert.equal(sum(sites, 'liveBlocks'), summary.liveBlocks);
  // Sites count the bytes asked for, as Lua counts them. Lua's count is
  // taken inside the script's last line, whose own strings (the number
  // formatted, the line) are made after it: a few dozen bytes, where usable
  // sizes were off by up to 7 bytes a block (here ~5,400 blocks).
  const more = summary.requestedLiveBytes - luaBytes;
  assert.ok(more >= 0 && more <= 256, `emheap ${summary.requestedLiveBytes} B asked for, Lua ${luaBytes} B`);
  // Lua's allocation layer, found by itself (docs/using.md: l_alloc, luaM_realloc_, luaC_newobj).
  assert.deepEqual(wrappers.detected.slice(0, 2), ['l_alloc', 'luaM_realloc_'], JSON.stringify(wrappers));
  const layer = new Set([...wrappers.detected, 'realloc', 'malloc', 'free']);
  assert.deepEqual(sites.filter((s) => layer.has(leaf(s))).map((s) => s.key), [], 'no site is named after the layer');
  // The 3000 kept strings and the intermediate ones (string.rep's), 750 `name`s.
  const strings = sites.filter((s) => leaf(s) === 'luaS_newlstr' && names(s).includes('luaV_execute'));
  assert.ok(sum(strings, 'liveBlocks') >= 3000 * 2 + 750, `strings: ${sum(strings, 'liveBlocks')}`);
  // 750 objects and 750 tag tables: the tables themselves (the `{...}` constructors).
  const tables = sites.filter((s) => leaf(s) === 'luaH_new');
  assert.ok(sum(tables, 'liveBlocks') >= 1500, `tables: ${sum(tables, 'liveBlocks')}`);
  assert.match(r.top.text, /allocation layer left out of sites: l_alloc, luaM_realloc_/);
  // The allocator's heap, as churned as a real interpreter leaves it, read
  // whole (dlmalloc's free bins: capture/allocator_walk.js): its parts add up
  // to the memory, the live blocks and emheap's tables inside what it holds.
  const m = r.top.memory;
  assert.equal(m.walked, true, `not read: ${m.notWalked}`);
  assert.ok(m.freeBlocks > 0, `${m.freeBlocks} free blocks`);
  assert.equal(m.staticBytes + m.liveBytes + m.emheapBytes + m.allocatorOwnBytes + m.freeBytes + m.topFreeBytes + m.unusedBytes,
    m.memoryBytes);
  // ... and says what dlmalloc's own mallinfo() says of it at the same
  // moment (tests/third_party/heap_probe.c, at exit)
  const {MALLINFO: info, HEAP: read, MALLINFO_AFTER: after} = r.tagged;
  assert.ok(info && read && after, 'the probe printed mallinfo(), the heap, mallinfo() again');
  assert.deepEqual(after, info, 'the snapshot left the heap as it was');
  assert.ok(read.heap && read.heap.error === undefined, JSON.stringify(read.heap));
  assertAgrees('dlmalloc', read.heap, info);
});

test('Lua on a 16 MB heap, exact mode, 85,000 blocks: every one recorded in its footer, within emheap\'s 1/16', () => {
  const args = ['-e', luaScript(20000)];
  const plain = runWasmProgram(program('lua.plain'), {args});
  const r = runSaved(program('lua.emheap'), {args, env: {EMHEAP_MODE: 'exact'}});
  assert.equal(r.status, 0, r.stderr);
  assert.equal(appOutput(r), plain.stdout, 'the same output as without emheap');
  const {summary, sites} = r.top;
  assert.ok(summary.liveBlocks >= 85000, JSON.stringify(summary));
  assert.ok(summary.tableBytes <= 16 * 1024 * 1024 / 16 && summary.tableBytes >= 8 * summary.liveBlocks, JSON.stringify(summary));
  assert.ok(!summary.thinnedAtBytes, 'nothing sampled');
  assert.equal(summary.lostAllocs, 0);
  assert.equal(sum(sites, 'liveBytes'), summary.requestedLiveBytes);
  assert.equal(sum(sites, 'liveBlocks'), summary.liveBlocks);
  assert.equal(sites.filter((s) => s.estimatedLiveBytes > 0).length, 0, 'no estimates');
  const strings = sites.filter((s) => leaf(s) === 'luaS_newlstr' && names(s).includes('luaV_execute'));
  assert.ok(Math.abs(sum(strings, 'liveBlocks') / 65000 - 1) <= 0.02, `strings: ${sum(strings, 'liveBlocks')}`);
  assert.doesNotMatch(r.top.text, /thinned/);
});

test('Lua on a 16 MB heap, exact mode, records in the block table (as with emmalloc or threads), more blocks than emheap\'s tables may hold: totals exact, the rest sampled and said', () => {
  const args = ['-e', luaScript(20000)];
  const plain = runWasmProgram(program('lua.plain'), {args});
  const r = runSaved(program('lua.emheap'), {args, env: {EMHEAP_MODE: 'exact', EMHEAP_FOOTERS: '0'}});
  assert.equal(r.status, 0, r.stderr);
  assert.equal(appOutput(r), plain.stdout, 'the same output as without emheap');
  const {summary, sites} = r.top;
  const slack = summary.liveBytes - r.tagged.LUA.bytes;
  assert.ok(slack >= 0 && slack <= 7.5 * summary.liveBlocks, `emheap ${summary.liveBytes} B, Lua ${r.tagged.LUA.bytes} B`);
  // emheap's tables stop within 1/16 of the heap: 1 MiB, of which the
  // block table may take all but an eighth (over 65,536 slots) while it
  // records every block. When a table cannot grow, exact mode samples what
  // comes next (one stack per 2 KiB: 8 x 16 MiB / the slots, rounded up to
  // a power of two), with weights, in the room the tables keep and the
  // eighth left: every site is exact, or holds an estimate and says so.
  assert.ok(summary.tableBytes <= 16 * 1024 * 1024 / 16, JSON.stringify(summary));
  assert.ok(summary.thinnedAtBytes > 0 && summary.thinnedAtBytes < summary.totalBytes, JSON.stringify(summary));
  assert.equal(r.top.samplingInterval, 2048);
  assert.equal(summary.lostAllocs, 0, 'the samples fit');
  const estimated = sites.filter((s) => s.estimatedLiveBytes > 0);
  assert.ok(estimated.length >= 1 && estimated.length < sites.filter((s) => s.liveBytes > 0).length,
    'some sites hold estimates, others are exact');
  // The ratio estimator: no more than the heap in all, the blocks all but
  // rounding down.
  assert.ok(sum(sites, 'liveBytes') <= summary.liveBytes);
  assert.ok(sum(sites, 'liveBlocks') <= summary.liveBlocks && sum(sites, 'liveBlocks') >= summary.liveBlocks - sites.length,
    `${sum(sites, 'liveBlocks')} of ${summary.liveBlocks}`);
  // The script's strings within 10%, those made after the table filled
  // estimated: per i, string.rep's 50 x's and the concatenation (long
  // strings, each new), the number as a string, and per 4 a name: 65,000,
  // ~3.5 MB (one standard error under 1% at 2 KiB).
  const strings = sites.filter((s) => leaf(s) === 'luaS_newlstr' && names(s).includes('luaV_execute'));
  const kept = sum(strings, 'liveBlocks');
  assert.ok(Math.abs(kept / 65000 - 1) <= 0.1, `strings: ${kept}`);
  assert.match(r.top.text, /thinned: emheap's tables had no room for every block \(fixed heap\), so blocks made after/);
  assert.match(r.top.text, /~[\d.]+ [KM]iB \+-\d+%/);
});

// Exact sites of sqlite_threads.c's heap against SQLite's own count of it
// (its "SQLITE {...}" line), with the threads done and one database open.
function checkSqliteSites(top, sqlite) {
  const {summary, sites, wrappers} = top;
  assert.equal(summary.lostAllocs, 0);
  assert.equal(sum(sites, 'liveBytes'), summary.requestedLiveBytes);
  assert.equal(sum(sites, 'liveBlocks'), summary.liveBlocks);
  // SQLite's allocation layer, found by itself (docs/using.md).
  for (const name of ['sqlite3MemMalloc', 'sqlite3Malloc']) assert.ok(wrappers.detected.includes(name), JSON.stringify(wrappers));
  const layer = new Set([...wrappers.detected, 'malloc', 'realloc']);
  assert.deepEqual(sites.filter((s) => layer.has(leaf(s))).map((s) => s.key), []);
  // What SQLite counts (sqlite3_status) is what emheap holds at SQLite's
  // sites: those whose leaf (the allocation layer left out) is SQLite's,
  // not the driver's or Emscripten's (its thread and proxying queues).
  // SQLite's own allocator (sqlite3MemMalloc) asks malloc for its rounded
  // size (what memoryUsed counts) and 8 bytes in front: to the byte.
  const notSqlite = /^(_?emscripten|em_|__pthread)|^(main|_main_thread|worker|fill_table|run_sql|get_or_add_tasks_for_thread)$/;
  const held = sites.filter((s) => s.liveBlocks > 0 && !notSqlite.test(leaf(s)));
  assert.equal(sum(held, 'liveBlocks'), sqlite.mallocCount, held.map((s) => `${s.liveBlocks} ${names(s).join(' < ')}`).join('\n'));
  assert.equal(sum(held, 'liveBytes'), sqlite.memoryUsed + 8 * sqlite.mallocCount, JSON.stringify(sqlite));
  // Named on the main thread, though made on workers: the threads' own
  // databases (freed since) and the kept one, filled from main() on a pthread.
  assert.ok(sites.some((s) => s.totalAllocs > 0 && s.liveBlocks === 0 && names(s).includes('worker')),
    'the four threads\' sites');
  assert.ok(held.some((s) => names(s).includes('fill_table') && names(s).includes('main')), 'the kept database');
}

test('SQLite on four threads (-pthread, main() on a pthread): the same answers; emheap\'s sites hold what SQLite counts', () => {
  const plain = runWasmProgram(program('sqlite_threads.plain'));
  assert.equal(plain.status, 0, plain.stdout + plain.stderr);
  assert.match(plain.stdout, /^thread 3: status 0, \d+ rows/m);
  for (const mode of ['off', 'sampled']) {
    const r = runWasmProgram(program('sqlite_threads.emheap'), {env: {EMHEAP_MODE: mode}});
    assert.equal(r.status, 0, `${mode}: ${r.stdout}${r.stderr}`);
    assert.equal(appOutput(r), plain.stdout, mode);
  }
  // Exact mode, with the leak report failing the run for blocks no root
  // reaches: the database the app never closed is reachable from its
  // global, and nothing else is left (thread structs, stacks and TSD arrays
  // that Emscripten frees behind emheap's back included).
  const r = runSaved(program('sqlite_threads.emheap'), {env: {EMHEAP_MODE: 'exact', EMHEAP_LEAK_REPORT: '1',
    EMHEAP_LEAK_EXIT_CODE: '3', EMHEAP_LEAK_EXIT_ON: 'leaked'}});
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(appOutput(r), plain.stdout);
  assert.match(r.stderr, /emheap: by a scan of the memory at exit [^\n]*: \d+ blocks still reachable \([\d,]+ bytes\);/);
  assert.doesNotMatch(r.stderr, /leaked/);
  checkSqliteSites(r.top, r.tagged.SQLITE);
  // the heap its threads left, read as dlmalloc's mallinfo() says
  // (tests/third_party/heap_probe.c, at exit)
  const {MALLINFO: info, HEAP: read, MALLINFO_AFTER: after} = r.tagged;
  assert.ok(info && read && after, 'the probe printed mallinfo(), the heap, mallinfo() again');
  assert.deepEqual(after, info, 'the snapshot left the heap as it was');
  assert.ok(read.heap && read.heap.error === undefined, JSON.stringify(read.heap));
  assertAgrees('dlmalloc', read.heap, info);
});

describe('SQLite on four threads in a page (headless Chromium, main() on a pthread)',
  {skip: CHROMIUM_SKIP}, () => {
    const chrome = servedChromium({'/sqlite/': path.join(BUILD, 'sqlite_page')});

    test('exact mode: the answers as under node; Ctrl+Shift+H saves sites that hold what SQLite counts', async () => {
      const plain = runWasmProgram(program('sqlite_threads.plain'));
      const {context, page, consoleMessages} = await newPage(chrome.browser);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-third-party-'));
      try {
        await page.goto(`${chrome.server.url}/sqlite/index.html?emheap=exact`);
        const line = () => consoleMessages.find((m) => /^SQLITE \{/.test(m.text));
        for (let i = 0; i < 600 && !line(); i++) await page.waitForTimeout(100);
        assert.ok(line(), consoleMessages.slice(-5).map((m) => m.text).join('\n'));
        assert.ok(!crashedIn(consoleMessages),
          consoleMessages.filter((m) => m.type !== 'log').map((m) => m.text).join('\n'));
        const printed = consoleMessages.filter((m) => m.type === 'log' && !/^emheap/.test(m.text)).map((m) => m.text);
        assert.deepEqual(printed, plain.stdout.trim().split('\n'));
        const [download] = await Promise.all([
          page.waitForEvent('download', {timeout: 20000}),
          page.keyboard.press('Control+Shift+H'),
        ]);
        const file = path.join(dir, download.suggestedFilename());
        await download.saveAs(file);
        checkSqliteSites(readTop(file), JSON.parse(line().text.slice('SQLITE '.length)));
      } finally {
        await context.close();
        fs.rmSync(dir, {recursive: true, force: true});
      }
    });
  });
