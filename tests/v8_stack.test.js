// v8_stack.test.js -- parsing and cleaning of V8 stack text, on the line
// shapes node and Chromium really print (copied from runs of emcc output).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {parseFrameLine, cleanStack, isAllocatorWrapper} = require('../capture/v8_stack');
const {parseStackText} = require('../capture/stack_text');
const {StackTable} = require('../capture/stack_table');

const GLUE = 'http://127.0.0.1:8000/app.js';

test('wasm frame with a name (node)', () => {
  assert.deepEqual(parseFrameLine('    at main (wasm://wasm/db32d37e:wasm-function[6]:0x1341)'),
    {name: 'main', url: 'wasm://wasm/db32d37e', wasm: true, funcIndex: 6, offset: 0x1341});
});

test('wasm frame without names reads wasm-function[N], never empty', () => {
  const f = parseFrameLine('    at wasm://wasm/010cd7be:wasm-function[6]:0x1341');
  assert.equal(f.name, 'wasm-function[6]');
  assert.equal(f.wasm, true);
});

test('wasm frame streamed from a URL, and a $-prefixed name', () => {
  const f = parseFrameLine('    at $leak_memory (http://127.0.0.1:8000/app.wasm:wasm-function[12]:0x4d2)');
  assert.equal(f.name, 'leak_memory');
  assert.equal(f.url, 'http://127.0.0.1:8000/app.wasm');
  assert.equal(f.offset, 0x4d2);
});

test('JS frames: named, anonymous, method alias, async, constructor', () => {
  assert.deepEqual(parseFrameLine('    at HTMLButtonElement.onclick (http://h/leaky/:22:66)'),
    {name: 'HTMLButtonElement.onclick', url: 'http://h/leaky/', wasm: false, line: 22, col: 66});
  assert.equal(parseFrameLine('    at http://h/app.js:10:20').name, '(anonymous)');
  assert.equal(parseFrameLine('    at Object.run [as go] (http://h/app.js:1:2)').name, 'Object.run');
  assert.equal(parseFrameLine('    at async load (http://h/app.js:1:2)').name, 'load');
  assert.equal(parseFrameLine('    at new Game (http://h/app.js:1:2)').name, 'Game');
  assert.equal(parseFrameLine('Error'), null);
});

test('eval frames and C++ names with parentheses', () => {
  const ev = parseFrameLine('    at eval (eval at evaluate (:370:30), <anonymous>:1:8)');
  assert.deepEqual(ev, {name: 'eval', url: '<anonymous>', wasm: false, line: 1, col: 8});
  const ev2 = parseFrameLine('    at eval (eval at <anonymous> (http://host/app.js:5:3), <anonymous>:1:1)');
  assert.equal(ev2.name, 'eval');
  assert.equal(ev2.line, 1);
  const cpp = parseFrameLine('    at apply(void (*)(int), int) (wasm://wasm/ab:wasm-function[9]:0x10)');
  assert.equal(cpp.name, 'apply(void (*)(int), int)');
  assert.equal(cpp.funcIndex, 9);
  const vec = parseFrameLine('    at std::__2::vector<int, std::__2::allocator<int> >::push_back(int const&) (wasm://wasm/ab:wasm-function[3]:0x1)');
  assert.equal(vec.name, 'std::__2::vector<int, std::__2::allocator<int> >::push_back(int const&)');
});

test('allocator wrappers are recognized; app functions are not', () => {
  for (const w of ['malloc', 'calloc', 'dlmalloc', 'internal_memalign', 'dlposix_memalign',
    'emmalloc_memalign', 'emheap_current_site', '_Znwm', '_Znam', '_ZnwmRKSt9nothrow_t',
    'operator new(unsigned long)', 'monoeg_malloc', 'monoeg_g_calloc', 'monoeg_malloc0',
    // libc++ helpers as V8 prints them from a -O0 build's name section
    'void* std::__2::__libcpp_operator_new<unsigned long>(unsigned long)',
    'std::__2::__libcpp_allocate(unsigned long, unsigned long)',
    'std::__2::allocator<int>::allocate(unsigned long)',
    'std::__2::allocator_traits<std::__2::allocator<int> >::allocate(std::__2::allocator<int>&, unsigned long)',
    // libc++abi's operator new behind operator new, as Emscripten 4.0.23 names it
    'operator_new_impl(unsigned long)', '_ZL17operator_new_implm',
    'operator_new_aligned_impl(unsigned long, std::align_val_t)']) {
    assert.ok(isAllocatorWrapper(w), w);
  }
  for (const f of ['leak_memory', 'main', 'mallocator_init', 'new_game', '_Z3foov',
    'std::__2::vector<int, std::__2::allocator<int> >::push_back(int const&)']) {
    assert.ok(!isAllocatorWrapper(f), f);
  }
});

