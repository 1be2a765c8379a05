// worker.js -- one build of a paired run in the browser (page.html): a web
// worker that loads the build and runs one repetition per message.
//
// URL: worker.js?js=<the emcc .js>&args=<argv, comma separated>[&emheap=..]
// The emheap runtime reads its own parameters (emheap=, emheap_interval=,
// emheap_depth=) from this URL, as it reads a page's.
// Messages in: 'rep' | 'report'. Out: {ready} | {ns} | {reported} |
// {error}, each with the lines the build printed since the last message.
'use strict';

(function () {
  var q = new URLSearchParams(location.search);
  var js = new URL(q.get('js'), location.href).href;
  var lines = [];
  function post(message) {
    message.lines = lines.splice(0);
    postMessage(message);
  }
  self.Module = {
    arguments: (q.get('args') || '').split(',').filter(Boolean),
    benchDriven: true,
    print: function (text) { lines.push(String(text)); },
    printErr: function (text) { lines.push('stderr: ' + text); },
    LSAN_OPTIONS: 'detect_leaks=0',
    // The .wasm next to the .js, not next to this worker.
    locateFile: function (file) { return new URL(file, js).href; },
    onAbort: function (what) { post({error: 'abort: ' + what}); },
    // After main (the warm-up) and emheap's summary line (bench-pre.js).
    postRun: [function () { setTimeout(function () { post({ready: true}); }, 0); }],
  };
  self.onmessage = function (e) {
    try {
      if (e.data === 'rep') post({ns: Module._bench_repetition()});
      else if (e.data === 'report') {
        Module._bench_report();
        post({reported: true});
      }
    } catch (err) {
      post({error: String(err && err.message || err)});
    }
  };
  self.onerror = function (e) { post({error: String(e.message || e)}); };
  try {
    importScripts(js);
  } catch (err) {
    post({error: 'cannot load ' + js + ': ' + (err && err.message || err)});
  }
})();
