// gecko_stack.test.js -- parsing Firefox stack text, on lines Firefox 153
// really printed: the sample page's malloc stack (captured inside emheap's
// capture code), and eval, new Function, nested and async frames from a
// test page (async frames with javascript.options.asyncstack_capture_debuggee_only
// off). tests/e2e/firefox.test.js runs the whole path in the browser.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {parseGeckoFrameLine} = require('../capture/gecko_stack');
const {parseStackText} = require('../capture/stack_text');
const {cleanStack} = require('../capture/v8_stack');
const {StackTable} = require('../capture/stack_table');

const HOST = 'http://127.0.0.1:35023/leaky-canvas';
const GLUE = `${HOST}/index.js`;
// Firefox, Error().stack inside StackTable.capture during malloc, after a click.
const MALLOC_STACK = [
  `jslib/stack_table/StackTable.prototype.capture@${GLUE}:1851:16`,
  `_emheap_js_capture_stack@${GLUE}:3838:31`,
  `emheap_current_site@${HOST}/index.wasm:wasm-function[18]:0x1328`,
  `malloc@${HOST}/index.wasm:wasm-function[12]:0x5f4`,
  `leak_memory@${HOST}/index.wasm:wasm-function[7]:0x1fb`,
  `Module._leak_memory@${GLUE}:4785:81`,
  `onclick@${HOST}/?emheap=exact:1:8`,
  '',
].join('\n');

test('a wasm frame: name, module URL, function index, module offset', () => {
  assert.deepEqual(parseGeckoFrameLine(`leak_memory@${HOST}/index.wasm:wasm-function[7]:0x1fb`),
    {name: 'leak_memory', url: `${HOST}/index.wasm`, wasm: true, funcIndex: 7, offset: 0x1fb});
});

test('JS frames: display names kept, anonymous ones named, line and column read', () => {
  assert.deepEqual(parseGeckoFrameLine(`Module._leak_memory@${GLUE}:4785:81`),
    {name: 'Module._leak_memory', url: GLUE, wasm: false, line: 4785, col: 81});
  assert.equal(parseGeckoFrameLine('outer/<@http://127.0.0.1:38727/a.js:2:56').name, 'outer/<');
  const anon = parseGeckoFrameLine('@http://127.0.0.1:38727/a.js:4:12');
  assert.equal(anon.name, '(anonymous)');
  assert.equal(anon.line, 4);
  // the page URL holds a query; the position is still the last two numbers
  assert.deepEqual(parseGeckoFrameLine(`onclick@${HOST}/?emheap=exact:1:8`),
    {name: 'onclick', url: `${HOST}/?emheap=exact`, wasm: false, line: 1, col: 8});
});

test('eval and new Function code is <anonymous>, as V8 names it', () => {
  const ev = parseGeckoFrameLine('ev@http://127.0.0.1:38727/a.js line 5 > eval:1:25');
  assert.deepEqual(ev, {name: 'ev', url: '<anonymous>', wasm: false, line: 1, col: 25});
  const fn = parseGeckoFrameLine('anonymous@http://127.0.0.1:38727/a.js line 6 > Function:3:8');
  assert.deepEqual(fn, {name: 'anonymous', url: '<anonymous>', wasm: false, line: 3, col: 8});
});

test('async callers lose the async* mark; lines without @ are not frames', () => {
  assert.equal(parseGeckoFrameLine('async*caller@http://127.0.0.1:39939/a.js:8:40').name, 'caller');
  assert.equal(parseGeckoFrameLine(''), null);
  assert.equal(parseGeckoFrameLine('Error'), null);
});

test('stack_text reads Firefox text whole, and V8 text by its "at" lines', () => {
  const frames = parseStackText(MALLOC_STACK);
  assert.deepEqual(frames.map((f) => f.name), ['jslib/stack_table/StackTable.prototype.capture',
    '_emheap_js_capture_stack', 'emheap_current_site', 'malloc', 'leak_memory', 'Module._leak_memory', 'onclick']);
  // A V8 message line holding "@" is not a frame of the V8 text.
  const v8 = 'Error: mail me@example.com\n    at f (http://h/a.js:1:2)';
  assert.deepEqual(parseStackText(v8).map((f) => f.name), ['f']);
});

test('cleaning a Firefox malloc stack keeps the C caller and the page handler', () => {
  const kept = cleanStack(parseStackText(MALLOC_STACK), GLUE, null);
  assert.deepEqual(kept.map((f) => f.name), ['leak_memory', 'onclick']);
});

test('StackTable on the text path interns a Firefox stack like a V8 one', () => {
  const table = new StackTable('index.wasm');
  table.structured = false;
  const id = table.internText(MALLOC_STACK);
  assert.equal(table.internText(MALLOC_STACK), id);
  const stack = table.stacks[id];
  assert.deepEqual(stack.frames.map((i) => table.frames[i].name), ['leak_memory', 'onclick']);
  assert.equal(stack.key, 'leak_memory+0x1fb');
  assert.deepEqual(table.frames[stack.frames[0]],
    {name: 'leak_memory', module: 'index.wasm', funcIndex: 7, offset: 0x1fb});
});
