// sinks.js -- where a file the profiled program saves goes, chosen once
// when emheap starts (jslib/environment.js): a page downloads it, built a
// slice at a time so that a large export never blocks the page; node writes
// a new file in the working directory, never one the user has; a worker
// (no document, not node) has nowhere to put one and says so.
//
// Every sink has the same two calls, each returning the file's name, or
// null after saying why through reportError:
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
    return reportError(new Error('cannot save a file here: no document (a worker?) and not node'));
  };
  return {saveSnapshot: refuse, saveText: refuse};
}

module.exports = {nodeSink: nodeSink, pageSink: pageSink, noSink: noSink};
