#!/usr/bin/env node
// emheap.js: the emheap command line (see cli/README.md). This file only
// parses arguments and prints; the work is in the modules beside it
// (read_snapshot, sites, diff, budget, units, table) and, for every file
// format, in formats/ (the same builders the page uses).
//
// Exit codes: 0 done, 1 `check` found a budget exceeded, 2 bad usage or bad
// input (one "emheap: ..." line on stderr, never a stack trace).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const { EmheapError } = require('./errors');
const { readSnapshotFile } = require('./read_snapshot');
const { SORTS, topSites, stackText, modeNote, requestedLiveBytes, siteLabel, stackFrames } = require('../model/sites');
const { liveSince, windowText } = require('../model/marks');
const { growingSites, whyNoSeries, incompleteNote } = require('../model/growing');
const { outOfMemoryLines } = require('../model/out_of_memory');
const growth = require('../model/growth');
const { siteErrorText, hasSampledBlocks } = require('../model/estimates');
const { diffSnapshots, sortDiffRows, diffReport, DIFF_SORTS } = require('../model/diff');
const { checkBudgets } = require('./budget');
const units = require('./units');
const { renderTable, clip, printable, withPrintableNames } = require('./table');
const { FORMATS, formatByName } = require('../formats/index');
const { writeFormat } = require('../output/node_output');
const { reportCommand } = require('./report');
const { shortName } = require('../model/names');
const { parseWrapperList } = require('../model/wrappers');
const { finishSnapshot } = require('../model/finish');
const { peakView, memoryUse } = require('../model/peak');
const { memoryBreakdown, breakdownText } = require('../model/memory_breakdown');
const { scanCaveat } = require('../model/heap_section');
const { GROUPINGS, DEFAULT_GROUPING, groupSnapshot } = require('../model/grouping');

// Characters shown per row in tables, after C++ names are shortened
// (model/names.js); --json has everything in full.
const STACK_WIDTH = 100;
const KEY_WIDTH = 80;

const USAGE = {
  top: {
    synopsis: 'emheap top FILE [--by function|line|site] [--sort bytes|count|allocs|retained|shallow] [--top N] ' +
      '[--instances N] [--at now|peak] [--since MARK | --between MARK MARK | --growing] [--json]',
    text: `Where a snapshot's live memory was allocated, largest first.
  --by function  rows by the chain of function names (default): the call sites of one
                 function that a loop unrolled or an inlining made many are one row;
                 line: by function and source line; site: each call site as recorded
  --sort bytes   by live bytes (default); count: by live blocks; allocs: by allocations ever made;
                 retained: by the bytes the site's blocks keep alive, shallow: by their own
                 bytes (both need a snapshot with the heap graph: emheap.snapshot({heap: true}))
  --top N        show the first N sites (default 20; 0 = all)
  --instances N  with the heap graph: each site's N blocks that retain the most (address,
                 size, retained, reachable or leaked; --json: 5 unless given)
  --at peak      live bytes and blocks as they were when the heap's live bytes were at
                 their highest (what set the size of the wasm memory, which never
                 shrinks); default now, when the snapshot was taken
  --since MARK   only what was allocated after MARK and is still live, by site (exact in
                 exact mode: every block knows which marks it came after). MARK is a name
                 (the latest mark of that name) or #N, mark number N. Marks are made by
                 emheap_mark(name) in C, emheap.mark(name) in JS, Ctrl+Shift+M in the page
  --between A B  only what was allocated after mark A and before mark B, still live
  --growing      the tracked sites by how steadily they grew over the run, each with a
                 verdict: "grows without bound" (grew all through: a leak, or a structure
                 nobody trims) or "levels off" (rose, then flat: a cache), and its rate
  --json         print JSON instead of a table`,
  },
  analyze: {
    synopsis: 'emheap analyze DUMP [--by function|line|site] [--sort retained|shallow|bytes|count|allocs] [--top N] ' +
      '[--instances N] [--json]',
    text: `The heap graph of a heap dump (emheap.dumpHeap(): *.emheapdump.gz), or of a snapshot
taken with {heap: true}: the dump's memory is scanned again here, with the page's code,
so the numbers are the page's. Sites by retained bytes, each with the blocks that
retain the most, and the leaks by class (reachable, directly or indirectly leaked).
  --sort retained  by retained bytes (default); shallow, bytes, count, allocs as in emheap top
  --top N          show the first N sites (default 20; 0 = all)
  --instances N    each site's N blocks that retain the most (default 3)
  --json           print JSON instead of a table
A dump is read wherever a snapshot is: emheap top, convert (--to heapsnapshot), diff.`,
  },
  diff: {
    synopsis: 'emheap diff BEFORE AFTER [--by function|line|site] [--sort bytes|count|allocs] [--top N] [--json]',
    text: `What changed between two snapshots of one page session (BEFORE taken first).
Rows are grouped by --by, as in emheap top (default: by function), and matched by
their key, and by full stack where keys collide.
Columns, as in Chrome DevTools' heap comparison:
  # New        allocations made in between      # Deleted   blocks freed in between
  # Delta      change in live blocks            Alloc. Size bytes allocated in between
  Freed Size   bytes freed in between           Size Delta  change in live bytes
  --sort bytes   by size delta (default); count: by # delta; allocs: by # new (largest first)
  --top N        show the first N changed sites (default 20; 0 = all)
  --json         print JSON instead of a table`,
  },
  convert: {
    synopsis: `emheap convert FILE --to ${Object.keys(FORMATS).join('|')}[,...] [-o OUT] [--force]`,
    text: `Write the snapshot in another format (the same builders as the page).
  --to FORMAT    speedscope (.speedscope.json), perfview (.PerfView.json), pprof (.pb.gz,
                 for go tool pprof), collapsed (.collapsed.txt, folded stacks for
                 flamegraph.pl), chrome-trace (.trace.json, for Perfetto / chrome://tracing);
                 several, comma-separated, read FILE once and write each
  -o OUT         output file (default: FILE with the format's suffix; "-" = stdout;
                 one format only)
  --force        replace OUT if it exists (never the input, whatever its name)
  --at peak      write the heap as it was at its peak of live bytes (see emheap top)`,
  },
  report: {
    synopsis: 'emheap report FILE [--by function|line|site] [-o OUT] [--force]',
    text: `Write one self-contained HTML page to look at (docs/report.md): the live bytes over
time with the marks, the growths of the wasm memory and the peak; the top sites'
series stacked; why the wasm memory is this big; the top sites; what was allocated
after each mark; which sites keep growing. It needs no network: open it from disk.
  -o OUT         output file (default: FILE with .report.html)
  --force        replace OUT if it exists (never the input, whatever its name)`,
  },
  check: {
    synopsis: 'emheap check FILE [--max-live-bytes N] [--max-site-bytes N] [--by function|line|site] [--at now|peak]',
    text: `Check memory budgets, for CI: exit 0 and print OK when within budget,
exit 1 naming the sites when a budget is exceeded.
  --max-live-bytes N   budget for all live bytes (summary.liveBytes, exact)
  --max-site-bytes N   budget for the live bytes of any one row of emheap top (--by: a
                       function's stack by default, or a line, or a call site)
  --at peak            check the heap at its peak of live bytes, not as it was at the end
N is ${units.SIZE_HELP}.`,
  },
};

