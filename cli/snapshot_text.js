// snapshot_text.js: the words the commands print about a snapshot: the
// header above every table (file, capture, mode, live bytes, then one note
// per thing the snapshot knows: memory, growths, marks, leaks, the
// allocation layer, running out of memory), what its rows are (--by), and
// the widths of the tables' name and stack columns.
'use strict';

const units = require('./units');
const { clip } = require('./table');
const { stackText, modeNote, requestedLiveBytes } = require('../model/sites');
const { outOfMemoryLines } = require('../model/out_of_memory');
const growth = require('../model/growth');
const { shortName } = require('../model/names');
const { memoryUse, peakSinceText } = require('../model/peak');
const { memoryBreakdown, breakdownText } = require('../model/memory_breakdown');
const { poolLines, unseenPoolNote } = require('../model/pools');
const { scanCaveat } = require('../model/heap_section');
const { focusNote } = require('../model/focus');
const { rowWord } = require('../model/grouping');
const { namedFrames, NO_NAMES_ADVICE } = require('../model/frame_names');

// Characters shown per row in tables, after C++ names are shortened
// (model/names.js); --json has everything in full.
const STACK_WIDTH = 100;
const KEY_WIDTH = 80;

const { plural } = units;

// The title of a table's row column: by type, a type's row or a function's.
const rowTitle = (snapshot) => (snapshot.groupedBy === 'type' ? 'type or function' : rowWord(snapshot));
const rowsWord = (snapshot) => rowWord(snapshot) + 's';

// Under a grouped table: how many call sites the groups hold.
function partsNote(snapshot) {
  if (!snapshot.groupedBy) return '';
  const sites = snapshot.sites.reduce((n, s) => n + (s.parts || 1), 0);
  return `(${plural(sites, 'call site')} grouped by ${snapshot.groupedBy}; --by site shows them one by one)\n`;
}

// A row's stack of frames ({name}), leaf first, as its table column.
function stackColumn(row) {
  return clip(stackText(row.stack.map((f) => shortName(f.name))), STACK_WIDTH);
}

function snapshotHeader(file, snap) {
  const s = snap.summary;
  return `${file}\n` +
    `captured ${snap.capturedAt}${snap.source ? ' from ' + snap.source : ''}\n` +
    `${modeNote(snap)}\n` +
    (snap.view === 'peak'
      ? `at the peak of live bytes${peakSinceText(snap)}: ${units.formatBytesExact(s.liveBytes)} in ${plural(s.liveBlocks, 'block')}, ` +
        `${plural(snap.sites.length, rowWord(snap))} (per-row numbers are those of that moment)\n`
      : `live (usable sizes) ${units.formatBytesExact(s.liveBytes)} in ${plural(s.liveBlocks, 'block')}${sizesNote(snap)}; ` +
        `peak ${units.formatBytes(s.peakLiveBytes)}${peakSinceText(snap)}; ${plural(snap.sites.length, rowWord(snap))}\n`) +
    (snap.focus ? `${focusNote(snap, units.formatBytes)}\n` : '') +
    namesNote(snap) + memoryNote(snap) + poolsNote(snap) + growthNote(snap) + marksNote(snap) + leakNote(snap) + layerNote(snap) +
    outOfMemoryNote(snap);
}

// Frames that read wasm-function[N]: the module had no names for them.
function namesNote(snap) {
  const n = namedFrames(snap);
  if (!n.unnamed) return '';
  return `function names: ${n.unnamed === n.wasm ? 'none in the module' : `${n.unnamed} of the ${n.wasm} wasm functions in the stacks have none`} ` +
    `(${NO_NAMES_ADVICE}): frames read wasm-function[N]\n`;
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
    (p.emheapBytes === null
      ? `${units.formatBytes(p.freeInAllocator)} free, the allocator's own or emheap's tables)\n`
      : `${units.formatBytes(p.emheapBytes)} emheap's tables, ${units.formatBytes(p.freeInAllocator)} free or the allocator's own)\n`);
}

// The program's pools, one line each (the first POOLS_SHOWN).
const POOLS_SHOWN = 10;
function poolsNote(snap) {
  if (snap.view === 'peak') return ''; // (their counts are now's)
  const unseen = unseenPoolNote(snap);
  return poolLines(snap, POOLS_SHOWN).map((l) => l + '\n').join('') + (unseen ? unseen + '\n' : '');
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

module.exports = {
  STACK_WIDTH, KEY_WIDTH, rowWord, rowTitle, rowsWord, partsNote, stackColumn, snapshotHeader,
};
