// cpp_lines.test.js -- C++ sites name the app's own line at every
// optimization level: tests/runtime/cpp_lines.cpp (new, new[], std::vector,
// std::string, make_unique) built with emcc at -O0..-O3 with its DWARF
// (symbolize/dwarf.js reads the inlined-call records), and run; the DWARF reader
// checked against llvm-symbolizer, the consumer every wasm debugger builds
// on, address by address, on DWARF 4 (emcc) and DWARF 5 (clang + wasm-ld).
'use strict';

const {describe, test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const {spawnSync} = require('child_process');
const {runWasmProgram} = require('../lib/run_wasm');
const {validateSnapshot} = require('../lib/schemas');
const {isStandardLibrary} = require('../../model/wrappers');
const wasmSections = require('../../symbolize/wasm_sections');
const {parseDwarf} = require('../../symbolize/dwarf');
const {cleanPath} = require('../../symbolize/source_map');
const {newPage, servedChromium, CHROMIUM_SKIP} = require('../lib/browser');

const {ROOT, BUILD} = require('../lib/paths');
const SOURCE = path.join(ROOT, 'tests', 'runtime', 'cpp_lines.cpp');
const FILE = /(^|\/)tests\/runtime\/cpp_lines\.cpp$/;

// "LINE vector" markers in the source: the line each construct must name.
const LINES = {};
fs.readFileSync(SOURCE, 'utf8').split('\n').forEach((text, i) => {
  const m = /\/\/ LINE (\S+)$/.exec(text);
  if (m) LINES[m[1]] = i + 1;
});
const FUNCTIONS = {
  'new': 'use_new', 'new[]': 'use_new_array', 'vector': 'use_vector', 'string': 'use_string',
  'make_unique': 'use_make_unique',
};
// make_unique: 300 Nodes and the buffer of the vector that owns them.
const LIVE_BLOCKS = {'new': 3000, 'new[]': 8, 'make_unique': 301};

function snapshotOf(build) {
  const r = runWasmProgram(path.join(BUILD, `cpp_lines.${build}.js`));
  assert.equal(r.status, 0, r.stderr);
  const snap = r.tagged.SNAPSHOT;
  assert.ok(snap, r.stdout + r.stderr);
  assert.deepEqual(validateSnapshot(snap), []);
  return snap;
}

const leaf = (snap, site) => snap.frames[site.stack[0]];

// The lines of `void use_new(` & co. in the source, to their closing brace:
// where each function's body is.
const FIRST_LINES = {};
const LAST_LINES = {};
fs.readFileSync(SOURCE, 'utf8').split('\n').forEach((text, i, lines) => {
  const m = /void (use_\w+)\(/.exec(text);
  if (!m || m[1] in FIRST_LINES) return;
  FIRST_LINES[m[1]] = i + 1;
  let last = i;
  while (last < lines.length && !/^}/.test(lines[last])) last++;
  LAST_LINES[m[1]] = last + 1;
});

// A construct's frame names its marker's line, or the line the DWARF itself
// gives the call (llvm-symbolizer's answer at the frame's offset) when that
// is another line of the same function: binaryen's optimizer keeps DWARF
// rows up to date, but may file a call under another line of its function,
// its loop's `for` (Emscripten 4.0.23 at -O2 and -O3 does so for `new
// Node`) or the statement after it (5.0.7 with binaryen 129: line 27, where
// clang's object has the call at 25). emheap names what the DWARF holds, as
// every debugger does; that line must still be the function's own.
//
// Where binaryen, not LLVM, inlined or moved code (Emscripten 4.0.23 at -O2
// and -O3: vector::push_back into use_vector; use_string's code filed under
// use_new_array at a line of main), its DWARF has no record of the call:
// at that offset llvm-symbolizer names another function (push_back, at
// vector.h) or nothing. emheap then gives the frame no line rather than
// another function's; never for a plain new or new[], whose DWARF stays
// whole.
const LIBRARY_CONSTRUCTS = new Set(['vector', 'string', 'make_unique']);
function checkLine(build, frame, what) {
  if (frame.line === LINES[what] && FILE.test(frame.file || '')) return;
  const symbolizer = findSymbolizer();
  assert.ok(symbolizer, 'llvm-symbolizer is not on PATH (it comes with the LLVM that emcc uses)');
  const module = fs.readFileSync(path.join(BUILD, `cpp_lines.${build}.wasm`));
  const dwarfFile = path.join(BUILD, build.endsWith('g') ? `cpp_lines.${build}.wasm` : `cpp_lines.${build}.debug.wasm`);
  const [answer] = symbolize(symbolizer, dwarfFile, [frame.offset - wasmSections.codeSectionStart(module)], true);
  const dwarf = answer.where;
  if (!FILE.test(frame.file || '')) {
    assert.ok(LIBRARY_CONSTRUCTS.has(what), `${what}: ${frame.name} in ${frame.file}`);
    assert.equal(frame.file, undefined, `${what}: ${frame.name} at ${frame.file}:${frame.line}`);
    // No line: the DWARF files the offset under another function than the
    // frame's own (binaryen moved the code), or has no line there.
    assert.ok(dwarf === null || (answer.function && answer.function !== FUNCTIONS[what]),
      `${what}: ${frame.name} has no line, llvm-symbolizer says ${answer.function} at ${dwarf}`);
    return;
  }
  const dwarfLine = dwarf ? Number(dwarf.split(':').pop()) : null;
  assert.equal(frame.line, dwarfLine, `${what}: ${frame.name} at line ${frame.line}, the code is at ${LINES[what]}, the DWARF says ${dwarf}`);
  const fn = FUNCTIONS[what];
  assert.ok(frame.line >= FIRST_LINES[fn] && frame.line <= LAST_LINES[fn], `${what}: line ${frame.line} is not ${fn}'s`);
}

for (const build of ['O0', 'O1', 'O2', 'O3', 'O2g']) {
  test(`-${build.replace('g', ' -g')}${build.endsWith('g') ? '' : ' -gseparate-dwarf'}: every construct names its own line`, () => {
    assert.equal(Object.keys(LINES).length, 5, 'markers in cpp_lines.cpp');
    const snap = snapshotOf(build);
    for (const [what, fn] of Object.entries(FUNCTIONS)) {
      const sites = snap.sites.filter((s) => s.liveBytes > 0 && leaf(snap, s).name.startsWith(fn + '('));
      assert.ok(sites.length >= 1, `${what}: no live site in ${fn}: ${snap.sites.map((s) => s.key).join(' ')}`);
      for (const s of sites) checkLine(build, leaf(snap, s), what);
      if (LIVE_BLOCKS[what]) assert.equal(sites.reduce((a, s) => a + s.liveBlocks, 0), LIVE_BLOCKS[what], what);
    }
    // libc++'s own functions are never a site's leaf: the frames it made
    // real (vector growth, string growth, make_unique at -O0) are counted.
    // At -O2 and above whether any stays a function is the compiler's
    // choice (Emscripten 5.0.7 inlines every one into the use_* functions).
    for (const s of snap.sites) assert.ok(!isStandardLibrary(leaf(snap, s).name), leaf(snap, s).name);
    if (build === 'O0' || build === 'O1') assert.ok(snap.wrappers.standardLibrary >= 1, JSON.stringify(snap.wrappers));
    assert.deepEqual((snap.wrappers || {detected: []}).detected, []);
  });
}

test('-O2 -gsource-map only: a line the map gives is the app line or a library line, never a wrong app line', () => {
  // Without DWARF, binaryen inlines the use_* functions into main and the
  // source map holds the innermost line of inlined libc++ code at most
  // calls (docs/using.md: C++ lines need -gseparate-dwarf). Where it
  // inlined emheap's operator new[] (built without -g: code with no row,
  // Emscripten 4.x and 5.x), the call has no row of its own and its line is
  // inferred from the row before it in the same function: the app's line.
  const snap = snapshotOf('O2map');
  const appLines = new Set(Object.values(LINES));
  let app = 0;
  for (const s of snap.sites.filter((x) => x.liveBytes > 0)) {
    const f = leaf(snap, s);
    if (/^use_new_array/.test(f.name)) assert.ok(f.line !== undefined, `new[] has a line: ${JSON.stringify(f)}`);
    if (f.lineInferred) assert.equal(f.line, LINES['new[]'], `an inferred line is new[]'s own: ${JSON.stringify(f)}`);
    if (FILE.test(f.file || '')) {
      assert.ok(appLines.has(f.line), `${f.name} at app line ${f.line}`);
      app++;
    } else if (f.file !== undefined) {
      assert.match(f.file, /c\+\+\/v1\/|libcxx\//, `${f.name} at ${f.file}:${f.line}`);
      assert.equal(typeof f.line, 'number');
    }
  }
  assert.ok(app >= 1, '`new Node` keeps its line');
});

// llvm-symbolizer from the LLVM that emcc uses (Debian: llvm-14).
function findSymbolizer() {
  for (const name of ['llvm-symbolizer', 'llvm-symbolizer-14', 'llvm-symbolizer-15', 'llvm-symbolizer-16', 'llvm-symbolizer-17', 'llvm-symbolizer-18', 'llvm-symbolizer-19']) {
    if (spawnSync(name, ['--version']).status === 0) return name;
  }
  return null;
}

// The physical frame's file:line as llvm-symbolizer --inlining prints it
// (the last frame of each chain), or null for ??:0. With functions: also
// the DWARF name (DW_AT_name) of the function it is in, or null for ??:
// [{where, function}].
function symbolize(symbolizer, file, addresses, functions) {
  const r = spawnSync(symbolizer, [functions ? '--functions=short' : '--functions=none', '--inlining', '--obj=' + file,
    ...addresses.map((a) => '0x' + a.toString(16))], {encoding: 'utf8', maxBuffer: 1 << 28});
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n\n').map((block) => {
    const lines = block.split('\n');
    const m = /^(.*):(\d+):\d+$/.exec(lines.pop());
    const where = m && m[2] !== '0' && m[1] !== '??' ? cleanPath(m[1]) + ':' + m[2] : null;
    if (!functions) return where;
    const name = lines.pop();
    return {where, function: name && name !== '??' ? name : null};
  });
}

