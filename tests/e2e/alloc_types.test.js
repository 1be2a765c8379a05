// alloc_types.test.js -- `--by type`: tests/runtime/alloc_types.cpp built
// with -g on Emscripten's defaults, with -fsanitize=alloc-token where emcc's
// clang has it (clang 22: Emscripten 4.0.2x), else with the same calls made
// by hand (build/tests/alloc_types.route says which). Its `new`s are
// grouped by the C++ type clang passed, named from the module's DWARF, to
// the byte; what carries no type stays by function; a snapshot without
// types is refused with the flag to use.
'use strict';

const test = require('node:test');
const {describe} = test;
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {runCli} = require('../lib/cli');
const {BUILD} = require('../lib/paths');
const {validateSnapshot} = require('../lib/schemas');
const wasmSections = require('../../symbolize/wasm_sections');
// The tokens real clang 22 passes for the program's types (not emheap's
// own tokensOf, which made the hand route's: the same function on both
// sides could not tell a wrong token)
const CLANG_TOKENS = new Map(require('../fixtures/alloc_tokens/clang-22.json').calls
  .filter((c) => c.type !== undefined).map((c) => [c.type, c.token]));
const {newPage, servedChromium, CHROMIUM_SKIP} = require('../lib/browser');

const ROUTE = fs.readFileSync(path.join(BUILD, 'alloc_types.route'), 'utf8').trim();

// What the program keeps live, by type (its header comment).
const TYPES = {
  'Particle': {liveBlocks: 201, liveBytes: 200 * 64 + 160},
  'shapes::Circle': {liveBlocks: 300, liveBytes: 300 * 16},
  'std::string': {liveBlocks: 50, liveBytes: 50 * 12},
  'std::map<int, std::string>': {liveBlocks: 1, liveBytes: 12},
};
const ONLY_NEWED = {liveBlocks: 7, liveBytes: 7 * 20};

function snapshotFile(t, program) {
  const r = runWasmProgram(program);
  assert.equal(r.status, 0, r.stderr);
  const snap = r.tagged.SNAPSHOT;
  assert.ok(snap, r.stdout + r.stderr);
  assert.deepEqual(validateSnapshot(snap), []);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-types-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  const file = path.join(dir, 'types.json');
  fs.writeFileSync(file, JSON.stringify(snap));
  return {file, snap};
}

