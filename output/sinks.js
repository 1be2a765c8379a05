// sinks.js -- where a file the profiled program saves goes, chosen once
// when emheap starts (jslib/environment.js): a page downloads it, built a
// slice at a time so that a large export never blocks the page; node writes
// a new file in the working directory, never one the user has; a worker
// (no document, not node) has nowhere to put one and says so.
//
// Every sink has the same two calls, each returning the file's name, or
// null after saying why through reportError, and canSave (false: every
// call refuses, so a caller that would answer later knows now):
//   saveSnapshot(name, entry, snapshot)  a format (formats/index.js) of a
//                                        snapshot, or of a heap dump
//   saveText(name, text, mime)           a small file made at once (a diff)
'use strict';

var saveFile = require('./save_file');
var nodeOutput = require('./node_output');
var pageOutput = require('./page_output');

// host: {fs, zlib, log, error} (node's modules and where messages go).
function nodeSink(host) {
  var files = {fs: host.fs, log: host.log, error: host.error};
  return {
    canSave: true,
    saveSnapshot: function (name, entry, snapshot) {
      return saveFile.writeNewFile(files, name, function (fd) {
        nodeOutput.writeFormat(host.fs, host.zlib, fd, entry, snapshot);
      });
    },
    saveText: function (name, text) {
      return saveFile.writeNewFile(files, name, function (fd) {
        nodeOutput.writeAll(host.fs, fd, text);
      });
    },
  };
}

// host: {document, URL, Blob, Response, CompressionStream (or undefined),
// storage (navigator.storage, or null), setTimeout, log, warn,
// reportError, sliceMs, nextTask}. A snapshot's file is built SLICE_MS of
// work per task into the page's file (output/page_output.js), then saved;
// the name is returned at once.
function pageSink(host) {
  var saveBlob = function (name, blob) {
    return saveFile.saveBlob({document: host.document, URL: host.URL, setTimeout: host.setTimeout, log: host.log}, name, blob);
  };
  return {
    canSave: true,
    saveSnapshot: function (name, entry, snapshot) {
      var out = pageOutput.pageFile(host.storage, host.warn);
      pageOutput.writeInSlices(entry.chunks(snapshot), out, entry.mime, host.sliceMs, host.nextTask)
        .then(save).catch(host.reportError);
      function save(blob) {
        if (!entry.gzip) return saveBlob(name, blob);
        if (typeof host.CompressionStream === 'function') {
          return new host.Response(blob.stream().pipeThrough(new host.CompressionStream('gzip'))).blob().then(function (gz) {
            if (blob.release) blob.release();
            saveBlob(name, new host.Blob([gz], {type: entry.mime}));
          });
        }
        // no CompressionStream (Firefox < 113, Safari < 16.4): pprof reads
        // an uncompressed profile as well, so save that, named for it
        return saveBlob(name.replace(/\.gz$/, ''), blob);
      }
      return name;
    },
    saveText: function (name, text, mime) {
      return saveBlob(name, new host.Blob([text], {type: mime || 'application/octet-stream'}));
    },
  };
}

// reportError: fn(Error) -> null.
function noSink(reportError) {
  var refuse = function () {
    return reportError(new Error(NO_SINK));
  };
  return {canSave: false, saveSnapshot: refuse, saveText: refuse};
}

// Why a worker saves nothing, and what to do instead.
var NO_SINK = 'cannot save a file here: this program runs in a Web Worker, which has no document to download ' +
  'a file from: take emheap.snapshot() (or emheap.toSpeedscope()) and post it to the page';

module.exports = {nodeSink: nodeSink, pageSink: pageSink, noSink: noSink, NO_SINK: NO_SINK};