function codeSize(bytes) {
  const at = wasmSections.codeSectionStart(bytes);
  // The section's size LEB ends right before its contents.
  let p = at - 1;
  while (p > 0 && bytes[p - 1] & 0x80) p--;
  let size = 0;
  for (let i = p, scale = 1; i < at; i++, scale *= 128) size += (bytes[i] & 0x7f) * scale;
  return size;
}

for (const [label, module, dwarfFile] of [
  ['DWARF 4 beside the module (emcc -O2 -gseparate-dwarf)', 'cpp_lines.O2.wasm', 'cpp_lines.O2.debug.wasm'],
  ['DWARF 4 at -O0', 'cpp_lines.O0.wasm', 'cpp_lines.O0.debug.wasm'],
  ['DWARF 5 (clang -gdwarf-5, wasm-ld)', 'cpp_lines.dwarf5.wasm', 'cpp_lines.dwarf5.wasm'],
]) {
  test(`the DWARF reader agrees with llvm-symbolizer on every 3rd code byte: ${label}`, () => {
    const symbolizer = findSymbolizer();
    assert.ok(symbolizer, 'llvm-symbolizer is not on PATH (it comes with the LLVM that emcc uses)');
    const main = fs.readFileSync(path.join(BUILD, module));
    const debug = fs.readFileSync(path.join(BUILD, dwarfFile));
    const start = wasmSections.codeSectionStart(main);
    const lines = parseDwarf(wasmSections.customSections(debug), start, cleanPath);
    const addresses = [];
    for (let a = 1; a < codeSize(debug); a += 3) addresses.push(a);
    const answers = symbolize(symbolizer, path.join(BUILD, dwarfFile), addresses, true);
    const expected = answers.map((x) => x.where);
    let same = 0;
    let onlyOurs = 0;
    const differ = [];
    // The function each line is filed under (what tells binaryen's moved
    // rows apart, capture/raw_snapshot.js): llvm-symbolizer's too, where it has one.
    let sameFunction = 0;
    let bothLines = 0;
    const otherFunction = [];
    addresses.forEach((a, i) => {
      const got = lines.lookup(a + start);
      if (got && expected[i]) bothLines++;
      if (got && answers[i].function && got.function) {
        if (got.function === answers[i].function) sameFunction++;
        else otherFunction.push(`0x${a.toString(16)}: llvm ${answers[i].function}, emheap ${got.function}`);
      }
      const text = got ? got.file + ':' + got.line : null;
      // llvm-symbolizer puts the compile directory in front of a relative
      // file name; emheap keeps the name as the build wrote it.
      if (text === expected[i] || (text && expected[i] && expected[i].endsWith('/' + text))) same++;
      // LLVM picks a unit whose code the linker removed (its range starts
      // at 0) and prints ??:0 where the live unit has the line.
      else if (expected[i] === null) onlyOurs++;
      else differ.push(`0x${a.toString(16)}: llvm ${expected[i]}, emheap ${text}`);
    });
    assert.deepEqual(differ.slice(0, 10), []);
    assert.ok(same > addresses.length * 0.9, `${same} of ${addresses.length} agree, ${onlyOurs} only emheap names`);
    assert.deepEqual(otherFunction.slice(0, 10), []);
    // Where both give a line, both name its function, the same. (How much
    // of the code has lines at all is the toolchain's: a binaryen that
    // rewrites DWARF at -O2, as Emscripten 4's does when built from its
    // sources, keeps lines for ~20% of the code bytes, 3.1.6's ~45%.)
    assert.ok(sameFunction > bothLines * 0.9, `the function named at ${sameFunction} of ${bothLines} addresses with a line`);
  });
}

