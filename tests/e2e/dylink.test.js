// dylink.test.js -- a dynamically linked program (tests/runtime/
// dylink_main.c, -sMAIN_MODULE=2, linked through emheap-config
// --main-module) with a side module linked at load time, one it opens with
// dlopen and closes again, and one it opens with emscripten_dlopen
// (asynchronously), each leaking from a function of its own.
// Under node with dlmalloc and emmalloc, and in Chromium on Ctrl+Shift+H,
// `emheap top` gives each module's leak exactly by function, `--by module`
// names the side modules, blocks made in one module and freed in the other
// balance, and the closed module's frames keep their names. In Firefox the
// same by function; its stacks tell a side module's frames from the main
// module's but not which side module (both are one "side module").
// Expected numbers are the plan's (tests/runtime/dylink_plan.h, restated
// here).
'use strict';

const {describe, test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {runWasmProgram} = require('../lib/run_wasm');
const {runCli} = require('../lib/cli');
const {validateSnapshot, validateSpeedscope} = require('../lib/schemas');
const {BUILD} = require('../lib/paths');
const {newPage, servedChromium, crashedIn, CHROMIUM_SKIP} = require('../lib/browser');
const {downloadFrom} = require('../lib/sample_page');
const firefox = require('../lib/firefox');
const {serve} = require('../../harness/serve');

// tests/runtime/dylink_plan.h
const SIDE_BLOCKS = 10, SIDE_BYTES = 1000;
const KEPT_BLOCKS = 4, KEPT_BYTES = 512;
const FROM_JS_BYTES = 96; // side_called_from_js, which JS calls through the function table // in each side module's globals (side_keep, opened_keep)
const OPENED_BLOCKS = 5, OPENED_BYTES = 3000;
const ASYNC_BLOCKS = 4, ASYNC_BYTES = 2000; // and one more from async_plant_one
const MAIN_BLOCKS = 3, MAIN_BYTES = 700;
const CROSSINGS = 20, CROSS_BYTES = 48;

const DYLINK = path.join(BUILD, 'dylink');
const SIDE = 'dylink_side.wasm';
const OPENED = 'dylink_opened.wasm';
const ASYNC = 'dylink_async.wasm';

// A scratch folder holding the program and the side modules it fetches:
// the one it loads at startup and the one emscripten_dlopen opens (from its
// working folder under node, beside the page in a browser). The one dlopen
// opens is in its embedded file system.
function programFolder(variant, dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-dylink-'))) {
  for (const f of [`main.${variant}.js`, `main.${variant}.wasm`, SIDE, ASYNC]) {
    assert.ok(fs.existsSync(path.join(DYLINK, f)), `${f} is built by make test-programs`);
    fs.copyFileSync(path.join(DYLINK, f), path.join(dir, f));
  }
  return dir;
}

// `emheap top FILE --json [args]`, parsed.
function top(file, args = []) {
  const r = runCli(['top', file, '--json', '--top', '0', ...args]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const chain = (row) => row.stack.map((f) => f.name).join(' < ');

// What the plan says `emheap top` shows, by function: each module's leak at
// its own function, and the blocks that crossed between modules, all freed.
function checkByFunction(file, mainModule, {byModule = true} = {}) {
  const rows = new Map(top(file).sites.map((row) => [chain(row), row]));
  const expect = (stack, live, blocks, allocs, bytes) => {
    const row = rows.get(stack);
    assert.ok(row, `a row ${stack} among ${[...rows.keys()].join('; ')}`);
    assert.deepEqual([row.liveBytes, row.liveBlocks, row.totalAllocs, row.totalBytes], [live, blocks, allocs, bytes], stack);
  };
  expect('side_leak_block < side_plant_leak < main', SIDE_BLOCKS * SIDE_BYTES, SIDE_BLOCKS, SIDE_BLOCKS,
    SIDE_BLOCKS * SIDE_BYTES);
  expect('opened_leak_block < opened_plant_leak < main', OPENED_BLOCKS * OPENED_BYTES, OPENED_BLOCKS, OPENED_BLOCKS,
    OPENED_BLOCKS * OPENED_BYTES);
  // JS called it through the table: its frame, then JS's (the EM_ASM in main)
  const fromJs = [...rows.keys()].filter((k) => k.startsWith('side_leak_block < side_called_from_js'));
  assert.equal(fromJs.length, 1, [...rows.keys()].join('; '));
  expect(fromJs[0], FROM_JS_BYTES, 1, 1, FROM_JS_BYTES);
  for (const kept of ['side_leak_block < side_keep < main', 'opened_leak_block < opened_keep < main']) {
    expect(kept, KEPT_BLOCKS * KEPT_BYTES, KEPT_BLOCKS, KEPT_BLOCKS, KEPT_BLOCKS * KEPT_BYTES);
  }
  // emscripten_dlopen's success callback, called from Emscripten's own C
  // (dlopen_js_onsuccess in 3.1.6, dlopen_onsuccess in 6.x)
  const opened = (leaf) => {
    const found = [...rows.keys()].filter((k) => k.startsWith(`${leaf} < async_opened < `));
    assert.equal(found.length, 1, `one row ${leaf} < async_opened among ${[...rows.keys()].join('; ')}`);
    return found[0];
  };
  expect(opened('async_leak_block < async_plant_leak'), ASYNC_BLOCKS * ASYNC_BYTES, ASYNC_BLOCKS, ASYNC_BLOCKS,
    ASYNC_BLOCKS * ASYNC_BYTES);
  expect(opened('async_leak_block < async_plant_one'), ASYNC_BYTES, 1, 1, ASYNC_BYTES);
  // made here, freed in the side module; and the leak
  expect('main_leak_block < main', MAIN_BLOCKS * MAIN_BYTES, MAIN_BLOCKS, MAIN_BLOCKS + CROSSINGS,
    MAIN_BLOCKS * MAIN_BYTES + CROSSINGS * CROSS_BYTES);
  // made in a side module, freed here (the opened one's before it closed)
  expect('side_leak_block < side_make_block < main', 0, 0, CROSSINGS, CROSSINGS * CROSS_BYTES);
  expect('opened_leak_block < opened_make_block < main', 0, 0, CROSSINGS, CROSSINGS * CROSS_BYTES);

  if (!byModule) return;
  const modules = new Map(top(file, ['--by', 'module']).sites.map((row) => [chain(row), row]));
  const row = (stack) => {
    const found = modules.get(stack);
    assert.ok(found, `a row ${stack} among ${[...modules.keys()].join('; ')}`);
    return [found.liveBytes, found.liveBlocks];
  };
  const sideRows = [...modules.keys()].filter((k) => k.startsWith(`${SIDE} <`));
  const sideSum = sideRows.reduce((sum, k) => [sum[0] + modules.get(k).liveBytes, sum[1] + modules.get(k).liveBlocks], [0, 0]);
  assert.deepEqual(sideSum, [SIDE_BLOCKS * SIDE_BYTES + KEPT_BLOCKS * KEPT_BYTES + FROM_JS_BYTES,
    SIDE_BLOCKS + KEPT_BLOCKS + 1], sideRows.join('; '));
  assert.deepEqual(row(`${OPENED} < ${mainModule}`), [OPENED_BLOCKS * OPENED_BYTES + KEPT_BLOCKS * KEPT_BYTES,
    OPENED_BLOCKS + KEPT_BLOCKS]);
  assert.deepEqual(row(`${ASYNC} < ${mainModule}`), [(ASYNC_BLOCKS + 1) * ASYNC_BYTES, ASYNC_BLOCKS + 1]);
}

// A scratch folder with the program, its side module and a page that runs it.
function programPage(dir) {
  programFolder('dlmalloc', dir);
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><meta charset="utf-8"><body><script>
var Module = {print: function (t) { console.log(t); }, printErr: function (t) { console.warn(t); }};
</script><script src="main.dlmalloc.js"></script>`);
}

test('node: calling contexts across modules agree with JS stacks, and a path seen before takes none', () => {
  const dir = programFolder('dlmalloc');
  try {
    // the checking mode: every allocation whose context was seen before is
    // also given its JS stack, and the two must name one site
    const run = runWasmProgram(path.join(dir, 'main.dlmalloc.js'), {cwd: dir, env: {EMHEAP_CONTEXTS: 'verify'}});
    assert.equal(run.status, 0, run.stderr.slice(-2000));
    const m = /contexts checked against JS stacks: (\d+) allocations, (\d+) named another site/.exec(run.stderr);
    assert.ok(m, run.stderr);
    assert.equal(Number(m[2]), 0, 'no context names another site than its JS stack');
    // the crossings repeat one path per module CROSSINGS times
    assert.ok(Number(m[1]) >= CROSSINGS, `${m[1]} allocations found by their context`);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

for (const variant of ['dlmalloc', 'emmalloc']) {
  test(`node, ${variant}: each module's leak exactly at its own function, crossings balance`, () => {
    const dir = programFolder(variant);
    try {
      const run = runWasmProgram(path.join(dir, `main.${variant}.js`), {cwd: dir});
      assert.equal(run.status, 0, run.stderr.slice(-2000));
      assert.deepEqual(run.failedChecks, []);
      const snapshot = run.tagged.SNAPSHOT;
      assert.ok(snapshot, run.stdout.slice(-2000));
      assert.deepEqual(validateSnapshot(snapshot), []);
      assert.equal(snapshot.mode, 'exact');
      // side modules' frames: their module's, marked, named by its own name section
      const sideFrames = snapshot.frames.filter((f) => f.sideModule);
      assert.deepEqual([...new Set(sideFrames.map((f) => f.module))].sort(), [ASYNC, OPENED, SIDE]);
      assert.ok(sideFrames.every((f) => !/^wasm-function/.test(f.name)), 'every side frame named');
      // every side module rewritten for calling contexts: none takes a JS
      // stack per allocation
      assert.doesNotMatch(run.stderr, /take a JS stack each/);

      const file = path.join(dir, 'snapshot.json');
      fs.writeFileSync(file, JSON.stringify(snapshot));
      checkByFunction(file, `main.${variant}.wasm`);

      // the heap graph: what a side module's globals point to is reachable
      // (a module linked at load time, and one opened later), what nothing
      // points to leaked
      const graph = run.tagged.GRAPH;
      const byStack = new Map();
      for (const site of graph.sites) {
        const key = site.stack.slice(0, 2).map((i) => graph.frames[i].name).join(' < ');
        const sum = byStack.get(key) || {live: 0, reachable: 0, direct: 0};
        sum.live += site.liveBlocks;
        sum.reachable += site.reachableBlocks || 0;
        sum.direct += site.directBlocks || 0;
        byStack.set(key, sum);
      }
      for (const kept of ['side_leak_block < side_keep', 'opened_leak_block < opened_keep']) {
        assert.deepEqual(byStack.get(kept), {live: KEPT_BLOCKS, reachable: KEPT_BLOCKS, direct: 0}, kept);
      }
      for (const [leak, blocks] of [['side_leak_block < side_plant_leak', SIDE_BLOCKS],
        ['opened_leak_block < opened_plant_leak', OPENED_BLOCKS], ['async_leak_block < async_plant_leak', ASYNC_BLOCKS]]) {
        assert.deepEqual(byStack.get(leak), {live: blocks, reachable: 0, direct: blocks}, leak);
      }
    } finally {
      fs.rmSync(dir, {recursive: true, force: true});
    }
  });
}

// The side modules built with their own debug info (tests/tests.mk
// DYLINK_LINES): DWARF in the one linked at load time and in the dlopen'd
// one, a source map beside the emscripten_dlopen'd one. Each leaking
// function's frame: its module's file, at the line of its malloc call
// (read from the source, the plan).
const LINES = path.join(DYLINK, 'lines');
const LEAKERS = [['side_leak_block', 'dylink_side.c'], ['opened_leak_block', 'dylink_opened.c'], ['async_leak_block', 'dylink_async.c']];
function mallocLine(source) {
  const lines = fs.readFileSync(path.join(__dirname, '..', 'runtime', source), 'utf8').split('\n');
  const at = lines.findIndex((l) => /=\s*malloc\(n\);/.test(l));
  assert.ok(at >= 0, `${source} has its malloc call`);
  return at + 1;
}
function checkSideLines(snapshot) {
  for (const [fn, source] of LEAKERS) {
    const frames = snapshot.frames.filter((f) => f.name === fn);
    assert.ok(frames.length >= 1, `${fn}: a frame`);
    for (const f of frames) {
      assert.equal(f.sideModule, true, fn);
      assert.ok(f.file && f.file.endsWith(source), `${fn}: ${JSON.stringify(f)}`);
      assert.equal(f.line, mallocLine(source), `${fn}: the line of its malloc`);
    }
  }
}

test('node: a side module\'s own DWARF or source map gives its frames file and line', () => {
  const run = runWasmProgram(path.join(LINES, 'main.js'), {cwd: LINES});
  assert.equal(run.status, 0, run.stderr.slice(-2000));
  const snapshot = run.tagged.SNAPSHOT;
  assert.deepEqual(validateSnapshot(snapshot), []);
  checkSideLines(snapshot);
  // and `emheap top --by line` groups them so
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-dylink-lines-')), 'lines.json');
  try {
    fs.writeFileSync(file, JSON.stringify(snapshot));
    const labels = top(file, ['--by', 'line']).sites.map((row) => row.label);
    for (const [, source] of LEAKERS) {
      assert.ok(labels.some((l) => l.includes(`${source}:${mallocLine(source)}`)), `${source} in ${labels.join(', ')}`);
    }
  } finally {
    fs.rmSync(path.dirname(file), {recursive: true, force: true});
  }
});

describe('a dynamically linked program in Chromium', {skip: CHROMIUM_SKIP}, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-dylink-page-'));
  const chrome = servedChromium({'/': dir}, () => programPage(dir));

  test('Ctrl+Shift+H: each leak at its function, the side modules by name', async () => {
    const {page, context, consoleMessages} = await newPage(chrome.browser);
    try {
      await page.goto(`${chrome.server.url}/index.html`);
      await page.waitForFunction(() => document.title === 'planted', null, {timeout: 20000});
      const got = await downloadFrom(page, () => page.keyboard.press('Control+Shift+H'));
      assert.deepEqual(validateSpeedscope(got.json), []);
      assert.deepEqual(validateSnapshot(got.json.emheap), []);
      const file = path.join(dir, got.name);
      fs.writeFileSync(file, got.text);
      checkByFunction(file, 'main.dlmalloc.wasm');
      assert.ok(!crashedIn(consoleMessages), consoleMessages.map((m) => m.text).join('\n'));
    } finally {
      await context.close();
    }
  });

  test.after(() => fs.rmSync(dir, {recursive: true, force: true}));
});

