// top.js: `emheap top FILE`: where a snapshot's live memory was allocated,
// largest first; or, with --since/--between, what came after a mark and is
// still live; or, with --growing, which rows keep growing. Each view is a
// file of its own (top_table.js, top_since.js, top_growing.js).
'use strict';

const { readView } = require('../read_view');
const { withMoreHelp } = require('../options');
const { WRAPPERS, BY, FOCUS, IGNORE, HIDE, TOP, JSON_OUTPUT, AT, INSTANCES } = require('../common_options');
const { SORTS } = require('../../model/sites');
const { printTop } = require('./top_table');
const { printSince } = require('./top_since');
const { printGrowing } = require('./top_growing');
const { printTemporary, printLifetimes } = require('./top_lifetimes');
const { printBetween } = require('./top_between');

const SORT = {
  name: 'sort', kind: 'value', arg: Object.keys(SORTS).join('|'),
  help: "bytes: by live bytes (default); count: by live blocks; allocs: by allocations ever made; retained: by the bytes the row's " +
    'blocks keep alive, shallow: by their own bytes (both need a snapshot with the heap graph: emheap.snapshot({heap: true}))',
};

const SINCE = {
  name: 'since', kind: 'value', arg: 'MARK',
  help: 'only what was allocated after MARK and is still live, by row (exact in exact mode: every block knows which marks ' +
    'it came after). MARK is a name (the latest mark of that name) or #N, mark number N. Marks are made by ' +
    'emheap_mark(name) in C, emheap.mark(name) in JS, Ctrl+Shift+M in the page',
};

const BETWEEN = {
  name: 'between', kind: 'pair', arg: 'MARK|TIME MARK|TIME|now',
  help: 'what the range from the first mark to the second (or now) did, by row: bytes and blocks made and freed in ' +
    'it, made in it and live at its end, made before and freed in it, made before and live through it (exact mode; ' +
    'the runtime records what each site holds at the last 16 marks made on the main thread). A time (1.5s, 300ms) ' +
    'picks the marks around it: the last at or before the start, the first at or after the end',
};

const GROWING = {
  name: 'growing', kind: 'flag',
  help: 'the rows the timeline followed, by how steadily they grew over the run, each with a verdict: "grows without ' +
    'bound" (grew all through: a leak, or a structure nobody trims) or "levels off" (rose, then flat: a cache), and its rate',
};

const TEMPORARY = {
  name: 'temporary', kind: 'flag',
  help: 'the rows by their temporary allocations (blocks freed before their thread allocated again, as heaptrack ' +
    'counts them), with their share of the row\'s allocations; exact mode',
};

const LIFETIMES = {
  name: 'lifetimes', kind: 'flag',
  help: 'how long each row\'s blocks lived: those that ended (freed, or moved by realloc) by the allocations made after ' +
    'them (0, 1-15, 16-255, ... in powers of 16) and by time (under 1 s, 1-10 s, 10-100 s, more), and those still ' +
    'live; exact mode',
};

module.exports = {
  name: 'top',
  summary: "Where a snapshot's live memory was allocated, largest first: per row (a function's stack by default, --by), " +
    'its live bytes and blocks, the allocations it made and their bytes, and its stack; with the heap graph also what it ' +
    'retains and its leaks. Or only what came after a mark and is still live (--since), what a range between marks did ' +
    '(--between), which rows keep ' +
    'growing (--growing), make temporary allocations (--temporary), or how long their blocks lived (--lifetimes).',
  positional: ['FILE'],
  options: [BY, FOCUS, IGNORE, HIDE, SORT, TOP, withMoreHelp(INSTANCES, '; none by default, 5 with --json'), AT, SINCE, BETWEEN, GROWING,
    TEMPORARY, LIFETIMES, JSON_OUTPUT, WRAPPERS],
  exclusive: [['since', 'between', 'growing', 'temporary', 'lifetimes']],
  run({ args, opts }, out) {
    const snapshot = readView(args[0], opts, { printable: true });
    if (opts.since !== undefined) return printSince(args, opts, snapshot, out);
    if (opts.between !== undefined) return printBetween(args, opts, snapshot, out);
    if (opts.growing) return printGrowing(args, opts, snapshot, out);
    if (opts.temporary) return printTemporary(args, opts, snapshot, out);
    if (opts.lifetimes) return printLifetimes(args, opts, snapshot, out);
    return printTop(args, opts, snapshot, out);
  },
};