const OPTIONS = {
  top: {
    sort: 'value', top: 'value', json: 'flag', wrappers: 'value', at: 'value', instances: 'value', since: 'value',
    between: 'pair', growing: 'flag', by: 'value',
  },
  analyze: { sort: 'value', top: 'value', json: 'flag', wrappers: 'value', instances: 'value', by: 'value' },
  diff: { sort: 'value', top: 'value', json: 'flag', wrappers: 'value', by: 'value' },
  convert: { to: 'value', o: 'value', output: 'value', force: 'flag', wrappers: 'value', at: 'value' },
  report: { o: 'value', output: 'value', force: 'flag', wrappers: 'value', by: 'value' },
  check: { 'max-live-bytes': 'value', 'max-site-bytes': 'value', wrappers: 'value', at: 'value', by: 'value' },
};
const POSITIONAL = { top: ['FILE'], analyze: ['DUMP'], diff: ['BEFORE', 'AFTER'], convert: ['FILE'], report: ['FILE'], check: ['FILE'] };

function mainUsage() {
  return `emheap: read the heap profiles emheap writes (Ctrl+Shift+H in the page)

Usage:
${Object.values(USAGE).map((u) => '  ' + u.synopsis).join('\n')}
  emheap help COMMAND

FILE is a *.speedscope.json or *.PerfView.json file emheap wrote, a bare
snapshot JSON (emheap.snapshot() in the page), or a heap dump
(emheap.dumpHeap(): *.emheapdump.gz, scanned again here). Exit status: 0 ok, 1 budget
exceeded (check), 2 bad usage or unreadable input.

Every command takes --wrappers LIST: the program's own allocation functions
(names or globs, comma separated: --wrappers 'l_alloc,luaM_*'), removed from
the leaf end of every stack so that sites are named after their callers.
emheap also detects an obvious allocation layer by itself; --wrappers none
turns that off. The page does the same when it takes a snapshot (declare
them with Module.emheapOptions.wrappers; 'none' there keeps every frame).
`;
}

function commandUsage(cmd) {
  return `Usage: ${USAGE[cmd].synopsis}\n\n${USAGE[cmd].text}\n`;
}

// A snapshot file as the views read it: checked, names printable (forText:
// a command that prints a table, not --json), finished as the page
// finishes its own (model/finish.js: the allocation layer declared by
// --wrappers and detected left out), at the peak when asked, its sites
// grouped (--by; views only: `convert` writes the file's own sites,
// grouped: false).
function readSnapshot(file, opts, forText, grouped = true) {
  const read = readSnapshotFile(file).snapshot;
  const snapshot = forText && !opts.json ? withPrintableNames(read) : read;
  const named = finishSnapshot(snapshot, { wrappers: parseWrapperList(opts.wrappers === undefined ? [] : opts.wrappers) });
  const at = opts.at === undefined ? 'now' : opts.at;
  if (at !== 'now' && at !== 'peak') throw new EmheapError(`--at: "${at}" is not one of now, peak`);
  const by = opts.by === undefined ? DEFAULT_GROUPING : opts.by;
  if (!GROUPINGS.includes(by)) throw new EmheapError(`--by: "${by}" is not one of ${GROUPINGS.join(', ')}`);
  let view = named;
  if (at === 'peak') {
    view = peakView(named);
    if (!view) {
      throw new EmheapError(`${file}: --at peak: this snapshot has no per-site numbers at the peak ` +
        '(it was taken by an emheap older than this one)');
    }
  }
  return grouped ? groupSnapshot(view, by) : view;
}

// What a view's rows are: "function", "line" or "site" (--by).
function rowWord(snapshot) {
  return snapshot.groupedBy || 'site';
}
const rowsWord = (snapshot) => rowWord(snapshot) + 's';

// Under a grouped table: how many call sites the groups hold.
function partsNote(snapshot) {
  if (!snapshot.groupedBy) return '';
  const sites = snapshot.sites.reduce((n, s) => n + (s.parts || 1), 0);
  return `(${plural(sites, 'call site')} grouped by ${snapshot.groupedBy}; --by site shows them one by one)\n`;
}

