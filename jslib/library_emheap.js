// library_emheap.js -- the emheap --js-library: the JS imports the C
// runtime calls, and the page-facing API `Module.emheap` / `globalThis.emheap`.
//
// Not used as is: `make` runs jslib/bundle.js, which prepends the shared
// modules (jslib/*.js, formats/*.js) as EMHEAP_MODULES_SOURCE and writes
// build/library_emheap.js, the file that emcc --js-library gets.
//
// Conventions follow Emscripten's own src/library_*.js: one `$EMHEAP` object
// holding the state, imports that depend on it via __deps, and a __postset
// that runs when the module's JS loads. Nothing here calls into wasm, so a
// snapshot can be taken at any moment without disturbing the heap it reads.

// addToLibrary is the name since Emscripten 3.1.45; mergeInto, the only one
// in 3.1.6, stays as an alias in current versions.
var emheapAddToLibrary = typeof addToLibrary === 'function' ? addToLibrary
  : function (items) { mergeInto(LibraryManager.library, items); };

// The single-threaded runtime calls this at startup (runtime/state.c). It
// exists only in programs without threads (Emscripten 3.1.x's USE_PTHREADS,
// later PTHREADS; SHARED_MEMORY in both): a -pthread program linked with the
// single-threaded runtime fails to link, with the symbol's name saying what
// to do, rather than counting wrong.
if (!((typeof PTHREADS !== 'undefined' && PTHREADS) || (typeof USE_PTHREADS !== 'undefined' && USE_PTHREADS) ||
      (typeof SHARED_MEMORY !== 'undefined' && SHARED_MEMORY))) {
  emheapAddToLibrary({
    emheap_single_threaded_runtime_in_a_threaded_program__link_with_emheap_config_pthread__sig: 'v',
    emheap_single_threaded_runtime_in_a_threaded_program__link_with_emheap_config_pthread: function () {},
  });
}