const STACK = [
  'Error',
  `    at _emheap_js_capture_stack (${GLUE}:1:100)`,
  '    at emheap_current_site (http://127.0.0.1:8000/app.wasm:wasm-function[40]:0x900)',
  '    at malloc (http://127.0.0.1:8000/app.wasm:wasm-function[41]:0x950)',
  '    at _Znwm (http://127.0.0.1:8000/app.wasm:wasm-function[50]:0xa00)',
  '    at make_node (http://127.0.0.1:8000/app.wasm:wasm-function[7]:0x120)',
  '    at main (http://127.0.0.1:8000/app.wasm:wasm-function[8]:0x200)',
  `    at Module._main (${GLUE}:1:500)`,
  `    at callMain (${GLUE}:1:600)`,
  '    at HTMLButtonElement.onclick (http://127.0.0.1:8000/:22:66)',
].join('\n');

test('cleaning drops capture code, runtime, wrappers and glue; keeps page JS', () => {
  const kept = cleanStack(parseStackText(STACK), GLUE, null);
  assert.deepEqual(kept.map((f) => f.name), ['make_node', 'main', 'HTMLButtonElement.onclick']);
});

test('cleaning goes by name: an inlined runtime frame does not eat the caller', () => {
  // binaryen may inline emheap_current_site into malloc, or valloc into main.
  const inlined = STACK.split('\n').filter((l) => !l.includes('emheap_current_site')).join('\n');
  const kept = cleanStack(parseStackText(inlined), GLUE, null);
  assert.equal(kept[0].name, 'make_node');
});

// The STACK's runtime (emheap_current_site, malloc, _Znwm) is functions
// 40 to 50 of its module, as runtime/code_first.c and code_last.c mark it.
const RUNTIME = {first: 39, last: 51};
const unnamed = (text) => text.replace(/at (\w+) \((http[^)]*wasm-function[^)]*)\)/g, 'at $2');

test('without names, the runtime frames are known by their function index', () => {
  const kept = cleanStack(parseStackText(unnamed(STACK)), GLUE, RUNTIME);
  assert.deepEqual(kept.map((f) => f.name), ['wasm-function[7]', 'wasm-function[8]', 'HTMLButtonElement.onclick']);
  // without the range nothing tells them from the program's: kept, never
  // a guessed count of them dropped
  assert.equal(cleanStack(parseStackText(unnamed(STACK)), GLUE, null)[0].name, 'wasm-function[40]');
});

test('the runtime inlined into its caller: the caller is the first frame kept', () => {
  // malloc inlined into make_node: from emheap_current_site straight to it
  const inlined = unnamed(STACK.split('\n').filter((l) => !/at (malloc|_Znwm) /.test(l)).join('\n'));
  assert.equal(cleanStack(parseStackText(inlined), GLUE, RUNTIME)[0].name, 'wasm-function[7]');
});

test("a failure inside the allocator: its frames and the runtime's go, the first run only", () => {
  const inAllocator = unnamed([
    'Error',
    `    at abortOnCannotGrowMemory (${GLUE}:1:50)`,
    '    at sbrk (http://127.0.0.1:8000/app.wasm:wasm-function[70]:0x1900)',
    '    at dlmalloc (http://127.0.0.1:8000/app.wasm:wasm-function[71]:0x1a00)',
    '    at malloc (http://127.0.0.1:8000/app.wasm:wasm-function[41]:0x950)',
    '    at new_handler (http://127.0.0.1:8000/app.wasm:wasm-function[9]:0x300)',
    '    at _Znwm (http://127.0.0.1:8000/app.wasm:wasm-function[50]:0xa00)',
    '    at make_node (http://127.0.0.1:8000/app.wasm:wasm-function[7]:0x120)',
  ].join('\n'));
  // the app's new handler, called by operator new, allocated: both stay
  assert.deepEqual(cleanStack(parseStackText(inAllocator), GLUE, RUNTIME).map((f) => f.name),
    ['wasm-function[9]', 'wasm-function[50]', 'wasm-function[7]']);
});

test('a block allocated from JS keeps the glue function that asked', () => {
  const fromJs = [
    'Error',
    `    at _emheap_js_capture_stack (${GLUE}:1:100)`,
    '    at emheap_current_site (wasm://wasm/ab:wasm-function[40]:0x900)',
    '    at malloc (wasm://wasm/ab:wasm-function[41]:0x950)',
    `    at stringToNewUTF8 (${GLUE}:1:700)`,
    `    at ccall (${GLUE}:1:800)`,
  ].join('\n');
  assert.deepEqual(cleanStack(parseStackText(fromJs), GLUE, RUNTIME).map((f) => f.name), ['stringToNewUTF8']);
});