// argv -> {cmd, args: [positional], opts: {name: value}} or {help: text}
function parseArgs(argv) {
  if (argv.length === 0) throw new EmheapError('no command given; run "emheap --help" for usage');
  const [cmd, ...rest] = argv;
  if (cmd === '--help' || cmd === '-h') return { help: mainUsage() };
  if (cmd === '--version' || cmd === '-V') return { help: require('../package.json').version + '\n' };
  if (cmd === 'help') {
    if (rest.length === 0) return { help: mainUsage() };
    if (!USAGE[rest[0]] || rest.length > 1) {
      throw new EmheapError(`help: unknown command "${rest.join(' ')}" (commands: ${Object.keys(USAGE).join(', ')})`);
    }
    return { help: commandUsage(rest[0]) };
  }
  if (!OPTIONS[cmd]) {
    throw new EmheapError(`unknown command "${cmd}" (commands: ${Object.keys(USAGE).join(', ')}, help)`);
  }
  const known = OPTIONS[cmd];
  const args = [];
  const opts = {};
  let onlyArgs = false;
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i];
    if (onlyArgs || token === '-' || !token.startsWith('-')) {
      args.push(token);
      continue;
    }
    if (token === '--') {
      onlyArgs = true;
      continue;
    }
    if (token === '--help' || token === '-h') return { help: commandUsage(cmd) };
    const eq = token.indexOf('=');
    const spelled = eq > 0 ? token.slice(0, eq) : token;
    const name = spelled.replace(/^--?/, '');
    // long options take two dashes, the one-letter -o one
    const wellFormed = name.length === 1 ? spelled === '-' + name : spelled === '--' + name;
    if (!wellFormed || !Object.prototype.hasOwnProperty.call(known, name)) {
      throw new EmheapError(`unknown option ${spelled} for "emheap ${cmd}" (see "emheap help ${cmd}")`);
    }
    if (known[name] === 'flag') {
      if (eq > 0) throw new EmheapError(`option ${spelled} takes no value`);
      opts[name] = true;
    } else if (known[name] === 'pair') {
      const values = eq > 0 ? [token.slice(eq + 1), rest[i + 1]] : [rest[i + 1], rest[i + 2]];
      if (values.some((v) => v === undefined || (v.startsWith('--') && v.length > 2))) {
        throw new EmheapError(`option ${spelled} needs two values (see "emheap help ${cmd}")`);
      }
      opts[name] = values;
      i += eq > 0 ? 1 : 2;
    } else if (eq > 0) {
      opts[name] = token.slice(eq + 1);
    } else {
      const value = rest[i + 1];
      if (value === undefined || (value.startsWith('--') && value.length > 2)) {
        throw new EmheapError(`option ${spelled} needs a value (see "emheap help ${cmd}")`);
      }
      opts[name] = value;
      i++;
    }
  }
  const want = POSITIONAL[cmd];
  if (args.length < want.length) {
    throw new EmheapError(`${cmd} needs ${want.slice(args.length).join(' and ')} (usage: ${USAGE[cmd].synopsis})`);
  }
  if (args.length > want.length) {
    throw new EmheapError(`${cmd} takes ${want.join(' and ')}, but got also "${args[want.length]}" (usage: ${USAGE[cmd].synopsis})`);
  }
  return { cmd, args, opts };
}

function sortOption(opts, sorts) {
  const sort = opts.sort === undefined ? 'bytes' : opts.sort;
  if (!Object.prototype.hasOwnProperty.call(sorts, sort)) {
    throw new EmheapError(`--sort: "${sort}" is not one of ${Object.keys(sorts).join(', ')}`);
  }
  return sort;
}

const plural = (n, word) => `${units.formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

const topOption = (opts) => (opts.top === undefined ? 20 : units.parseWhole(opts.top, '--top'));

function snapshotHeader(file, snap) {
  const s = snap.summary;
  return `${file}\n` +
    `captured ${snap.capturedAt}${snap.source ? ' from ' + snap.source : ''}\n` +
    `${modeNote(snap)}\n` +
    (snap.view === 'peak'
      ? `at the peak of live bytes: ${units.formatBytesExact(s.liveBytes)} in ${plural(s.liveBlocks, 'block')}, ` +
        `${plural(snap.sites.length, 'site')} (per-site numbers are those of that moment)\n`
      : `live (usable sizes) ${units.formatBytesExact(s.liveBytes)} in ${plural(s.liveBlocks, 'block')}${sizesNote(snap)}; ` +
        `peak ${units.formatBytes(s.peakLiveBytes)}; ${plural(snap.sites.length, 'site')}\n`) +
    memoryNote(snap) + growthNote(snap) + marksNote(snap) + leakNote(snap) + layerNote(snap) + outOfMemoryNote(snap);
}

// The marks the program made, with their times (the last MARKS_SHOWN).
const MARKS_SHOWN = 10;
function marksNote(snap) {
  const marks = snap.marks || [];
  if (!marks.length) return '';
  const total = marks.length + (snap.marksDropped || 0);
  const shown = marks.slice(-MARKS_SHOWN);
  return `marks: ${units.formatCount(total)}${shown.length < total ? `, the last ${shown.length}` : ''}: ` +
    shown.map((m) => `#${m.number} "${m.name}" at ${(m.t / 1000).toFixed(3)} s`).join(', ') + '\n';
}

// The memory's growths, each with the site whose allocation made it.
function growthNote(snap) {
  const lines = growth.growthLines(snap);
  return lines.length ? lines.join('\n') + '\n' : '';
}

// A snapshot taken when the memory ran out: what could not be met, and
// where (the memory and the sites are in the lines around it).
function outOfMemoryNote(snap) {
  const lines = outOfMemoryLines(snap).slice(0, 2);
  return lines.length ? lines.join('\n') + '\n' : '';
}

