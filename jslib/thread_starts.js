// thread_starts.js -- on a pthread's worker, before each thread's entry
// point, the runtime starts watching the thread's exit (runtime/
// thread_exit.c), so that what Emscripten 3.1.x frees there behind
// emheap's back (the thread's TSD array) leaves emheap's books, also for a
// thread that never allocates. worker.js calls Module.invokeEntryPoint for
// every thread it runs.
'use strict';

// host: the library's {Module, onWorker, threadStarts()}.
function watchThreadStarts(host) {
  if (!host.onWorker) return;
  var original = host.Module['invokeEntryPoint'];
  if (typeof original !== 'function') return;
  host.Module['invokeEntryPoint'] = function (ptr, arg) {
    try {
      host.threadStarts();
    } catch (e) {
      // never stand in the way of the app's thread
    }
    return original(ptr, arg);
  };
}

module.exports = {watchThreadStarts: watchThreadStarts};
