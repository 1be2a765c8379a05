// environment.js -- what differs between a page and a node program,
// decided once when emheap starts: where settings come from besides the
// code (the page URL, the process environment), how the module's bytes and
// debug info are read (fetch, or the file), where emheap's own messages go
// (the console, or stderr: never a node program's stdout, which may be its
// output), what happens at process exit, and where a saved file goes
// (output/sinks.js). A worker that is not node reads like a page and hands
// its files to the page (output/worker_channel.js).
//
// g is the global object; nodeRequire the program's require under node
// (Emscripten's scope has it: an ES module build makes one), else null.
// Nothing else here reaches a global, so tests hand in fakes.
'use strict';

var debugInfo = require('../symbolize/debug_info');
var sinks = require('../output/sinks');
var remoteSink = require('../output/remote_sink').remoteSink;
var collectorPost = require('../output/collector_post');
var workerChannel = require('../output/worker_channel');

// -> {node, page, inWorker, channel (a worker's: worker_channel.js
// workerEnd), settings: {search, env}, source(), console(),
// moduleFileBytes(source), debugInfo(source, warn, done, bytes?), onExit(fn),
// setExitCode(code), writeFile(file, text), sink, exitSink(), sendTo(url)}. reportError(e) says why
// a save failed; sliceMs and nextTask pace a page's export.
function chooseEnvironment(g, nodeRequire, reportError, sliceMs, nextTask) {
  var proc = g.process;
  var node = typeof proc === 'object' && !!(proc && proc.versions && proc.versions.node) &&
    typeof nodeRequire === 'function';
  var page = typeof g.document !== 'undefined' && typeof g.Blob !== 'undefined';
  var inWorker = !page && !node && (typeof g.importScripts === 'function' || typeof g.WorkerGlobalScope !== 'undefined');
  var stderrConsole = null;

  var env = {
    node: node,
    page: page,
    inWorker: inWorker,
    channel: null,
    // The page URL's parameters, and under node the environment.
    settings: {search: g.location ? String(g.location.search || '') : '', env: node ? proc.env : null},

    // What a snapshot names as its source: the page, or the node script.
    source: function () {
      if (g.location) return String(g.location.href);
      if (proc && proc.argv) return String(proc.argv[1] || '');
      return '';
    },

    console: function () {
      if (!node) return g.console;
      if (!stderrConsole) stderrConsole = new (nodeRequire('console').Console)({stdout: proc.stderr, stderr: proc.stderr});
      return stderrConsole;
    },

    // The bytes at a file name or URL: read from disk under node (unless
    // http(s)), else fetched as Emscripten would, same-origin.
    moduleFileBytes: function (source) {
      if (node && !/^https?:/.test(source)) {
        return new Promise(function (resolve) { // (a read that throws rejects)
          var file = source.indexOf('file://') === 0 ? nodeRequire('url').fileURLToPath(source) : source;
          resolve(new Uint8Array(nodeRequire('fs').readFileSync(file)));
        });
      }
      return g.fetch(source, {credentials: 'same-origin'}).then(function (response) {
        if (!response.ok) throw new Error('cannot fetch ' + source + ': ' + response.status);
        return response.arrayBuffer();
      }).then(function (buffer) { return new Uint8Array(buffer); });
    },

    // The module's names and lines (symbolize/debug_info.js) from a file
    // name or URL, handed to done: under node read at once (done runs
    // before this returns), in a page fetched in the background.
    debugInfo: function (source, warn, done, bytes) {
      var none = {functionNames: null, sourceLines: null};
      if (node) {
        var file = source.indexOf('file://') === 0 ? new URL(source).pathname : source;
        return done(debugInfo.fromFile(file, {fs: nodeRequire('fs'), path: nodeRequire('path'), argv: proc.argv, warn: warn},
          bytes));
      }
      if (typeof g.fetch !== 'function') return done(none);
      var base;
      try {
        base = new URL(source, g.location ? g.location.href : undefined).href;
      } catch (e) {
        return done(none);
      }
      debugInfo.fromUrl(base, {fetch: function (url) { return g.fetch(url); }, warn: warn}, bytes).then(done);
    },

    // fn(status) when the node process exits; false where there is none.
    onExit: function (fn) {
      if (!node) return false;
      proc.on('exit', fn);
      return true;
    },

    // The status a node process exits with (a listener of 'exit' may set it).
    setExitCode: function (code) {
      if (node) proc.exitCode = code;
    },

    // Writes a whole text file (the leak report's file); node only.
    writeFile: function (file, text) {
      if (!node) throw new Error('cannot write ' + file + ': not node');
      nodeRequire('fs').writeFileSync(file, text);
    },
  };

  var nodeFiles = null;
  // The sink for a file made as the program ends: under node the working
  // folder, with a collector too (node does no more I/O after 'exit', and
  // a -sEXIT_RUNTIME build ends it at once: nothing sent then arrives);
  // elsewhere the sink (a page goes on after its runtime's exit).
  env.exitSink = function () {
    return nodeFiles || env.sink;
  };

  // What every sink that builds a file in slices needs (output/sinks.js
  // fileOf), with `more` (a sink's own).
  var fileHost = function (more) {
    return Object.assign({Blob: g.Blob, Response: g.Response, CompressionStream: g.CompressionStream,
      storage: page && g.navigator ? g.navigator.storage : null, warn: function (m) { g.console.warn(m); },
      reportError: reportError, sliceMs: sliceMs, nextTask: nextTask}, more);
  };

  // With a collector (jslib/remote.js): the snapshot files go to it, the
  // rest to the sink chosen below; under node through its http module,
  // with or without fetch(). -> the remote sink, now env.sink; null where
  // nothing can send.
  env.sendTo = function (url) {
    var post = node ? collectorPost.nodePost({http: nodeRequire('http'), https: nodeRequire('https'), zlib: nodeRequire('zlib')})
      : typeof g.fetch === 'function' ? collectorPost.fetchPost({fetch: function (u, o) { return g.fetch(u, o); },
        Response: g.Response, CompressionStream: g.CompressionStream})
        : null;
    if (!post) return null;
    env.sink = remoteSink(fileHost({post: post,
      log: function (m) { env.console().log(m); }, warn: function (m) { env.console().warn(m); }}), url, env.sink);
    return env.sink;
  };

  if (page) {
    env.sink = sinks.pageSink(fileHost({document: g.document, URL: g.URL,
      setTimeout: function (fn, ms) { return g.setTimeout(fn, ms); }, // (a bare setTimeout needs `this` = window)
      log: function (m) { env.console().log(m); }}));
  } else if (node) {
    env.sink = nodeFiles = sinks.nodeSink({fs: nodeRequire('fs'), zlib: nodeRequire('zlib'),
      log: function (m) { env.console().log(m); }, error: function (m) { g.console.error(m); }});
  } else if (inWorker && typeof g.BroadcastChannel === 'function') {
    // (storage null: a worker builds its files in memory)
    env.channel = workerChannel.workerEnd(g, function (m) { g.console.warn(m); });
    env.sink = sinks.workerSink(fileHost({channel: env.channel}));
  } else {
    env.sink = sinks.noSink(reportError);
  }
  return env;
}

module.exports = {chooseEnvironment: chooseEnvironment};