describe('in a page', {skip: CHROMIUM_SKIP}, () => {
  const chrome = servedChromium({'/': BUILD}, () => {
    // The page only loads the program; the test waits for emheap.ready().
    fs.writeFileSync(path.join(BUILD, 'cpp_lines.O2.html'), '<!doctype html><script src="cpp_lines.O2.js"></script>\n');
  });

  test('the page fetches the DWARF file the module names and gives every site its line', async () => {
    const {context, page, consoleMessages} = await newPage(chrome.browser);
    try {
      const fetched = [];
      page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
      await page.goto(`${chrome.server.url}/cpp_lines.O2.html`);
      await page.waitForFunction(() => typeof emheap === 'object', null, {timeout: 30000});
      const snap = await page.evaluate(async () => {
        await emheap.ready();
        return emheap.snapshot();
      });
      assert.ok(fetched.includes('/cpp_lines.O2.debug.wasm'), fetched.join(' '));
      assert.ok(!fetched.some((f) => f.endsWith('.map')), 'no source map asked for');
      assert.deepEqual(validateSnapshot(snap), []);
      for (const [what, fn] of Object.entries(FUNCTIONS)) {
        const sites = snap.sites.filter((s) => s.liveBytes > 0 && leaf(snap, s).name.startsWith(fn + '('));
        assert.ok(sites.length >= 1, what);
        for (const s of sites) checkLine('O2', leaf(snap, s), what);
      }
      assert.ok(!consoleMessages.some((m) => m.type === 'pageerror' || /emheap: ignoring/.test(m.text)),
        consoleMessages.map((m) => m.text).join('\n'));
    } finally {
      await context.close();
    }
  });
});
