// debug_info_loader.js -- the module's function names and source lines
// (symbolize/debug_info.js), loaded once: under node at the first call, in
// full before it returns; in a page fetched in the background from attach
// time on (the browser's cache serves the .wasm again), so the lines are
// usually there by the first snapshot. A snapshot is finished (its frames
// named, once) when they are in (capture/snapshot_taker.js finishSteps).
'use strict';

var debugInfo = require('../symbolize/debug_info');
var moduleSource = require('../capture/module_source');
var NO_NAMES_ADVICE = require('../model/frame_names').NO_NAMES_ADVICE;

// host: module_source.js's; env: jslib/environment.js; warn: fn(text).
function debugInfoLoader(host, env, warn) {
  var state = 0; // 0 not started, 1 loading, 2 done (loaded or none)
  var waiters = [];
  var found = {functionNames: null, sourceLines: null};

  var done = function (result) {
    found = result;
    state = 2;
    // said once: without names, frames read wasm-function[N]
    if (result.moduleRead && !result.functionNames) {
      warn('emheap: this module has no function names (' + NO_NAMES_ADVICE + '): frames read wasm-function[N]');
    }
    waiters.splice(0).forEach(function (resolve) { resolve(); });
  };

  var loader = {
    load: function () {
      if (state) return;
      state = 1;
      var source = moduleSource.bytesOrLocation(host);
      if (typeof source !== 'string') return done(debugInfo.fromBytes(source, warn));
      if (!source) return done({functionNames: null, sourceLines: null, readOnlyData: {unknown: "the module's file is not known"}});
      env.debugInfo(source, warn, done);
    },
    // Whether the names and lines are in (or known to be absent).
    loaded: function () {
      return state === 2;
    },
    // Runs fn once they are in: at once when they are, else when loading ends.
    whenLoaded: function (fn) {
      loader.load();
      if (state === 2) fn();
      else waiters.push(fn);
    },
    // {lookup(offset)} from the app's DWARF or source map, or null.
    sourceLines: function () {
      return found.sourceLines;
    },
    // The module's read-only data: {ranges} or {unknown: why}
    // (symbolize/read_only_data.js).
    readOnlyData: function () {
      if (state !== 2) return {unknown: "the module's bytes were still loading"};
      return found.readOnlyData || {unknown: "the module's bytes could not be read"};
    },
    // The C++ type a clang allocation token stands for (from DWARF), or null.
    allocTypeName: function (token) {
      return found.allocTypes ? found.allocTypes.name(token) : null;
    },
    // The name section's (or symbol map's) name of a wasm function, or null.
    functionName: function (funcIndex) {
      var names = found.functionNames;
      return names && names[funcIndex] ? names[funcIndex] : null;
    },
  };
  return loader;
}

// How a side module's debug info is read (contexts/side_modules.js
// sideModules' `debug`): from its bytes, with the files it names (a source
// map, a DWARF file) beside where it was found, which Emscripten's
// locateFile puts beside the main module: a relative name is taken from
// the main module's folder. Under node when first asked for; in a page
// from loading on, in the background.
function sideModuleDebug(host, env, warn) {
  return {
    early: !env.node,
    read: function (file, bytes, done) {
      var main = moduleSource.bytesOrLocation(host);
      var source = file || 'side_module.wasm';
      if (typeof main === 'string' && main && !/^(\/|[a-z][\w+.-]*:)/i.test(source)) {
        source = main.slice(0, main.split(/[?#]/)[0].lastIndexOf('/') + 1) + source;
      }
      env.debugInfo(source, warn, done, bytes);
    },
  };
}

module.exports = {debugInfoLoader: debugInfoLoader, sideModuleDebug: sideModuleDebug};
