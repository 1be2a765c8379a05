// grouping.js -- the sites of a snapshot as a person asks for them:
//  - by function (the default of every view): the chain of function names,
//    leaf first, as pprof, heaptrack and DevTools show by default; the
//    call sites a loop unrolled or a function inlined twice into its
//    caller are one group;
//  - by line: each frame's function and file:line, where debug info gives
//    one (a frame without a line stays its function);
//  - by site: the call sites as the runtime recorded them (the file's own
//    sites, which a diff and the heap graph keep);
//  - by module: the chain of modules (wasm files, scripts) the stack passes
//    through: per-module totals, where frames name their module;
//  - by type: the C++ type each `new` allocated, one row per type, where
//    the allocations carry clang's allocation tokens (-fsanitize=alloc-token:
//    runtime/alloc_token.c; named from the module's DWARF by
//    symbolize/alloc_types.js, a token no type name matches by its
//    number); every other allocation by function.
// A grouped snapshot is a snapshot whose sites are the groups (merged by
// model/merge_sites.js, with their marks, series, growth events and heap
// totals), each with `parts`, the sites it holds: every view of it (top,
// --since, --growing, --at peak, diff, check, report) answers by group
// without knowing it. A group's series is kept only where every site in it
// was followed (a sum that leaves some out would be wrong); the timeline
// follows a chain of functions' call sites together, so a view by site has
// no series for them (model/site_timeline.js).
'use strict';

var userError = require('./user_error').userError;

var runSteps = require('./steps').runSteps;
var lineText = require('./names').lineText;
var mergeSitesSteps = require('./merge_sites').mergeSitesSteps;
var perSiteSeries = require('./site_timeline').perSiteSeries;

var GROUPINGS = ['function', 'line', 'site', 'module', 'type'];
var DEFAULT_GROUPING = 'function';
var NO_MODULE = '(no module)';

// A function, as every view tells functions apart: its name in its file
// (two static functions of one name in two files are two functions) and
// module, and whether a direct recursion was folded into its frame
// (capture/stack_table.js). -> a string.
function functionIdentity(frame) {
  return frame.name + '\u0000' + (frame.module || '') + '\u0000' + (frame.file || '') + (frame.recursive ? '\u0000r' : '');
}

// A chain of functions, leaf first: the call sites of one chain are one
// row of a view by function, and one series of the site timeline
// (capture/stack_table.js), one row of a growth's line
// (capture/growth_log.js). stack: frame indices; frameAt(i) -> frame i.
// -> a string ('' for no frames).
function functionChain(stack, frameAt) {
  var parts = new Array(stack.length);
  for (var i = 0; i < stack.length; i++) parts[i] = functionIdentity(frameAt(stack[i]));
  return parts.join('\u0001');
}

// A frame as the grouping sees it: -> {identity, frame (the group's
// frame)}. A function is functionIdentity's. By module, a frame is its
// module alone (a wasm file, a script), and the views' rows are the chains
// of modules.
function groupFrame(frame, by) {
  if (by === 'module') {
    var module = frame.module !== undefined && frame.module !== '' ? frame.module : NO_MODULE;
    return {identity: module, frame: {name: module}};
  }
  var out = {name: frame.name};
  if (frame.module !== undefined) out.module = frame.module;
  if (frame.file !== undefined) out.file = frame.file;
  if (frame.recursive) out.recursive = true; // a direct recursion folded into the frame (capture/stack_table.js)
  var identity = functionIdentity(frame);
  if (by === 'line' && frame.file !== undefined && frame.line !== undefined) {
    out.line = frame.line;
    if (frame.lineInferred) out.lineInferred = true;
    identity += ':' + frame.line;
  }
  return {identity: identity, frame: out};
}

// A group's key (what views print as its name): the leaf's function, and
// its file:line by line.
function groupKey(frame) {
  return frame.line !== undefined ? frame.name + ' ' + frame.file + lineText(frame) : frame.name;
}

