// emheap-shell.js -- the page side of emheap: Ctrl+Shift+H (Cmd+Shift+H on
// macOS) downloads a speedscope snapshot, Ctrl+Shift+X (exact modes) the C
// heap as a .heapsnapshot for DevTools' Memory panel, Ctrl+Shift+D
// (Cmd+Shift+D) the diff against the snapshot of the previous Ctrl+Shift+D,
// Ctrl+Shift+M (Cmd+Shift+M) makes a mark ("mark N": what was allocated
// after it is `emheap top FILE --since "mark N"`), and
// `downloadSnapshot(format, snapshot)` is callable from the devtools console.
//
// Part of emheap_page.js, which is linked with --extern-pre-js (see
// jslib/bundle.js), so it runs once when the module's JS loads, outside
// the module (it works with MODULARIZE too); emheap_page.js may also be
// loaded as a plain <script>, in the page of an app that runs in a Web
// Worker. It talks to `globalThis.emheap`, which the --js-library sets, and
// with `emheapPage` (the page code it is bundled with) to programs in the
// page's workers (output/worker_channel.js): they hand their files here to
// be saved, and a worker app gets the keys when the page has no emheap of
// its own. On a page with neither the key does nothing and nothing is
// logged.
//
// The listener sits on window in the capture phase: it survives the app
// replacing document.body, and sees the key before app handlers that stop
// propagation.
(function () {
  'use strict';
  if (typeof window === 'undefined' || typeof document === 'undefined') return;
  if (window.__emheapShellInstalled) return;
  window.__emheapShellInstalled = true;

  // Programs in this page's workers (output/worker_channel.js); null when
  // this script is loaded without the page code.
  var workers = null;
  try {
    if (typeof emheapPage === 'object' && emheapPage && typeof emheapPage.receiveWorkerFiles === 'function') {
      workers = emheapPage.receiveWorkerFiles(globalThis);
    }
  } catch (e) {
    console.error('emheap: files from workers will not be saved: ' + (e && e.message || e));
  }

  // A worker app's, when this page has no emheap of its own and a worker
  // app has said it has one: the file comes as a download.
  function askWorker(format) {
    if (!workers || !workers.workers()) return false;
    workers.request(format);
    console.log('emheap: asked the program in the worker for a ' + format + ' file');
    return true;
  }

  function profiler() {
    var p = globalThis.emheap;
    return p && typeof p.downloadSnapshot === 'function' ? p : null;
  }

  if (typeof globalThis.downloadSnapshot === 'undefined') {
    globalThis.downloadSnapshot = function (format, snapshot) {
      var p = profiler();
      if (!p) {
        if (snapshot === undefined && askWorker(format || 'speedscope')) return null; // named by the worker
        console.warn('emheap: this page has no emheap profiler (link it with $(emheap-config --ldflags))');
        return null;
      }
      return snapshot === undefined ? p.downloadSnapshot(format) : p.downloadSnapshot(format, snapshot);
    };
  }

  // Snapshot of the previous Ctrl+Shift+D: the baseline of the next diff.
  // Kept here, not in the library, so that only key presses move it.
  var diffBaseline = null;

  function downloadDiff(p) {
    if (typeof p.downloadDiff !== 'function') return; // an older library
    var now;
    try {
      now = p.snapshot();
    } catch (e) {
      console.error('emheap: ' + String(e && e.message || e).replace(/^emheap: /, ''));
      return;
    }
    if (!diffBaseline) {
      console.log('emheap: baseline snapshot taken (' + now.summary.liveBytes + ' live bytes); ' +
        'press Ctrl+Shift+D again to download what changed since');
    } else {
      p.downloadDiff(diffBaseline, now);
    }
    diffBaseline = now;
  }

  function mark(p) {
    if (typeof p.mark !== 'function') return; // an older library
    try {
      var m = p.mark();
      console.log('emheap: mark #' + m.number + ' "' + m.name + '" at ' + (m.t / 1000).toFixed(3) + ' s');
    } catch (e) {
      console.error('emheap: ' + String(e && e.message || e).replace(/^emheap(\.mark)?: /, ''));
    }
  }

  function isKey(event, letter) {
    return event.code === 'Key' + letter || event.key === letter || event.key === letter.toLowerCase();
  }

  window.addEventListener('keydown', function (event) {
    if (!(event.ctrlKey || event.metaKey) || !event.shiftKey || event.altKey) return;
    var snapshotKey = isKey(event, 'H');
    var heapKey = isKey(event, 'X');
    var markKey = isKey(event, 'M');
    if (!snapshotKey && !heapKey && !markKey && !isKey(event, 'D')) return;
    if (event.repeat) return;
    var p = profiler();
    if (!p) {
      if ((snapshotKey || heapKey) && askWorker(snapshotKey ? 'speedscope' : 'heapsnapshot')) event.preventDefault();
      return;
    }
    // Firefox opens its history library on Ctrl+Shift+H, and browsers
    // bookmark all tabs on Ctrl+Shift+D.
    event.preventDefault();
    if (markKey) mark(p);
    else if (snapshotKey) p.downloadSnapshot('speedscope');
    else if (heapKey) p.downloadSnapshot('heapsnapshot'); // exact modes: the C heap for DevTools' Memory panel
    else downloadDiff(p);
  }, true);
})();
