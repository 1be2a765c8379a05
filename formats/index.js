// index.js: registry of output formats, shared by the page's download code
// and the CLI: name -> how to write the file, its suffix and MIME type.
//
// Every format is written as a stream: chunks(snapshot) is a generator of
// strings (text, JSON) or, for `binary` formats, Uint8Arrays, each about a
// megabyte, so no format ever needs one string or array as large as its
// file (V8 stops at 512 MB strings; a 2M-site snapshot makes GB files).
// A chunk may be empty: a format with work to do before its first byte
// (collapsed merges its lines, speedscope and PerfView order the live sites)
// yields '' now and then, so that a page building the file in slices can
// pause there.
// `gzip` means the writer compresses the bytes (CompressionStream in a page,
// zlib under node: output/node_output.js). `object` builds the whole file as
// one value, for small snapshots and the page's toSpeedscope()/toPerfView().
// `carriesSnapshot`: the file holds the whole snapshot (its "emheap" field),
// so the CLI reads it back and a collector (`emheap serve`) keeps it.

var jsonChunks = require('./json_stream').jsonChunks;
var stepsAsPauses = require('../model/steps').stepsAsPauses;
var speedscope = require('./speedscope');
var perfview = require('./perfview');
var pprof = require('./pprof');
var collapsed = require('./collapsed');
var chromeTrace = require('./chrome_trace');
var heapSnapshot = require('./heapsnapshot');
var dhat = require('./dhat');

var FORMATS = {
  speedscope: {
    chunks: function* (snapshot) { yield* jsonChunks(yield* stepsAsPauses(speedscope.speedscopeFileSteps(snapshot), '')); },
    object: speedscope.toSpeedscope, suffix: '.speedscope.json', mime: 'application/json', carriesSnapshot: true,
  },
  // PerfView picks its JSON stack reader by the .perfView.json suffix
  perfview: {
    chunks: function* (snapshot) { yield* jsonChunks(yield* stepsAsPauses(perfview.perfViewFileSteps(snapshot), '')); },
    object: perfview.toPerfView, suffix: '.PerfView.json', mime: 'application/json', carriesSnapshot: true,
  },
  // gzip-compressed protobuf, for `go tool pprof` (and speedscope)
  pprof: { chunks: pprof.profileChunks, suffix: '.pb.gz', mime: 'application/gzip', binary: true, gzip: true },
  // folded stacks text, for flamegraph.pl and friends
  collapsed: { chunks: collapsed.collapsedChunks, suffix: '.collapsed.txt', mime: 'text/plain' },
  // Trace Event Format counters, for Perfetto and chrome://tracing
  'chrome-trace': {
    chunks: function (snapshot) { return jsonChunks(chromeTrace.toChromeTrace(snapshot)); },
    object: chromeTrace.toChromeTrace, suffix: '.trace.json', mime: 'application/json',
  },
  // V8 heap snapshot of the C heap, for Chrome DevTools' Memory panel; needs
  // the heap graph (`heap`: a snapshot taken with {heap: true}, exact modes)
  heapsnapshot: { chunks: heapSnapshot.heapSnapshotChunks, suffix: '.heapsnapshot', mime: 'application/json', heap: true },
  // Valgrind DHAT JSON (total, at the peak and at the end per stack), for
  // Valgrind's dh_view.html and the Firefox Profiler
  dhat: { chunks: dhat.dhatChunks, object: dhat.toDhat, suffix: '.dhat.json', mime: 'application/json' },
};

function formatByName(name) {
  // own properties only, so "toString" or "__proto__" are unknown formats too
  if (Object.prototype.hasOwnProperty.call(FORMATS, name)) return FORMATS[name];
  throw new Error('unknown format "' + name + '": use one of ' + Object.keys(FORMATS).join(', '));
}

module.exports = { FORMATS: FORMATS, formatByName: formatByName };
