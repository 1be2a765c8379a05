// index.js: registry of output formats (name -> builder, file suffix, MIME
// type), shared by the page's download code and the CLI.

var toSpeedscope = require('./speedscope').toSpeedscope;
var toPerfView = require('./perfview').toPerfView;

var FORMATS = {
  speedscope: { build: toSpeedscope, suffix: '.speedscope.json', mime: 'application/json' },
  // PerfView picks its JSON stack reader by the .perfView.json suffix
  perfview: { build: toPerfView, suffix: '.PerfView.json', mime: 'application/json' },
};

function formatByName(name) {
  // own properties only, so "toString" or "__proto__" are unknown formats too
  if (Object.prototype.hasOwnProperty.call(FORMATS, name)) return FORMATS[name];
  throw new Error('unknown format "' + name + '": use one of ' + Object.keys(FORMATS).join(', '));
}

module.exports = { FORMATS: FORMATS, formatByName: formatByName };
