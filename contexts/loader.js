// loader.js -- whether this program gets calling contexts, and
// getting them: exact mode names sites by calling contexts
// (contexts/wasm_instrument.js), which need the module rewritten before it is
// compiled, through Emscripten's Module.instantiateWasm hook (the library
// sets the hook; this decides and does the work). Not when the app has a
// hook of its own (its bytes are its business: exact mode then takes a JS
// stack per allocation), nor in the other modes, which do not use
// contexts. A pthread's worker instantiates the module the main thread
// compiled: it only learns the offsets and hands out the table's entries.
'use strict';

var contextsModule = require('./rewrite');
var layout = require('../capture/layout');
var moduleSource = require('../capture/module_source');

// host: {Module, onWorker, wasmBinary(), wasmBinaryFile(), buffer(), stateAddress(),
// workerModule(), abort(text)};
// env: jslib/environment.js; settings: config.js settingsOf.
function contextsLoader(host, env, settings) {
  var loader = {
    contexts: null, // {info, translate, ...} when the module was rewritten (contexts/rewrite.js)
    whyNot: '',     // why exact mode has no contexts although the user did not turn them off

    // Sets Emscripten's Module.instantiateWasm hook, once, as the program's
    // JS starts. On a pthread's worker: to adopt the instance made from the
    // module the main thread compiled (Emscripten 3.1.x's worker.js
    // instantiates through this hook; 4.x instantiates the posted
    // wasmModule itself unless the hook is set, as it is then). On the main
    // thread, when wanted: to rewrite the module first; onWanted is told.
    setHook: function (onWanted) {
      var Module = host.Module;
      var theirs = Module['instantiateWasm'];
      if (host.onWorker) {
        Module['instantiateWasm'] = function (imports, receiveInstance) {
          var module = host.workerModule();
          var take = function (instance, mod) {
            loader.adopt(instance, mod || module, imports);
            return receiveInstance(contextsModule.instanceForEmscripten(instance), mod);
          };
          if (typeof theirs === 'function') return theirs(imports, take);
          return take(new WebAssembly.Instance(module, imports), module);
        };
        return;
      }
      if (!loader.wanted(typeof theirs === 'function')) return;
      onWanted();
      Module['instantiateWasm'] = function (imports, receiveInstance) {
        loader.instantiate(imports).then(function (r) {
          receiveInstance(contextsModule.instanceForEmscripten(r.instance), r.module);
        }, function (e) {
          host.abort(loader.whyNotLoaded(e));
        });
        return {};
      };
    },

    // On the main thread, before the module loads: whether to rewrite it.
    // The mode must be known now: the page or environment, else the link
    // line (emheap-config --mode=X leaves it in a --pre-js), else exact,
    // the default. The other modes keep Emscripten's own (streaming)
    // instantiation. appHasHook: the app set Module.instantiateWasm.
    wanted: function (appHasHook) {
      var mode = settings.chosenMode() || 'exact';
      if (mode !== 'exact' || !settings.config().contexts) return false;
      if (appHasHook) {
        loader.whyNot = 'the app instantiates the module itself (Module.instantiateWasm)';
        return false;
      }
      return true;
    },

    // A promise of {instance, module}: the rewritten module, or where it
    // cannot be rewritten the original (and whyNot says why); rejects when
    // the module's bytes cannot be had at all, or when the original does
    // not load either (the error marked `engine`).
    instantiate: function (imports) {
      return moduleSource.moduleBytes(host, env).then(function (bytes) {
        return contextsModule.instantiateRewritten(bytes, imports).then(function (r) {
          loader.contexts = r.contexts;
          return r;
        }, function (e) {
          loader.whyNot = 'the module could not be rewritten for them: ' + (e && e.message || e);
          return WebAssembly.instantiate(bytes, imports).catch(function (original) {
            throw {engine: true, message: original && original.message || String(original)};
          });
        });
      });
    },

    // What the program is told when its module cannot be loaded (instantiate
    // rejected): not emheap's doing where the module, as it was built, does
    // not load in this engine either (a wasm64 module in an engine without
    // 64-bit tables, say).
    whyNotLoaded: function (e) {
      var message = e && e.message || String(e);
      if (e && e.engine) return 'this engine cannot load the program\'s module, with emheap or without: ' + message;
      return 'emheap: cannot load the module: ' + message;
    },

    // On a pthread's worker, the instance made from the main thread's
    // module: its contexts, if it was rewritten. Never throws: a thread
    // without them takes JS stacks.
    adopt: function (instance, module, imports) {
      try {
        var contexts = contextsModule.contextsOf(module);
        if (contexts) {
          contextsModule.useTableEntries(instance, contexts, imports);
          loader.contexts = contexts;
        }
      } catch (e) {
        // the thread runs without contexts: its allocations take JS stacks
      }
    },

    // The default mode is exact when calling contexts make it cheap; where
    // the module could not be rewritten for them, sampled, said once. (A
    // mode the user chose is kept: exact then takes a JS stack per
    // allocation, and ready() says so.) mode: layout.readMode's. -> the
    // mode to write, or null.
    defaultModeFallback: function (mode) {
      if (settings.chosenMode() || mode.mode !== 'exact' || loader.contexts) return null;
      if (settings.config().contexts) {
        console.warn('emheap: sampled mode (one stack per ' + mode.interval + ' bytes on average): exact ' +
          'stacks need the module rewritten as it loads, which did not happen here (' + (loader.whyNot ||
          'the module was loaded before emheap could take part') + '); EMHEAP_MODE=exact (?emheap=exact) records every ' +
          'allocation anyway, with a JS stack each, many times slower');
      }
      return 'sampled';
    },

    // What the runtime asks once at startup: 0 no contexts (exact mode
    // then takes a JS stack per allocation, said once unless the user
    // turned contexts off), 1 contexts, 2 contexts checked against JS stacks.
    ready: function () {
      if (!loader.contexts) {
        if (settings.config().contexts) {
          console.warn('emheap: exact mode without calling contexts (' + (loader.whyNot ||
            'exact mode was not known when the module loaded: choose it with emheap-config --mode=exact, ' +
            '?emheap=exact, EMHEAP_MODE=exact or Module.emheapOptions') + '): every allocation takes a JS stack, many times slower');
        }
        return 0;
      }
      return settings.config().contexts === 'verify' ? 2 : 1;
    },

    // emheap.contexts(): what the load-time rewrite cost and did, or
    // {rewritten: false}; in the checking mode, how many allocations were
    // checked and how many disagreed with their JS stack. captures: JS
    // stacks taken in this realm.
    report: function (captures) {
      var c = loader.contexts;
      if (!c) return {rewritten: false};
      var out = {rewritten: true, rewriteMs: c.rewriteMs, compileMs: c.compileMs, stats: c.info.stats, captures: captures};
      var state = host.stateAddress();
      if (state) {
        var checks = layout.contextChecks(new DataView(host.buffer()), state);
        out.verify = checks.verify;
        out.checked = checks.checked;
        out.mismatches = checks.mismatches;
      }
      return out;
    },

    // The checking mode says its verdict when a node program exits (a page
    // asks emheap.contexts()). report: fn() -> report().
    sayVerdictAtExit: function (report) {
      if (settings.config().contexts !== 'verify') return;
      env.onExit(function () {
        var c = report();
        if (c.verify) {
          console.error('emheap: contexts checked against JS stacks: ' + c.checked + ' allocations, ' +
            c.mismatches + ' named another site');
        }
      });
    },
  };
  return loader;
}

module.exports = {contextsLoader: contextsLoader};