// What the live bytes are made of: the program's requests (what sites
// count) and the allocator's rounding of them, where both are known.
// Each number with its label: "live (usable sizes) N in B blocks: asked
// for by the program R, the allocator's rounding D".
function sizesNote(snap) {
  const requested = requestedLiveBytes(snap);
  if (requested === null) return '';
  return `: asked for by the program${snap.summary.lostAllocs ? ' (the recorded blocks)' : ''} ` +
    `${units.formatBytesExact(requested)}, the allocator's rounding ${units.formatBytesExact(snap.summary.allocatorRoundingBytes || 0)}`;
}

// The heap graph's leak classes (model/heap_graph.js), as LSan names them.
function leakNote(snap) {
  const h = snap.heap;
  if (!h) return '';
  const l = h.leaked;
  const keepers = h.groups.filter((g) => g.name !== '(leaked)' && g.retainedBytes > 0)
    .map((g) => `${g.name} ${units.formatBytes(g.retainedBytes)}`);
  return `heap graph: leaked: ${plural(l.directBlocks, 'block')} directly (${units.formatBytesExact(l.directBytes)}), ` +
    `${l.indirectBlocks} indirectly (${units.formatBytesExact(l.indirectBytes)}); ` +
    (keepers.length ? `kept by ${keepers.join(', ')}` : 'no root keeps a block') + '\n' +
    (scanCaveat(h) ? `heap graph: ${scanCaveat(h)}\n` : '');
}

// Why the wasm memory is this big: its parts now (model/memory_breakdown.js,
// the words of the out-of-memory report and emheap.memory()), then what the
// allocator had taken at the peak and how much of that live blocks used
// (model/peak.js).
function memoryNote(snap) {
  const m = memoryUse(snap);
  if (!m) return '';
  const now = breakdownText(memoryBreakdown(snap));
  const p = m.peak;
  // (a peak view has no parts now: the memory's size and the peak on one line)
  return (now ? now + '\n' : `wasm memory ${units.formatBytes(m.heapSize)}; `) +
    `at the peak: allocator ${units.formatBytes(p.allocatorBytes)} (${units.formatBytes(p.liveBytes)} live, ` +
    `${units.formatBytes(p.freeInAllocator)} free or the allocator's own)\n`;
}

// The growths with their sites as text (model/growth.js), for --json.
function growthsNamed(snapshot) {
  const textOf = (id) => growth.siteText(snapshot, id);
  return (snapshot.heapGrowth || []).map((g) => Object.assign({}, g, {
    site: textOf(g.siteId),
    top: (g.top || []).map((t) => Object.assign({}, t, { site: textOf(t.siteId) })),
  }));
}

// Which allocation layer the sites were named without (model/wrappers.js).
function layerNote(snap) {
  const w = snap.wrappers;
  if (!w || (!w.declared.length && !w.detected.length && !w.standardLibrary)) return '';
  const parts = [];
  if (w.standardLibrary) parts.push('C++ standard library frames');
  if (w.declared.length) parts.push(`${w.declared.map(shortName).join(', ')} (declared)`);
  if (w.detected.length) parts.push(`${w.detected.map(shortName).join(', ')} (detected)`);
  return `allocation layer left out of sites: ${parts.join('; ')}\n`;
}

// `what` (an option) reads the heap graph: one line saying why there is
// none. The peak view has none by design: the graph is of the moment the
// snapshot was taken, and the peak's blocks are gone.
function needHeapGraph(snapshot, file, what) {
  if (snapshot.heap) return;
  if (snapshot.view === 'peak') {
    throw new EmheapError(`${what} reads the heap graph, which is of the moment ${file} was taken, not of the peak: ` +
      'leave --at peak out');
  }
  throw new EmheapError(`${what}: ${file} has no heap graph: take the snapshot in exact mode with ` +
    'emheap.snapshot({heap: true}) or downloadSnapshot("heapsnapshot")');
}

function cmdTop({ args, opts }, out) {
  const chosen = ['since', 'between', 'growing'].filter((k) => opts[k] !== undefined);
  if (chosen.length > 1) throw new EmheapError(`--${chosen[0]} and --${chosen[1]} cannot go together`);
  const snapshot = readSnapshot(args[0], opts, true);
  if (opts.since !== undefined || opts.between !== undefined) return printSince(args, opts, snapshot, out);
  if (opts.growing) return printGrowing(args, opts, snapshot, out);
  return printTop(args, opts, snapshot, out);
}

// id -> a site's label, stack and live bytes, for the tables and --json
// of --since/--growing (one map: --top 0 over a million sites).
function siteRows(snapshot) {
  const byId = new Map(snapshot.sites.map((s) => [s.id, s]));
  return (id) => {
    const site = byId.get(id);
    return site ? { label: siteLabel(snapshot, site), stack: stackFrames(snapshot, site), liveBytes: site.liveBytes, callSites: site.parts || 1 }
      : { label: `(site ${id})`, stack: [], liveBytes: 0 };
  };
}

function stackColumn(row) {
  return clip(stackText(row.stack.map((f) => shortName(f.name))), STACK_WIDTH);
}

