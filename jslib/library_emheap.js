// library_emheap.js -- the emheap --js-library: only what needs
// Emscripten's scope. The JS imports the C runtime calls, the patches of
// Emscripten's own JS that need that scope (a finished thread's freed
// data, abortOnCannotGrowMemory), the offsets of Emscripten's own structs
// (C_STRUCTS), and a small host object of Emscripten's variables handed to
// the plain code that does the rest (jslib/page.js: settings, snapshots,
// the console API, saving files, the leak report, the calling contexts'
// Module.instantiateWasm hook, a pthread's entry point), which node tests
// run with a fake host.
//
// Not used as is: `make` runs jslib/bundle.js, which writes
// build/library_emheap.js (this file after EMHEAP_PAGE_KEY, the name the page
// code goes by), the file that emcc --js-library gets, and
// build/emheap_page.js (jslib/page.js and all it requires, bundled), the
// file that emcc --extern-pre-js gets. The page code is reached through
// quoted names only: Closure (--closure 1) renames the others.
//
// Conventions follow Emscripten's own src/lib/lib*.js: one `$EMHEAP` object
// holding the state, imports that depend on it via __deps, and a __postset
// that runs when the module's JS loads. The only calls into wasm are the
// runtime's readers (emheap_roots_now, emheap_state_address), which
// allocate nothing, so a snapshot can be taken at any moment without
// disturbing the heap it reads.

// addToLibrary is the name since Emscripten 3.1.45; mergeInto, the only one
// in 3.1.6, stays as an alias in current versions.
var emheapAddToLibrary = typeof addToLibrary === 'function' ? addToLibrary
  : function (items) { mergeInto(LibraryManager.library, items); };

