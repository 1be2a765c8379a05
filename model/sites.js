// sites.js: naming and ranking the sites of one snapshot, for `emheap top`
// and the other commands. A site's label is its call site key
// ("leak_memory+0x1a2b"), or "(unattributed)" for site 0; its stack is the
// frame names leaf first.
'use strict';

const { instancesBySite } = require('./heap_section');
const { estimatedPart } = require('./estimates');

const { UNATTRIBUTED } = require('./snapshot_file');
const { frameText } = require('./names');

// What to do when emheap's tables had no room for everything (fixed heaps):
// said by `emheap top` and by the leak report (model/leak_report.js).
const TABLE_ROOM_ADVICE = 'to record everything, give the heap room for emheap\'s tables (up to 64 bytes per ' +
  'live block and 216 per stack, within 1/16 of the heap): a larger -sINITIAL_MEMORY, or -sALLOW_MEMORY_GROWTH';

// The most sites the runtime keeps (runtime/state_layout.h
// EMHEAP_MAX_SITES): a full table charges new stacks to (unattributed).
const SITE_TABLE_MOST = 1 << 20;

// --sort names -> what they rank by (descending), with tie-breakers.
const SORTS = {
  bytes: { title: 'live bytes', keys: ['liveBytes', 'liveBlocks', 'totalBytes'] },
  count: { title: 'live blocks', keys: ['liveBlocks', 'liveBytes', 'totalAllocs'] },
  allocs: { title: 'allocations', keys: ['totalAllocs', 'totalBytes', 'liveBytes'] },
  // with the heap graph (snapshot.heap): what each site's blocks keep alive
  retained: { title: 'retained bytes', keys: ['retainedBytes', 'shallowBytes', 'liveBytes'], heap: true },
  shallow: { title: 'shallow bytes (in the heap graph)', keys: ['shallowBytes', 'retainedBytes', 'liveBytes'], heap: true },
};

function stackNames(snapshot, site) {
  return site.stack.map((i) => snapshot.frames[i].name);
}

function siteLabel(snapshot, site) {
  if (site.key) return site.key;
  return site.stack.length ? snapshot.frames[site.stack[0]].name : UNATTRIBUTED;
}

// "leak_memory < parse_chunk < main", or "(unattributed)".
function stackText(names) {
  return names.length ? names.join(' < ') : UNATTRIBUTED;
}

// "leak_entry oom.c:17 < main oom.c:26 < ...": the first `depth` frames of
// a stack (frame indices, leaf first) with their places, short C++ names.
function shortStackText(snapshot, stack, depth) {
  const names = stack.slice(0, depth).map((i) => frameText(snapshot.frames[i], true));
  return stackText(names) + (stack.length > depth ? ' < ...' : '');
}

// Frames of a site for JSON output: {name, file?, line?}, leaf first.
function stackFrames(snapshot, site) {
  return site.stack.map((i) => {
    const f = snapshot.frames[i];
    const out = { name: f.name };
    if (f.file !== undefined) out.file = f.file;
    if (f.line !== undefined) out.line = f.line;
    return out;
  });
}

// Rows sorted by `keys` descending; Array.prototype.sort is stable, so ties
// keep their order.
function sortBy(rows, keys) {
  return rows.slice().sort((a, b) => {
    for (const k of keys) {
      if (a[k] !== b[k]) return b[k] - a[k];
    }
    return 0;
  });
}

// `emheap top`: every site, ranked; `top` = 0 keeps them all. (No object
// spread here: this file is in the page's bundle, which Emscripten 3.1.6's
// acorn parses.)
// With the heap graph, each row has its `instances` blocks that retain the
// most (model/heap_section.js).
function topSites(snapshot, { sort = 'bytes', top = 0, instances = 0 } = {}) {
  const ranked = sortBy(snapshot.sites, SORTS[sort].keys);
  const shown = top > 0 ? ranked.slice(0, top) : ranked;
  const blocks = instancesBySite(snapshot, instances);
  return {
    sort,
    totalSites: ranked.length,
    sites: shown.map((site, i) => Object.assign({
      rank: i + 1,
      id: site.id,
      key: site.key,
      label: siteLabel(snapshot, site),
      stack: stackFrames(snapshot, site),
      liveBytes: site.liveBytes,
      estimatedLiveBytes: estimatedPart(snapshot, site),
      liveBlocks: site.liveBlocks,
      callSites: site.parts || 1,
      totalAllocs: site.totalAllocs,
      totalBytes: site.totalBytes,
      peakLiveBytes: site.peakLiveBytes,
    }, snapshot.heap ? {
      heapBlocks: site.heapBlocks, shallowBytes: site.shallowBytes, retainedBytes: site.retainedBytes,
      reachableBlocks: site.reachableBlocks, directBlocks: site.directBlocks, indirectBlocks: site.indirectBlocks,
    } : {}, instances > 0 && snapshot.heap ? { instances: blocks.get(site.id) || [] } : {})),
  };
}