// `emheap top --since MARK` / `--between A B`: what was allocated after a
// mark (and before another) and is still live, by site (model/marks.js).
function printSince(args, opts, snapshot, out) {
  if (snapshot.view === 'peak') {
    throw new EmheapError('--since and --between read the blocks live when the snapshot was taken, not at the peak: ' +
      'leave --at peak out');
  }
  if (opts.sort !== undefined || opts.instances !== undefined) {
    throw new EmheapError('--since and --between rank by live bytes; --sort and --instances do not apply');
  }
  const top = topOption(opts);
  let result;
  try {
    result = opts.between ? liveSince(snapshot, opts.between[0], opts.between[1]) : liveSince(snapshot, opts.since);
  } catch (e) {
    if (e.userError) throw new EmheapError(`${args[0]}: ${e.message}`);
    throw e;
  }
  const shown = top > 0 ? result.sites.slice(0, top) : result.sites;
  const siteRow = siteRows(snapshot);
  const rows = shown.map((s, i) => {
    const site = siteRow(s.id);
    return Object.assign({ rank: i + 1, id: s.id }, site, {
      liveBytesAll: site.liveBytes, liveBytes: s.liveBytes, liveBlocks: s.liveBlocks, estimatedLiveBytes: s.estimatedLiveBytes,
    });
  });
  if (opts.json) {
    out(JSON.stringify({
      file: args[0], capturedAt: snapshot.capturedAt, mode: snapshot.mode, marks: snapshot.marks,
      since: result.since, until: result.until, liveBytes: result.liveBytes, liveBlocks: result.liveBlocks,
      estimatedLiveBytes: result.estimatedLiveBytes, totalSites: result.sites.length, sites: rows,
    }, null, 2) + '\n');
    return 0;
  }
  // (in a sampled snapshot even 0 is an estimate: blocks nobody sampled
  // are in no site)
  const sampled = hasSampledBlocks(snapshot);
  const approx = (bytes, part) => (part > 0 || sampled ? `~${units.formatBytes(bytes)}` : units.formatBytesExact(bytes));
  const error = (bytes, part) => (part > 0 ? ' ' + siteErrorText(snapshot, { estimatedLiveBytes: part, liveBytes: bytes }) : '');
  let text = snapshotHeader(args[0], snapshot) + '\n' +
    `allocated ${windowText(result)} and still live: ${approx(result.liveBytes, result.estimatedLiveBytes)}` +
    `${error(result.liveBytes, result.estimatedLiveBytes)} in ${plural(result.liveBlocks, 'block')}` +
    (sampled ? ' (~: estimates from the sampled blocks, +-: one standard error)' : '') + '\n\n';
  if (!rows.length) {
    text += `no ${rowWord(snapshot)} holds a block from that window\n`;
  } else {
    const columns = [
      { title: '#', align: 'right' }, { title: 'bytes since', align: 'right' }, { title: 'blocks since', align: 'right' },
      { title: 'live bytes (all)', align: 'right' }, { title: rowWord(snapshot), align: 'left' },
      { title: 'stack (leaf first)', align: 'left' },
    ];
    text += renderTable(columns, rows.map((r) => [
      r.rank, approx(r.liveBytes, r.estimatedLiveBytes) + error(r.liveBytes, r.estimatedLiveBytes),
      (r.estimatedLiveBytes > 0 ? '~' : '') + units.formatCount(r.liveBlocks), units.formatBytes(r.liveBytesAll),
      clip(shortName(r.label), KEY_WIDTH), stackColumn(r),
    ]));
    text += `\n${rows.length} of ${result.sites.length} ${rowsWord(snapshot)}` +
      (rows.length < result.sites.length ? ' (--top 0 shows all)' : '') + '\n';
  }
  out(text);
  return 0;
}

// `emheap top --growing`: the tracked sites by how steadily they grew
// (model/growing.js).
function printGrowing(args, opts, snapshot, out) {
  if (opts.sort !== undefined || opts.instances !== undefined) {
    throw new EmheapError('--growing ranks by how steadily sites grew; --sort and --instances do not apply');
  }
  const why = whyNoSeries(snapshot);
  if (why) throw new EmheapError(`${args[0]}: --growing: ${why}`);
  const top = topOption(opts);
  const all = growingSites(snapshot);
  const shown = top > 0 ? all.slice(0, top) : all;
  const siteRow = siteRows(snapshot);
  const rows = shown.map((g, i) => Object.assign({ rank: i + 1 }, g, siteRow(g.siteId)));
  const span = snapshot.timeline.length > 1 ? (snapshot.timeline[snapshot.timeline.length - 1].t - snapshot.timeline[0].t) / 1000 : 0;
  if (opts.json) {
    out(JSON.stringify({
      file: args[0], capturedAt: snapshot.capturedAt, mode: snapshot.mode, timelinePoints: snapshot.timeline.length,
      timelineSeconds: span, totalSites: all.length, sites: rows.map((r) => Object.assign({}, r, { liveBytes: undefined })),
    }, null, 2) + '\n');
    return 0;
  }
  const per = (g) => `${g.bytesPerSecond < 0 ? '-' : '+'}${units.formatBytes(Math.abs(Math.round(g.bytesPerSecond)))}/s`;
  const columns = [
    { title: '#', align: 'right' }, { title: 'verdict', align: 'left' }, { title: 'rise', align: 'right' },
    { title: 'rate', align: 'right' }, { title: 'grew in', align: 'right' }, { title: 'now', align: 'right' },
    { title: rowWord(snapshot), align: 'left' }, { title: 'stack (leaf first)', align: 'left' },
  ];
  const approx = (g, bytes) => (g.estimated ? '~' : '') + units.formatBytes(bytes);
  let text = snapshotHeader(args[0], snapshot) + '\n' +
    `${rowsWord(snapshot)} tracked over ${snapshot.timeline.length} points (${span.toFixed(3)} s): ${all.length}` +
    (all.some((g) => g.estimated) ? ' (~: estimates from sampled blocks)' : '') + '\n\n';
  text += renderTable(columns, rows.map((r) => [
    r.rank, r.verdict, (r.estimated ? '~' : '') + (r.riseBytes < 0 ? '-' : '+') + units.formatBytes(Math.abs(r.riseBytes)),
    (r.estimated ? '~' : '') + per(r),
    r.segments ? `${Math.round(r.grewIn * r.segments)}/${r.segments} parts` : '-', approx(r, r.lastBytes),
    clip(shortName(r.label), KEY_WIDTH), stackColumn(r),
  ]));
  text += '\n"grew in": of the series cut into equal parts, those that ended higher than the one before.\n';
  const incomplete = incompleteNote(snapshot);
  if (incomplete) text += `note: ${incomplete}\n`;
  out(text);
  return 0;
}