// A module for a WASI host (-sSTANDALONE_WASM) has no page and no JS:
// emheap's imports (the JS half of the runtime) would be left for a host
// that has none of them. Refused at link time, naming emheap, rather than
// failing later in the host on an import nobody knows.
if (typeof STANDALONE_WASM !== 'undefined' && STANDALONE_WASM) {
  error('emheap: -sSTANDALONE_WASM is not supported: emheap\'s runtime needs its JS library in the page or node ' +
    '(link without -sSTANDALONE_WASM, or without emheap)');
}

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
  // The page code, which emheap_page.js (--extern-pre-js) put on globalThis
  // under this build's name (jslib/bundle.js); undefined if it is missing.
  $emheapPage: '=globalThis[' + JSON.stringify(EMHEAP_PAGE_KEY) + ']',

  // addOnExit and wasmTable are globals in Emscripten 3.1.x and library
  // symbols, included on request, in later versions (src/lib/libcore.js):
  // asked for where the library has them, so the leak report at exit and
  // symbolization work in both (each use is guarded with typeof).
  $EMHEAP__deps: ['$emheapPage'].concat(['$addOnExit', '$wasmTable', 'emscripten_get_heap_max'].filter(function (name) {
    return Object.prototype.hasOwnProperty.call(LibraryManager.library, name);
  })),
  $EMHEAP__postset: 'EMHEAP.install();',
  $EMHEAP: {
    state: 0,       // address of emheap_state, set by emheap_js_attach
    profiler: null, // jslib/page.js createProfiler's

    // A pointer or size_t argument as an unsigned Number: wasm32 hands
    // them over as signed 32-bit numbers, wasm64 as Numbers up to 2^53
    // (Emscripten converts the BigInts of a 'p' in __sig), which >>> 0
    // would cut.
    unsigned: function (x) { return x < 0 ? x + 4294967296 : x; },
    // wasm64 (-m64, -sMEMORY64): the runtime's exports take and give
    // pointers as BigInts, and Emscripten's structs hold 8-byte pointers.
    wide: !!{{{ MEMORY64 }}},
    pointerArg: function (n) { return EMHEAP.wide ? BigInt(n) : n; },
    pointerResult: function (p) { return Number(p); },
    readPointer: function (view, at) {
      return EMHEAP.wide ? view.getUint32(at, true) + view.getUint32(at + 4, true) * 4294967296 : view.getUint32(at, true);
    },

    install: function () {
      if (!emheapPage || typeof emheapPage['createProfiler'] !== 'function') {
        // emheap's page code (--extern-pre-js emheap_page.js) is not in
        // this program's JS, or is another build's: the runtime counts,
        // nothing reads it, and the program runs as it would.
        var say = typeof err === 'function' ? err : console.warn;
        say('emheap: the page code of this build of emheap is missing from the program\'s JS ' +
          '(link with $(emheap-config --ldflags): it adds --extern-pre-js emheap_page.js): emheap is off');
        return;
      }
      var p = EMHEAP.profiler = emheapPage['createProfiler'](EMHEAP.host(), globalThis);
      Module['emheap'] = p['api'];
      globalThis['emheap'] = p['api'];
      EMHEAP.installContexts();
      EMHEAP.watchSideModules();
    },

    // What the plain modules need of Emscripten's scope (jslib/page.js).
    host: function () {
      var onWorker = typeof ENVIRONMENT_IS_PTHREAD !== 'undefined' && !!ENVIRONMENT_IS_PTHREAD;
      return {
        'Module': Module,
        'onWorker': onWorker,
        // node's require: a module of the ES6 build makes its own
        'require': typeof require === 'function' ? require : null,
        'buffer': EMHEAP.buffer,
        'stateAddress': EMHEAP.stateAddress,
        'rootsNow': function () { return EMHEAP.pointerResult(_emheap_roots_now()); },
        // dlmalloc's mutex, taken (1) and let go (0) around a walk of its
        // chunks in a threaded program with footers (capture/lock.js withLock)
        'holdAllocator': function (hold) { _emheap_hold_allocator(hold); },
        // the peak of live bytes made the live bytes now (a heap check begins)
        'restartPeak': function () { _emheap_restart_peak(); },
        // The runtime's two marker functions (runtime/code_first.c) in each
        // form Emscripten holds exports in: its JS variable (3.1.x: a lazy
        // stub until first called) and the raw exports object (wasmExports
        // from 3.1.4x on; reading Module.asm there aborts with ASSERTIONS).
        'runtimeCodeExports': function () {
          var raw = typeof wasmExports !== 'undefined' ? wasmExports : Module['asm'];
          return {
            'first': [typeof _emheap_code_first === 'function' ? _emheap_code_first : null, raw && raw['emheap_code_first']],
            'last': [typeof _emheap_code_last === 'function' ? _emheap_code_last : null, raw && raw['emheap_code_last']],
          };
        },
        'pthreads': EMHEAP.pthreads,
        // a pthread's entry point is about to run (jslib/thread_starts.js)
        'threadStarts': function () { if (typeof _emheap_thread_starts === 'function') _emheap_thread_starts(); },
        // the module a pthread's worker instantiates (the main thread's)
        'workerModule': function () {
          return Module['wasmModule'] || (typeof wasmModule !== 'undefined' ? wasmModule : null);
        },
        'abort': function (text) { abort(text); },
        // Emscripten keeps Module.wasmBinary in a variable of that name
        // (with ASSERTIONS a later read of the Module property aborts).
        'wasmBinary': function () { return typeof wasmBinary !== 'undefined' ? wasmBinary : undefined; },
        // Emscripten 3.1.x sets wasmBinaryFile when the JS loads, on every
        // thread; 4.x sets it lazily from findWasmBinary(), and not at all
        // on pthread workers.
        'wasmBinaryFile': function () {
          var src = typeof wasmBinaryFile !== 'undefined' ? wasmBinaryFile : undefined;
          if ((src === undefined || src === null) && typeof findWasmBinary === 'function') {
            try {
              src = findWasmBinary();
            } catch (e) {
              src = undefined;
            }
          }
          return src;
        },
        'runtimeInitialized': function () {
          return typeof runtimeInitialized !== 'undefined' ? !!runtimeInitialized : true;
        },
        'addOnExit': function (fn) {
          if (typeof addOnExit === 'function') addOnExit(fn);
          else if (typeof __ATEXIT__ !== 'undefined') __ATEXIT__.unshift(fn);
        },
        'err': function (text) {
          if (typeof err === 'function') err(text);
          else console.warn(text);
        },
        // the most the wasm memory may grow to (0: not known)
        'heapMax': function () {
          return typeof _emscripten_get_heap_max === 'function' ? _emscripten_get_heap_max() : 0;
        },
      };
    },

    // Exact mode's calling contexts need the module rewritten before it is
    // compiled: contexts/loader.js decides and sets Emscripten's
    // Module.instantiateWasm hook.
    installContexts: function () {
      EMHEAP.profiler['contexts']['setHook'](EMHEAP.profiler['sayContextsVerdictAtExit']);
    },

    // A -sMAIN_MODULE program's side modules: Emscripten's loader hands
    // each one's bytes to the page code before it compiles them
    // (contexts/side_modules.js names them, so that stacks tell their
    // frames from the main module's). The loader's functions are variables
    // of this scope (3.1.x: function declarations; later, arrow functions
    // in vars), which the wrappers replace; a -sMAIN_MODULE program has them
    // (it loads the side modules its link line names), others do not (no
    // dependency on them here: Emscripten 6 then asks the main module for
    // __heap_base, which a position-independent link does not define).
    // Emscripten 3.1.x does not hand
    // loadWebAssemblyModule the library's name: the wrapper of
    // loadDynamicLibrary notes it first (libraries load one at a time).
    libraryLoading: '',
    watchSideModules: function () {
      if (typeof loadWebAssemblyModule !== 'function' || EMHEAP.profiler === null) return;
      var loadModule = loadWebAssemblyModule;
      // where the program's symbols are, which a side module's imports
      // are bound to (and the main module's context globals join); set
      // after this runs
      var symbols = function () {
        return typeof wasmImports !== 'undefined' && wasmImports ? wasmImports
          : typeof asmLibraryArg !== 'undefined' && asmLibraryArg ? asmLibraryArg : null;
      };
      var loaded = function (exports) {
        try {
          EMHEAP.profiler['sideModuleLoaded'](exports);
        } catch (e) {
          // its table functions are handed to JS as they are
        }
        return exports;
      };
      loadWebAssemblyModule = function (binary, flags, libName) {
        var args = Array.prototype.slice.call(arguments);
        var file = typeof libName === 'string' ? libName : EMHEAP.libraryLoading;
        try {
          args[0] = EMHEAP.profiler['prepareSideModule'](binary, file, symbols());
        } catch (e) {
          args[0] = binary; // never stand in the way of the program's own loading
        }
        var result = loadModule.apply(this, args);
        return result && typeof result.then === 'function' ? result.then(loaded) : loaded(result);
      };
      // the static data of a side module loading now (a root of the heap graph)
      if (typeof getMemory === 'function') {
        var placeData = getMemory;
        getMemory = function (size) {
          var at = placeData.apply(this, arguments);
          try {
            EMHEAP.profiler['sideModuleData'](Number(at), Number(size));
          } catch (e) {
            // the heap graph then does not scan that module's globals
          }
          return at;
        };
      }
      if (typeof loadDynamicLibrary !== 'function') return;
      var loadLibrary = loadDynamicLibrary;
      loadDynamicLibrary = function (lib) {
        EMHEAP.libraryLoading = typeof lib === 'string' ? lib : '';
        return loadLibrary.apply(this, arguments);
      };
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
          _emheap_thread_data_freed(EMHEAP.pointerArg(thread));
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

    buffer: function () {
      if (typeof wasmMemory !== 'undefined' && wasmMemory) return wasmMemory.buffer;
      // before the module is instantiated there is no memory yet: an empty
      // one, whose snapshot is of an empty heap (a page may ask that early)
      return typeof HEAPU8 !== 'undefined' && HEAPU8 ? HEAPU8.buffer : new ArrayBuffer(0);
    },

    // The state's address: known once the runtime has attached (on the
    // thread that initialized it); a pthread's realm asks the runtime.
    stateAddress: function () {
      if (!EMHEAP.state && typeof ENVIRONMENT_IS_PTHREAD !== 'undefined' && ENVIRONMENT_IS_PTHREAD &&
          typeof _emheap_state_address === 'function') {
        EMHEAP.state = EMHEAP.pointerResult(_emheap_state_address());
      }
      return EMHEAP.state;
    },

    // The running threads as Emscripten's pthread library knows them
    // (PThread.pthreads, kept on the page's main thread: 3.1.x and 4.x
    // alike): each one's struct pthread and C stack [lo, hi], and the
    // struct's size. roots.c learns of a thread only at its first recorded
    // block; a thread that allocates nothing can still hold the last
    // pointer to a block on its stack, and every thread's struct holds its
    // mailbox (capture/heap_scan.js). None without threads.
    pthreads: function () {
      var out = {'structSize': {{{ C_STRUCTS.pthread.__size__ }}}, 'threads': []};
      if (typeof PThread === 'undefined' || !PThread.pthreads) return out;
      var structSize = out['structSize'];
      var view = new DataView(EMHEAP.buffer());
      Object.keys(PThread.pthreads).forEach(function (key) {
        var ptr = Number(key);
        if (!ptr || ptr + structSize > view.byteLength) return;
        // musl keeps the stack's top (its highest address) in `stack`
        var top = EMHEAP.readPointer(view, ptr + {{{ C_STRUCTS.pthread.stack }}});
        var size = EMHEAP.readPointer(view, ptr + {{{ C_STRUCTS.pthread.stack_size }}});
        out['threads'].push({'pthread': ptr, 'stack': top && size && size <= top ? [top - size, top] : null});
      });
      return out;
    },
  },

  emheap_js_attach__deps: ['$EMHEAP', 'emheap_cc_lo', 'emheap_cc_hi', 'emheap_cc_js', 'emheap_cc_set_js', 'emheap_thread_data_freed', 'emheap_thread_starts', 'emheap_state_address', 'emheap_roots_now', 'emheap_code_first', 'emheap_code_last', 'emheap_hold_allocator', 'emheap_restart_peak'],
  emheap_js_attach__sig: 'vp',
  emheap_js_attach: function (state) {
    EMHEAP.state = state;
    if (!EMHEAP.profiler) return;
    var mode = EMHEAP.profiler['attach'](state);
    if (mode && mode['threaded']) EMHEAP.watchThreadDataFrees();
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
      var table = EMHEAP.profiler['taker']['table']();
      var ref = table['capture'](_emheap_js_capture_stack, !!root);
      if (root) HEAPU32[EMHEAP.unsigned(root) / 4] = table['lastRoot'];
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
      var table = EMHEAP.profiler['taker']['table']();
      var pairs = table['capturePairs'](capacity, _emheap_js_capture_frames, !!root);
      if (root) HEAPU32[EMHEAP.unsigned(root) / 4] = table['lastRoot'];
      if (!pairs) return 0;
      HEAPU32.set(pairs, EMHEAP.unsigned(frames) / 4);
      return pairs.length;
    } catch (e) {
      return 0;
    }
  },

  // Whether this module was rewritten to keep calling contexts
  // (contexts/wasm_instrument.js); the runtime asks once, at startup.
  emheap_js_contexts_ready__deps: ['$EMHEAP'],
  emheap_js_contexts_ready__sig: 'i',
  emheap_js_contexts_ready: function () {
    return EMHEAP.profiler ? EMHEAP.profiler['contexts']['ready']() : 0;
  },

  // The checking mode (runtime/record.c): two references, one stack?
  emheap_js_same_stack__deps: ['$EMHEAP'],
  emheap_js_same_stack__sig: 'iii',
  emheap_js_same_stack: function (a, b) {
    try {
      var table = EMHEAP.profiler['taker']['table']();
      return table['resolve'](a) === table['resolve'](b) ? 1 : 0;
    } catch (e) {
      return 0;
    }
  },

  // The runtime's first allocation that returned NULL (ABORTING_MALLOC=0):
  // the report and snapshot of capture/out_of_memory_moment.js.
  emheap_js_out_of_memory__deps: ['$EMHEAP'],
  emheap_js_out_of_memory__sig: 'vpp',
  emheap_js_out_of_memory: function (size, alignment) {
    if (EMHEAP.profiler) EMHEAP.profiler['outOfMemory']('null', EMHEAP.unsigned(size), _emheap_js_out_of_memory, EMHEAP.unsigned(alignment));
  },

  // A request no memory could meet: one line (capture/out_of_memory_moment.js).
  emheap_js_impossible_request__deps: ['$EMHEAP'],
  emheap_js_impossible_request__sig: 'vppp',
  emheap_js_impossible_request: function (size, alignment, count) {
    if (EMHEAP.profiler) {
      EMHEAP.profiler['impossibleRequest'](EMHEAP.unsigned(size), EMHEAP.unsigned(alignment), EMHEAP.unsigned(count), _emheap_js_impossible_request);
    }
  },

  // The first misuse of a kind of the pool calls (runtime/pools.c): one
  // line (jslib/pool_misuse.js).
  emheap_js_pool_misuse__deps: ['$EMHEAP'],
  emheap_js_pool_misuse__sig: 'vipp',
  emheap_js_pool_misuse: function (kind, anchor, addr) {
    if (EMHEAP.profiler) EMHEAP.profiler['poolMisuse'](kind, EMHEAP.unsigned(anchor), EMHEAP.unsigned(addr));
  },

  // The runtime's clock (runtime/state.c times growths): capture/clock.js.
  emheap_js_now__deps: ['$EMHEAP'],
  emheap_js_now__sig: 'd',
  emheap_js_now: function () {
    return EMHEAP.profiler ? EMHEAP.profiler['now']() : 0;
  },

  // A growth of the wasm memory, when the growth log is on
  // (capture/growth_log.js); called holding the runtime's lock.
  emheap_js_memory_grew__deps: ['$EMHEAP'],
  emheap_js_memory_grew__sig: 'vi',
  emheap_js_memory_grew: function (serial) {
    if (EMHEAP.profiler) EMHEAP.profiler['growthLog'](serial >>> 0, _emheap_js_memory_grew);
  },

  // A mark made by emheap_mark (runtime/marks.c), outside the lock.
  emheap_js_mark_locked__deps: ['$EMHEAP'],
  emheap_js_mark_locked__sig: 'vi',
  emheap_js_mark_locked: function (number) {
    if (EMHEAP.profiler) EMHEAP.profiler['markLocked'](number >>> 0);
  },

  // A heap check from C (runtime/heap_check.c): jslib/check_runs.js.
  emheap_js_check_begin__deps: ['$EMHEAP'],
  emheap_js_check_begin__sig: 'ip',
  emheap_js_check_begin: function (name) {
    return EMHEAP.profiler ? EMHEAP.profiler['checks']['beginFromC'](EMHEAP.unsigned(name)) : 0;
  },

  emheap_js_check_end__deps: ['$EMHEAP'],
  emheap_js_check_end__sig: 'iippp',
  emheap_js_check_end: function (check, limits, message, size) {
    return EMHEAP.profiler ? EMHEAP.profiler['checks']['endFromC'](check >>> 0, EMHEAP.unsigned(limits), EMHEAP.unsigned(message), EMHEAP.unsigned(size)) : -1;
  },

  // A snapshot saved from C (runtime/save_snapshot.c): the main thread's
  // profiler does it, a pthread's call waits for it there.
  emheap_js_save_snapshot__deps: ['$EMHEAP'],
  emheap_js_save_snapshot__sig: 'ip',
  emheap_js_save_snapshot__proxy: 'sync',
  emheap_js_save_snapshot: function (format) {
    if (EMHEAP.profiler) return EMHEAP.profiler['saveSnapshotFromC'](EMHEAP.unsigned(format));
    (typeof err === 'function' ? err : console.error)('emheap: emheap_save_snapshot: the profiler did not start in this program (see the console above)');
    return -1;
  },

  emheap_js_marked__deps: ['$EMHEAP'],
  emheap_js_marked__sig: 'vi',
  emheap_js_marked: function (number) {
    if (EMHEAP.profiler) EMHEAP.profiler['marked'](number >>> 0);
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

// Emscripten's abortOnCannotGrowMemory (builds with ABORTING_MALLOC, the
// default without ALLOW_MEMORY_GROWTH) runs inside the allocation that
// could not be met, just before it aborts the program: emheap's version
// makes the out-of-memory report there, then runs Emscripten's own,
// unchanged (kept under another name, with its own dependencies), so the
// abort and its message are the program's as before.
if (typeof LibraryManager.library['$abortOnCannotGrowMemory'] === 'function') {
  emheapAddToLibrary({
    $emheapEmscriptenAbortOnCannotGrowMemory: LibraryManager.library['$abortOnCannotGrowMemory'],
    $emheapEmscriptenAbortOnCannotGrowMemory__deps: LibraryManager.library['$abortOnCannotGrowMemory__deps'] || [],
    $abortOnCannotGrowMemory__deps: ['$EMHEAP', '$emheapEmscriptenAbortOnCannotGrowMemory'],
    $abortOnCannotGrowMemory: function (requestedSize) {
      if (EMHEAP.profiler) EMHEAP.profiler['outOfMemory']('abort', EMHEAP.unsigned(requestedSize), abortOnCannotGrowMemory);
      emheapEmscriptenAbortOnCannotGrowMemory(requestedSize);
    },
  });
}
