// stack_table.js -- JS half of exact-JS mode: capture the current stack,
// intern it, hand the C runtime a small stack id.
//
// Cost model: every allocation pays one `new Error().stack` plus one Map
// lookup on the raw text. Parsing and cleaning run once per distinct raw
// text, so repeated sites cost a lookup, not a new record. Distinct raw
// texts that clean to the same frames share one stack id (hence one site).
'use strict';

var v8 = require('./v8_stack');

// emheap_current_site() and the public entry point (malloc, calloc...):
// the runtime's own wasm frames above every allocation (see stack_capture.c).
var RUNTIME_FRAMES = 2;
var STACK_LIMIT = 64;

function basename(url) {
  var s = String(url).split(/[?#]/)[0];
  return s.slice(s.lastIndexOf('/') + 1);
}

function StackTable(moduleName) {
  this.moduleName = moduleName || 'wasm';
  this.frames = [];            // snapshot frames (see formats/README.md)
  this.frameIds = new Map();   // frame identity -> index in frames
  this.stacks = [null];        // stack id -> {frames: [index...] leaf first, key}
  this.stackIds = new Map();   // cleaned frame list -> stack id
  this.byRawText = new Map();  // raw Error().stack text -> stack id
}

// Returns the stack id of the caller's stack (>= 1).
StackTable.prototype.capture = function () {
  var limit = Error.stackTraceLimit;
  var prepare = Error.prepareStackTrace;
  Error.stackTraceLimit = STACK_LIMIT;
  if (prepare) Error.prepareStackTrace = undefined; // app formatters change the text
  var text = new Error().stack;
  Error.stackTraceLimit = limit;
  if (prepare) Error.prepareStackTrace = prepare;
  var id = this.byRawText.get(text);
  if (id === undefined) {
    id = this.internText(text);
    this.byRawText.set(text, id);
  }
  return id;
};

StackTable.prototype.internText = function (text) {
  var parsed = v8.parseV8Stack(text);
  var glueUrl = parsed.length && !parsed[0].wasm ? parsed[0].url : '';
  var cleaned = v8.cleanStack(parsed, glueUrl, RUNTIME_FRAMES);
  var indices = cleaned.map(this.internFrame, this);
  var identity = indices.join(',');
  var id = this.stackIds.get(identity);
  if (id === undefined) {
    id = this.stacks.length;
    this.stacks.push({frames: indices, key: callSiteKey(cleaned[0])});
    this.stackIds.set(identity, id);
  }
  return id;
};

StackTable.prototype.internFrame = function (f) {
  var identity = f.wasm
    ? 'w' + f.funcIndex + ':' + f.offset
    : 'j' + f.url + ':' + f.line + ':' + f.col + ':' + f.name;
  var index = this.frameIds.get(identity);
  if (index !== undefined) return index;
  var frame;
  if (f.wasm) {
    var module = /^wasm:/.test(f.url) ? this.moduleName : basename(f.url);
    frame = {name: f.name, module: module, funcIndex: f.funcIndex, offset: f.offset};
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

// A frame known only as a function (shadow stacks record functions, not
// call offsets). funcIndex -1 when the function could not be identified.
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

// The call site key: the first frame that is not an allocator wrapper,
// precise enough to tell two calls in one function apart.
function callSiteKey(f) {
  if (!f) return '(unattributed)';
  if (f.wasm) return f.name + '+0x' + f.offset.toString(16);
  return f.line !== undefined ? f.name + ' ' + f.url + ':' + f.line + ':' + f.col : f.name;
}

module.exports = {StackTable: StackTable, RUNTIME_FRAMES: RUNTIME_FRAMES};
