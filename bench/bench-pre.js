// bench-pre.js -- linked into every bench build with --pre-js.
//
// 1. Emscripten's LSan reads its options from Module.LSAN_OPTIONS, not from
//    the environment: under node, pass the environment's LSAN_OPTIONS on
//    (the bench page sets Module.LSAN_OPTIONS itself).
// 2. After main, print emheap's counters as one line
//    "EMHEAP_SUMMARY {json}" (builds with emheap only), so the runner can see
//    which mode the runtime really used. Printed after the timed part.
if (typeof process === 'object' && process.env && process.env.LSAN_OPTIONS && !Module['LSAN_OPTIONS']) {
  Module['LSAN_OPTIONS'] = process.env.LSAN_OPTIONS;
}
// Threaded builds exit the runtime (-sEXIT_RUNTIME=1) when main returns, and
// then postRun never comes: onExit prints the line instead.
var emheapSummaryPrinted = false;
function printEmheapSummary() {
  var api = Module['emheap'];
  if (emheapSummaryPrinted || !api || typeof api.getSnapshotJson !== 'function') return;
  emheapSummaryPrinted = true;
  var line;
  try {
    line = 'EMHEAP_SUMMARY ' + api.getSnapshotJson();
  } catch (e) {
    line = 'EMHEAP_SUMMARY ' + JSON.stringify({error: String(e && e.message || e)});
  }
  (Module['print'] || console.log)(line);
}
Module['postRun'] = [].concat(Module['postRun'] || [], printEmheapSummary);
Module['onExit'] = printEmheapSummary;
