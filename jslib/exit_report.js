// exit_report.js -- the leak report when the program exits
// (model/leak_report.js writes it), and the exit status it may set.
//
// Emscripten runs addOnExit (__ATEXIT__) callbacks only in builds linked
// with -sEXIT_RUNTIME=1, after atexit handlers and static destructors and
// while memory is still readable; Module.onExit comes later and is the
// app's to set. A build without EXIT_RUNTIME never exits its runtime (main
// returning leaves it alive for callbacks), so in a page there is no
// report; under node the process 'exit' event still comes, and the report
// is made there, with a note that atexit handlers did not run. The exit
// status can only be set under node: process.exit(status) emits 'exit' and
// then exits with process.exitCode, which a listener may change.
'use strict';

var leakReport = require('../model/leak_report');

// config: config.js readLeakConfig's ({file, exitCode, exitOn}). host:
// {addOnExit(fn) (Emscripten's, where the build has it), err(text)
// (Emscripten's stderr)}; env: jslib/environment.js; taker:
// snapshot_taker.js. Made at most once, at the first exit event.
function installExitReport(config, host, env, taker) {
  var done = false;
  // -> whether the exit status should say "failed"
  var report = function (runtimeExited) {
    if (done) return false;
    done = true;
    var result;
    try {
      // exact modes: with the heap graph, which tells leaks from blocks
      // still reachable (the same report without it if the scan fails)
      var snapshot;
      try {
        snapshot = taker.isExact() ? taker.snapshot({heap: true}) : null;
      } catch (e) {
        snapshot = null;
      }
      result = leakReport.leakReport(snapshot || taker.snapshot(), config.by);
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
    if (config.file && env.node) {
      try {
        env.writeFile(config.file, text);
        host.err('emheap: leak report written to ' + config.file + (result.leaked ? ' (' + result.liveBytes + ' bytes still live)' : ' (no leaks)'));
      } catch (e) {
        host.err('emheap: cannot write ' + config.file + ': ' + (e && e.message || e));
        host.err(text.replace(/\n$/, ''));
      }
    } else {
      host.err(text.replace(/\n$/, ''));
    }
    return leakReport.failsOn(result, config.exitOn);
  };
  // A program that already fails keeps its own status.
  var setStatus = function (status) {
    if (!status && config.exitCode) env.setExitCode(config.exitCode);
  };
  host.addOnExit(function () {
    if (report(true)) env.onExit(setStatus);
  });
  env.onExit(function (status) {
    if (!done && report(false)) setStatus(status);
  });
}

module.exports = {installExitReport: installExitReport};
