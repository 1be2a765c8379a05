// wrappers.js: a program's own allocation layer, removed from the leaf end of
// every site's stack so that a site is named after the code that wanted the
// memory, not after the function every allocation goes through (Lua's
// l_alloc and luaM_realloc_, SQLite's sqlite3MemMalloc and sqlite3Malloc,
// QuickJS's js_def_malloc, Mono's monoeg_malloc).
//
// Two sources, applied the same way to a snapshot by the finishing pass
// (model/finish.js: the page when it takes one, the CLI when it reads a
// file, so every format, key, diff and leak report sees the same sites):
//  - declared: names or globs ("l_alloc", "luaM_*") the user gives once
//    (Module.emheapOptions.wrappers, ?emheap_wrappers=, EMHEAP_WRAPPERS,
//    emheap --wrappers); "none" turns detection off;
//  - detected: LAYER_RULE below, measured on Lua 5.2, SQLite 3.54 and
//    emheap's micro benchmark (bench/workloads): it finds l_alloc,
//    luaM_realloc_, luaC_newobj in Lua; sqlite3MemMalloc, sqlite3Malloc,
//    dbMallocRawFinish, sqlite3DbMallocRawNN in SQLite; nothing in micro,
//    whose only allocating function (make_tree) is recursive; and, over
//    each pool's objects alone (runtime/pools.c), the pool's own allocator
//    (POOL_SITES below);
//  - the C++ standard library, always: libc++'s own functions at the leaf
//    end (std::vector's __push_back_slow_path, basic_string::__grow_by,
//    make_unique...) are how the app's code reached operator new, not what
//    wanted the memory. They are real frames wherever the compiler did not
//    inline them (always at -O0; at -O2 the growth paths). Counted in `wrappers.standardLibrary` (frames removed).
// The built-in wrappers (malloc, operator new, libc++'s allocate...) are
// dropped earlier, when stacks are captured (capture/v8_stack.js).
//
// A site whose stack changes gets the key of its new leaf frame; sites that
// end up with the same stack are merged (model/finish.js). The snapshot
// keeps what was removed in `wrappers: {declared, detected}`, and
// `detect: false` when detection was off, so a file says how its sites
// were made and every reader makes them the same way.
'use strict';

var siteKey = require('./names').siteKey;
var runSteps = require('./steps').runSteps;

// LAYER_RULE: a function F is part of the allocation layer when, in the
// stacks as they stand (earlier layer frames already removed),
//  - F is the leaf frame of at least LAYER_SHARE of the sites (and of at
//    least LAYER_MIN_SITES sites): almost every allocation passes through it;
//  - the three frames above F name at least LAYER_CALLERS different
//    functions: many different callers, not one caller chain;
//  - F never calls itself right there: a recursive builder (a tree's
//    make_node) allocates for itself, it passes nothing on.
// Applied repeatedly, it peels a layer one function at a time (l_alloc,
// then luaM_realloc_...). Measured shares of the next candidates, which the
// rule must keep: Lua luaS_newlstr 28%, SQLite memjrnlWrite 12%.
var LAYER_SHARE = 0.4;
var LAYER_MIN_SITES = 8;
var LAYER_CALLERS = 8;
var LAYER_MAX_DEPTH = 8; // no real allocation layer is deeper

// "l_alloc,luaM_*" or an array of such -> clean list of names/globs.
// Returns {names: [...], detect: bool}.
function parseWrapperList(value) {
  var items = [];
  var add = function (v) {
    if (Array.isArray(v)) v.forEach(add);
    else if (typeof v === 'string') {
      v.split(',').forEach(function (s) {
        s = s.trim();
        if (s) items.push(s);
      });
    }
  };
  add(value);
  var detect = true;
  var names = [];
  items.forEach(function (s) {
    if (s === 'none') detect = false;
    else if (names.indexOf(s) < 0) names.push(s);
  });
  return {names: names, detect: detect};
}

// Glob ("*" matches anything) -> test(name). A C++ name matches by its full
// text or by its text without the parameter list ("Pool::alloc" matches
// "Pool::alloc(unsigned long)").
function matcher(names) {
  if (!names.length) return function () { return false; };
  var exact = new Set();
  var patterns = [];
  names.forEach(function (n) {
    if (n.indexOf('*') < 0) exact.add(n);
    else patterns.push(new RegExp('^' + n.split('*').map(escapeRegExp).join('.*') + '$'));
  });
  return function (name) {
    if (typeof name !== 'string') return false;
    var bare = withoutParameters(name);
    if (exact.has(name) || exact.has(bare)) return true;
    for (var i = 0; i < patterns.length; i++) if (patterns[i].test(name) || patterns[i].test(bare)) return true;
    return false;
  };
}