// `emheap top` of a snapshot already read (args[0] names it).
function printTop(args, opts, snapshot, out) {
  const sort = sortOption(opts, SORTS);
  const top = topOption(opts);
  if (SORTS[sort].heap) needHeapGraph(snapshot, args[0], `--sort ${sort}`);
  const instances = opts.instances !== undefined ? units.parseWhole(opts.instances, '--instances') : opts.json ? 5 : 0;
  if (instances > 0 && opts.instances !== undefined) needHeapGraph(snapshot, args[0], '--instances');
  const result = topSites(snapshot, { sort, top, instances });
  if (opts.json) {
    out(JSON.stringify(Object.assign({
      file: args[0], capturedAt: snapshot.capturedAt, source: snapshot.source, by: rowWord(snapshot),
      mode: snapshot.mode, samplingInterval: snapshot.samplingInterval, summary: snapshot.summary,
      wrappers: snapshot.wrappers, memory: memoryBreakdown(snapshot), heapGrowth: growthsNamed(snapshot),
    }, snapshot.outOfMemory ? { outOfMemory: snapshot.outOfMemory } : {}, result), null, 2) + '\n');
    return 0;
  }
  let text = snapshotHeader(args[0], snapshot) + '\n';
  if (result.sites.length === 0) {
    text += `no ${rowsWord(snapshot)}\n`;
  } else {
    const columns = [
      { title: '#', align: 'right' }, { title: 'live bytes', align: 'right' }, { title: 'live blocks', align: 'right' },
      { title: 'allocs', align: 'right' }, { title: 'alloc bytes', align: 'right' }, { title: rowWord(snapshot), align: 'left' },
      { title: 'stack (leaf first)', align: 'left' },
    ];
    // Estimates (sampled blocks) marked "~" with their standard error.
    const live = (s) => (s.estimatedLiveBytes > 0
      ? `~${units.formatBytes(s.liveBytes)} ${siteErrorText(snapshot, s)}` : units.formatBytes(s.liveBytes));
    const heap = !!snapshot.heap;
    if (heap) {
      // the heap graph's columns before the site: retained, and leaks by class
      columns.splice(5, 0, { title: 'retained', align: 'right' }, { title: 'leaked direct/indirect', align: 'right' });
    }
    const rows = result.sites.map((s) => [
      s.rank, live(s), units.formatCount(s.liveBlocks), units.formatCount(s.totalAllocs),
      units.formatBytes(s.totalBytes),
      ...(heap ? [units.formatBytes(s.retainedBytes || 0), `${s.directBlocks || 0}/${s.indirectBlocks || 0}`] : []),
      clip(shortName(s.label), KEY_WIDTH),
      clip(stackText(s.stack.map((f) => shortName(f.name))), STACK_WIDTH),
    ]);
    text += renderTable(columns, rows);
    for (const site of result.sites) {
      if (!site.instances || !site.instances.length) continue;
      text += `\n#${site.rank} ${clip(shortName(site.label), KEY_WIDTH)}: blocks that retain the most\n`;
      for (const b of site.instances) {
        text += `  0x${b.address.toString(16)}  ${units.formatBytes(b.size)}, retains ${units.formatBytes(b.retained)}, ${b.state}\n`;
      }
    }
    text += `\n${result.sites.length} of ${result.totalSites} ${rowsWord(snapshot)}, sorted by ${SORTS[sort].title}` +
      (result.sites.length < result.totalSites ? ' (--top 0 shows all)' : '') + '\n' + partsNote(snapshot);
  }
  out(text);
  return 0;
}

function cmdDiff({ args, opts }, out) {
  const sort = sortOption(opts, DIFF_SORTS);
  const top = topOption(opts);
  const before = readSnapshot(args[0], opts, true);
  const after = readSnapshot(args[1], opts, true);
  if (opts.json) {
    out(JSON.stringify(diffReport(before, after, { sort, top, files: args }), null, 2) + '\n');
    return 0;
  }
  const diff = diffSnapshots(before, after);
  const ranked = sortDiffRows(diff.rows, sort);
  const shown = top > 0 ? ranked.slice(0, top) : ranked;
  const t = diff.totals;
  const b = units.formatBytes;
  const c = units.formatCount;
  let text = `BEFORE ${args[0]} (captured ${before.capturedAt})\nAFTER  ${args[1]} (captured ${after.capturedAt})\n\n`;
  text += renderTable(
    [{ title: 'totals (exact)', align: 'left' }, { title: 'before', align: 'right' }, { title: 'after', align: 'right' }, { title: 'delta', align: 'right' }],
    [
      ['live bytes', b(t.liveBytes.before), b(t.liveBytes.after), units.formatBytesDelta(t.liveBytes.delta)],
      ['live blocks', c(t.liveBlocks.before), c(t.liveBlocks.after), units.formatCountDelta(t.liveBlocks.delta)],
      ['bytes allocated ever', b(t.totalBytes.before), b(t.totalBytes.after), units.formatBytesDelta(t.totalBytes.delta)],
      ['allocation calls', c(t.allocCalls.before), c(t.allocCalls.after), units.formatCountDelta(t.allocCalls.delta)],
      ['free calls', c(t.freeCalls.before), c(t.freeCalls.after), units.formatCountDelta(t.freeCalls.delta)],
      ['sites', c(t.sites.before), c(t.sites.after), units.formatCountDelta(t.sites.delta)],
    ]);
  text += '\n';
  if (shown.length === 0) {
    text += `no ${rowWord(after)} changed\n`;
  } else {
    const columns = [
      { title: '# New', align: 'right' }, { title: '# Deleted', align: 'right' }, { title: '# Delta', align: 'right' },
      { title: 'Alloc. Size', align: 'right' }, { title: 'Freed Size', align: 'right' }, { title: 'Size Delta', align: 'right' },
      { title: rowWord(after), align: 'left' }, { title: 'stack (leaf first)', align: 'left' },
    ];
    const row = (r, label, stack) => [
      c(r.newAllocs), c(r.freedBlocks), units.formatCountDelta(r.countDelta),
      b(r.allocBytes), b(r.freedBytes), units.formatBytesDelta(r.sizeDelta), label, stack,
    ];
    const rows = shown.map((r) => row(r, clip(shortName(r.label), KEY_WIDTH) + (r.status === 'both' ? '' : ` (${r.status})`),
      clip(stackText(r.stack.map(shortName)), STACK_WIDTH)));
    rows.push(row(diff.sum, `total of ${c(ranked.length)} changed ${rowsWord(after)}`, ''));
    text += renderTable(columns, rows);
    text += `\n${shown.length} of ${ranked.length} changed ${rowsWord(after)}, sorted by ${DIFF_SORTS[sort].title}` +
      (shown.length < ranked.length ? ' (--top 0 shows all)' : '') + '\n';
    if (diff.blocks) text += blockChangesText(diff.blocks, shown);
  }
  for (const note of diff.notes) text += `note: ${note}\n`;
  out(text);
  return 0;
}