// -> by, if it is one of GROUPINGS; else throws saying which there are.
function checkGrouping(by) {
  if (GROUPINGS.indexOf(by) < 0) throw new Error('unknown grouping "' + by + '": use ' + GROUPINGS.join(', '));
  return by;
}

// A typed site's group (by type): {identity, frame}.
function typeGroup(site) {
  var name = site.allocType !== undefined ? site.allocType : '(unnamed type: token ' + site.allocToken + ')';
  return {identity: 'type\u0000' + name, frame: {name: name}};
}

function isTyped(site) {
  return site.allocToken !== undefined;
}

var NO_TYPES = 'no allocation in this snapshot carries its C++ type: compile the C++ code with -fsanitize=alloc-token ' +
  '(clang 22: Emscripten 4.0.2x and later) and link with -g (docs/using.md, "Grouped by C++ type")';

// -> a generator of steps returning the snapshot grouped `by` (one of
// GROUPINGS; 'site': the snapshot itself).
function* groupSnapshotSteps(snapshot, by) {
  checkGrouping(by);
  if (by === 'type' && !snapshot.sites.some(isTyped)) {
    throw userError(NO_TYPES);
  }
  if (by === 'site') {
    var own = perSiteSeries(snapshot.siteTimeline);
    return own === snapshot.siteTimeline ? snapshot : Object.assign({}, snapshot, {siteTimeline: own});
  }
  var frames = [];
  var indexOf = new Map(); // frame identity -> index in frames
  var newIndex = snapshot.frames.map(function (f) {
    var g = groupFrame(f, by === 'type' ? 'function' : by);
    var i = indexOf.get(g.identity);
    if (i === undefined) {
      i = frames.length;
      frames.push(g.frame);
      indexOf.set(g.identity, i);
    } else if (frames[i].lineInferred && !g.frame.lineInferred) {
      delete frames[i].lineInferred; // a call on that line has a row of its own: the line is known
    }
    return i;
  });
  var typeFrame = function (s) {
    var g = typeGroup(s);
    var i = indexOf.get(g.identity);
    if (i === undefined) {
      i = frames.length;
      frames.push(g.frame);
      indexOf.set(g.identity, i);
    }
    return {identity: 'f' + i, stack: [i], key: g.frame.name};
  };
  var merged = yield* mergeSitesSteps(snapshot, function (s) {
    if (by === 'type' && isTyped(s)) return typeFrame(s);
    if (!s.stack.length) return {identity: 'key:' + s.key, stack: s.stack, key: s.key};
    var stack = s.stack.map(function (i) { return newIndex[i]; });
    if (by === 'module') stack = stack.filter(function (f, k) { return k === 0 || f !== stack[k - 1]; }); // a module's run of frames is one
    return {identity: stack.join(','), stack: stack, key: groupKey(frames[stack[0]])};
  }, {frames: frames, countParts: true});
  var grouped = merged.snapshot;
  grouped.groupedBy = by;
  // a series that summed several groups is none of theirs
  if (grouped.siteTimeline) grouped.siteTimeline = perSiteSeries(grouped.siteTimeline);
  // the one stack outside the sites, which indexes frames too
  if (snapshot.outOfMemory && Array.isArray(snapshot.outOfMemory.stack)) {
    grouped.outOfMemory = Object.assign({}, snapshot.outOfMemory, {
      stack: snapshot.outOfMemory.stack.map(function (i) { return newIndex[i]; }),
    });
  }
  return grouped;
}

// What a view's rows are, as a word: "function", "line", "site",
// "module"; by type "row" (a type's, or a function's where the allocations
// carry no type).
function rowWord(snapshot) {
  var by = snapshot.groupedBy || 'site';
  return by === 'type' ? 'row' : by;
}

function groupSnapshot(snapshot, by) {
  return runSteps(groupSnapshotSteps(snapshot, by));
}

module.exports = {GROUPINGS: GROUPINGS, DEFAULT_GROUPING: DEFAULT_GROUPING, checkGrouping: checkGrouping, groupSnapshot: groupSnapshot,
  rowWord: rowWord, functionChain: functionChain,
  groupSnapshotSteps: groupSnapshotSteps};