const json = (args) => {
  const r = runCli(args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};

const HOW = ROUTE === 'clang' ? 'clang -fsanitize=alloc-token' : 'tokens passed by hand: this clang has no alloc-token';
for (const [build, where] of [['alloc_types', 'one thread'], ['alloc_types.threads', '-pthread, on a thread']]) test(`--by type (${HOW}; ${where}): each type one row, to the byte; the rest by function`, (t) => {
  const PROGRAM = path.join(BUILD, build + '.js');
  if (ROUTE === 'clang') {
    // clang made the calls: the runtime's token entry points are linked
    // (nothing else refers to them) and the program calls them
    const names = wasmSections.functionNames(wasmSections.customSections(fs.readFileSync(PROGRAM.replace(/\.js$/, '.wasm'))));
    // (new[]'s entry is not asked for: where binaryen finds it identical to
    // new's it keeps one, as on Emscripten 6.0.8, which leaves these two)
    const tokenEntries = Object.values(names).filter((n) => /^__alloc_token_/.test(n));
    assert.ok(tokenEntries.includes('__alloc_token__Znwm') && tokenEntries.includes('__alloc_token_malloc'),
      tokenEntries.join(', '));
  }
  const {file, snap} = snapshotFile(t, PROGRAM);
  const view = json(['top', file, '--by', 'type', '--json', '--top', '0']);
  assert.equal(view.by, 'type');
  const row = (label) => view.sites.find((s) => s.label === label);
  for (const [type, want] of Object.entries(TYPES)) {
    const r = row(type);
    assert.ok(r, `a row for ${type}: ${view.sites.map((s) => s.label).join(' | ')}`);
    assert.deepEqual({liveBlocks: r.liveBlocks, liveBytes: r.liveBytes}, want, type);
    assert.deepEqual(r.stack.map((f) => f.name), [type], 'a type row is the type alone');
  }
  // A type only a `new` names: named where the DWARF has it, else by the
  // token clang computed for its name.
  const onlyNewed = row('OnlyNewed') || row(`(unnamed type: token ${CLANG_TOKENS.get('OnlyNewed')})`);
  assert.ok(onlyNewed, view.sites.map((s) => s.label).join(' | '));
  assert.deepEqual({liveBlocks: onlyNewed.liveBlocks, liveBytes: onlyNewed.liveBytes}, ONLY_NEWED);
  // The strings' buffers are libc++'s, untyped: by function. So are the
  // map's nodes where libc++'s allocator gives clang no type (3.1.x to
  // 5.x); Emscripten 6.0.8's libc++ allocates them with their type
  // (std::__tree_node<...>), a row of that type.
  assert.ok(view.sites.some((s) => /^make_strings/.test(s.label) && s.liveBlocks === 50), 'string buffers by function');
  assert.ok(view.sites.some((s) => /^(make_map|std::__tree_node<)/.test(s.label) && s.liveBlocks === 20),
    'map nodes by function, or by their node type');
  assert.ok(view.sites.some((s) => /^make_untyped/.test(s.label) && s.liveBlocks === 3 && s.liveBytes === 72),
    "clang's fallback token 0 is no type: by function");
  // Every live byte in some row.
  const sum = (sites) => sites.reduce((a, s) => a + s.liveBytes, 0);
  assert.equal(sum(view.sites), sum(json(['top', file, '--json', '--top', '0', '--by', 'site']).sites));

  // The file keeps each site's token and its name; by function, a typed
  // site's leaf is the app's function (the token entry point is emheap's).
  const circles = snap.sites.filter((s) => s.allocType === 'shapes::Circle');
  assert.equal(circles.length, 1);
  assert.equal(circles[0].allocToken, CLANG_TOKENS.get('shapes::Circle'), 'a type with a pointer: the upper half');
  assert.match(snap.frames[circles[0].stack[0]].name, /^make_circles/);
  const particles = snap.sites.filter((s) => s.allocType === 'Particle');
  assert.equal(particles.length, 2, 'new[] and malloc');
  particles.forEach((s) => assert.equal(s.allocToken, CLANG_TOKENS.get('Particle')));

  const text = runCli(['top', file, '--by', 'type']).stdout;
  assert.match(text, /^\s*\d+\s+12\.66 KiB\s+201\s+201\s+12\.66 KiB\s+Particle\s+Particle$/m);
  assert.match(text, /\s+std::map<int, std::string>\s+std::map<int, std::string>$/m, 'template arguments are the type');
});

test('--by type on a snapshot whose allocations carry no type: refused, saying how to get them', () => {
  const r = runWasmProgram(path.join(BUILD, 'cpp_new.dlmalloc.js'));
  assert.equal(r.status, 0, r.stderr);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-types-'));
  try {
    const file = path.join(dir, 'plain.json');
    fs.writeFileSync(file, JSON.stringify(r.tagged.SNAPSHOT));
    const refused = runCli(['top', file, '--by', 'type']);
    assert.equal(refused.status, 2);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /no allocation in this snapshot carries its C\+\+ type: compile the C\+\+ code with -fsanitize=alloc-token/);
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

describe('in a page', {skip: CHROMIUM_SKIP}, () => {
  const chrome = servedChromium({'/': BUILD}, () => {
    fs.writeFileSync(path.join(BUILD, 'alloc_types.html'), '<!doctype html><script src="alloc_types.js"></script>\n');
  });

  test("Chromium: emheap.top({by: 'type'}) names the types from the module's DWARF, fetched by the page", async () => {
    const {context, page, consoleMessages} = await newPage(chrome.browser);
    try {
      await page.goto(`${chrome.server.url}/alloc_types.html`);
      await page.waitForFunction(() => typeof emheap === 'object', null, {timeout: 30000});
      const top = await page.evaluate(async () => {
        await emheap.ready();
        return emheap.top({by: 'type'});
      });
      assert.equal(top.by, 'type');
      for (const [type, want] of Object.entries(TYPES)) {
        const r = top.sites.find((s) => s.label === type);
        assert.ok(r, `a row for ${type}: ${top.sites.map((s) => s.label).join(' | ')}`);
        assert.deepEqual({liveBlocks: r.liveBlocks, liveBytes: r.liveBytes}, want, type);
      }
      assert.ok(!consoleMessages.some((m) => m.type === 'pageerror' || /emheap: ignoring/.test(m.text)),
        consoleMessages.map((m) => m.text).join('\n'));
    } finally {
      await context.close();
    }
  });
});
