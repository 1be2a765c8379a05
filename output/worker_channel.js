// worker_channel.js -- files and key presses between a page and a profiled
// program that runs in one of its workers (a Web Worker app, or a pthread):
// a worker has no document to download from, so it hands each file to the
// page over a BroadcastChannel, and the page (with emheap_page.js, as a
// program's --extern-pre-js or a <script>) downloads it and says so back.
// The page's keys reach a worker app the same way. A channel of its own,
// never the worker's postMessage: the app's own message handlers see
// nothing of emheap.
//
// Messages, {emheap: TYPE, ...}:
//   'file'     worker -> page  {id, name, blob, to}  a file to save; to: the
//                              page whose request it answers, or ''
//   'saved'    page -> worker  {id}                  it was saved
//   'hello'    worker -> page  {}                    a worker app answers requests
//   'page'     page -> worker  {}                    a page with emheap heard the hello
//   'who'      page -> worker  {}                    worker apps, say hello
//   'request'  page -> worker  {format, from}        save a snapshot in format
// Every page of the origin hears every message: a file that answers a
// request is saved by the page that asked, any other by the pages in view.
'use strict';

var CHANNEL = 'emheap';
// How long a worker waits for a page to say it saved a file before it says
// that none did.
var UNCLAIMED_MS = 5000;
// What a file's name may be: emheap names files memory-<what>-<time>.<suffix>
// (jslib/page_files.js); anything else is not emheap's, and not saved.
var FILE_NAME = /^memory-[\w.-]+$/;

function randomId(g) {
  var words = new Uint32Array(2);
  if (g.crypto && typeof g.crypto.getRandomValues === 'function') g.crypto.getRandomValues(words);
  else words[0] = Math.floor(Math.random() * 0x100000000);
  return words[0].toString(36) + words[1].toString(36);
}

function message(event) {
  var m = event && event.data;
  return m && typeof m === 'object' && typeof m.emheap === 'string' ? m : null;
}

// The worker's end. g: the worker's global; warn(text). -> {send(name,
// blob, to), addressee() (the page whose request is being answered, or ''),
// answerRequests(api, advice) (a worker app's: the page's requests and
// hellos), close()}.
function workerEnd(g, warn) {
  var channel = new g.BroadcastChannel(CHANNEL);
  var unclaimed = new Map(); // file id -> timer
  var requester = '';
  var api = null;
  var alone = null; // timer: no page answered the hello yet
  channel.onmessage = function (event) {
    var m = message(event);
    if (!m) return;
    if (m.emheap === 'saved' && unclaimed.has(m.id)) {
      g.clearTimeout(unclaimed.get(m.id));
      unclaimed.delete(m.id);
    } else if (m.emheap === 'page') {
      if (alone !== null) g.clearTimeout(alone);
      alone = null;
    } else if (api && m.emheap === 'who') {
      channel.postMessage({emheap: 'hello'});
    } else if (api && m.emheap === 'request') {
      requester = String(m.from || '');
      try {
        api.downloadSnapshot(String(m.format || 'speedscope'));
      } finally {
        requester = '';
      }
    }
  };
  return {
    addressee: function () { return requester; },
    send: function (name, blob, to) {
      var id = randomId(g);
      unclaimed.set(id, g.setTimeout(function () {
        unclaimed.delete(id);
        warn('emheap: no page saved ' + name + ': a worker cannot download, so it hands its files to the page, and ' +
          'no page with emheap\'s page code took this one (load emheap_page.js in the page that starts the worker)');
      }, UNCLAIMED_MS));
      channel.postMessage({emheap: 'file', id: id, name: name, blob: blob, to: to || ''});
    },
    // A worker app's (not its pthreads'): answers the page's requests;
    // says `advice` when no page with emheap answers its hello.
    answerRequests: function (theApi, advice) {
      api = theApi;
      alone = g.setTimeout(function () {
        alone = null;
        warn(advice);
      }, UNCLAIMED_MS);
      channel.postMessage({emheap: 'hello'});
    },
    close: function () {
      unclaimed.forEach(function (timer) { g.clearTimeout(timer); });
      if (alone !== null) g.clearTimeout(alone);
      channel.close();
    },
  };
}

// The page's end. g: the page's global; saveBlob(name, blob). -> {workers()
// (whether a worker app said hello), request(format), close()}.
function pageEnd(g, saveBlob) {
  var channel = new g.BroadcastChannel(CHANNEL);
  var self = randomId(g);
  var heard = false;
  channel.onmessage = function (event) {
    var m = message(event);
    if (!m) return;
    if (m.emheap === 'hello') {
      heard = true;
      channel.postMessage({emheap: 'page'});
    } else if (m.emheap === 'file') {
      var mine = m.to ? m.to === self : !(g.document && g.document.visibilityState === 'hidden');
      if (!mine || !FILE_NAME.test(String(m.name)) || !(m.blob instanceof g.Blob)) return;
      saveBlob(String(m.name), m.blob);
      channel.postMessage({emheap: 'saved', id: m.id});
    }
  };
  channel.postMessage({emheap: 'who'});
  return {
    workers: function () { return heard; },
    request: function (format) {
      channel.postMessage({emheap: 'request', format: format, from: self});
    },
    close: function () { channel.close(); },
  };
}

module.exports = {workerEnd: workerEnd, pageEnd: pageEnd};
