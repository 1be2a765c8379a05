// stack_table.js -- JS half of the JS-stack modes: capture the current
// stack, hand the C runtime a small stack reference, and turn references
// into cleaned stacks when a snapshot asks (resolve).
//
// Cost model. Every allocation pays V8's stack walk, which costs a few
// hundred ns per frame in node and Chromium whatever we do with it; the
// goal is to add as little as possible on top:
//  - V8 (node, Chromium): Error.captureStackTrace with a prepareStackTrace
//    that returns V8's structured call sites, so no text is formatted. Each
//    frame is identified by (script, position) with two builtin calls and
//    one IntHash probe, and walked root first into a trie of raw frames:
//    the trie node *is* the raw stack, found with no string or garbage.
//    A call site's text is parsed once, when its frame is first seen.
//    The reference handed to C is the trie node; cleaning
//    (v8_stack.cleanStack) and interning run once per distinct raw stack,
//    at the first snapshot that shows it (resolve), not at capture: in
//    sampled mode most captures find a new raw stack and happen a few
//    hundred times per run, so this code stays cold (V8's interpreter), and
//    cleaning at capture cost micro a third of its sampling overhead.
//  - other engines (Firefox), or if the structured form is unavailable: the
//    stack text, from Error.captureStackTrace where it gives text (Firefox)
//    or `new Error().stack` (stack_text.js reads V8's and Firefox's forms),
//    interned by its raw text (one Map lookup on the string per
//    allocation, a parse per distinct text).
// Distinct raw stacks that clean to the same frames resolve to one stack id;
// their raw frames differ only in plumbing, and the snapshot merges their
// sites (raw_snapshot.js).
'use strict';

var v8 = require('./v8_stack');
var layout = require('./layout'); // a worker stack's function words: FRAME_TRUNCATED, FRAME_JS
var stackText = require('./stack_text');
var IntHash = require('./int_hash').IntHash;
var grown = require('./typed_arrays').grown;
var siteKey = require('../model/names').siteKey;
var ShardedMap = require('../model/sharded_map').ShardedMap;
var functionChain = require('../model/grouping').functionChain;

// Frames taken per allocation: V8 walks each one, so the cost of exact-JS
// mode grows with it. 64 keeps whole stacks of most C++ apps; a user may
// trade depth for speed (stackDepth option). Leaf frames are kept first, so
// a deeper stack loses its outermost callers and gets a TRUNCATED root.
var DEFAULT_STACK_DEPTH = 64;
var MAX_STACK_DEPTH = 1024;
var TRUNCATED = {name: '(stack truncated)', url: '', wasm: false};
var NO_FILE = 1; // file id of call sites that report no script (eval, native)
var TRUNCATED_RAW = 1; // raw frame id of the TRUNCATED root
var SIDE_MODULE = 'side module'; // a side module's frame whose module cannot be told (placed)
var SIDE_ENTRY = /^emheap\$entry\$/; // the rewrite's name of its entry functions (wasm_instrument.js writeNames)

