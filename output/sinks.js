// sinks.js -- where a file the profiled program saves goes, chosen once
// when emheap starts (jslib/environment.js): a page downloads it, built a
// slice at a time so that a large export never blocks the page; node writes
// a new file in the working directory, never one the user has; a worker
// (no document, not node) hands it to the page (output/worker_channel.js),
// or where it cannot, has nowhere to put one and says so.
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

// A snapshot's file as a Blob, built SLICE_MS of work per task
// (output/page_output.js) into the page's file (in storage when large, or
// memory where storage is null), gzip'd where the format is and the host
// can. -> a promise of {name, blob}: without CompressionStream (Firefox <
// 113, Safari < 16.4) a .gz format is saved uncompressed, named for it
// (pprof reads both).
function fileOf(host, name, entry, snapshot) {
  var out = pageOutput.pageFile(host.storage, host.warn);
  return pageOutput.writeInSlices(entry.chunks(snapshot), out, entry.mime, host.sliceMs, host.nextTask).then(function (blob) {
    if (!entry.gzip) return {name: name, blob: blob};
    if (typeof host.CompressionStream !== 'function') return {name: name.replace(/\.gz$/, ''), blob: blob};
    return gzipBlob(host, blob).then(function (gz) {
      return {name: name, blob: new host.Blob([gz], {type: entry.mime})};
    });
  });
}

// A Blob gzip'd through the host's CompressionStream (which the caller
// knows it has), the blob's storage let go after. -> a promise of a Blob.
function gzipBlob(host, blob) {
  return new host.Response(blob.stream().pipeThrough(new host.CompressionStream('gzip'))).blob().then(function (gz) {
    if (blob.release) blob.release();
    return gz;
  });
}

// host: {document, URL, Blob, Response, CompressionStream (or undefined),
// storage (navigator.storage, or null), setTimeout, log, warn,
// reportError, sliceMs, nextTask}. The file is built a slice at a time,
// then saved; the name is returned at once.
function pageSink(host) {
  var saveBlob = function (file) {
    return saveFile.saveBlob({document: host.document, URL: host.URL, setTimeout: host.setTimeout, log: host.log},
      file.name, file.blob);
  };
  return {
    canSave: true,
    saveSnapshot: function (name, entry, snapshot) {
      fileOf(host, name, entry, snapshot).then(saveBlob).catch(host.reportError);
      return name;
    },
    saveText: function (name, text, mime) {
      return saveBlob({name: name, blob: new host.Blob([text], {type: mime || 'application/octet-stream'})});
    },
  };
}

// A worker's: each file goes to the page (worker_channel.js workerEnd's
// send), which saves it; the worker says so if no page does. host: as
// pageSink's, with channel (a workerEnd) for document, URL and storage.
function workerSink(host) {
  var send = function (to) {
    return function (file) { host.channel.send(file.name, file.blob, to); };
  };
  return {
    canSave: true,
    saveSnapshot: function (name, entry, snapshot) {
      fileOf(host, name, entry, snapshot).then(send(host.channel.addressee())).catch(host.reportError);
      return name;
    },
    saveText: function (name, text, mime) {
      send(host.channel.addressee())({name: name, blob: new host.Blob([text], {type: mime || 'application/octet-stream'})});
      return name;
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

// Why a worker without BroadcastChannel saves nothing, and what to do instead.
var NO_SINK = 'cannot save a file here: this program runs in a Web Worker, which has no document to download ' +
  'a file from and no BroadcastChannel to hand it to the page: take emheap.snapshot() (or emheap.toSpeedscope()) ' +
  'and post it to the page';

module.exports = {fileOf: fileOf, gzipBlob: gzipBlob, nodeSink: nodeSink, pageSink: pageSink, workerSink: workerSink, noSink: noSink, NO_SINK: NO_SINK};
