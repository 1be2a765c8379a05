// frame_names.js -- names and places a snapshot's frames (and the types
// its sites allocate, where the allocations carry clang's tokens): a wasm function
// known only by its index (no name section: "wasm-function[N]") gets its
// name from the module's symbols, a wasm frame its file and line from the
// module's DWARF or source map. Run by the finishing pass
// (model/finish.js), once: the page finishes a snapshot when the debug
// info is in (capture/snapshot_taker.js). A frame already placed stays as
// it is.
'use strict';

var baseName = require('./names').baseName;
var runSteps = require('./steps').runSteps;
var STEP_FRAMES = require('./steps').STEP_ITEMS;

// names: {functionName(funcIndex) -> name or null, sourceLines:
// {lookup(offset) -> {file, line, function?} or null} or null,
// allocTypeName(token) -> name or null (optional), sideSourceLines(module
// name) -> a side module's sourceLines or null (optional)}.
// -> the snapshot, its frames replaced by named ones.
function nameFrames(snapshot, names) {
  return runSteps(nameFramesSteps(snapshot, names));
}

// The same in steps (model/steps.js): a million sites can have a million
// frames, and a page runs between the steps.
function* nameFramesSteps(snapshot, names) {
  var frames = snapshot.frames;
  var named = new Array(frames.length);
  for (var i = 0; i < frames.length; i++) {
    if (i % STEP_FRAMES === STEP_FRAMES - 1) yield;
    named[i] = nameFrame(frames[i], names);
  }
  snapshot.frames = named;
  if (names.allocTypeName) yield* nameAllocTypesSteps(snapshot.sites || [], names.allocTypeName);
  return snapshot;
}

// One frame named and placed (names: as nameFrames's): a new frame, or the
// frame itself when there is nothing to add.
function nameFrame(frame, names) {
  // a side module's frame: its own lines (the main module's debug info
  // would name it wrongly), its name from its own name section already
  if (frame.sideModule) return withSource(frame, names.sideSourceLines ? names.sideSourceLines(frame.module) : null);
  var name = unnamed(frame) && names.functionName ? names.functionName(frame.funcIndex) : null;
  return withSource(name ? withFields(frame, {name: name}) : frame, names.sourceLines);
}

// Names the type of each site whose allocations came with a clang
// allocation token (runtime/alloc_token.c), where the module's DWARF has a
// type of that token (symbolize/alloc_types.js).
function* nameAllocTypesSteps(sites, allocTypeName) {
  for (var i = 0; i < sites.length; i++) {
    if (i % STEP_FRAMES === STEP_FRAMES - 1) yield;
    var s = sites[i];
    if (s.allocToken === undefined || s.allocType !== undefined) continue;
    var name = allocTypeName(s.allocToken);
    if (name) s.allocType = name;
  }
}

// A copy of frame with some fields set.
function withFields(frame, fields) {
  var out = {};
  Object.keys(frame).forEach(function (k) { out[k] = frame[k]; });
  Object.keys(fields).forEach(function (k) { out[k] = fields[k]; });
  return out;
}

// Adds file and line to a wasm frame when the source lines (DWARF or a
// source map) know its offset (lineInferred: from the row before it,
// symbolize/source_map.js). DWARF also names the function it files the
// offset under: one that is not the frame's own means binaryen moved the
// code there (symbolize/dwarf.js), and the line is another function's.
function withSource(frame, sourceLines) {
  if (!sourceLines || frame.offset === undefined || frame.file !== undefined) return frame;
  var where = sourceLines.lookup(frame.offset);
  if (!where) return frame;
  if (where.function) {
    var own = baseName(frame.name);
    if (own && own !== baseName(where.function)) return frame;
  }
  var place = {file: where.file, line: where.line};
  if (where.inferred) place.lineInferred = true;
  return withFields(frame, place);
}

// What a person is told when the module had no function names: the page
// says it once on the console (jslib/debug_info_loader.js), every header
// of the CLI's tables says it again (cli/snapshot_text.js).
var NO_NAMES_ADVICE = 'link with --profiling-funcs, as emheap-config does';

// A frame known by its index only: the module had no name for it.
function unnamed(f) {
  return f.funcIndex >= 0 && f.name === 'wasm-function[' + f.funcIndex + ']';
}

// The wasm frames of the snapshot's stacks (a view's too, whose frames
// are functions: a module, no index): {wasm, unnamed} (counts).
function namedFrames(snapshot) {
  var used = new Set();
  (snapshot.sites || []).forEach(function (s) { s.stack.forEach(function (i) { used.add(i); }); });
  var out = {wasm: 0, unnamed: 0};
  used.forEach(function (i) {
    var f = snapshot.frames[i];
    if (!f || !(f.funcIndex >= 0 || f.module !== undefined)) return;
    out.wasm++;
    if (/^wasm-function\[\d+\]$/.test(f.name)) out.unnamed++;
  });
  return out;
}

module.exports = {nameFrames: nameFrames, nameFramesSteps: nameFramesSteps, nameFrame: nameFrame, namedFrames: namedFrames,
  NO_NAMES_ADVICE: NO_NAMES_ADVICE};