function basename(url) {
  var s = String(url).split(/[?#]/)[0];
  return s.slice(s.lastIndexOf('/') + 1);
}

function returnCallSites(error, callSites) {
  return callSites;
}

function StackTable(moduleName, stackDepth) {
  this.moduleName = moduleName || 'wasm';
  this.depth = stackDepth >= 1 && stackDepth <= MAX_STACK_DEPTH ? stackDepth : DEFAULT_STACK_DEPTH;
  this.frames = [];            // snapshot frames (see formats/README.md)
  this.frameIds = new Map();   // frame identity -> index in frames
  this.stacks = [null];        // stack id -> {frames: [index...] leaf first, key}
  this.stackIds = new ShardedMap(); // cleaned frame list -> stack id (a million in large apps)
  this.byRawText = new Map();  // text path: raw Error().stack text -> reference
  // References (what capture() returns, what C stores) are trie nodes.
  // Invariants: raw frame ids and trie nodes are dense from 1; node 0 is
  // the empty stack (reference 0: no stack); nodeStack[n] is 0 until the
  // stack ending at node n is first resolved. A text-path stack gets a node
  // of its own, outside the trie, resolved when it is made.
  this.structured = typeof Error.captureStackTrace === 'function';
  // Text path: Firefox's Error.captureStackTrace gives text, without the
  // frame of capture() itself, at ~80% of the cost of `new Error().stack`
  // (Firefox 153, 27 frames: 9.8 vs 12.4 us). Set when structured fails so.
  this.captureText = false;
  this.glueUrl = null;         // see urlOfCaller
  this.fileIds = new Map();    // script name -> file id >= 2
  this.fileIsWasm = [false, false];
  this.lastFile = null;        // one-entry cache: most frames are in one module
  this.lastFileId = 0;
  this.rawFrameIds = new IntHash();  // (file id, position or line, 0 or column) -> raw frame id
  this.rawFrameByText = new Map();   // NO_FILE call sites: text -> raw frame id
  this.rawFrames = [null, TRUNCATED]; // raw frame id -> parsed frame (v8_stack.parseFrameLine)
  this.edges = new IntHash();        // (parent node, edge key: see internCallSites) -> node
  this.nodeCount = 1;
  this.nodeParent = new Int32Array(1024);
  this.nodeFrame = new Int32Array(1024);
  this.nodeStack = new Int32Array(1024);
  // Calling contexts (contexts/rewrite.js): {info, translate} of a rewritten
  // module, else null. Positions are mapped back to the original module's
  // and the rewrite's entry functions are left out when a stack is
  // resolved; capture(above, true) also finds the activation's root.
  this.contexts = null;
  // Where the runtime's own functions are (runtime_code.js): {first, last},
  // asked of runtimeCodeSource (a function, set by the snapshot taker) until
  // the module is there to say.
  this.runtimeCode = null;
  this.runtimeCodeSource = null;
  this.lastRoot = 0;           // capture(above, true): the JSID (see rootOfText)
  this.captures = 0;           // stacks taken (calling contexts take one per new context)
  this.rootByText = new Map(); // text path: outer frames' text -> JSID
  // Side modules (-sMAIN_MODULE programs; contexts/side_modules.js): their
  // wasm frames are marked `side` (the module's name) when first parsed,
  // told apart from the main module's by their script: the main module's
  // is that of the leaf-most wasm frame of the first stack taken (every
  // capture comes from the runtime, in the main module).
  this.sideModules = null;
  this.mainWasmUrl = null;
}

// Returns a reference to the caller's stack (>= 1); resolve() gives its
// stack id. `above` (optional, V8 only): a function on the stack whose frame
// is left out too, with those leaf-side of it; the glue function that wasm
// calls passes itself. Why: V8 builds a call site for every frame it walks,
// 2-7 us each in a sampled run (bench/README.md, "The cost of a sample"),
// and the glue frame is one more to walk, format and look up, every time.
// wantRoot: also set this.lastRoot, the trie node of the stack outside the
// current wasm activation (runtime/context.h: JSID), 0 if none was found.
StackTable.prototype.capture = function (above, wantRoot) {
  this.captures++;
  var limit = Error.stackTraceLimit;
  var prepare = Error.prepareStackTrace;
  var callSites = null;
  var text;
  // One frame more than kept, to tell a stack of exactly `depth` frames
  // from a truncated one; `new Error().stack` also sees capture() itself.
  Error.stackTraceLimit = this.depth + (this.structured || this.captureText ? 1 : 2);
  try {
    if (this.structured) {
      Error.prepareStackTrace = returnCallSites;
      var holder = {};
      // Frames above capture() itself are left out. V8 formats lazily, on
      // the first read of .stack: read it while our formatter is installed.
      Error.captureStackTrace(holder, above || StackTable.prototype.capture);
      callSites = holder.stack;
      if (above && this.glueUrl === null) this.glueUrl = this.urlOfCaller();
    } else if (this.captureText) {
      Error.prepareStackTrace = undefined; // app formatters change the text
      var textHolder = {};
      Error.captureStackTrace(textHolder, StackTable.prototype.capture);
      text = textHolder.stack;
    } else {
      Error.prepareStackTrace = undefined;
      text = new Error().stack;
    }
  } finally {
    Error.stackTraceLimit = limit;
    Error.prepareStackTrace = prepare;
  }
  if (this.structured) {
    if (Array.isArray(callSites)) return this.internCallSites(callSites, wantRoot);
    this.structured = false; // not V8's call sites: use text from now on
    this.captureText = typeof callSites === 'string';
    return this.capture(undefined, wantRoot);
  }
  if (wantRoot) this.lastRoot = this.rootOfText(text);
  var ref = this.byRawText.get(text);
  if (ref === undefined) {
    ref = this.newNode(0, 0);
    this.nodeStack[ref] = this.internText(text);
    this.byRawText.set(text, ref);
  }
  return ref;
};

// The script of the glue, learnt once: resolve() drops the glue's frames by
// their script, and capture(above) leaves out the frame that told it. In a
// build this file is bundled into the glue: its own script. Loaded on its
// own (node), the script of the first JS frame outside it. Runs with our
// formatter installed.
StackTable.prototype.urlOfCaller = function () {
  var holder = {};
  Error.captureStackTrace(holder);
  var sites = holder.stack;
  if (!Array.isArray(sites) || !sites.length) return '';
  var own = parseCallSite(sites[0]).url;
  for (var i = 1; i < sites.length; i++) {
    var frame = parseCallSite(sites[i]);
    if (frame.wasm) break; // the glue's caller: wasm called it
    if (frame.url !== own) return frame.url;
  }
  return own;
};

// Reference -> stack id (>= 1), or 0 for no stack (reference 0, or one
// this table never made).
StackTable.prototype.resolve = function (ref) {
  if (!(ref > 0 && ref < this.nodeCount)) return 0;
  var stack = this.nodeStack[ref];
  if (stack === 0) {
    var parsed = [];
    for (var n = ref; n !== 0; n = this.nodeParent[n]) parsed.push(this.rawFrames[this.nodeFrame[n]]);
    stack = this.internParsed(parsed);
    this.nodeStack[ref] = stack;
  }
  return stack;
};

// Stack id -> the chain of functions of that stack, leaf first, as every
// view by function tells chains apart (model/grouping.js functionChain):
// what the site timeline follows (site_series.js), call sites of one chain
// being one series. Made once per stack: the table's frames never change.
// Its frames are the table's, named as V8 named them, before the module's
// debug info places them: two static functions of one name in one module
// are one function here, two in the views that have their files (which
// drop a series that is the sum of several of their rows). '' for no
// stack.
StackTable.prototype.functionChain = function (stack) {
  if (!(stack > 0 && stack < this.stacks.length)) return '';
  if (!this.chainOfStack) this.chainOfStack = [];
  var chain = this.chainOfStack[stack];
  if (chain === undefined) {
    var frames = this.frames;
    chain = functionChain(this.stacks[stack].frames, function (i) { return frames[i]; });
    this.chainOfStack[stack] = chain;
  }
  return chain;
};

// A worker's stack for the C runtime (runtime/stack_capture.c): its wasm
// frames as (function index, module offset) pairs, root first, the words
// the main thread reads from the site (raw_snapshot.js). Each worker has its
// own table, which the main thread cannot read: positions in the module are
// what both sides share. JS frames become one FRAME_JS pair per run; those
// at the root end (the worker's start-up plumbing) are left out. At most
// maxWords words (the runtime's capacity, a constant). Made once per
// distinct stack.
StackTable.prototype.capturePairs = function (maxWords, above, wantRoot) {
  var stack = this.resolve(this.capture(above, wantRoot));
  if (stack === 0) return null;
  if (!this.pairsOfStack) this.pairsOfStack = [];
  var pairs = this.pairsOfStack[stack];
  if (pairs) return pairs;
  var frames = this.stacks[stack].frames; // leaf first
  var words = [];
  var inJs = false;
  for (var i = frames.length - 1; i >= 0; i--) {
    var f = this.frames[frames[i]];
    if (f.name === TRUNCATED.name && f.module === undefined) {
      words.push(layout.FRAME_TRUNCATED, 0);
    } else if (f.funcIndex >= 0 && f.offset >= 0 && !f.sideModule) {
      words.push(f.recursive ? layout.recursiveWord(f.funcIndex) : f.funcIndex, f.offset);
      inJs = false;
    } else if (!inJs && words.length) {
      words.push(layout.FRAME_JS, 0);
      inJs = true;
    }
  }
  if (!words.length) words.push(layout.FRAME_JS, 0); // JS itself asked for the block
  // More than the runtime keeps (stackDepth above maxWords / 2 frames): the
  // leaf end, behind a (stack truncated) pair as at the table's own cut.
  if (words.length > maxWords) words = [layout.FRAME_TRUNCATED, 0].concat(words.slice(words.length - (maxWords & ~1) + 2));
  pairs = new Uint32Array(words);
  this.pairsOfStack[stack] = pairs;
  return pairs;
};

// V8 call sites, leaf first -> reference (trie node). The hot path of
// exact-JS mode: no strings, no allocation once the stack has been seen.
// A wasm frame costs one probe: the trie's edge is keyed by the frame
// itself (file id, byte offset); its raw frame is looked up only when the
// edge is new. Other frames are keyed by their raw frame id, negated so the
// two kinds of key never meet (file ids are >= 2).
StackTable.prototype.internCallSites = function (callSites, wantRoot) {
  if (this.mainWasmUrl === null) this.learnMainUrl(callSites.map(parseCallSite));
  var node = 0;
  var root = 0;
  var i = callSites.length - 1;
  if (i >= this.depth) {
    node = this.edges.get(0, -TRUNCATED_RAW, 0) || this.addNode(0, TRUNCATED_RAW, -TRUNCATED_RAW, 0);
    root = node;
    i = this.depth - 1;
  }
  for (; i >= 0; i--) {
    var site = callSites[i];
    var file = site.getFileName();
    var fileId = file === this.lastFile && file ? this.lastFileId : this.fileIdOf(file, site);
    var next;
    if (this.fileIsWasm[fileId]) {
      var position = site.getPosition();
      next = this.edges.get(node, fileId, position);
      if (next === 0) next = this.addNode(node, this.rawFrameOf(site, fileId, position, 0), fileId, position);
    } else {
      var raw = fileId === NO_FILE ? this.rawFrameOfText(site)
        : this.rawFrameOf(site, fileId, site.getLineNumber(), site.getColumnNumber());
      next = this.edges.get(node, -raw, 0);
      if (next === 0) next = this.addNode(node, raw, -raw, 0);
    }
    node = next;
    if (wantRoot && this.startsActivation(this.rawFrames[this.nodeFrame[node]])) root = node;
  }
  if (wantRoot) this.lastRoot = root;
  return node;
};

// Where the current wasm activation starts (wasm_instrument.js): the
// innermost JS frame that is not Emscripten's invoke_* glue or its stub
// for a side module's function (both continue their caller's context), or
// the rewrite's entry function of an export (JS called the export: a new
// activation). A side module's frames start none: its entries continue a
// context, or (called by JS) start one at the JS frame outside them.
StackTable.prototype.startsActivation = function (frame) {
  if (!frame.wasm) return !/^invoke_/.test(frame.name) && !this.isDylinkStub(frame);
  if (frame.side) return false;
  var info = this.contexts && this.contexts.info;
  return !!info && frame.funcIndex >= info.functions && frame.funcIndex < info.functions + info.exportEntries;
};

// Emscripten's stand-in through which the main module calls a side
// module's function (contexts/call_graph.js): continues the context, as an
// invoke does.
StackTable.prototype.isDylinkStub = function (frame) {
  var stubs = this.contexts && this.contexts.info.stubs;
  if (!stubs || !stubs.length) return false;
  if (!this.stubNames) this.stubNames = new Set(stubs);
  return this.stubNames.has(frame.name);
};

// The text path's root: the frames outside the activation, by their text.
StackTable.prototype.rootOfText = function (text) {
  var frames = this.parsedText(text);
  // The JS frames before the first wasm one are the capture's own.
  var i = 0;
  while (i < frames.length && !frames[i].wasm) i++;
  var at = -1;
  for (; i < frames.length; i++) {
    if (this.startsActivation(frames[i])) {
      at = i;
      break;
    }
  }
  if (at < 0) return 0;
  var outer = JSON.stringify(frames.slice(at));
  var id = this.rootByText.get(outer);
  if (id === undefined) {
    id = this.newNode(0, 0);
    this.rootByText.set(outer, id);
  }
  return id;
};

// The raw frame at (file id, byte offset or line, 0 or column).
StackTable.prototype.rawFrameOf = function (site, fileId, a, b) {
  var raw = this.rawFrameIds.get(fileId, a, b);
  if (raw === 0) {
    raw = this.addRawFrame(site);
    this.rawFrameIds.add(fileId, a, b, raw);
  }
  return raw;
};

StackTable.prototype.fileIdOf = function (file, site) {
  if (!file) return NO_FILE;
  var id = this.fileIds.get(file);
  if (id === undefined) {
    id = this.fileIsWasm.length;
    var parsed = parseCallSite(site);
    this.fileIsWasm.push(!!parsed.wasm);
    this.fileIds.set(file, id);
  }
  this.lastFile = file;
  this.lastFileId = id;
  return id;
};

// Call sites with no script (eval, native) are keyed by their text.
StackTable.prototype.rawFrameOfText = function (site) {
  var text = String(site);
  var id = this.rawFrameByText.get(text);
  if (id === undefined) {
    id = this.addRawFrame(site);
    this.rawFrameByText.set(text, id);
  }
  return id;
};

// A raw frame seen for the first time: parsed once, here.
StackTable.prototype.addRawFrame = function (site) {
  this.rawFrames.push(this.placed(parseCallSite(site)));
  return this.rawFrames.length - 1;
};

// Parsed frames, leaf first, of the first stack taken: the main module's
// script is the first wasm frame's.
StackTable.prototype.learnMainUrl = function (parsed) {
  for (var i = 0; i < parsed.length; i++) {
    if (parsed[i].wasm) {
      this.mainWasmUrl = parsed[i].url;
      return;
    }
  }
};

// A parsed frame, marked `side` (its module's name) when it is a wasm frame
// of another module than the main one, and named as in a module without a
// name of its own.
StackTable.prototype.placed = function (frame) {
  if (!frame.wasm || this.mainWasmUrl === null || frame.url === this.mainWasmUrl) return frame;
  var side = (this.sideModules && this.sideModules.nameOfUrl(frame.url)) || SIDE_MODULE;
  var copy = Object.assign({}, frame, {side: side});
  // V8 writes "module.function", or the module's name alone for a function
  // the module does not name
  if (copy.name === side) copy.name = 'wasm-function[' + copy.funcIndex + ']';
  else if (copy.name.indexOf(side + '.') === 0) copy.name = copy.name.slice(side.length + 1);
  return copy;
};

// The text path's frames, placed.
StackTable.prototype.parsedText = function (text) {
  var parsed = stackText.parseStackText(text);
  if (this.mainWasmUrl === null) this.learnMainUrl(parsed);
  return parsed.map(this.placed, this);
};

// A trie node: the stack `parent` plus the raw frame `raw` as its leaf,
// reached from `parent` by the edge key (keyB, keyC) (internCallSites).
StackTable.prototype.addNode = function (parent, raw, keyB, keyC) {
  var id = this.newNode(parent, raw);
  this.edges.add(parent, keyB, keyC, id);
  return id;
};

StackTable.prototype.newNode = function (parent, raw) {
  var id = this.nodeCount++;
  if (id === this.nodeParent.length) {
    this.nodeParent = grown(this.nodeParent);
    this.nodeFrame = grown(this.nodeFrame);
    this.nodeStack = grown(this.nodeStack);
  }
  this.nodeParent[id] = parent;
  this.nodeFrame[id] = raw;
  return id;
};

// A V8 call site as the text parser sees it: String(site) is the part of a
// stack line after "at ".
function parseCallSite(site) {
  var text = String(site);
  return v8.parseFrameLine('at ' + text) || {name: text, url: '', wasm: false};
}

StackTable.prototype.internText = function (text) {
  // From `new Error().stack` the first frame is capture() itself, which
  // captureStackTrace leaves out.
  var parsed = this.parsedText(text);
  var kept = this.depth + (this.captureText ? 0 : 1);
  if (parsed.length > kept) {
    parsed.length = kept;
    parsed.push(TRUNCATED);
  }
  return this.internParsed(parsed);
};

// Parsed frames, leaf first, capture code included -> stack id. In a
// rewritten module, wasm positions become the original module's and the
// rewrite's own entry functions go.
StackTable.prototype.internParsed = function (parsed) {
  if (this.contexts) parsed = this.originalFrames(parsed);
  parsed = foldRecursion(parsed);
  var glueUrl = parsed.length && !parsed[0].wasm ? parsed[0].url : this.glueUrl || '';
  if (!this.runtimeCode && this.runtimeCodeSource) this.runtimeCode = this.runtimeCodeSource();
  var cleaned = v8.cleanStack(parsed, glueUrl, this.runtimeCode);
  return this.internStack(cleaned.map(this.internFrame, this));
};

StackTable.prototype.originalFrames = function (parsed) {
  var out = [];
  for (var i = 0; i < parsed.length; i++) {
    var f = parsed[i];
    // a side module's frames by its own rewrite (contexts/side_modules.js)
    var c = !f.side ? this.contexts : this.sideModules && this.sideModules.contextsOf(f.side);
    if (f.side && !c && SIDE_ENTRY.test(f.name)) {
      // a side module's entry function where the module cannot be told
      // (Firefox, two or more side modules): known by its name
    } else if (!f.wasm || !c || !(f.offset >= 0)) {
      out.push(f);
    } else if (!(f.funcIndex >= c.info.functions)) {
      var copy = Object.assign({}, f);
      copy.offset = c.translate(f.offset);
      out.push(copy);
    }
  }
  return out;
};

// A function calling itself directly, however deep, is one frame: the
// innermost (where the allocation is), marked recursive. Calling contexts
// see such a recursion as one context (wasm_instrument.js); folding the JS
// stack the same way keeps every mode's sites the same, and bounds the
// sites of recursive code (a tree built recursively is one site, not one
// per node).
function foldRecursion(parsed) {
  var out = null;
  for (var i = 1; i < parsed.length; i++) {
    var f = parsed[i];
    var inner = out ? out[out.length - 1] : parsed[i - 1];
    if (f.wasm && inner.wasm && f.funcIndex >= 0 && f.funcIndex === inner.funcIndex && f.url === inner.url) {
      if (!out) out = parsed.slice(0, i);
      if (!inner.recursive) out[out.length - 1] = Object.assign({}, inner, {recursive: true});
    } else if (out) {
      out.push(f);
    }
  }
  return out || parsed;
}

// Frame indices, leaf first -> stack id (one per distinct list).
StackTable.prototype.internStack = function (indices) {
  var identity = indices.join(',');
  var id = this.stackIds.get(identity);
  if (id === undefined) {
    id = this.stacks.length;
    this.stacks.push({frames: indices, key: siteKey(this.frames[indices[0]])});
    this.stackIds.set(identity, id);
  }
  return id;
};

StackTable.prototype.internFrame = function (f) {
  var identity = f.wasm
    ? (f.side ? 's' + f.side + ':' : 'w') + f.funcIndex + ':' + f.offset + (f.recursive ? 'r' : '')
    : 'j' + f.url + ':' + f.line + ':' + f.col + ':' + f.name;
  var index = this.frameIds.get(identity);
  if (index !== undefined) return index;
  var frame;
  if (f.wasm) {
    var module = f.side || (/^wasm:/.test(f.url) || f.url === this.mainWasmUrl ? this.moduleName : basename(f.url));
    frame = {name: f.name, module: module, funcIndex: f.funcIndex, offset: f.offset};
    if (f.side) frame.sideModule = true;
    if (f.recursive) frame.recursive = true;
  } else {
    frame = {name: f.name, file: f.url};
    if (f.line !== undefined) {
      frame.line = f.line;
      frame.col = f.col;
    }
  }
  index = this.frames.length;
  this.frames.push(frame);
  this.frameIds.set(identity, index);
  return index;
};

// A frame known only as a function, not a call offset (a worker's JS
// frames, the truncation marker). funcIndex -1 when there is none.
StackTable.prototype.internFunction = function (funcIndex, name) {
  var identity = 'f' + funcIndex + ':' + name;
  var index = this.frameIds.get(identity);
  if (index !== undefined) return index;
  var frame = {name: name, module: this.moduleName};
  if (funcIndex >= 0) frame.funcIndex = funcIndex;
  index = this.frames.length;
  this.frames.push(frame);
  this.frameIds.set(identity, index);
  return index;
};

module.exports = {
  StackTable: StackTable,
  TRUNCATED: TRUNCATED,
  MAX_STACK_DEPTH: MAX_STACK_DEPTH,
};
