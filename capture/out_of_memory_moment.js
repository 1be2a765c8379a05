// out_of_memory_moment.js -- the moment the program runs out of memory, the one
// moment a user most needs the profile: a few lines on what filled the
// memory (model/out_of_memory.js), and a snapshot taken then, saved as
// Ctrl+Shift+H saves one and kept as emheap.lastOutOfMemory.
//
// Called from two places (jslib/library_emheap.js): Emscripten's
// abortOnCannotGrowMemory, just before it aborts the program (the default
// fixed heap, ABORTING_MALLOC), and the runtime's first allocation that
// returns NULL (ABORTING_MALLOC=0). Both run inside the failed allocation,
// so the JS stack still holds its wasm frames. Everything here reads
// memory from JS and allocates nothing in wasm; an error here is said in a
// line and swallowed: the program's own abort or NULL follows unchanged.
'use strict';

var isAllocatorWrapper = require('./v8_stack').isAllocatorWrapper;
var layout = require('./layout');
var lock = require('./lock');
var outOfMemory = require('../model/out_of_memory');
var outOfMemoryLines = outOfMemory.outOfMemoryLines;
var impossibleRequestLine = outOfMemory.impossibleRequestLine;

// p: jslib/page.js's profiler; host: the library's ({err, buffer,
// heapMax, onWorker}). -> handle(how, bytes, above, alignment): how
// 'abort' (bytes: the memory size sbrk asked for) or 'null' (bytes: the
// request; alignment: an aligned request's, else 0); above: the wasm
// import or Emscripten function that called, left out of the stack. Only
// the first call does anything.
function outOfMemoryHandler(p, host) {
  var done = false;
  return function (how, bytes, above, alignment) {
    if (done) return;
    done = true;
    try {
      if (!p.settings.config().outOfMemoryReport) return;
      if (!p.taker.attached() || p.taker.modeNow() === 'off') return;
      // the allocation's stack first: its frames go into the snapshot's
      var stack = allocationStack(p.taker.table(), above, host.onWorker);
      // at Emscripten's abort the allocator's lock is held here: its heap
      // can be walked even with threads, and must not be taken again
      var take = function () { return p.taker.snapshot(undefined, {allocatorHeld: how === 'abort'}); };
      var snapshot = how === 'abort' ? lock.whileAllocatorHeld(take) : take();
      var memoryBytes = host.buffer().byteLength;
      snapshot['outOfMemory'] = {
        how: how,
        requestedBytes: how === 'null' ? bytes : 0,
        alignment: how === 'null' && alignment || 0,
        neededMemoryBytes: how === 'abort' ? bytes : 0,
        memoryBytes: memoryBytes,
        memoryLimitBytes: Math.max(memoryBytes, host.heapMax()),
        stack: stack,
      };
      p.api['lastOutOfMemory'] = snapshot;
      // saved first, so that the report can name the file: on a worker
      // the sink's own line may never reach the console before the abort
      var name = p.files.saveSnapshotNow('speedscope', snapshot);
      var lines = outOfMemoryLines(snapshot);
      lines.push('  the snapshot: ' + (name ? name + ' (`emheap top ' + name + '` ranks its sites), and ' : '') +
        'emheap.lastOutOfMemory');
      host.err(lines.map(function (line) { return 'emheap: ' + line; }).join('\n'));
    } catch (e) {
      host.err('emheap: out of memory, and no report could be made: ' + (e && e.message || e));
    }
  };
}

// How many impossible requests are named; later ones are only counted
// (summary.failedAllocs).
var IMPOSSIBLE_LINES = 5;

// A request no memory of this program could meet (more than its limit, or
// a calloc whose size overflows): the program's bug, and its business, not
// a full memory; one line with its stack, and no file.
// -> handle(bytes, alignment, count, above); count > 0: calloc(count, bytes).
function impossibleRequestHandler(p, host) {
  var said = 0;
  return function (bytes, alignment, count, above) {
    if (said >= IMPOSSIBLE_LINES) return;
    said++;
    try {
      if (!p.taker.attached() || p.taker.modeNow() === 'off') return;
      var table = p.taker.table();
      var stack = allocationStack(table, above, host.onWorker);
      host.err('emheap: ' + impossibleRequestLine({
        bytes: bytes, alignment: alignment, count: count,
        limit: Math.max(host.buffer().byteLength, host.heapMax()),
        frames: table.frames, stack: stack,
      }) + (said === IMPOSSIBLE_LINES ? ' (later ones are not named)' : ''));
    } catch (e) {
      host.err('emheap: a request no memory could meet returned NULL (' + (e && e.message || e) + ')');
    }
  };
}

// The failed allocation's stack as its caller sees it: taken inside the
// allocator (sbrk, dlmalloc's or emmalloc's own functions, then malloc or
// operator new), it starts with frames a site's stack never has. Where the
// table knows the runtime's functions (runtime_code.js) its cleaning has
// dropped them and all leaf-side of them already; elsewhere everything up
// to the first run of allocator entry points goes, and a stack with none
// (no function names) is kept whole. On a worker, the JS frames at the
// root end are the worker's start-up plumbing (its onmessage), not a
// caller, and go too, as they do from a worker's sites (stack_table.js
// capturePairs). stack: frame indices, leaf first.
function callerFrames(stack, frames, onWorker, cleaned) {
  var end = -1;
  if (!cleaned) {
    for (var i = 0; i < stack.length && end < 0; i++) if (isAllocatorWrapper(frames[stack[i]].name)) end = i;
    while (end >= 0 && end < stack.length && isAllocatorWrapper(frames[stack[end]].name)) end++;
  }
  var out = stack.slice(Math.max(end, 0));
  if (onWorker) while (out.length > 1 && frames[out[out.length - 1]].funcIndex === undefined) out.pop();
  return out;
}

// The stack of the allocation under way, as its caller sees it: captured
// now into `table` (a StackTable), `above` the JS function that called, left
// out. -> frame indices into table.frames, leaf first ([] if none).
function allocationStack(table, above, onWorker) {
  var id = table.resolve(table.capture(above));
  return id ? callerFrames(table.stacks[id].frames, table.frames, onWorker, !!table.runtimeCode) : [];
}

module.exports = {outOfMemoryHandler: outOfMemoryHandler, impossibleRequestHandler: impossibleRequestHandler, callerFrames: callerFrames, allocationStack: allocationStack};
