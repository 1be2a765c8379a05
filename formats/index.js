// index.js: registry of output formats (name -> builder, file suffix, MIME
// type), shared by the page's download code and the CLI. A builder returns a
// JSON object (written with JSON.stringify), a string (text, written as is) or,
// when `binary` is set, a Uint8Array (bytes, written as is).

var toSpeedscope = require('./speedscope').toSpeedscope;
var toPerfView = require('./perfview').toPerfView;
var toPprof = require('./pprof').toPprof;
var toCollapsed = require('./collapsed').toCollapsed;
var toChromeTrace = require('./chrome_trace').toChromeTrace;

var FORMATS = {
  speedscope: { build: toSpeedscope, suffix: '.speedscope.json', mime: 'application/json' },
  // PerfView picks its JSON stack reader by the .perfView.json suffix
  perfview: { build: toPerfView, suffix: '.PerfView.json', mime: 'application/json' },
  // gzip-compressed protobuf, for `go tool pprof` (and speedscope)
  pprof: { build: toPprof, suffix: '.pb.gz', mime: 'application/octet-stream', binary: true },
  // folded stacks text, for flamegraph.pl and friends
  collapsed: { build: toCollapsed, suffix: '.collapsed.txt', mime: 'text/plain' },
  // Trace Event Format counters, for Perfetto and chrome://tracing
  'chrome-trace': { build: toChromeTrace, suffix: '.trace.json', mime: 'application/json' },
};

function formatByName(name) {
  // own properties only, so "toString" or "__proto__" are unknown formats too
  if (Object.prototype.hasOwnProperty.call(FORMATS, name)) return FORMATS[name];
  throw new Error('unknown format "' + name + '": use one of ' + Object.keys(FORMATS).join(', '));
}

module.exports = { FORMATS: FORMATS, formatByName: formatByName };
