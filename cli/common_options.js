// common_options.js: the options several commands take, each declared once
// (cli/options.js says how), so that its help is written once; and the
// readers of their values that the commands share.
'use strict';

const { EmheapError } = require('./errors');
const units = require('./units');
const { GROUPINGS } = require('../model/grouping');

const WRAPPERS = {
  name: 'wrappers', kind: 'value', arg: 'LIST',
  help: "the program's own allocation functions (names or globs, comma separated: --wrappers 'l_alloc,luaM_*'), " +
    'removed from the leaf end of every stack so that sites are named after their callers. emheap also detects an ' +
    'obvious allocation layer by itself; --wrappers none turns that off. The page does the same when it takes a ' +
    "snapshot (declare them with Module.emheapOptions.wrappers; 'none' there keeps every frame)",
};

const BY = {
  name: 'by', kind: 'value', arg: GROUPINGS.join('|'),
  help: 'function (default): rows by the chain of function names: the call sites of one function that a loop ' +
    'unrolled or an inlining made many are one row; line: by function and source line (file:~N: a line inferred ' +
    'from the row before the call); site: each call site as recorded; module: by the chain of modules (wasm ' +
    'files, scripts), per-module totals',
};

// pprof's -focus, -ignore and -hide (model/focus.js): a frame matches when
// the regex finds its function name, its file or its module.
const FOCUS = {
  name: 'focus', kind: 'value', arg: 'REGEX',
  help: 'only the rows with a frame that matches REGEX (its function name, file or module); the header says what ' +
    'share of the heap they hold',
};
const IGNORE = { name: 'ignore', kind: 'value', arg: 'REGEX', help: 'leave out the rows with a frame that matches REGEX' };
const HIDE = {
  name: 'hide', kind: 'value', arg: 'REGEX',
  help: 'take the frames that match REGEX out of every stack before grouping (plumbing that every row passes through)',
};

const TOP = { name: 'top', kind: 'value', arg: 'N', help: 'show the first N rows (default 20; 0 = all)' };

const JSON_OUTPUT = { name: 'json', kind: 'flag', help: 'print JSON instead of a table' };

const AT = {
  name: 'at', kind: 'value', arg: 'now|peak',
  help: 'now (default): the heap as it was when the snapshot was taken; peak: as it was when its live bytes were at ' +
    'their highest (what set the size of the wasm memory, which never shrinks)',
};

// (the heap graph's blocks: model/heap_graph.js)
const INSTANCES = {
  name: 'instances', kind: 'value', arg: 'N',
  help: "with the heap graph: each row's N blocks that retain the most (address, size, retained, reachable or leaked)",
};

// Commands add what their default name is (cli/output_file.js defaultOutput).
const OUTPUT = {
  name: 'output', short: 'o', kind: 'value', arg: 'OUT',
  help: "output file; by default FILE's name, in FILE's folder, with its suffix replaced",
};

const FORCE = { name: 'force', kind: 'flag', help: 'replace OUT if it exists (never the input, whatever its name)' };

// --sort's value, one of `sorts` (model/sites.js SORTS, model/diff.js
// DIFF_SORTS); bytes unless given.
function sortOrder(opts, sorts) {
  const sort = opts.sort === undefined ? 'bytes' : opts.sort;
  if (!Object.prototype.hasOwnProperty.call(sorts, sort)) {
    throw new EmheapError(`--sort: "${sort}" is not one of ${Object.keys(sorts).join(', ')}`);
  }
  return sort;
}

// --top's value: how many rows to show, 0 for all.
const topCount = (opts) => (opts.top === undefined ? 20 : units.parseWhole(opts.top, '--top'));

// -o or --output, as given (-o first when both are), or undefined.
const outputFile = (opts) => (opts.o !== undefined ? opts.o : opts.output);

module.exports = {
  WRAPPERS, BY, FOCUS, IGNORE, HIDE, TOP, JSON_OUTPUT, AT, INSTANCES, OUTPUT, FORCE,
  sortOrder, topCount, outputFile,
};