// One line on what the numbers of a snapshot are; a second one when
// emheap's tables had no room for everything (fixed heaps).
function modeNote(snapshot) {
  const s = snapshot.summary || {};
  let note;
  if (snapshot.mode === 'sampled') {
    note = `mode sampled (one stack per ${snapshot.samplingInterval} bytes allocated on average): per-site numbers ` +
      'marked ~ are estimates (+-: one standard error), scaled to add up to the exact totals; blocks of at least the ' +
      'interval are exact';
  } else if (s.thinnedAtBytes !== undefined) {
    note = `mode ${snapshot.mode}, thinned: emheap's tables had no room for every block (fixed heap), so blocks made ` +
      `after the first ${s.thinnedAtBytes} bytes allocated were sampled (one stack per ${snapshot.samplingInterval} ` +
      'bytes on average): sites marked ~ hold estimates (+-: one standard error), the others are exact';
  } else if (snapshot.mode === 'off') {
    note = 'mode off: nothing was recorded (?emheap=sampled or EMHEAP_MODE=sampled turns profiling on)';
  } else if (s.lostAllocs || s.lostSites || s.unseenFrees) {
    note = `mode ${snapshot.mode}: per-site numbers are exact for the allocations recorded, which are not all of them`;
  } else {
    note = `mode ${snapshot.mode}: every allocation recorded, per-site numbers are exact`;
  }
  const tableFull = s.lostSites && s.siteCount >= SITE_TABLE_MOST;
  if (tableFull) {
    note += `\nthe site table is full: it holds ${SITE_TABLE_MOST.toLocaleString('en-US')} stacks, the most the runtime ` +
      `keeps (a block's record has 20 bits for its site); ${s.lostSites.toLocaleString('en-US')} new stacks were charged to ` +
      '(unattributed), whose bytes are exact but not told apart; a program with this many distinct stacks is best ' +
      'profiled in parts (emheap_pause / emheap_resume, or sampled mode for a ranking)';
  }
  if (s.lostAllocs || (s.lostSites && !tableFull)) {
    note += `\nnot recorded for want of room (fixed heap): ${s.lostAllocs || 0} allocations (${s.lostBytes || 0} bytes) in no site, ` +
      `${tableFull ? 0 : s.lostSites || 0} new stacks charged to (unattributed); totals are exact; ${TABLE_ROOM_ADVICE}`;
  }
  if (s.unseenFrees) {
    note += `\nallocated around malloc: ${s.unseenFrees} blocks (${s.unseenFreedBytes || 0} bytes) were freed that emheap ` +
      'never saw allocated: something allocated them without malloc (with -sMALLOC=mimalloc, new (std::nothrow) ' +
      'does). Such blocks are in no number while they live; what emheap saw is counted exactly';
  }
  return note;
}

// Sites count the bytes the program asked for; the summary's liveBytes
// counts usable sizes (what the allocator reserved). In exact modes the
// recorded blocks' requested total is known exactly, and the sites add up
// to it: that total, or null (sampled mode, off, exact mode thinned, whose
// records are a sample, files before layout 8).
function requestedLiveBytes(snapshot) {
  const s = snapshot.summary || {};
  if (!/^exact/.test(snapshot.mode || '') || s.thinnedAtBytes !== undefined || typeof s.requestedLiveBytes !== 'number') return null;
  return s.requestedLiveBytes;
}

// The live bytes a budget limits and the leak report counts (`emheap
// check`, heap checks, model/leak_report.js): the bytes the program asked
// for, as the rows count them, where every live block is recorded (exact
// mode); else the usable sizes, the exact global counter. -> {bytes,
// requested}.
function budgetLiveBytes(snapshot) {
  const s = snapshot.summary || {};
  const requested = s.lostAllocs ? null : requestedLiveBytes(snapshot);
  return requested === null ? { bytes: s.liveBytes, requested: false } : { bytes: requested, requested: true };
}

module.exports = {
  SORTS, UNATTRIBUTED, TABLE_ROOM_ADVICE, stackNames, siteLabel, stackText, shortStackText, stackFrames, sortBy, topSites, modeNote,
  requestedLiveBytes, budgetLiveBytes,
};
