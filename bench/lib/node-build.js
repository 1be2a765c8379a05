// node-build.js -- runs an Emscripten build's .js (no MODULARIZE) in this
// node realm with the given Module, compiled under its file name as
// require() would. Why not `new Function`: its frames have no script, and
// emheap's V8 capture keys such frames by their text, a slower path than an
// app's glue ever takes (bench/README.md, "The cost of a sample").
'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');

// The build reads a global-looking `Module` and node's require/__dirname:
// it gets them as the parameters of a function around its source.
function runBuild(js, Module) {
  const source = fs.readFileSync(js, 'utf8');
  const wrapped = vm.runInThisContext(`(function (require, __dirname, __filename, Module) {${source}\n})`, {filename: js});
  wrapped(require, path.dirname(js), js, Module);
}

module.exports = {runBuild};
