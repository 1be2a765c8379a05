// leak_report.js -- the text of the leak report printed when the program
// exits: the blocks still live, grouped by stack, largest first, leaf frame
// first, in the shape of LeakSanitizer's report. Pure: a snapshot in, text
// out; the library decides when to call it and where the text goes.
'use strict';

var names = require('./names');
var grouping = require('./grouping');

var estimates = require('./estimates');
var scanCaveat = require('./heap_section').scanCaveat;
var TABLE_ROOM_ADVICE = require('./sites').TABLE_ROOM_ADVICE;
var budgetLiveBytes = require('./sites').budgetLiveBytes;
var poolTotals = require('./pools').poolTotals;

var UNATTRIBUTED = require('./snapshot_file').UNATTRIBUTED_WHY;

var plural = require('./numbers').plural; // (3, 'block') -> "3 blocks"
var thousands = require('./numbers').formatCount; // 12288 -> "12,288"

// How the report groups its stacks unless told (leakBy, EMHEAP_LEAK_BY):
// by line, as LeakSanitizer's report reads.
var DEFAULT_LEAK_BY = 'line';

// The stacks holding live blocks: [{frames: [text, ...] leaf first,
// liveBytes, liveBlocks, callSites}], bytes descending: the sites grouped
// `by` (model/grouping.js; by line unless told), so that the call sites of
// one line (an unrolled loop, one call reached at several wasm offsets)
// are one stack for the reader.
function leakedStacks(snapshot, by) {
  var grouped = grouping.groupSnapshot(snapshot, by || DEFAULT_LEAK_BY);
  var classes = classesBySite(grouped);
  var stacks = [];
  grouped.sites.forEach(function (site) {
    if (!(site.liveBytes > 0 || site.liveBlocks > 0)) return;
    if (site.pool && !site.stack.length) return; // a pool's chunks: its objects are the stacks
    var frames = site.stack.map(function (i) { return names.frameText(grouped.frames[i], true); });
    var entry = {frames: frames.length ? frames : [UNATTRIBUTED], liveBytes: site.liveBytes, liveBlocks: site.liveBlocks,
      estimatedLiveBytes: estimates.estimatedPart(grouped, site), callSites: site.parts || 1};
    if (classes) entry.classes = classes.get(site.id) || emptyClasses();
    stacks.push(entry);
  });
  stacks.sort(function (a, b) { return b.liveBytes - a.liveBytes || b.liveBlocks - a.liveBlocks; });
  return stacks;
}

// LeakSanitizer's classes of the blocks, from the heap graph (exact modes,
// snapshot.heap: model/heap_graph.js): [blocks, bytes] per class.
var CLASS_NAMES = ['still reachable', 'directly leaked', 'indirectly leaked'];
function emptyClasses() {
  return [[0, 0], [0, 0], [0, 0]];
}
function addClasses(into, from) {
  for (var c = 0; c < 3; c++) {
    into[c][0] += from[c][0];
    into[c][1] += from[c][1];
  }
}
// site id -> classes, or null without the heap graph.
function classesBySite(snapshot) {
  var heap = snapshot.heap;
  if (!heap) return null;
  var out = new Map();
  for (var k = 0; k < heap.blocks.site.length; k++) {
    var site = heap.blocks.site[k];
    var c = out.get(site);
    if (!c) out.set(site, c = emptyClasses());
    c[heap.blocks.state[k]][0]++;
    c[heap.blocks.state[k]][1] += heap.blocks.size[k];
  }
  return out;
}
function classesText(classes) {
  var parts = [];
  // leaks first, as LSan reports them
  [1, 2, 0].forEach(function (c) {
    if (classes[c][0]) parts.push(plural(classes[c][0], 'block') + ' ' + CLASS_NAMES[c] + ' (' + plural(classes[c][1], 'byte') + ')');
  });
  return parts.join(', ');
}

// {leaked: bool, liveBytes, liveBlocks, stacks, text}. The totals are
// exact in every mode: in exact modes the bytes the program asked for (as
// the stacks count them; LeakSanitizer's numbers), in sampled mode usable
// sizes (the global counters); per-stack numbers are estimates in sampled
// mode, which the text says.
// Blocks freed that emheap never saw allocated (runtime/record.c): any
// still live are in no number of the report.
function unseenLine(summary) {
  return 'emheap: ' + plural(summary.unseenFrees, 'block') + ' (' + plural(summary.unseenFreedBytes || 0, 'byte') +
    ') freed that emheap never saw allocated: something allocated them without malloc (with -sMALLOC=mimalloc, ' +
    'new (std::nothrow) does); blocks like these that are still live are in no number here';
}

