// v8_stack.js -- parse V8 `Error().stack` text into frames, and tell which
// frames are allocator plumbing rather than the code that asked for memory.
//
// Pure functions (stack_text.js reads whole texts), shared by the page (embedded into the --js-library by
// jslib/bundle.js) and node tests. V8 writes one frame per line:
//   at NAME (wasm://wasm/1a2b3c:wasm-function[12]:0x4d2)   wasm, with names
//   at wasm://wasm/1a2b3c:wasm-function[12]:0x4d2          wasm, no names
//   at NAME (http://host/app.wasm:wasm-function[12]:0x4d2) wasm, streamed
//   at NAME (http://host/app.js:10:20)                     JS
//   at http://host/app.js:10:20                            JS, anonymous
'use strict';

var WASM_LOCATION = /^(.*):wasm-function\[(\d+)\]:0x([0-9a-fA-F]+)$/;
var JS_LOCATION = /^(.*):(\d+):(\d+)$/;

var inRuntimeCode = require('./runtime_code').inRuntimeCode;

// Functions that only pass a request on to the allocator: the call site is
// the first frame below them. Names as the wasm name section spells them
// (C names, Itanium-mangled C++ names) or demangled.
var WRAPPER_NAMES = new Set([
  'malloc', 'free', 'calloc', 'realloc', 'memalign', 'posix_memalign', 'aligned_alloc',
  'valloc', 'pvalloc', 'malloc_usable_size', 'reallocf',
  'dlmalloc', 'dlfree', 'dlcalloc', 'dlrealloc', 'dlmemalign', 'internal_memalign',
  'dlposix_memalign', 'emscripten_builtin_malloc', 'emscripten_builtin_memalign',
  '__libc_malloc', '__libc_calloc', '__libc_realloc',
  'monoeg_malloc', 'monoeg_g_calloc', 'monoeg_malloc0', 'monoeg_realloc',
  '_malloc', 'Module._malloc', '_calloc', '_realloc', 'Module._realloc',
]);
var WRAPPER_PATTERNS = [
  /^emmalloc_/,
  /^emheap_/,
  /^_Zn[wa][mj]/,                          // operator new / new[] (every overload), mangled
  /^(void\* ?)?operator new(\[\])?\(/,      // ... demangled
  // libc++abi's helper behind them (LLVM 17 on: Emscripten 3.1.4x and later)
  /^_ZL\d+operator_new(_aligned)?_impl/,
  /^operator_new(_aligned)?_impl\(/,
  // libc++ allocation helpers when not inlined (-O0): mangled and demangled,
  // demangled names may start with a return type ("void* std::__2::...").
  /__libcpp_(operator_new|allocate)\b/,
  /^_ZNSt3__2\d*allocatorI.*E8allocateE/,
  /^_ZNSt3__216allocator_traitsI.*E8allocateE/,
  /\ballocator(_traits)?<.*>::allocate\(/,
];

function isAllocatorWrapper(name) {
  if (!name) return false;
  if (WRAPPER_NAMES.has(name)) return true;
  for (var i = 0; i < WRAPPER_PATTERNS.length; i++) if (WRAPPER_PATTERNS[i].test(name)) return true;
  return false;
}

// Index of the "(" that opens the location at the end of "NAME (LOCATION)",
// or -1. Matched from the end because both sides may hold parentheses:
// C++ names ("f(void (*)(int))") and eval locations ("eval at g (x:1:2), ...").
function locationStart(s) {
  if (s.charAt(s.length - 1) !== ')') return -1;
  var depth = 0;
  for (var i = s.length - 1; i > 0; i--) {
    var c = s.charAt(i);
    if (c === ')') depth++;
    else if (c === '(' && --depth === 0) return s.charAt(i - 1) === ' ' ? i : -1;
  }
  return -1;
}

// One stack line -> {name, url, wasm, funcIndex, offset, line, col}, or null
// for lines that are not frames (the "Error" header, blank lines).
function parseFrameLine(text) {
  var s = text.trim();
  if (s.indexOf('at ') !== 0) return null;
  s = s.slice(3);
  if (s.indexOf('async ') === 0) s = s.slice(6);
  var name = '';
  var location = s;
  var open = locationStart(s);
  if (open > 0) {
    name = s.slice(0, open).trim();
    location = s.slice(open + 1, -1);
  }
  // eval'd code: "eval at f (http://h/a.js:5:3), <anonymous>:1:8" -> the
  // position inside the evaluated text is the part after the last ", ".
  if (location.indexOf('eval at ') === 0) location = location.slice(location.lastIndexOf(', ') + 2);
  if (name.indexOf('new ') === 0) name = name.slice(4);
  var alias = name.indexOf(' [as ');
  if (alias > 0) name = name.slice(0, alias);
  // Some V8 versions print wasm names as "$name".
  if (name.charAt(0) === '$' && WASM_LOCATION.test(location)) name = name.slice(1);
  return frameFromLocation(name, location);
}

// V8 prefixes a wasm function's name with the module's own name and a dot
// when the name section has one, and Emscripten 4 names the module after
// its file: "app.wasm.main". The prefix goes, so that a frame reads as in
// a module without one (and emheap's own frames are known by name). A C or
// C++ symbol never holds ".wasm." (clang's suffixes are ".llvm.N", ".N").
var MODULE_NAME_PREFIX = /^[\w.+-]*?\.wasm\./;
function withoutModuleName(name) {
  return name.replace(MODULE_NAME_PREFIX, '');
}

// A frame from its name ('' if none) and location: "URL:wasm-function[N]:0xOFFSET"
// (wasm; both V8 and Firefox spell it so), "URL:LINE:COL" (JS), or anything
// else (kept as the name). Shared with gecko_stack.js.
function frameFromLocation(name, location) {
  var m = WASM_LOCATION.exec(location);
  if (m) {
    var funcIndex = parseInt(m[2], 10);
    return {
      name: withoutModuleName(name) || 'wasm-function[' + funcIndex + ']',
      url: m[1], wasm: true, funcIndex: funcIndex, offset: parseInt(m[3], 16),
    };
  }
  m = JS_LOCATION.exec(location);
  if (m) {
    return {
      name: name || '(anonymous)', url: m[1], wasm: false,
      line: parseInt(m[2], 10), col: parseInt(m[3], 10),
    };
  }
  return {name: name || location, url: location, wasm: false};
}

// Keeps the frames a user wants to see, leaf first:
//  - drops everything leaf-side of the first wasm frame (the JS capture code),
//  - drops the first run of the runtime's own frames (runtimeCode: the
//    range of its functions, runtime_code.js) and the wasm frames
//    leaf-side of it (the allocator's, for a failure inside it), known by
//    their function index, names or not; binaryen inlines small one-caller
//    functions whatever clang's noinline said, so which of them are left
//    varies from module to module,
//  - drops allocator wrappers by name (libc++abi's operator new, dlmalloc's
//    functions, emheap's own where runtimeCode is not known) up to the
//    first real caller,
//  - drops JS frames of the Emscripten glue (`glueUrl`) and of node internals
//    anywhere; JS frames of the page's own scripts are kept as callers.
function cleanStack(frames, glueUrl, runtimeCode) {
  var i = 0;
  while (i < frames.length && !frames[i].wasm) i++;
  if (runtimeCode) {
    var j = i;
    while (j < frames.length && frames[j].wasm && !inRuntimeCode(runtimeCode, frames[j])) j++;
    if (j < frames.length && inRuntimeCode(runtimeCode, frames[j])) {
      while (j < frames.length && inRuntimeCode(runtimeCode, frames[j])) j++;
      i = j;
    }
  }
  while (i < frames.length && isAllocatorWrapper(frames[i].name)) i++;
  var kept = [];
  var glue = [];
  for (; i < frames.length; i++) {
    var f = frames[i];
    if (!f.wasm && /^node:|^internal\//.test(f.url)) continue;
    if (!f.wasm && f.url === glueUrl) glue.push(f);
    else kept.push(f);
  }
  // A block that JS asked for (Module._malloc, stringToNewUTF8...) has no
  // wasm or page caller: then the glue function that called malloc is the
  // most useful name there is.
  return kept.length ? kept : glue.slice(0, 1);
}

module.exports = {
  parseFrameLine: parseFrameLine,
  frameFromLocation: frameFromLocation,
  cleanStack: cleanStack,
  isAllocatorWrapper: isAllocatorWrapper,
};
