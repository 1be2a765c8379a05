// contexts.test.js -- exact sites from calling contexts (contexts/wasm_instrument.js,
// runtime/context_table.c): one allocating function reached by many paths
// (tests/runtime/contexts.cpp, -O2 C++ with exceptions, setjmp/longjmp, JS
// calling _malloc), under node. Each path must be one site holding exactly
// its blocks, the sites must be those a JS stack per allocation gives, and
// the checking mode must find no context that names another site than its
// JS stack.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const {runWasmProgram, skipReason} = require('../lib/run_wasm');
const {validateSnapshot} = require('../lib/schemas');

const {BUILD} = require('../lib/paths');
// C++ exceptions as Emscripten does them by default (JS, through invoke_*
// glue) and as wasm exceptions (-fwasm-exceptions: try/catch in wasm).
const PROGRAMS = {'JS exceptions': 'contexts.js', 'wasm exceptions': 'contexts.wasmeh.js'};

// The programs are linked with emheap's flags only: the default mode.
// Without contexts, exact mode has to be asked for (else the default
// samples): `mode` does.
function run(program, contexts, mode) {
  const env = {EMHEAP_CONTEXTS: contexts};
  if (mode) env.EMHEAP_MODE = mode;
  const r = runWasmProgram(path.join(BUILD, program), {env});
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const snap = r.tagged.SNAPSHOT;
  assert.ok(snap, r.stdout + r.stderr);
  assert.deepEqual(validateSnapshot(snap), []);
  return {snap, contexts: r.tagged.CONTEXTS, usable: r.tagged.USABLE.bytes, requested: r.tagged.USABLE.requested, stdout: r.stdout, stderr: r.stderr,
    rounds: [r.tagged.ROUND_FIRST, r.tagged.ROUND_SECOND]};
}

// name < name < ... of a site's stack, leaf first, up to main.
function chain(snap, site) {
  const names = site.stack.map((i) => snap.frames[i].name + (snap.frames[i].recursive ? ' (recursive)' : ''));
  const main = names.indexOf('main');
  return (main >= 0 ? names.slice(0, main + 1) : names).join(' < ');
}

// Each path, by the blocks it leaves (tests/runtime/contexts.cpp runs every
// path twice: the second time its context is in the table). binaryen
// inlines grab() into its callers: their frames are the sites.
const PATHS = [
  [4, 'path_a < main'],
  [6, 'path_b < main'],
  [10, 'via_pointer < main'],
  // A direct recursion's frames fold into one: called from two places in
  // main, two sites; depths 2, 4 and 6 from one place, one site.
  [14, 'recurse (recursive) < main'],
  [18, 'recurse (recursive) < main'],
  [48, 'recurse (recursive) < main'],
  [22, 'jumps < after_longjmp < main'],
  [26, 'after_longjmp < main'],
  [30, 'throws < after_catch < main'],
  [34, 'after_catch < main'],
  [36, 'after_catch < main'],
];

