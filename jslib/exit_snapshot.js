// exit_snapshot.js -- one snapshot saved when the program exits, asked for
// with EMHEAP_SNAPSHOT_AT_EXIT=1 | FORMAT (node) or
// Module.emheapOptions.snapshotAtExit (jslib/config.js): what was live at
// the end, in the file the key Ctrl+Shift+H saves (jslib/page_files.js),
// written where that one goes (a page: a download; a collector: sent),
// except that under node it is always a new file in the working folder,
// never over another: node ends as it is made, and a file on its way to
// a collector would not arrive (jslib/environment.js exitSink).
//
// When, as the leak report (jslib/exit_report.js): at the runtime's exit
// (addOnExit: builds with -sEXIT_RUNTIME, after atexit handlers and static
// destructors, memory still readable), else at node's process 'exit'; once.
'use strict';

var formats = require('../formats/index');

// format: config.js readSnapshotAtExit's. host: {addOnExit(fn), err(text)};
// env: jslib/environment.js; files: page_files.js's. A format that is not
// one is said now, and nothing is installed.
function installExitSnapshot(format, host, env, files) {
  try {
    formats.formatByName(format);
  } catch (e) {
    host.err('emheap: no snapshot at exit: ' + String(e && e.message || e));
    return;
  }
  var done = false;
  var save = function () {
    if (done) return;
    done = true;
    files.saveSnapshotAtCall(format, env.exitSink());
  };
  host.addOnExit(save);
  env.onExit(save);
}

module.exports = {installExitSnapshot: installExitSnapshot};