emheapAddToLibrary({
  $emheapModules: '=' + EMHEAP_MODULES_SOURCE,

  // addOnExit and wasmTable are globals in Emscripten 3.1.x and library
  // symbols, included on request, in later versions (src/lib/libcore.js):
  // asked for where the library has them, so the leak report at exit and
  // symbolization work in both (each use is guarded with typeof).
  $EMHEAP__deps: ['$emheapModules'].concat(['$addOnExit', '$wasmTable'].filter(function (name) {
    return Object.prototype.hasOwnProperty.call(LibraryManager.library, name);
  })),
  $EMHEAP__postset: 'EMHEAP.install();',
  $EMHEAP: {
    state: 0,          // address of emheap_state, set by emheap_js_attach
    stacks: null,      // StackTable, created on first use
    configCache: null, // EMHEAP.config()
    sourceLines: null, // {lookup(offset)} from the app's DWARF or source map, once loaded
    functionNames: null, // {functionIndex: name} from the wasm name section
    debugInfoState: 0, // 0 not started, 1 loading, 2 done (loaded or none)
    debugInfoWaiters: [],
    leakReportDone: false, // the leak report is made once, at the first exit event

    install: function () {
      EMHEAP.jsRoots = new Map(); // (a library object's fields are written out as JSON)
      var api = {};
      api['version'] = '0.1.0';
      // options: {heap: true} adds the heap graph (exact modes): what keeps
      // each block alive, leaks, retained sizes (model/heap_section.js)
      api['snapshot'] = function (options) { return EMHEAP.snapshot(EMHEAP.snapshotOptions(options)); };
      api['snapshotAsync'] = function (options) {
        return EMHEAP.snapshotInSlices(EMHEAP.snapshotOptions(options)).then(function (snapshot) { return snapshot; });
      };
      // A pointer JS keeps (a malloc'd buffer held by a JS object, an
      // embind handle) that the heap scan should count as a root; counted:
      // added twice, removed twice.
      api['addRoot'] = function (ptr) {
        ptr = ptr >>> 0;
        EMHEAP.jsRoots.set(ptr, (EMHEAP.jsRoots.get(ptr) || 0) + 1);
      };
      api['removeRoot'] = function (ptr) {
        ptr = ptr >>> 0;
        var n = EMHEAP.jsRoots.get(ptr) || 0;
        if (n <= 1) EMHEAP.jsRoots.delete(ptr);
        else EMHEAP.jsRoots.set(ptr, n - 1);
      };
      api['getSnapshotJson'] = EMHEAP.getSnapshotJson;
      // The heap at its peak of live bytes (model/peak.js): a snapshot whose
      // live numbers are that moment's, for downloadSnapshot and toSpeedscope.
      api['atPeak'] = function (snapshot) {
        var view = emheapModules.peak.peakView(snapshot || EMHEAP.snapshot());
        if (!view) throw new Error('emheap.atPeak: this snapshot has no per-site numbers at the peak (taken by an older emheap)');
        return view;
      };
      api['toSpeedscope'] = function (snapshot) {
        return emheapModules.formats.formatByName('speedscope').object(snapshot || EMHEAP.snapshot());
      };
      api['toPerfView'] = function (snapshot) {
        return emheapModules.formats.formatByName('perfview').object(snapshot || EMHEAP.snapshot());
      };
      api['downloadSnapshot'] = EMHEAP.downloadSnapshot;
      api['dumpHeap'] = EMHEAP.dumpHeap;
      api['diff'] = EMHEAP.diff;
      api['downloadDiff'] = EMHEAP.downloadDiff;
      api['pause'] = function () { EMHEAP.setPaused(true); };
      api['resume'] = function () { EMHEAP.setPaused(false); };
      // Resolves once function names and the source map (if any) are loaded,
      // so that the next snapshot has them; a page loads them in the
      // background from startup on.
      api['ready'] = function () {
        return new Promise(EMHEAP.whenDebugInfo);
      };
      api['formats'] = Object.keys(emheapModules.formats.FORMATS);
      // How exact stacks are found: calling contexts (what the load-time
      // rewrite cost and did), or not; in the checking mode, how many
      // allocations were checked and how many disagreed with their JS stack.
      api['contexts'] = function () {
        var c = EMHEAP.contexts;
        if (!c) return {rewritten: false};
        var out = {rewritten: true, rewriteMs: c.rewriteMs, compileMs: c.compileMs, stats: c.info.stats,
          captures: EMHEAP.stacks ? EMHEAP.stacks.captures : 0}; // JS stacks taken in this realm
        var state = EMHEAP.stateAddress();
        if (state) {
          var checks = emheapModules.layout.contextChecks(new DataView(EMHEAP.buffer()), state);
          out.verify = checks.verify;
          out.checked = checks.checked;
          out.mismatches = checks.mismatches;
        }
        return out;
      };
      Module['emheap'] = api;
      if (typeof globalThis !== 'undefined') globalThis['emheap'] = api;
      EMHEAP.installLeakReport();
      EMHEAP.watchThreadStarts();
      EMHEAP.installContexts();
    },

    contexts: null, // {info, translate, ...} when the module was rewritten (jslib/contexts.js)
    contextsWhyNot: '', // why exact mode has no contexts although the user did not turn them off

    // Exact mode names sites by calling contexts (jslib/wasm_instrument.js):
    // the module is rewritten before it is compiled, through Emscripten's
    // Module.instantiateWasm hook. Not when the app has a hook of its own
    // (its bytes are its business: exact mode then takes a JS stack per
    // allocation), nor in the other modes, which do not use contexts. A
    // pthread's worker instantiates the module the main thread compiled:
    // it only learns the offsets and hands out the table's entries.
    installContexts: function () {
      var pthread = typeof ENVIRONMENT_IS_PTHREAD !== 'undefined' && ENVIRONMENT_IS_PTHREAD;
      var theirs = Module['instantiateWasm'];
      if (pthread) {
        Module['instantiateWasm'] = function (imports, receiveInstance) {
          var module = Module['wasmModule'] || (typeof wasmModule !== 'undefined' ? wasmModule : null);
          var take = function (instance, mod) {
            try {
              var contexts = emheapModules.contexts.contextsOf(mod || module);
              if (contexts) {
                emheapModules.contexts.useTableEntries(instance, contexts);
                EMHEAP.contexts = contexts;
              }
            } catch (e) {
              // the thread runs without contexts: its allocations take JS stacks
            }
            return receiveInstance(instance, mod);
          };
          // Emscripten 3.1.x's worker.js instantiates through this hook;
          // 4.x instantiates the module the main thread posted (wasmModule)
          // itself unless the hook is set, as it is now.
          if (typeof theirs === 'function') return theirs(imports, take);
          return take(new WebAssembly.Instance(module, imports), module);
        };
        return;
      }
      // The mode must be known now: the page or environment, else the link
      // line (emheap-config --mode=X leaves it in a --pre-js), else exact,
      // the default. The other modes keep Emscripten's own (streaming)
      // instantiation.
      var mode = EMHEAP.chosenMode() || 'exact';
      if (mode !== 'exact' || !EMHEAP.config().contexts) return;
      if (typeof theirs === 'function') {
        EMHEAP.contextsWhyNot = 'the app instantiates the module itself (Module.instantiateWasm)';
        return;
      }
      // The checking mode says its verdict when a node program exits (a
      // page asks emheap.contexts()).
      if (EMHEAP.config().contexts === 'verify' && EMHEAP.isNode()) {
        process.on('exit', function () {
          var c = Module['emheap'].contexts();
          if (c.verify) {
            console.error('emheap: contexts checked against JS stacks: ' + c.checked + ' allocations, ' +
              c.mismatches + ' named another site');
          }
        });
      }
      Module['instantiateWasm'] = function (imports, receiveInstance) {
        var bytes = null;
        EMHEAP.moduleBytes().then(function (b) {
          bytes = b;
          return emheapModules.contexts.instantiateRewritten(bytes, imports).then(function (r) {
            EMHEAP.contexts = r.contexts;
            return r;
          }, function (e) {
            EMHEAP.contextsWhyNot = 'the module could not be rewritten for them: ' + (e && e.message || e);
            return WebAssembly.instantiate(bytes, imports);
          });
        }).then(function (r) {
          receiveInstance(r.instance, r.module);
        }, function (e) {
          abort('emheap: cannot load the module: ' + (e && e.message || e));
        });
        return {};
      };
    },

    // The mode the user chose (the page, the environment, the link line's
    // --pre-js), or undefined: the default.
    chosenMode: function () {
      return EMHEAP.config().mode || Module['emheapLinkMode'];
    },

    // The default mode is exact when calling contexts make it cheap; where
    // the module could not be rewritten for them, sampled, said once. (A
    // mode the user chose is kept: exact then takes a JS stack per
    // allocation, and emheap_js_contexts_ready says so.) -> the mode to write.
    defaultModeFallback: function (mode) {
      if (EMHEAP.chosenMode() || mode.mode !== 'exact' || EMHEAP.contexts) return null;
      if (EMHEAP.config().contexts) {
        console.warn('emheap: sampled mode (one stack per ' + mode.interval + ' bytes on average): exact ' +
          'stacks need the module rewritten as it loads, which did not happen here (' + (EMHEAP.contextsWhyNot ||
          'the module was loaded before emheap could take part') + '); EMHEAP_MODE=exact (?emheap=exact) records every ' +
          'allocation anyway, with a JS stack each, many times slower');
      }
      return 'sampled';
    },

    // The module's bytes, as Emscripten would load them: Module.wasmBinary,
    // inline bytes (-sSINGLE_FILE), the file (node) or the URL (a page).
    // (Emscripten keeps Module.wasmBinary in a variable of that name, and
    // with ASSERTIONS aborts on a later read of the Module property.)
    moduleBytes: function () {
      var given = typeof wasmBinary !== 'undefined' ? wasmBinary : undefined;
      if (given) return Promise.resolve(new Uint8Array(given.buffer || given, given.byteOffset || 0, given.byteLength));
      var source = EMHEAP.wasmSource();
      if (typeof source === 'string') source = EMHEAP.inlineBytes(source) || source;
      if (typeof source !== 'string') return Promise.resolve(source);
      if (!source) return Promise.reject(new Error('where the module is is not known'));
      if (EMHEAP.isNode() && !/^https?:/.test(source)) {
        var file = source.indexOf('file://') === 0 ? require('url').fileURLToPath(source) : source;
        return Promise.resolve(new Uint8Array(require('fs').readFileSync(file)));
      }
      return fetch(source, {credentials: 'same-origin'}).then(function (response) {
        if (!response.ok) throw new Error('cannot fetch ' + source + ': ' + response.status);
        return response.arrayBuffer();
      }).then(function (buffer) { return new Uint8Array(buffer); });
    },

    // On a pthread's worker: before each thread's entry point, the runtime
    // watches the thread's exit (runtime/thread_exit.c), so that what
    // Emscripten 3.1.x frees there behind emheap's back (the thread's TSD
    // array) leaves emheap's books, also for a thread that never allocates.
    // worker.js calls Module['invokeEntryPoint'] for every thread it runs.
    watchThreadStarts: function () {
      if (typeof ENVIRONMENT_IS_PTHREAD === 'undefined' || !ENVIRONMENT_IS_PTHREAD) return;
      var original = Module['invokeEntryPoint'];
      if (typeof original !== 'function') return;
      Module['invokeEntryPoint'] = function (ptr, arg) {
        try {
          if (typeof _emheap_thread_starts === 'function') _emheap_thread_starts();
        } catch (e) {
          // never stand in the way of the app's thread
        }
        return original(ptr, arg);
      };
    },

    table: function () {
      if (!EMHEAP.stacks) {
        EMHEAP.stacks = new emheapModules.stackTable.StackTable(EMHEAP.moduleName(), EMHEAP.config().stackDepth);
        EMHEAP.stacks.contexts = EMHEAP.contexts;
      }
      return EMHEAP.stacks;
    },

    // Where the module's bytes are: a URL or file name (a data: URL with
    // 3.1.x's -sSINGLE_FILE), the bytes themselves (a Uint8Array: 4.x's
    // SINGLE_FILE), or '' when unknown. Emscripten 3.1.x sets
    // wasmBinaryFile when the JS loads, on every thread; 4.x sets it lazily
    // from findWasmBinary(), and not at all on pthread workers.
    wasmSource: function () {
      var src = typeof wasmBinaryFile !== 'undefined' ? wasmBinaryFile : undefined;
      if ((src === undefined || src === null) && typeof findWasmBinary === 'function') {
        try {
          src = findWasmBinary();
        } catch (e) {
          src = undefined;
        }
      }
      if (typeof src === 'string') return src;
      if (src && ArrayBuffer.isView(src)) return new Uint8Array(src.buffer, src.byteOffset, src.byteLength);
      if (src instanceof ArrayBuffer) return new Uint8Array(src);
      return '';
    },

    // A base64 data: URL's bytes, or null for any other URL.
    inlineBytes: function (url) {
      if (!/^data:[^,]*;base64,/.test(url)) return null;
      var b64 = url.slice(url.indexOf(',') + 1);
      if (typeof Buffer === 'function') return new Uint8Array(Buffer.from(b64, 'base64'));
      if (typeof atob !== 'function') return null;
      var bin = atob(b64);
      var out = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
      return out;
    },

    // Name shown for frames whose stack line has no file (wasm://wasm/hash).
    moduleName: function () {
      var file = EMHEAP.wasmSource();
      if (typeof file !== 'string' || !file || file.indexOf('data:') === 0) return 'wasm';
      file = file.split(/[?#]/)[0];
      return file.slice(file.lastIndexOf('/') + 1);
    },

    buffer: function () {
      if (typeof wasmMemory !== 'undefined' && wasmMemory) return wasmMemory.buffer;
      return HEAPU8.buffer;
    },

    isNode: function () {
      return typeof process === 'object' && !!(process.versions && process.versions.node) &&
        typeof require === 'function';
    },

    // Runs fn once the debug info is in (or known to be absent): at once
    // when it is, else when loadDebugInfo finishes.
    whenDebugInfo: function (fn) {
      EMHEAP.loadDebugInfo();
      if (EMHEAP.debugInfoState === 2) fn();
      else EMHEAP.debugInfoWaiters.push(fn);
    },

    // The module's names and source lines (symbolize/debug_info.js): read at
    // once under node; in a page fetched in the background from attach time
    // on (the browser's cache serves the .wasm again), so the lines are
    // usually there by the first snapshot.
    loadDebugInfo: function () {
      if (EMHEAP.debugInfoState) return;
      EMHEAP.debugInfoState = 1;
      var debugInfo = emheapModules.debugInfo;
      var done = function (found) {
        EMHEAP.functionNames = found.functionNames;
        EMHEAP.sourceLines = found.sourceLines;
        EMHEAP.debugInfoState = 2;
        EMHEAP.debugInfoWaiters.splice(0).forEach(function (resolve) { resolve(); });
      };
      var none = {functionNames: null, sourceLines: null};
      var source = EMHEAP.wasmSource();
      if (typeof source === 'string') source = EMHEAP.inlineBytes(source) || source;
      if (typeof source !== 'string') return done(debugInfo.fromBytes(source, EMHEAP.warn));
      if (!source) return done(none);
      if (EMHEAP.isNode()) {
        var file = source.indexOf('file://') === 0 ? new URL(source).pathname : source;
        return done(debugInfo.fromFile(file, {fs: require('fs'), path: require('path'), argv: process.argv, warn: EMHEAP.warn}));
      }
      if (typeof fetch !== 'function') return done(none);
      var base;
      try {
        base = new URL(source, typeof location !== 'undefined' ? location.href : undefined).href;
      } catch (e) {
        return done(none);
      }
      debugInfo.fromUrl(base, {fetch: function (url) { return fetch(url); }, warn: EMHEAP.warn}).then(done);
    },

    info: function () {
      var source = '';
      if (typeof location !== 'undefined') source = String(location.href);
      else if (typeof process !== 'undefined' && process.argv) source = String(process.argv[1] || '');
      EMHEAP.loadDebugInfo();
      return {
        source: source,
        preRunDone: typeof runtimeInitialized !== 'undefined' ? !!runtimeInitialized : true,
        sourceLines: EMHEAP.sourceLines,
        functionName: EMHEAP.functionName,
        // a snapshot taken on a pthread (EM_ASM under -sPROXY_TO_PTHREAD)
        // cannot read the main thread's JS stack table
        onWorker: typeof ENVIRONMENT_IS_PTHREAD !== 'undefined' && !!ENVIRONMENT_IS_PTHREAD,
      };
    },

    // The name section's (or symbol map's) name of a wasm function, or null.
    functionName: function (funcIndex) {
      var names = EMHEAP.functionNames;
      return names && names[funcIndex] ? names[funcIndex] : null;
    },

    setPaused: function (paused) {
      if (!EMHEAP.stateAddress()) EMHEAP.pendingPause = paused;
      else emheapModules.layout.setPaused(new DataView(EMHEAP.buffer()), EMHEAP.state, paused);
    },

    // Settings, each read once (jslib/config.js says where from and which
    // wins): {mode, samplingInterval, stackDepth, seed, contexts}.
    config: function () {
      if (!EMHEAP.configCache) {
        EMHEAP.configCache = emheapModules.config.readConfig(EMHEAP.options(), EMHEAP.urlOrEnvironment(),
          EMHEAP.warn, EMHEAP.randomSeed);
      }
      return EMHEAP.configCache;
    },

    // The program's allocation layer (model/wrappers.js).
    wrapperListCache: null,

    wrapperList: function () {
      if (!EMHEAP.wrapperListCache) {
        EMHEAP.wrapperListCache = emheapModules.config.readWrapperList(Module['emheapLinkWrappers'], EMHEAP.options(),
          EMHEAP.urlOrEnvironment(), EMHEAP.warn);
      }
      return EMHEAP.wrapperListCache;
    },

    // The page URL's parameters, or under node the environment.
    urlOrEnvironment: function () {
      return emheapModules.config.outsideSettings(typeof location !== 'undefined' ? location.search : '',
        EMHEAP.isNode() ? process.env : null);
    },

    // Module.emheapOptions, read once.
    optionsCache: null,

    options: function () {
      if (!EMHEAP.optionsCache) {
        var given;
        try {
          given = Module['emheapOptions'];
        } catch (e) {
          EMHEAP.warn('emheap: ignoring Module.emheapOptions: ' + (e && e.message || e));
        }
        EMHEAP.optionsCache = emheapModules.config.readOptions(given, EMHEAP.warn);
      }
      return EMHEAP.optionsCache;
    },

    warn: function (message) {
      console.warn(message);
    },

    // Where emheap's own messages go: the console in a page; under node,
    // stderr, never the program's stdout (which may be its output).
    consoleCache: null,

    console: function () {
      if (!EMHEAP.consoleCache) {
        EMHEAP.consoleCache = EMHEAP.isNode() && typeof require === 'function'
          ? new (require('console').Console)({stdout: process.stderr, stderr: process.stderr}) : console;
      }
      return EMHEAP.consoleCache;
    },

    randomSeed: function () {
      var words = new Uint32Array(2);
      try {
        if (typeof crypto !== 'undefined' && crypto.getRandomValues) crypto.getRandomValues(words);
        else throw 0;
      } catch (e) {
        words[0] = Math.random() * 4294967296;
        words[1] = Math.random() * 4294967296;
      }
      return (words[1] & 0x1FFFFF) * 4294967296 + words[0] + 1;
    },

    // When the program exits. Emscripten runs addOnExit (__ATEXIT__)
    // callbacks only in builds linked with -sEXIT_RUNTIME=1, after atexit
    // handlers and static destructors and while memory is still readable;
    // Module.onExit comes later and is the app's to set. A build without
    // EXIT_RUNTIME never exits its runtime (main returning leaves it alive for
    // callbacks), so in a page there is no report; under node the process
    // 'exit' event still comes, and the report is made there, with a note
    // that atexit handlers did not run. The exit status can only be set under
    // node: process.exit(status) emits 'exit' and then exits with
    // process.exitCode, which a listener may change.
    installLeakReport: function () {
      var config = emheapModules.config.readLeakConfig(EMHEAP.options(), EMHEAP.isNode() ? process.env : null, EMHEAP.warn);
      if (!config) return;
      var report = function (runtimeExited) {
        if (EMHEAP.leakReportDone) return;
        EMHEAP.leakReportDone = true;
        var result;
        try {
          // exact modes: with the heap graph, which tells leaks from blocks
          // still reachable (the same report without it if the scan fails)
          var snapshot;
          try {
            snapshot = EMHEAP.isExact() ? EMHEAP.snapshot({heap: true}) : null;
          } catch (e) {
            snapshot = null;
          }
          result = emheapModules.leakReport.leakReport(snapshot || EMHEAP.snapshot());
        } catch (e) {
          console.error('emheap: no leak report: ' + (e && e.message || e));
          return false;
        }
        var text = result.text;
        if (config.exitOn !== 'live' && config.exitCode && result.leaked && !result.classes) {
          text += 'emheap: leakExitOn "' + config.exitOn + '" needs the heap graph (exact mode): every live block counts\n';
        }
        if (!runtimeExited && result.leaked) {
          text += 'emheap: the runtime did not exit (link with -sEXIT_RUNTIME=1): atexit handlers and static destructors did not run, and what they free is counted above\n';
        }
        var print = typeof err === 'function' ? err : console.warn.bind(console);
        if (config.file && EMHEAP.isNode()) {
          try {
            require('fs').writeFileSync(config.file, text);
            print('emheap: leak report written to ' + config.file + (result.leaked ? ' (' + result.liveBytes + ' bytes still live)' : ' (no leaks)'));
          } catch (e) {
            print('emheap: cannot write ' + config.file + ': ' + (e && e.message || e));
            print(text.replace(/\n$/, ''));
          }
        } else {
          print(text.replace(/\n$/, ''));
        }
        return emheapModules.leakReport.failsOn(result, config.exitOn);
      };
      // A program that already fails keeps its own status.
      var setStatus = function (status) {
        if (!status && config.exitCode && EMHEAP.isNode()) process.exitCode = config.exitCode;
      };
      var atExit = function () {
        if (report(true) && EMHEAP.isNode()) process.on('exit', setStatus);
      };
      if (typeof addOnExit === 'function') addOnExit(atExit);
      else if (typeof __ATEXIT__ !== 'undefined') __ATEXIT__.unshift(atExit);
      if (EMHEAP.isNode()) {
        process.on('exit', function (status) {
          if (!EMHEAP.leakReportDone && report(false)) setStatus(status);
        });
      }
    },

    // Emscripten <= 3.1.13 frees a finished thread's struct and stack with
    // its builtin allocator after taking them from malloc: its JS calls
    // _emscripten_thread_free_data first, and runtime/thread_exit.c takes
    // them out of emheap's books just before.
    watchThreadDataFrees: function () {
      if (typeof __emscripten_thread_free_data !== 'function') return;
      var original = __emscripten_thread_free_data;
      var wrapper = function (thread) {
        try {
          _emheap_thread_data_freed(thread);
        } catch (e) {
          // never stand in the way of Emscripten's own cleanup
        }
        var result = original.apply(this, arguments);
        // Emscripten's lazy export stub replaces itself on its first call.
        __emscripten_thread_free_data = wrapper;
        return result;
      };
      __emscripten_thread_free_data = wrapper;
    },

    // The state's address: known once the runtime has attached (on the
    // thread that initialized it); a pthread's realm asks the runtime.
    stateAddress: function () {
      if (!EMHEAP.state && typeof ENVIRONMENT_IS_PTHREAD !== 'undefined' && ENVIRONMENT_IS_PTHREAD &&
          typeof _emheap_state_address === 'function') {
        EMHEAP.state = _emheap_state_address();
      }
      return EMHEAP.state;
    },

    snapshot: function (options) {
      return emheapModules.steps.runSteps(EMHEAP.snapshotSteps(null, options));
    },

    jsRoots: null, // pointer -> times added (emheap.addRoot); a Map made by install()

    // {heap} from what a caller passed, checked: a bad option is an Error
    // with a clear message, not a silent default.
    snapshotOptions: function (options) {
      if (options === undefined || options === null) return {};
      if (typeof options !== 'object') throw new Error('emheap.snapshot(options): options must be an object such as {heap: true}');
      return {heap: !!options['heap']};
    },

    // The runtime's mode now: 'exact', 'sampled', 'off'
    // (no state: 'off').
    modeNow: function () {
      var state = EMHEAP.stateAddress();
      return state ? emheapModules.layout.readMode(new DataView(EMHEAP.buffer()), state).mode : 'off';
    },

    // Throws unless every block is recorded now (what the heap graph needs).
    needExact: function () {
      if (!EMHEAP.isExact()) {
        throw new Error('emheap: the heap graph needs every block recorded: take the profile in exact mode ' +
          '(?emheap=exact, EMHEAP_MODE=exact or emheap-config --mode=exact); this one is ' + EMHEAP.modeNow());
      }
    },

    isExact: function () {
      return /^exact/.test(EMHEAP.modeNow());
    },

    // The heap graph now (jslib/heap_scan.js), for a snapshot taken at the
    // same moment. Exact modes only: sampled mode records one block in many.
    // The blocks, roots and the memory they cover are read at the call; the
    // generator returned builds the graph from that copy, in steps.
    scanHeapSteps: function (copyArea) {
      EMHEAP.needExact();
      var state = EMHEAP.stateAddress();
      var roots = _emheap_roots_now();
      var ptrs = [];
      EMHEAP.jsRoots.forEach(function (n, ptr) { ptrs.push(ptr); });
      return emheapModules.heapScan.scanHeapSteps(EMHEAP.buffer(), state, roots, ptrs, EMHEAP.pthreads(), copyArea);
    },

    // The running threads as Emscripten's pthread library knows them
    // (PThread.pthreads, kept on the page's main thread: 3.1.x and 4.x
    // alike): each one's struct pthread and C stack [lo, hi], and the
    // struct's size. roots.c learns of a thread only at its first recorded
    // block; a thread that allocates nothing can still hold the last
    // pointer to a block on its stack, and every thread's struct holds its
    // mailbox (jslib/heap_scan.js). None without threads.
    pthreads: function () {
      var out = {structSize: {{{ C_STRUCTS.pthread.__size__ }}}, threads: []};
      if (typeof PThread === 'undefined' || !PThread.pthreads) return out;
      var view = new DataView(EMHEAP.buffer());
      Object.keys(PThread.pthreads).forEach(function (key) {
        var ptr = Number(key) >>> 0;
        if (!ptr || ptr + out.structSize > view.byteLength) return;
        // musl keeps the stack's top (its highest address) in `stack`
        var top = view.getUint32(ptr + {{{ C_STRUCTS.pthread.stack }}}, true);
        var size = view.getUint32(ptr + {{{ C_STRUCTS.pthread.stack_size }}}, true);
        out.threads.push({pthread: ptr, stack: top && size && size <= top ? [top - size, top] : null});
      });
      return out;
    },

    // The whole snapshot as steps (jslib/snapshot.js snapshotSteps, then
    // what every snapshot gets once its sites are read: the program's
    // allocation layer left out (model/wrappers.js) and the timeline). The
    // first yield gives the snapshot being built, the heap read.
    snapshotSteps: function* (copyArea, options) {
      var timeline = null;
      if (EMHEAP.timeline) {
        EMHEAP.sampleTimeline(); // the last point is the snapshot's own totals
        timeline = EMHEAP.timeline.points();
      }
      // the heap graph first, in the same task as the tables' copy: the
      // same moment for a program without threads (one synchronous scan; a
      // page's slices come after). With threads, blocks and roots are read
      // under one lock and the site tables under the next: a block made in
      // between is in the sites' totals and not in the graph.
      var heapSteps = options && options.heap ? EMHEAP.scanHeapSteps(copyArea) : null;
      var snapshot = yield* emheapModules.snapshot.snapshotSteps(EMHEAP.buffer(), EMHEAP.stateAddress(), EMHEAP.table(),
        EMHEAP.info(), copyArea, heapSteps);
      var asRead = snapshot;
      try {
        snapshot = yield* emheapModules.wrappers.removeAllocationLayerSteps(snapshot, EMHEAP.wrapperList());
      } catch (e) {
        console.warn('emheap: allocation layer not removed: ' + (e && e.message || e));
      }
      // per-site heap totals (a pass over every block): a snapshot whose
      // layer was removed got them for its merged sites already
      if (snapshot.heap && snapshot === asRead) yield* emheapModules.heapSection.addSiteTotalsSteps(snapshot);
      if (timeline) snapshot['timeline'] = timeline;
      return snapshot;
    },

    // The same snapshot built a slice at a time (SLICE_MS of work per task),
    // as a Promise. First the memory the tables are copied into is touched
    // (layout.copyArea: at 1M sites new memory costs a quarter of a second
    // on first write), then the tables are copied under the lock (the
    // moment of the snapshot, a few ms), then the sites are made, sorted
    // and named while the page runs on. At 1M sites snapshot() blocks the
    // page for about 2 s; this never for long.
    snapshotInSlices: function (options) {
      var state = EMHEAP.stateAddress();
      var area = state ? emheapModules.layout.copyArea(new DataView(EMHEAP.buffer()), state, !!(options && options.heap)) : null;
      return EMHEAP.runInSlices((function* () {
        if (area) yield* area.touchSteps();
        return yield* EMHEAP.snapshotSteps(area, options);
      })());
    },

    // Runs a generator of steps SLICE_MS at a time, one slice per task
    // (model/steps.js); a Promise of what it returns.
    runInSlices: function (steps) {
      return emheapModules.steps.runInSlices(steps, EMHEAP.SLICE_MS, EMHEAP.nextTask);
    },

    // Runs fn in a task of its own, soon: a timer, so that the page's own
    // timers take turns with the slices. A MessageChannel message is not
    // held 4 ms as a timer nested five deep is, but measured in headless
    // Chromium 156 (100k sites, Ctrl+Shift+H), a chain of them starved a
    // 10 ms interval timer for 182-212 ms where timers gave 95-126 ms, for
    // no faster export.
    nextTask: function (fn) {
      setTimeout(fn, 0);
    },

    // Live bytes and blocks over time: a timer reads the two global counters
    // every 100 ms into a ring of the last 3000 points (5 minutes), so the
    // cost is per tick, never per allocation. t is milliseconds since the
    // first point. Off with Module.emheapOptions = {timeline: false}. Under
    // node the timer is unref()ed: it never keeps a finished program alive.
    TIMELINE_POINTS: 3000,
    TIMELINE_MS: 100,
    timeline: null,

    startTimeline: function () {
      if (EMHEAP.timeline || EMHEAP.options().timeline === false || typeof setInterval !== 'function') return;
      EMHEAP.timeline = emheapModules.timeline.createTimeline(EMHEAP.TIMELINE_POINTS, EMHEAP.now());
      EMHEAP.sampleTimeline();
      var timer = setInterval(EMHEAP.sampleTimeline, EMHEAP.TIMELINE_MS);
      if (timer && typeof timer.unref === 'function') timer.unref();
    },

    now: function () {
      return typeof performance !== 'undefined' && performance.now ? performance.now() : Date.now();
    },

    sampleTimeline: function () {
      var tl = EMHEAP.timeline;
      if (!tl || !EMHEAP.state) return;
      try {
        var layout = emheapModules.layout;
        var buffer = EMHEAP.buffer();
        // under the lock: a thread's fold of its counts is never seen half done
        var c = layout.withLock(buffer, EMHEAP.state, function () {
          return layout.readCounters(new DataView(buffer), EMHEAP.state);
        });
        tl.add(EMHEAP.now(), c.liveBytes, c.liveBlocks);
      } catch (e) {
        // memory gone (the runtime exited or aborted): keep what we have
      }
    },

    getSnapshotJson: function () {
      var summary = emheapModules.snapshot.readSummary(EMHEAP.buffer(), EMHEAP.stateAddress(), EMHEAP.info());
      summary['capturedAt'] = new Date().toISOString();
      var mode = EMHEAP.state ? emheapModules.layout.readMode(new DataView(EMHEAP.buffer()), EMHEAP.state) : null;
      summary['mode'] = mode ? mode.mode : 'sampled';
      if (mode) summary['allocator'] = mode.allocator;
      summary['samplingInterval'] = mode ? mode.samplingInterval : 0;
      return JSON.stringify(summary);
    },

    // Builds the file and saves it: a Blob download in a page, a file in the
    // working directory under node. `snapshot` (optional) is a snapshot or
    // a file emheap wrote, saved in place of the heap as it is now. Returns
    // the file name, or null after printing why to the console (unknown
    // format, unreadable state). The heap is read now; if the module's
    // debug info (function names, source map) is still loading, as in the
    // first tens of ms after startup, the file is built and saved when it
    // arrives, so that its frames have names and lines however early the
    // key was pressed. In a page the snapshot and then the file are built in
    // slices (SLICE_MS of work per task) and saved when done: a 1M-site
    // export never blocks the page for seconds.
    downloadSnapshot: function (format, snapshot) {
      var entry;
      var given = snapshot !== undefined;
      var building = null;
      var mode;
      try {
        entry = emheapModules.formats.formatByName(format === undefined ? 'speedscope' : format);
        if (given) snapshot = EMHEAP.asSnapshot(snapshot, 'snapshot');
        // (no state yet: nothing allocated, an empty snapshot is right)
        mode = given ? snapshot.mode : EMHEAP.stateAddress() ? EMHEAP.modeNow() : null;
        if (mode === 'off') {
          console.warn('emheap: profiling is off (?emheap=off, EMHEAP_MODE=off or emheapOptions.mode): nothing to save; ' +
            'reload with ?emheap=sampled or ?emheap=exact');
          return null;
        }
        // A page reads the heap in a moment and builds the snapshot in
        // slices; node (no page to keep responsive) builds it at once.
        // a format that needs the heap graph gets a snapshot with it
        var options = entry.heap ? {heap: true} : {};
        if (entry.heap && !given) EMHEAP.needExact(); // before any slice of work
        if (given) {
          // saved as it is
        } else if (EMHEAP.inPage()) building = EMHEAP.snapshotInSlices(options);
        else snapshot = EMHEAP.snapshot(options);
      } catch (e) {
        return EMHEAP.reportError(e);
      }
      // The name says when the key was pressed (a page's snapshot is taken
      // a moment later, once its copy area is ready).
      var capturedAt = snapshot ? snapshot.capturedAt : new Date().toISOString();
      var name = 'memory-profile-' + String(capturedAt).replace(/:/g, '-') + (snapshot && snapshot.view === 'peak' ? '-peak' : '') +
        entry.suffix;
      // Frames named before the debug info arrived get their names and lines
      // once it is in (completeFrames leaves complete frames as they are).
      var save = function (snap) {
        if (!given && EMHEAP.debugInfoState !== 2) {
          EMHEAP.whenDebugInfo(function () {
            emheapModules.snapshot.completeFrames(snap, EMHEAP.info());
            EMHEAP.saveSnapshot(name, entry, snap);
          });
          return name;
        }
        if (!given) emheapModules.snapshot.completeFrames(snap, EMHEAP.info());
        return EMHEAP.saveSnapshot(name, entry, snap);
      };
      if (!building) return save(snapshot);
      building.then(save).catch(EMHEAP.reportError);
      return name;
    },

    // A heap dump (formats/heap_dump.js): the snapshot with its heap graph
    // and the memory the scan read, copied now, saved as
    // memory-dump-<time>.emheapdump.gz for `emheap analyze` and friends.
    // Exact modes. Returns the file name, or null (the console says why).
    dumpHeap: function () {
      var dump;
      try {
        EMHEAP.needExact();
        var snapshot = EMHEAP.snapshot({heap: true});
        // its heap section keeps the copy of the memory the scan read
        dump = emheapModules.heapDump.makeDump(snapshot);
        emheapModules.snapshot.completeFrames(dump.header.snapshot, EMHEAP.info());
      } catch (e) {
        return EMHEAP.reportError(e);
      }
      var name = 'memory-dump-' + String(dump.header.snapshot.capturedAt).replace(/:/g, '-') +
        emheapModules.heapDump.DUMP_FILE.suffix;
      return EMHEAP.saveSnapshot(name, emheapModules.heapDump.DUMP_FILE, dump);
    },

    saveSnapshot: function (name, entry, snapshot) {
      if (!EMHEAP.inPage()) {
        if (!EMHEAP.isNode()) return EMHEAP.reportError(new Error('cannot save a file here: no document (a worker?) and not node'));
        var fs = require('fs');
        var zlib = require('zlib');
        return EMHEAP.writeNewFile(name, function (fd) {
          emheapModules.nodeOutput.writeFormat(fs, zlib, fd, entry, snapshot);
        });
      }
      // Built a slice at a time into the page's file (output/page_output.js),
      // then saved.
      var pageOutput = emheapModules.pageOutput;
      var out = pageOutput.pageFile(typeof navigator !== 'undefined' ? navigator.storage : null,
        function (text) { console.warn(text); });
      pageOutput.writeInSlices(entry.chunks(snapshot), out, entry.mime, EMHEAP.SLICE_MS, EMHEAP.nextTask)
        .then(save).catch(EMHEAP.reportError);
      function save(blob) {
        if (!entry.gzip) return EMHEAP.saveBlob(name, blob);
        if (typeof CompressionStream === 'function') {
          return new Response(blob.stream().pipeThrough(new CompressionStream('gzip'))).blob().then(function (gz) {
            if (blob.release) blob.release();
            EMHEAP.saveBlob(name, new Blob([gz], {type: entry.mime}));
          });
        }
        // no CompressionStream (Firefox < 113, Safari < 16.4): pprof reads
        // an uncompressed profile as well, so save that, named for it
        return EMHEAP.saveBlob(name.replace(/\.gz$/, ''), blob);
      }
      return name;
    },

    // Longest piece of work a page download does per task (ms).
    SLICE_MS: 30,

    inPage: function () {
      return typeof document !== 'undefined' && typeof Blob !== 'undefined';
    },

    reportError: function (e) {
      console.error('emheap: ' + String(e && e.message || e).replace(/^emheap: /, ''));
      return null;
    },

    // A snapshot, or the text or parsed JSON of a file emheap wrote -> the
    // snapshot; what `emheap diff` would refuse, refused with its words
    // (model/snapshot_file.js).
    asSnapshot: function (x, which) {
      if (typeof x === 'string') {
        try {
          x = JSON.parse(x);
        } catch (e) {
          throw new Error(which + ' is not JSON (' + (e && e.message || e) + '): pass emheap.snapshot() or a file emheap wrote');
        }
      }
      try {
        return emheapModules.snapshotFile.unwrapSnapshot(x).snapshot;
      } catch (e) {
        throw new Error(which + ': ' + (e && e.message || e));
      }
    },

    // emheap.diff(before, after = now): the comparison `emheap diff` prints
    // (model/diff.js, the same code), printed with console.table and returned
    // as {rows (largest size delta first), sum, totals, notes}.
    diff: function (before, after) {
      var d = emheapModules.diff;
      var result;
      try {
        before = EMHEAP.asSnapshot(before, 'before');
        after = after === undefined ? EMHEAP.snapshot() : EMHEAP.asSnapshot(after, 'after');
        result = d.diffSnapshots(before, after);
      } catch (e) {
        return EMHEAP.reportError(e);
      }
      result.rows = d.sortDiffRows(result.rows, 'bytes');
      var t = result.totals;
      var log = EMHEAP.console();
      log.log('emheap diff: live bytes ' + t.liveBytes.before + ' -> ' + t.liveBytes.after +
        ' (' + (t.liveBytes.delta >= 0 ? '+' : '') + t.liveBytes.delta + '), live blocks ' + t.liveBlocks.before +
        ' -> ' + t.liveBlocks.after + ', ' + result.rows.length + ' changed sites');
      if (result.rows.length && typeof log.table === 'function') {
        log.table(result.rows.map(function (r) {
          return {'site': r.label + (r.status === 'both' ? '' : ' (' + r.status + ')'),
            '# New': r.newAllocs, '# Deleted': r.freedBlocks, '# Delta': r.countDelta,
            'Alloc. Size': r.allocBytes, 'Freed Size': r.freedBytes, 'Size Delta': r.sizeDelta,
            'stack (leaf first)': d.stackText(r.stack)};
        }));
      }
      result.notes.forEach(function (n) { log.log('emheap diff: note: ' + n); });
      return result;
    },

    // Saves the diff as `emheap diff --json` prints it (sites by size delta).
    downloadDiff: function (before, after) {
      if (after === undefined) after = EMHEAP.snapshot();
      var result = EMHEAP.diff(before, after);
      if (!result) return null;
      before = EMHEAP.asSnapshot(before, 'before');
      after = EMHEAP.asSnapshot(after, 'after');
      var body = emheapModules.diff.diffReport(before, after, {sort: 'bytes', diff: result});
      return EMHEAP.saveFile('memory-diff-' + after.capturedAt.replace(/:/g, '-') + '.json',
        JSON.stringify(body, null, 2), 'application/json');
    },

    // Saves a small file made at once (the diff): a download in a page, a
    // new file under node.
    saveFile: function (name, text, mime) {
      if (EMHEAP.inPage()) return EMHEAP.saveBlob(name, new Blob([text], {type: mime || 'application/octet-stream'}));
      return EMHEAP.writeNewFile(name, function (fd) {
        emheapModules.nodeOutput.writeAll(require('fs'), fd, text);
      });
    },

    // A download in a page, a new file under node (output/save_file.js).
    saveBlob: function (name, blob) {
      return emheapModules.saveFile.saveBlob({document: document, URL: URL,
        setTimeout: function (fn, ms) { return setTimeout(fn, ms); }, // (a bare setTimeout needs `this` = window)
        log: function (m) { EMHEAP.console().log(m); }}, name, blob);
    },
    writeNewFile: function (name, write) {
      return emheapModules.saveFile.writeNewFile({fs: require('fs'), log: function (m) { EMHEAP.console().log(m); },
        error: function (m) { console.error(m); }}, name, write);
    },
  },

  emheap_js_attach__deps: ['$EMHEAP', 'emheap_cc_lo', 'emheap_cc_hi', 'emheap_cc_js', 'emheap_cc_set_js', 'emheap_thread_data_freed', 'emheap_thread_starts', 'emheap_state_address', 'emheap_roots_now'],
  emheap_js_attach__sig: 'vp',
  emheap_js_attach: function (state) {
    EMHEAP.state = state;
    var view = new DataView(EMHEAP.buffer());
    var off = false;
    try {
      emheapModules.layout.checkState(view, state);
      emheapModules.layout.writeConfig(view, state, EMHEAP.config());
      if (EMHEAP.pendingPause !== undefined) emheapModules.layout.setPaused(view, state, EMHEAP.pendingPause);
      var mode = emheapModules.layout.readMode(view, state);
      var fallback = EMHEAP.defaultModeFallback(mode);
      if (fallback) {
        emheapModules.layout.writeConfig(view, state, {mode: fallback});
        mode = emheapModules.layout.readMode(view, state);
      }
      off = mode.mode === 'off';
      if (mode.threaded) EMHEAP.watchThreadDataFrees();
      var shared = typeof SharedArrayBuffer !== 'undefined' && view.buffer instanceof SharedArrayBuffer;
      if (shared && !mode.threaded && mode.mode !== 'off') {
        console.warn('emheap: this program has threads (-pthread) but the single-threaded emheap runtime is linked: ' +
          'its counts can be wrong when threads allocate at once; link with $(emheap-config --pthread --ldflags)');
      }
    } catch (e) {
      console.error(String(e && e.message || e));
    }
    // Off counts nothing and names no site: no timer, and no second
    // download of the .wasm for its names.
    if (off) return;
    EMHEAP.startTimeline();
    if (!EMHEAP.isNode()) EMHEAP.loadDebugInfo(); // node loads on first snapshot
  },

  // Called on every tracked allocation in exact-JS mode, and once per
  // new calling context (or new activation) with contexts: must never throw
  // into wasm, and returns 0 ("no stack") if anything goes wrong. With
  // root != 0, writes there the JSID of the stack outside the current wasm
  // activation (runtime/context.h).
  emheap_js_capture_stack__deps: ['$EMHEAP'],
  emheap_js_capture_stack__sig: 'ip',
  emheap_js_capture_stack: function (root) {
    try {
      var table = EMHEAP.table();
      var ref = table.capture(_emheap_js_capture_stack, !!root);
      if (root) HEAPU32[root >> 2] = table.lastRoot;
      return ref;
    } catch (e) {
      return 0;
    }
  },

  // The same on a worker thread: the stack as (function, offset) pairs
  // written at `frames` (runtime/stack_capture.c), at most `capacity`
  // words (a longer stack keeps its leaf end behind a (stack truncated)
  // pair: stack_table.js). Returns the words written, 0 on failure.
  emheap_js_capture_frames__deps: ['$EMHEAP'],
  emheap_js_capture_frames__sig: 'ipip',
  emheap_js_capture_frames: function (frames, capacity, root) {
    try {
      var table = EMHEAP.table();
      var pairs = table.capturePairs(capacity, _emheap_js_capture_frames, !!root);
      if (root) HEAPU32[root >> 2] = table.lastRoot;
      if (!pairs) return 0;
      HEAPU32.set(pairs, frames >> 2);
      return pairs.length;
    } catch (e) {
      return 0;
    }
  },

  // Whether this module was rewritten to keep calling contexts
  // (jslib/wasm_instrument.js); the runtime asks once, at startup.
  emheap_js_contexts_ready__deps: ['$EMHEAP'],
  emheap_js_contexts_ready__sig: 'i',
  emheap_js_contexts_ready: function () {
    if (!EMHEAP.contexts) {
      // Exact mode without contexts: a JS stack per allocation, and much
      // slower; said once, unless the user turned contexts off.
      if (EMHEAP.config().contexts) {
        console.warn('emheap: exact mode without calling contexts (' + (EMHEAP.contextsWhyNot ||
          'exact mode was not known when the module loaded: choose it with emheap-config --mode=exact, ' +
          '?emheap=exact, EMHEAP_MODE=exact or Module.emheapOptions') + '): every allocation takes a JS stack, many times slower');
      }
      return 0;
    }
    return EMHEAP.config().contexts === 'verify' ? 2 : 1;
  },

  // The checking mode (runtime/record.c): two references, one stack?
  emheap_js_same_stack__deps: ['$EMHEAP'],
  emheap_js_same_stack__sig: 'iii',
  emheap_js_same_stack: function (a, b) {
    try {
      var table = EMHEAP.table();
      return table.resolve(a) === table.resolve(b) ? 1 : 0;
    } catch (e) {
      return 0;
    }
  },

  // Placeholders for the context globals (runtime/context.h): the rewrite
  // replaces every call of them by a global read or write, so these run
  // only in a module that was not rewritten, where nothing calls them.
  emheap_cc_lo__sig: 'i',
  emheap_cc_lo: function () { return 0; },
  emheap_cc_hi__sig: 'i',
  emheap_cc_hi: function () { return 0; },
  emheap_cc_js__sig: 'i',
  emheap_cc_js: function () { return 0; },
  emheap_cc_set_js__sig: 'vi',
  emheap_cc_set_js: function (jsid) {},
});