test('StackTable interns frames and stacks; the call site key names the first real frame', () => {
  const table = new StackTable('app.wasm');
  const id = table.internText(STACK);
  assert.equal(table.internText(STACK), id, 'same text, same id');
  const stack = table.stacks[id];
  assert.equal(stack.key, 'make_node+0x120');
  const frames = stack.frames.map((i) => table.frames[i]);
  assert.deepEqual(frames[0], {name: 'make_node', module: 'app.wasm', funcIndex: 7, offset: 0x120});
  assert.equal(frames[2].file, 'http://127.0.0.1:8000/');
  assert.equal(frames[2].line, 22);
  assert.equal(frames[2].col, 66);
  // A different raw text that cleans to the same frames shares the stack id.
  const otherGlue = STACK.replace(`${GLUE}:1:600`, `${GLUE}:1:999`);
  assert.equal(table.internText(otherGlue), id);
  // A different caller is a different stack.
  assert.notEqual(table.internText(STACK.replace('0x200', '0x204')), id);
});

test('capture() works in node and survives an app-installed prepareStackTrace', () => {
  const table = new StackTable('x.wasm');
  const saved = Error.prepareStackTrace;
  Error.prepareStackTrace = () => 'formatted by the app';
  try {
    const id = table.capture();
    assert.ok(id >= 1);
    assert.equal(Error.prepareStackTrace(), 'formatted by the app', 'app formatter restored');
  } finally {
    Error.prepareStackTrace = saved;
  }
});

test('capture(above) leaves out the frame of `above` and learns the glue script that held it', () => {
  const table = new StackTable('x.wasm');
  function glue() { return table.capture(glue); }
  function callerOfGlue() { return glue(); }
  const ref = callerOfGlue();
  const leaf = table.rawFrames[table.nodeFrame[ref]];
  assert.match(leaf.name, /callerOfGlue/, 'the leaf is the glue\'s caller');
  let frames = 0;
  for (let n = ref; n !== 0; n = table.nodeParent[n]) {
    assert.doesNotMatch(table.rawFrames[table.nodeFrame[n]].name, /^glue$|StackTable/);
    frames++;
  }
  assert.ok(frames >= 2, `the caller's callers are there (${frames} frames)`);
  assert.match(table.glueUrl, /v8_stack\.test\.js$/, 'the script of the frame left out');
  // Without `above`, nothing is learnt: the first frame tells the glue.
  assert.equal(new StackTable('x.wasm').glueUrl, null);
});

test('capture(above) called from wasm directly: the glue script is the table\'s own (a build bundles it)', () => {
  const table = new StackTable('x.wasm');
  // (import "env" "f" (func)) (func (export "run") call 0): wasm calls
  // capture itself, as the bundled glue would, with no JS frame between.
  const bytes = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0,
    2, 9, 1, 3, 0x65, 0x6e, 0x76, 1, 0x66, 0, 0, 3, 2, 1, 0, 7, 7, 1, 3, 0x72, 0x75, 0x6e, 0, 1,
    10, 6, 1, 4, 0, 0x10, 0, 0x0b]);
  const capture = StackTable.prototype.capture.bind(table, StackTable.prototype.capture);
  new WebAssembly.Instance(new WebAssembly.Module(bytes), {env: {f: capture}}).exports.run();
  assert.match(table.glueUrl, /stack_table\.js$/, 'not the wasm module\'s URL');
  const leaf = table.rawFrames[table.nodeFrame[table.nodeCount - 1]]; // the newest path's leaf
  assert.equal(leaf.wasm, true, 'the leaf is the wasm caller');
});

test('a wasm frame named with its module\'s name (V8, Emscripten 4: "app.wasm.main") reads as the function alone', () => {
  const f = parseFrameLine('at entry_points.dlmalloc.wasm.emheap_record_new (wasm://wasm/1f2e:wasm-function[12]:0x1f)');
  assert.equal(f.name, 'emheap_record_new');
  assert.equal(f.funcIndex, 12);
  assert.equal(parseFrameLine('at app.wasm.ns::f(int) (http://h/app.wasm:wasm-function[3]:0x10)').name, 'ns::f(int)');
  // only wasm frames, and only that prefix
  assert.equal(parseFrameLine('at app.wasm.f (http://h/app.js:1:2)').name, 'app.wasm.f');
  assert.equal(parseFrameLine('at foo.llvm.123 (wasm://wasm/1f2e:wasm-function[4]:0x2)').name, 'foo.llvm.123');
});