// Both snapshots had the heap graph: the blocks themselves, matched by id
// (model/diff.js blockChanges), per shown site its largest new and deleted.
function blockChangesText(blocks, shown) {
  const b = units.formatBytes;
  let text = `\nblocks (heap graphs, matched by block id): ${units.formatCount(blocks.new)} new (${b(blocks.newBytes)}), ` +
    `${units.formatCount(blocks.deleted)} deleted (${b(blocks.deletedBytes)})\n`;
  shown.forEach((r, i) => {
    if (!r.blocks || !r.blocks.instances.length) return;
    text += `#${i + 1} ${clip(shortName(r.label), KEY_WIDTH)}: ${r.blocks.new} new, ${r.blocks.deleted} deleted\n`;
    for (const x of r.blocks.instances) {
      text += `  ${x.change === 'new' ? '+' : '-'} 0x${x.address.toString(16)}  ${units.formatBytesExact(x.size)}  id @${x.id}\n`;
    }
  });
  return text;
}

// "dir/memory-profile-X.speedscope.json" + ".pb.gz" -> "dir/memory-profile-X.pb.gz"
function defaultOutput(file, suffix) {
  const base = path.basename(file).replace(/(\.speedscope|\.perfview)?\.json$/i, '');
  return path.join(path.dirname(file), base + suffix);
}

// Same file, whatever the names (links, "./x" and "x", hard links).
function sameFile(a, b) {
  try {
    const x = fs.statSync(a);
    const y = fs.statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch (e) {
    return false;
  }
}

function kindOf(stat) {
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isFIFO()) return 'a FIFO (a named pipe)';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}

// The output rule: never the input, never anything but a regular file, and
// never a file that exists unless --force says so (a profile the user kept
// must not vanish by surprise).
function checkTarget(target, input, force, cmd = 'convert') {
  if (sameFile(target, input)) {
    throw new EmheapError(`${cmd} would overwrite its input ${input}${target !== input ? ' (through ' + target + ')' : ''}: give another name with -o`);
  }
  let link;
  try {
    link = fs.lstatSync(target);
  } catch (e) {
    return; // nothing there
  }
  const pointed = link.isSymbolicLink() ? fs.statSync(target, { throwIfNoEntry: false }) : link;
  if (pointed && pointed.isDirectory()) throw new EmheapError(`cannot write ${target}: is a directory`);
  // a device, a FIFO, a socket (/dev/null, /proc/self/fd/1): never replaced
  // by a file, --force or not
  if (pointed && !pointed.isFile()) {
    throw new EmheapError(`cannot write ${target}: it is ${kindOf(pointed)}, not a regular file; give a file name with -o`);
  }
  if (!force) throw new EmheapError(`${target} exists${link.isSymbolicLink() ? ' (a link)' : ''}: give another name with -o, or --force to replace it`);
}

// Writes a temporary file beside the target with write(fd) and renames it
// over the target: a failed write never leaves half a file, and a link at
// the target is replaced, not followed.
function writeReplacing(target, write) {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.emheap-tmp`);
  let fd = null;
  try {
    fd = fs.openSync(temp, 'wx');
    const written = write(fd);
    fs.closeSync(fd);
    fd = null;
    fs.renameSync(temp, target);
    return written;
  } catch (e) {
    if (fd !== null) fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    if (e instanceof EmheapError) throw e;
    throw new EmheapError(`cannot write ${target}: ${e.code === 'ENOENT' ? 'no such directory' : e.code || e.message}`);
  }
}

// The file is written as it is made, a chunk at a time (formats/index.js):
// a 2M-site snapshot makes files of several GB, more than any string.
// Several formats share one read of FILE (a GB file takes a minute).
function cmdConvert({ args, opts }, out) {
  if (opts.to === undefined) throw new EmheapError(`convert needs --to ${Object.keys(FORMATS).join('|')}`);
  const names = String(opts.to).split(',').map((n) => n.trim());
  const formats = names.map((name) => {
    try {
      return formatByName(name);
    } catch (e) {
      throw new EmheapError(`--to: ${e.message}`);
    }
  });
  if (new Set(names).size !== names.length) throw new EmheapError(`--to ${opts.to}: a format is named twice`);
  const given = opts.o !== undefined ? opts.o : opts.output;
  if (given !== undefined && formats.length > 1) {
    throw new EmheapError(`-o names one file, but --to names ${formats.length} formats: leave -o out (each file gets FILE's name with its suffix)`);
  }
  const targets = formats.map((format) => (given !== undefined ? given : defaultOutput(args[0], format.suffix)));
  for (const target of targets) if (target !== '-') checkTarget(target, args[0], opts.force);
  const snapshot = readSnapshot(args[0], opts, false, false);
  // before any file is written: a format that needs the heap graph
  formats.forEach((format, i) => { if (format.heap) needHeapGraph(snapshot, args[0], `--to ${names[i]}`); });
  formats.forEach((format, i) => {
    const write = (fd) => {
      try {
        return writeFormat(fs, zlib, fd, format, snapshot);
      } catch (e) {
        if (e && e.code) throw e;   // the file system's, reported by the caller
        throw new EmheapError(`${args[0]}: cannot build ${names[i]}: ${e.message}`);
      }
    };
    if (targets[i] === '-') {
      write(process.stdout.fd);
      return;
    }
    const written = writeReplacing(targets[i], write);
    out(`wrote ${targets[i]} (${names[i]}, ${units.formatCount(written)} bytes)\n`);
  });
  return 0;
}