// snapshot -> {leaked, liveBytes, liveBlocks, stacks, text, ...}; by: the
// grouping of its stacks (one of model/grouping.js GROUPINGS; by line
// unless given).
function leakReport(snapshot, by) {
  var stacks = leakedStacks(snapshot, by);
  // the bytes asked for where every block is recorded, else usable sizes
  var live = budgetLiveBytes(snapshot);
  var requested = live.requested ? live.bytes : null;
  var usable = snapshot.summary.liveBytes;
  var liveBytes = live.bytes;
  var liveBlocks = snapshot.summary.liveBlocks;
  var leaked = liveBytes > 0 || liveBlocks > 0;
  var lines = [];
  if (!leaked) {
    lines.push('emheap: no leaks: every block was freed before exit');
    if (snapshot.summary.unseenFrees) lines.push(unseenLine(snapshot.summary));
    return {leaked: false, liveBytes: 0, liveBlocks: 0, stacks: [], text: lines.join('\n') + '\n'};
  }
  var sampled = snapshot.mode === 'sampled';
  stacks.forEach(function (s) {
    if (s.estimatedLiveBytes > 0) {
      lines.push('emheap: about ' + plural(s.liveBlocks, 'block') + ' (about ' + plural(s.liveBytes, 'byte') +
        ', ' + estimates.siteErrorText(snapshot, s) + ', estimated) still live, allocated at:');
    } else {
      lines.push('emheap: ' + plural(s.liveBlocks, 'block') + ' (' + plural(s.liveBytes, 'byte') +
        ') still live, allocated at:');
    }
    s.frames.forEach(function (f) { lines.push('    at ' + f); });
    if (s.classes) lines.push('    of these: ' + classesText(s.classes));
    lines.push('');
  });
  var lost = snapshot.summary.lostAllocs || 0;
  if (lost) {
    lines.push('emheap: ' + plural(lost, 'allocation') + ' (' + plural(snapshot.summary.lostBytes || 0, 'byte') +
      ') could not be recorded for want of room in a fixed heap: they are in the total, in no stack above; ' +
      TABLE_ROOM_ADVICE);
  }
  if (snapshot.summary.unseenFrees) lines.push(unseenLine(snapshot.summary));
  if (sampled) {
    lines.push('emheap: sampled mode (one stack per ' + thousands(snapshot.samplingInterval) +
      ' bytes on average): the per-stack numbers above marked "about" are estimates (+-: one standard error), a stack ' +
      'can be missing, the total below is exact; run with EMHEAP_MODE=exact (in a page: ?emheap=exact) for exact stacks');
  } else if (snapshot.summary.thinnedAtBytes !== undefined) {
    lines.push('emheap: emheap\'s tables had no room for every block in this fixed heap: blocks made after the first ' +
      thousands(snapshot.summary.thinnedAtBytes) + ' bytes allocated were sampled (one stack per ' +
      thousands(snapshot.samplingInterval) + ' bytes), so the stacks marked "about" are estimates; ' + TABLE_ROOM_ADVICE);
  }
  var all = null;
  if (snapshot.heap) {
    // every scanned block, whether or not its site made a stack above
    all = emptyClasses();
    classesBySite(snapshot).forEach(function (c) { addClasses(all, c); });
    lines.push('emheap: by a scan of the memory at exit (as LeakSanitizer classes blocks): ' + classesText(all) +
      '; still reachable = a pointer to it from static data, a C stack or a registered root');
    var caveat = scanCaveat(snapshot.heap);
    if (caveat) lines.push('emheap: ' + caveat);
  }
  lines.push('emheap: ' + plural(liveBytes, 'byte') + ' in ' + plural(liveBlocks, 'block') +
    ' still live at exit (' + plural(stacks.length, 'stack') + (requested === null ? '; usable sizes)'
      : '; ' + thousands(usable) + ' bytes with the allocator\'s rounding)'));
  var pools = poolTotals(snapshot);
  if (pools && pools.objects) {
    lines.push('emheap: of the stacks above, ' + plural(pools.objects, 'object') + ' (' + plural(pools.bytes, 'byte') +
      ') are the program\'s pool objects, inside those blocks or a buffer of its own (docs/pools.md)');
  }
  var result = {leaked: true, liveBytes: liveBytes, liveBlocks: liveBlocks, stacks: stacks, text: lines.join('\n') + '\n'};
  // the classes of every scanned block: [blocks, bytes] each (exact modes)
  if (all) result.classes = {reachable: all[0], direct: all[1], indirect: all[2]};
  return result;
}

// What makes a run with leaks fail (leakExitOn, EMHEAP_LEAK_EXIT_ON), as
// Valgrind's --errors-for-leak-kinds: 'live' any block live at exit (the
// default), 'leaked' only blocks no root reaches (directly or indirectly
// leaked: LeakSanitizer's rule), 'direct' only directly leaked blocks
// (Valgrind's "definitely lost"). The last two need the heap graph.
var LEAK_EXIT_ON = ['live', 'leaked', 'direct'];

// -> does `result` (leakReport's) fail the run under rule `on`?
function failsOn(result, on) {
  if (!result.leaked) return false;
  if (on === 'live' || !result.classes) return true;
  if (on === 'direct') return result.classes.direct[0] > 0;
  return result.classes.direct[0] + result.classes.indirect[0] > 0;
}

module.exports = {leakReport: leakReport, DEFAULT_LEAK_BY: DEFAULT_LEAK_BY, thousands: thousands, failsOn: failsOn,
  LEAK_EXIT_ON: LEAK_EXIT_ON};
