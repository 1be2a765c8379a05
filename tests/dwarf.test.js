// dwarf.test.js -- symbolize/dwarf.js on a module compiled here with clang
// for wasm32 and linked with wasm-ld (no emcc), in DWARF 4 and DWARF 5: the
// line of each call is the one llvm-symbolizer gives as its outermost frame
// (inside inlined code, the line that called the inlined function), and so
// is the function. (tests/e2e/cpp_lines.test.js runs emcc's C++ at every
// optimization level.)
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { forEachInstruction } = require('../contexts/wasm_binary');
const { fromBytes } = require('../symbolize/debug_info');
const { codeSectionStart } = require('../symbolize/wasm_sections');

const SOURCE = `__attribute__((import_module("env"), import_name("ext"))) int ext(int);
static inline __attribute__((always_inline)) int helper(int x) {
  return ext(x) * 3; /* inside helper */
}
static inline __attribute__((always_inline)) int outer_helper(int x) {
  return helper(x + 2) + 1; /* helper inside outer_helper */
}
__attribute__((noinline)) int caller(int x) {
  int a = helper(x); /* call of helper */
  int b = ext(x + 1); /* direct call */
  int c = outer_helper(x); /* call of outer_helper */
  return a + b + c;
}
`;
const lineOf = (marker) => SOURCE.split('\n').findIndex((l) => l.includes(marker)) + 1;

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

for (const version of [4, 5]) {
  test(`DWARF ${version}: every call's line and function are llvm-symbolizer's outermost frame`, (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-dwarf-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, 'm.c'), SOURCE);
    run('clang', ['--target=wasm32', '-O1', '-g', `-gdwarf-${version}`, '-c', 'm.c', '-o', 'm.o'], dir);
    run('wasm-ld', ['--no-entry', '--export=caller', 'm.o', '-o', 'm.wasm'], dir);
    const bytes = new Uint8Array(fs.readFileSync(path.join(dir, 'm.wasm')));
    const lines = fromBytes(bytes, (m) => assert.fail(m)).sourceLines;
    assert.ok(lines, 'the DWARF is read');

    const calls = [];
    forEachInstruction(bytes, (f, at, op) => { if (op === 0x10) calls.push(at); });
    assert.equal(calls.length, 3);
    const start = codeSectionStart(bytes);
    const out = run('llvm-symbolizer', ['--obj=m.wasm', '--inlining', ...calls.map((at) => '0x' + (at - start).toString(16))], dir);
    // one block per address: pairs of lines (function, file:line:column), outermost last
    const blocks = out.trim().split(/\n\s*\n/).map((b) => b.split('\n'));
    assert.equal(blocks.length, calls.length, out);
    const seen = calls.map((at, i) => {
      const block = blocks[i];
      const [, line] = /:(\d+):\d+$/.exec(block[block.length - 1]);
      const expected = { file: 'm.c', line: Number(line), function: block[block.length - 2] };
      const got = lines.lookup(at);
      assert.deepEqual(got && { file: path.basename(got.file), line: got.line, function: got.function }, expected,
        `call at 0x${at.toString(16)}`);
      return got.line;
    });
    // and those are the lines that made the calls
    assert.deepEqual(seen, [lineOf('call of helper'), lineOf('direct call'), lineOf('call of outer_helper')]);
  });
}