// "Pool<void (int)>::get(unsigned long) const" -> "Pool<void (int)>::get":
// the parameter list is the bracket that closes the name, found from the
// end ("(anonymous namespace)::f(int)" keeps its namespace).
function withoutParameters(name) {
  var end = name.length;
  if (/ const$/.test(name)) end -= 6;
  if (name.charAt(end - 1) !== ')') return name;
  var depth = 0;
  for (var i = end - 1; i > 0; i--) {
    var c = name.charAt(i);
    if (c === ')') depth++;
    else if (c === '(' && --depth === 0) return name.slice(0, i);
  }
  return name;
}

function escapeRegExp(s) {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

// A function of the C++ standard library (libc++, whose ABI namespace is
// std::__2, or any std::), by its mangled or demangled name. Demangled names
// of templates start with their return type ("void std::__2::vector<int,
// ...>::__push_back_slow_path<int const&>(int const&)"), which may itself be
// a std type in the app's own code ("std::__2::vector<int> make_list<int>()"):
// the function's own qualified name is the last word outside brackets,
// before the parameter list.
function isStandardLibrary(name) {
  if (typeof name !== 'string') return false;
  if (/^_ZN[KVRO]*St/.test(name) || /^_ZSt/.test(name)) return true;
  if (name.indexOf('std::') < 0) return false;
  var end = name.length;
  if (name.charAt(end - 1) === ')' || / const$/.test(name)) {
    var close = name.lastIndexOf(')');
    var depth = 0;
    for (var i = close; i >= 0; i--) {
      var c = name.charAt(i);
      if (c === ')') depth++;
      else if (c === '(' && --depth === 0) { end = i; break; }
    }
  }
  var start = 0;
  var nest = 0;
  for (var j = end - 1; j >= 0; j--) {
    var ch = name.charAt(j);
    if (ch === '>' || ch === ')') nest++;
    else if (ch === '<' || ch === '(') nest--;
    else if (ch === ' ' && nest === 0) { start = j + 1; break; }
  }
  return /^std::/.test(name.slice(start, end));
}

// Number of leaf frames of `stack` (frame indices) that are layer frames;
// at least one frame always stays.
function layerDepth(stack, frames, isLayer) {
  var n = 0;
  while (n < stack.length - 1 && isLayer(frames[stack[n]].name)) n++;
  return n;
}

// Names LAYER_RULE finds in a snapshot, given what is already removed.
function detectLayer(snapshot, isDeclared) {
  return runSteps(detectLayerSteps(snapshot, isDeclared));
}

// Sites looked at between two yields of the *Steps generators: a page runs
// them a slice at a time (emheap.snapshotAsync), 1M sites take ~0.5 s.
var STEP_SITES = require('./steps').STEP_ITEMS;

function* detectLayerSteps(snapshot, isDeclared) {
  var found = [];
  var isLayer = function (name) { return isDeclared(name) || found.indexOf(name) >= 0; };
  yield* peelSteps(snapshot.sites, snapshot.frames, isLayer, found, ALL_SITES);
  // each pool's objects (runtime/pools.c): the leaf of their stacks is the
  // function that told emheap of them, the pool's own allocator, unless the
  // compiler inlined it into its caller
  var byPool = new Map();
  snapshot.sites.forEach(function (s) {
    if (!s.pool || !s.stack.length) return;
    if (!byPool.has(s.pool)) byPool.set(s.pool, []);
    byPool.get(s.pool).push(s);
  });
  var pools = Array.from(byPool.keys()).sort(function (x, y) { return x - y; });
  for (var p = 0; p < pools.length; p++) yield* peelSteps(byPool.get(pools[p]), snapshot.frames, isLayer, found, POOL_SITES);
  return found;
}

// The rule's thresholds: over all sites (LAYER_RULE), and over one pool's
// objects, every one of which went through the pool's allocator: the
// function at the leaf of 90% of them, called from three functions at
// least (one caller: the allocator was inlined into the code that wanted
// the memory, which stays). Only that one: below it are the pool's users
// (QuickJS's JS_NewObjectFromShape, the leaf of a third of its objects'
// stacks once __js_malloc is left out, makes the JS objects).
var ALL_SITES = {minSites: LAYER_MIN_SITES, callers: LAYER_CALLERS, share: LAYER_SHARE};
var POOL_SITES = {minSites: 3, callers: 3, share: 0.9};

// LAYER_RULE applied to `sites` round after round, pushing what it finds
// onto `found`.
function* peelSteps(sites, frames, isLayer, found, rule) {
  // Sites with a stack: the share counts among them. Counted without a
  // filtered copy (at 1M sites making one is a third of a second).
  var withStack = 0;
  for (var j = 0; j < sites.length; j++) if (sites[j].stack.length > 0) withStack++;
  if (withStack < rule.minSites) return;
  for (var round = 0; round < LAYER_MAX_DEPTH; round++) {
    var byLeaf = new Map();
    for (var i = 0; i < sites.length; i++) {
      if (i % STEP_SITES === STEP_SITES - 1) yield;
      var s = sites[i];
      if (!s.stack.length) continue;
      var d = layerDepth(s.stack, frames, isLayer);
      if (s.stack.length - d < 2) continue; // nothing above the leaf
      var leaf = frames[s.stack[d]].name;
      var e = byLeaf.get(leaf);
      if (!e) byLeaf.set(leaf, e = {sites: 0, above: new Set(), recursive: false});
      e.sites++;
      for (var k = 1; k <= 3 && d + k < s.stack.length; k++) e.above.add(frames[s.stack[d + k]].name);
      if (frames[s.stack[d + 1]].name === leaf) e.recursive = true;
    }
    var best = null;
    byLeaf.forEach(function (e, name) {
      if (e.recursive || e.sites < rule.minSites || e.sites < rule.share * withStack) return;
      if (e.above.size < rule.callers) return;
      if (!best || e.sites > best.sites) best = {name: name, sites: e.sites};
    });
    if (!best || !/\S/.test(best.name) || /^\(/.test(best.name)) break;
    found.push(best.name);
  }
}

// The allocation layer of a snapshot, found: what goes from the leaf end
// of its stacks, and what the snapshot says afterwards. The finishing pass
// (model/finish.js) removes it and merges the sites that became one.
// options: {names: [...], detect: bool} (from parseWrapperList). Safe to
// find again in a snapshot it was removed from (the CLI does, in files the
// page made): names already removed are skipped, and detection stops only
// where LAYER_RULE finds nothing more, so it finds nothing more the second
// time. -> a generator of steps (yielding every STEP_SITES sites)
// returning {
//   removes: whether any stack may lose frames;
//   strip(site) -> {stack, key}: the site's stack without the layer and
//     its key (the site's own when nothing goes), counting the standard
//     library's frames removed;
//   wrappers() -> the snapshot's `wrappers` once every site was stripped,
//     or undefined where the snapshot's own stays}.
function* allocationLayerSteps(snapshot, options) {
  options = options || {names: [], detect: true};
  var before = snapshot.wrappers;
  var done = before ? (before.declared || []).concat(before.detected || []) : [];
  var declared = options.names.filter(function (n) { return done.indexOf(n) < 0; });
  // detection turned off where the snapshot was taken stays off: a file
  // answers the same wherever it is read
  var detect = options.detect && !(before && before.detect === false);
  // Standard-library frames, judged once per frame (sites share frames).
  var library = snapshot.frames.map(function (f) { return isStandardLibrary(f && f.name); });
  var libraryNames = new Set();
  snapshot.frames.forEach(function (f, i) { if (library[i]) libraryNames.add(f.name); });
  var isUserDeclared = matcher(declared);
  var isDeclared = function (name) { return libraryNames.has(name) || isUserDeclared(name); };
  var detected = detect ? yield* detectLayerSteps(snapshot, isDeclared) : [];
  var libraryLeaves = false;
  for (var l = 0; l < snapshot.sites.length && !libraryLeaves; l++) {
    if (l % STEP_SITES === STEP_SITES - 1) yield;
    var leafSite = snapshot.sites[l];
    libraryLeaves = leafSite.stack.length > 1 && library[leafSite.stack[0]];
  }
  var removes = declared.length > 0 || detected.length > 0 || libraryLeaves;
  var isDetected = matcher(detected);
  var isLayer = function (name) { return isDeclared(name) || isDetected(name); };
  var libraryFrames = 0;
  return {
    removes: removes,
    strip: function (site) {
      var d = removes ? layerDepth(site.stack, snapshot.frames, isLayer) : 0;
      if (!d) return {stack: site.stack, key: site.key};
      for (var k = 0; k < d; k++) if (library[site.stack[k]]) libraryFrames++;
      var stack = site.stack.slice(d);
      return {stack: stack, key: siteKey(snapshot.frames[stack[0]])};
    },
    wrappers: function () {
      var was = {declared: (before && before.declared) || [], detected: (before && before.detected) || []};
      if (!removes) return detect || (before && before.detect === false) ? undefined : withDetect(was, before, detect);
      var now = {declared: was.declared.concat(declared), detected: was.detected.concat(detected)};
      var libraryBefore = (before && before.standardLibrary) || 0;
      if (libraryFrames + libraryBefore) now.standardLibrary = libraryFrames + libraryBefore;
      return withDetect(now, before, detect);
    },
  };
}

// wrappers with `detect: false` when detection was off.
function withDetect(wrappers, before, detect) {
  if (!detect) wrappers.detect = false;
  if (before && before.standardLibrary && wrappers.standardLibrary === undefined) wrappers.standardLibrary = before.standardLibrary;
  return wrappers;
}

module.exports = {
  parseWrapperList: parseWrapperList,
  matcher: matcher,
  detectLayer: detectLayer,
  isStandardLibrary: isStandardLibrary,
  allocationLayerSteps: allocationLayerSteps,
  LAYER_SHARE: LAYER_SHARE,
  LAYER_CALLERS: LAYER_CALLERS,
};
