// index.js: registry of output formats, shared by the page's download code
// and the CLI: name -> how to write the file, its suffix and MIME type, and
// what it is for.
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
// so the CLI reads it back and a collector (`emheap serve`) keeps it
// (snapshotSuffixes).

var jsonChunks = require('./json_stream').jsonChunks;
var stepsAsPauses = require('../model/steps').stepsAsPauses;
var speedscope = require('./speedscope');
var perfview = require('./perfview');
var pprof = require('./pprof');
var collapsed = require('./collapsed');
var chromeTrace = require('./chrome_trace');
var heapSnapshot = require('./heapsnapshot');
var dhat = require('./dhat');

// `about`: what the file is for, in a few words: the CLI's help lists
// every format with it (cli/commands/convert.js).
var FORMATS = {
  speedscope: {
    about: 'for speedscope; carries the snapshot, for emheap to read back',
    chunks: function* (snapshot) { yield* jsonChunks(yield* stepsAsPauses(speedscope.speedscopeFileSteps(snapshot), '')); },
    object: speedscope.toSpeedscope, suffix: '.speedscope.json', mime: 'application/json', carriesSnapshot: true,
  },
  // PerfView picks its JSON stack reader by the .perfView.json suffix
  perfview: {
    about: 'for PerfView; carries the snapshot, for emheap to read back',
    chunks: function* (snapshot) { yield* jsonChunks(yield* stepsAsPauses(perfview.perfViewFileSteps(snapshot), '')); },
    object: perfview.toPerfView, suffix: '.PerfView.json', mime: 'application/json', carriesSnapshot: true,
  },
  pprof: {
    about: 'gzipped protobuf for go tool pprof',
    chunks: pprof.profileChunks, suffix: '.pb.gz', mime: 'application/gzip', binary: true, gzip: true,
  },
  collapsed: {
    about: 'folded stacks for flamegraph.pl and friends',
    chunks: collapsed.collapsedChunks, suffix: '.collapsed.txt', mime: 'text/plain',
  },
  'chrome-trace': {
    about: 'counters for Perfetto / chrome://tracing',
    chunks: function (snapshot) { return jsonChunks(chromeTrace.toChromeTrace(snapshot)); },
    object: chromeTrace.toChromeTrace, suffix: '.trace.json', mime: 'application/json',
  },
  // `heap`: it needs the heap graph, a snapshot taken with {heap: true} (exact modes)
  heapsnapshot: {
    about: "the C heap for Chrome DevTools' Memory panel; needs the heap graph",
    chunks: heapSnapshot.heapSnapshotChunks, suffix: '.heapsnapshot', mime: 'application/json', heap: true,
  },
  dhat: {
    about: "for Valgrind's dh_view.html and the Firefox Profiler",
    chunks: dhat.dhatChunks, object: dhat.toDhat, suffix: '.dhat.json', mime: 'application/json',
  },
};

function formatByName(name) {
  // own properties only, so "toString" or "__proto__" are unknown formats too
  if (Object.prototype.hasOwnProperty.call(FORMATS, name)) return FORMATS[name];
  throw new Error('unknown format "' + name + '": use one of ' + Object.keys(FORMATS).join(', '));
}

// The suffixes of the files that carry the snapshot, in FORMATS' order.
function snapshotSuffixes() {
  return Object.keys(FORMATS).filter(function (name) { return FORMATS[name].carriesSnapshot; })
    .map(function (name) { return FORMATS[name].suffix; });
}

module.exports = { FORMATS: FORMATS, formatByName: formatByName, snapshotSuffixes: snapshotSuffixes };