for (const [how, program] of Object.entries(PROGRAMS)) {
test(`calling contexts: one site per path, exactly its blocks (node, -O2 C++, ${how}, longjmp)`,
  {skip: skipReason(path.join(BUILD, program)) || false}, () => {
  const {snap, contexts, usable, requested, stderr, rounds} = run(program, 'on');
  assert.equal(contexts.rewritten, true, stderr);
  // Every path again: every context found, no JS stack taken, but where
  // Emscripten's JS exceptions allocate the exception and its catch
  // information from JS (Emscripten 3.1.x's glue calls _malloc): JS entering
  // wasm, two per throw, one throw per round.
  const again = rounds[1].captures - rounds[0].captures;
  assert.ok(rounds[0].captures > 0, JSON.stringify(rounds));
  if (how === 'wasm exceptions') assert.equal(again, 0);
  else assert.ok(again <= 2, `${again} JS stacks taken again`);
  assert.ok(contexts.stats.instrumentedSites > 0 && contexts.stats.exportEntries > 0, JSON.stringify(contexts));
  assert.match(snap.mode, /^exact/);
  assert.ok(contexts.stats.selfSites >= 1, 'recurse() calls itself directly');
  const all = snap.sites.map((s) => `${s.liveBlocks} ${chain(snap, s)}`).join('\n');
  for (const [blocks, expected] of PATHS) {
    const sites = snap.sites.filter((s) => s.liveBlocks === blocks);
    assert.equal(sites.length, 1, `one site of ${blocks} blocks:\n${all}`);
    assert.equal(chain(snap, sites[0]), expected);
  }
  // The two after_catch sites are two call sites of one function: the
  // handler's and the one after it.
  const paths = snap.sites.filter((s) => PATHS.some(([blocks]) => blocks === s.liveBlocks));
  assert.equal(paths.reduce((a, s) => a + s.liveBytes, 0), requested, 'the bytes the kept blocks asked for');
  assert.ok(usable > requested, 'dlmalloc rounds 24 + 8k up to 28 + 8k');
  // JS called _malloc: from two lines of main's EM_ASM (glue), so two sites
  // at main, 19 and 21 blocks.
  for (const blocks of [19, 21]) {
    const js = snap.sites.filter((s) => s.liveBlocks === blocks);
    assert.equal(js.length, 1, `JS's ${blocks} blocks: one site`);
    assert.equal(snap.frames[js[0].stack[0]].name, 'main');
  }
  // No frame of the rewrite's own functions, and the stacks' wasm
  // positions are the original module's (names from the name section).
  for (const f of snap.frames) assert.ok(!/^emheap\$/.test(f.name), f.name);
});

test(`calling contexts give the sites a JS stack per allocation gives, and the checking mode agrees (${how})`,
  {skip: skipReason(path.join(BUILD, program)) || false}, () => {
  const on = run(program, 'on');
  const off = run(program, 'off', 'exact');
  assert.equal(off.contexts.rewritten, false);
  // (Blocks, not bytes: a usable size depends on where the allocator put
  // the block, and emheap's own tables differ between the modes. The test
  // above checks the bytes against the program's own count.)
  const key = (r) => r.snap.sites.map((s) => `${s.liveBlocks} ${chain(r.snap, s)} ` +
    s.stack.map((i) => r.snap.frames[i].offset).join(',')).sort();
  assert.deepEqual(key(on), key(off));
  const verify = run(program, 'verify');
  assert.equal(verify.contexts.verify, true);
  assert.ok(verify.contexts.checked >= 90, `checked ${verify.contexts.checked}`);
  assert.equal(verify.contexts.mismatches, 0);
  assert.deepEqual(key(verify), key(off));
});
}

test('an app that instantiates its module itself: left alone; the default samples, exact mode asked for takes JS stacks, each says so', () => {
  const byDefault = run('contexts.own.js', 'on'); // tests/runtime/own_instantiate.js
  assert.equal(byDefault.contexts.rewritten, false);
  assert.equal(byDefault.snap.mode, 'sampled');
  assert.match(byDefault.stderr, /emheap: sampled mode \(one stack per 524288 bytes on average\): exact stacks need the module rewritten as it loads, which did not happen here \(the app instantiates the module itself/);
  const own = run('contexts.own.js', 'on', 'exact');
  assert.equal(own.contexts.rewritten, false);
  assert.equal(own.snap.mode, 'exact');
  assert.match(own.stdout + own.stderr, /exact mode without calling contexts \(the app instantiates the module itself/);
  const off = run('contexts.js', 'off', 'exact');
  assert.doesNotMatch(off.stdout + off.stderr, /without calling contexts/, 'contexts turned off: nothing to say');
  const chains = (r) => r.snap.sites.map((s) => `${s.liveBlocks} ${chain(r.snap, s)}`).sort();
  assert.deepEqual(chains(own), chains(off));
});
