// emheap-shell.js -- the page side of emheap: Ctrl+Shift+H (Cmd+Shift+H on
// macOS) downloads a speedscope snapshot, and `downloadSnapshot(format)` is
// callable from the devtools console.
//
// Linked with --extern-post-js (see bin/emheap-config), so it runs once when
// the module's JS loads, outside the module (it works with MODULARIZE too);
// it may also be loaded as a plain <script>. It only talks to
// `globalThis.emheap`, which the --js-library sets: on a page whose module
// has no emheap the key does nothing and nothing is logged.
//
// The listener sits on window in the capture phase: it survives the app
// replacing document.body, and sees the key before app handlers that stop
// propagation.
(function () {
  'use strict';
  if (typeof window === 'undefined' || typeof document === 'undefined') return;
  if (window.__emheapShellInstalled) return;
  window.__emheapShellInstalled = true;

  function profiler() {
    var p = globalThis.emheap;
    return p && typeof p.downloadSnapshot === 'function' ? p : null;
  }

  if (typeof globalThis.downloadSnapshot === 'undefined') {
    globalThis.downloadSnapshot = function (format) {
      var p = profiler();
      if (!p) {
        console.warn('emheap: this page has no emheap profiler (link it with $(emheap-config --ldflags))');
        return null;
      }
      return p.downloadSnapshot(format);
    };
  }

  window.addEventListener('keydown', function (event) {
    if (!(event.ctrlKey || event.metaKey) || !event.shiftKey || event.altKey) return;
    if (event.code !== 'KeyH' && event.key !== 'H' && event.key !== 'h') return;
    if (event.repeat) return;
    var p = profiler();
    if (!p) return;
    event.preventDefault(); // Firefox opens its history library on Ctrl+Shift+H
    p.downloadSnapshot('speedscope');
  }, true);
})();