// `emheap report`: the HTML page (formats/report_html.js through
// cli/report.js, which inlines the charting library).
function cmdReport({ args, opts }, out) {
  const given = opts.o !== undefined ? opts.o : opts.output;
  const target = given !== undefined ? given : defaultOutput(args[0], '.report.html');
  if (target === '-') throw new EmheapError('-o -: the report is a page to open; give it a file name');
  checkTarget(target, args[0], opts.force, 'report');
  const html = reportCommand(readSnapshot(args[0], opts), { file: path.basename(args[0]) });
  const written = writeReplacing(target, (fd) => {
    fs.writeSync(fd, html);
    return Buffer.byteLength(html);
  });
  out(`wrote ${target} (report, ${units.formatCount(written)} bytes)\n`);
  return 0;
}

function cmdCheck({ args, opts }, out, err) {
  const budgets = {};
  if (opts['max-live-bytes'] !== undefined) budgets.maxLiveBytes = units.parseSize(opts['max-live-bytes'], '--max-live-bytes');
  if (opts['max-site-bytes'] !== undefined) budgets.maxSiteBytes = units.parseSize(opts['max-site-bytes'], '--max-site-bytes');
  if (Object.keys(budgets).length === 0) {
    throw new EmheapError(`check needs a budget: --max-live-bytes N and/or --max-site-bytes N (usage: ${USAGE.check.synopsis})`);
  }
  const snapshot = readSnapshot(args[0], opts, true);
  const result = checkBudgets(snapshot, budgets);
  const ex = units.formatBytesExact;
  const site = (s) => `${shortName(s.label)} ${units.formatBytes(s.liveBytes)} in ${plural(s.liveBlocks, 'block')}` +
    (s.stack.length ? ` (${clip(stackText(s.stack.map(shortName)), STACK_WIDTH)})` : '');
  if (result.ok) {
    const parts = [];
    if (budgets.maxLiveBytes !== undefined) parts.push(`live ${ex(snapshot.summary.liveBytes)} <= ${ex(budgets.maxLiveBytes)}`);
    if (snapshot.view === 'peak') parts.push('at the peak of live bytes');
    if (budgets.maxSiteBytes !== undefined) {
      parts.push(result.largestSite
        ? `largest ${rowWord(snapshot)} ${result.largestSite.label} ${ex(result.largestSite.liveBytes)} <= ${ex(budgets.maxSiteBytes)}`
        : `no live ${rowWord(snapshot)}`);
    }
    out(`emheap: OK: ${parts.join('; ')} (${args[0]})\n`);
    return 0;
  }
  const lines = [`emheap: budget exceeded in ${args[0]}${snapshot.view === 'peak' ? ' at the peak of live bytes' : ''}:`];
  for (const f of result.failures) {
    if (f.kind === 'live') {
      lines.push(`  live bytes ${ex(f.value)} > --max-live-bytes ${ex(f.limit)}, over by ${units.formatBytes(f.value - f.limit)}; largest ${rowsWord(snapshot)}:`);
    } else {
      lines.push(`  ${plural(f.sites.length, rowWord(snapshot))} over --max-site-bytes ${ex(f.limit)}:`);
    }
    for (const s of f.sites) lines.push(`    ${site(s)}`);
  }
  if (hasSampledBlocks(snapshot) && result.failures.some((f) => f.kind === 'site')) {
    lines.push('  (sampled blocks: per-site bytes marked ~ are estimates; take the profile with ?emheap=exact, and room ' +
      'for emheap\'s tables, for exact ones)');
  }
  err(lines.join('\n') + '\n');
  return 1;
}

// `top` with the heap graph's defaults: by retained bytes, with instances.
function cmdAnalyze({ args, opts }, out) {
  const o = Object.assign({ sort: 'retained', instances: '3' }, opts);
  const snapshot = readSnapshot(args[0], o, true);
  needHeapGraph(snapshot, args[0], 'analyze');
  return printTop(args, o, snapshot, out);
}

const COMMANDS = { top: cmdTop, analyze: cmdAnalyze, diff: cmdDiff, convert: cmdConvert, report: cmdReport, check: cmdCheck };

function main(argv) {
  // what a program named (frames, files, marks) reaches the terminal or a
  // CI log only as text: no control character but the lines' own breaks
  const out = (text) => process.stdout.write(printable(text, '\n'));
  const err = (text) => process.stderr.write(printable(text, '\n'));
  // `emheap top x | head`: a closed pipe is not an error
  process.stdout.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode || 0);
  });
  try {
    const parsed = parseArgs(argv);
    if (parsed.help !== undefined) {
      out(parsed.help);
      return 0;
    }
    return COMMANDS[parsed.cmd](parsed, out, err);
  } catch (e) {
    const known = e instanceof EmheapError;
    const message = known ? e.message : `internal error: ${e && e.message || e} (please report it)`;
    err(`emheap: ${String(message).replace(/\s*\n\s*/g, ' ')}\n`);
    return known ? e.exitCode : 2;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { main, parseArgs, defaultOutput };