describe('side modules with their own debug info in Chromium', {skip: CHROMIUM_SKIP}, () => {
  const chrome = servedChromium({'/': LINES}, () => {
    fs.writeFileSync(path.join(LINES, 'index.html'), `<!doctype html><meta charset="utf-8"><body><script>
var Module = {print: function (t) { console.log(t); }, printErr: function (t) { console.warn(t); }};
</script><script src="main.js"></script>`);
  });

  test('Ctrl+Shift+H: DWARF and a source map fetched beside the module give each side frame its line', async () => {
    const {page, context, consoleMessages} = await newPage(chrome.browser);
    try {
      await page.goto(`${chrome.server.url}/index.html`);
      await page.waitForFunction(() => document.title === 'planted', null, {timeout: 20000});
      const got = await downloadFrom(page, () => page.keyboard.press('Control+Shift+H'));
      assert.deepEqual(validateSnapshot(got.json.emheap), []);
      checkSideLines(got.json.emheap);
      assert.ok(!crashedIn(consoleMessages), consoleMessages.map((m) => m.text).join('\n'));
    } finally {
      await context.close();
    }
  });
});

describe('a dynamically linked program in Firefox', {skip: firefox.haveFirefox() ? false : 'no Firefox'}, () => {
  test('Ctrl+Shift+H: each leak at its function; side modules told from the main one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-dylink-firefox-'));
    const server = await serve({'/': dir});
    const browser = await firefox.launch();
    try {
      programPage(dir);
      const opened = await firefox.openPage(browser, `${server.url}/index.html`,
        (page) => page.waitForFunction(() => document.title === 'planted', {timeout: 20000}));
      try {
        const got = await firefox.downloadFrom(opened, () => firefox.pressHotkey(opened.page));
        assert.deepEqual(validateSnapshot(got.json.emheap), []);
        const file = path.join(dir, got.name);
        fs.writeFileSync(file, got.text);
        checkByFunction(file, 'main.dlmalloc.wasm', {byModule: false});
        // each frame in its own module, or in "side module" where Firefox
        // cannot tell which; never in another module
        const {frames} = got.json.emheap;
        const moduleOf = (name) => (/^side_/.test(name) ? SIDE : /^opened_/.test(name) ? OPENED
          : /^async_(leak|plant)/.test(name) ? ASYNC : 'main.dlmalloc.wasm');
        for (const f of frames.filter((f) => /^(side|opened|async|main)_|^main$/.test(f.name))) {
          assert.ok(f.module === moduleOf(f.name) || (f.sideModule && f.module === 'side module'),
            `${f.name} in ${f.module}`);
        }
      } finally {
        await opened.close();
      }
    } finally {
      await browser.close();
      await server.close();
      fs.rmSync(dir, {recursive: true, force: true});
    }
  });
});
