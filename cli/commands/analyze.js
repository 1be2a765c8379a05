// analyze.js: `emheap analyze DUMP`: the heap graph of a heap dump (or of a
// snapshot taken with {heap: true}): `top`'s table with the heap graph's
// defaults, by retained bytes with each row's blocks that retain the most.
'use strict';

const { readView, needHeapGraph } = require('../read_view');
const { withMoreHelp } = require('../options');
const { WRAPPERS, BY, FOCUS, IGNORE, HIDE, TOP, JSON_OUTPUT, INSTANCES } = require('../common_options');
const { SORTS } = require('../../model/sites');
const { printTop } = require('./top_table');

// retained first: the order analyze ranks by unless told
const SORT = {
  name: 'sort', kind: 'value', arg: ['retained', ...Object.keys(SORTS).filter((s) => s !== 'retained')].join('|'),
  help: 'retained: by retained bytes (default); the others as in emheap top',
};

module.exports = {
  name: 'analyze',
  summary: 'The heap graph of a heap dump (emheap.dumpHeap(): *.emheapdump.gz), or of a snapshot taken with {heap: true}: ' +
    "the dump's memory is scanned again here, with the page's code, so the numbers are the page's. Rows by retained " +
    'bytes, each with the blocks that retain the most, and the leaks by class (reachable, directly or indirectly leaked).',
  positional: ['DUMP'],
  options: [BY, FOCUS, IGNORE, HIDE, SORT, TOP, withMoreHelp(INSTANCES, '; default 3'), JSON_OUTPUT, WRAPPERS],
  notes: 'A dump is read wherever a snapshot is: emheap top, convert (--to heapsnapshot), diff.',
  run({ args, opts }, out) {
    const withDefaults = Object.assign({ sort: 'retained', instances: '3' }, opts);
    const snapshot = readView(args[0], withDefaults, { printable: true });
    needHeapGraph(snapshot, args[0], 'analyze');
    return printTop(args, withDefaults, snapshot, out);
  },
};
