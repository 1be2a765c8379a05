// remote.js -- with a collector (`emheap serve`; Module.emheapOptions.remote,
// ?emheap_remote=, EMHEAP_REMOTE), the snapshots no key asks for: one at
// each mark made on the program's main thread, from C or JS, and one every
// N seconds when asked (remoteEvery). The key (Ctrl+Shift+H) and the
// out-of-memory report send through the sink as they save
// (output/remote_sink.js).
//
// One at a time: a trigger that fires while a snapshot is being taken or
// sent waits for it, and of those waiting only the newest is sent, so a
// program that marks every frame sends as fast as the link takes them and
// never queues. A mark's snapshot is begun in the mark's own call, so that
// it shows the heap at the mark (a page finishes it in slices afterwards).
'use strict';

// files: page_files.js's; sink: a remote sink; everySeconds: 0 for never;
// ready(): the runtime attached and profiling is not off; g: the global
// object (its timers); reportError(e) says why a send failed.
function remoteTriggers(files, sink, everySeconds, ready, g, reportError) {
  var busy = false;
  var waiting = null;
  var send = function (tag) {
    if (busy) {
      waiting = tag;
      return;
    }
    busy = true;
    files.snapshotToSend(tag).then(function (s) {
      return sink.send(s.name, s.entry, s.snapshot);
    }).catch(reportError).then(function () {
      busy = false;
      if (waiting === null) return;
      var next = waiting;
      waiting = null;
      send(next);
    });
  };
  if (everySeconds) {
    var timer = g.setInterval(function () {
      if (!busy && !sink.busy() && ready()) send('every');
    }, everySeconds * 1000);
    if (timer && typeof timer.unref === 'function') timer.unref(); // node: it keeps no program alive
  }
  return {
    // Whether a snapshot is being taken, waits, or is on its way.
    busy: function () {
      return busy || waiting !== null || sink.busy();
    },
    // A mark was made (its number): never throws (a C mark calls here).
    // With profiling off there is nothing to send.
    marked: function (number) {
      try {
        if (ready()) send('mark' + number);
      } catch (e) {
        reportError(e);
      }
    },
  };
}

module.exports = {remoteTriggers: remoteTriggers};
