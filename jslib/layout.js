// layout.js -- reads the runtime's state out of linear memory.
//
// Mirrors runtime/emheap_internal.h (layout version 1); the C side pins
// these offsets with static asserts, tests/runtime.test.js checks that both
// sides read the same numbers. Never calls into wasm.
'use strict';

var LAYOUT_VERSION = 1;
var MAGIC = 0x50484d45;

var STATE = {magic: 0, layoutVersion: 4, mode: 8, paused: 12, counters: 16,
  sites: 128, blocks: 144, blockMask: 148, blockCount: 152, growth: 160};
var SITE_SIZE = 56;
var GROWTH_LOG = 64;
var GROWTH_SIZE = 16;
var MODES = {1: 'exact-js', 2: 'exact-shadow', 3: 'sampled'};

// [name, offset within emheap_counters, byte width]
var COUNTERS = [
  ['liveBytes', 0, 8], ['peakLiveBytes', 8, 8], ['totalBytes', 16, 8],
  ['liveBlocks', 24, 4], ['peakLiveBlocks', 28, 4],
  ['mallocCalls', 32, 8], ['callocCalls', 40, 8], ['reallocCalls', 48, 8],
  ['memalignCalls', 56, 8], ['freeCalls', 64, 8], ['failedAllocs', 72, 8],
  ['invalidFrees', 80, 8], ['untrackedBlocks', 88, 8],
  ['siteCount', 96, 4], ['heapGrowths', 100, 4],
];

function u64(view, at) {
  return view.getUint32(at, true) + view.getUint32(at + 4, true) * 4294967296;
}

// Throws a readable Error if statePtr does not hold a state this code knows.
function checkState(view, statePtr) {
  var magic = view.getUint32(statePtr + STATE.magic, true);
  if (magic !== MAGIC) throw new Error('emheap: the runtime state is not initialized (bad magic)');
  var version = view.getUint32(statePtr + STATE.layoutVersion, true);
  if (version !== LAYOUT_VERSION) {
    throw new Error('emheap: the runtime uses memory layout ' + version +
      ' but this JS library reads layout ' + LAYOUT_VERSION + '; rebuild with one emheap version');
  }
}

function readCounters(view, statePtr) {
  var base = statePtr + STATE.counters;
  var out = {};
  COUNTERS.forEach(function (c) {
    out[c[0]] = c[2] === 8 ? u64(view, base + c[1]) : view.getUint32(base + c[1], true);
  });
  out.heapSize = view.buffer.byteLength;
  return out;
}

function readMode(view, statePtr) {
  return MODES[view.getUint32(statePtr + STATE.mode, true)] || 'unknown';
}

// Calls fn(siteNumber, record) for every site, site 0 included.
function forEachSite(view, statePtr, siteCount, fn) {
  var sites = view.getUint32(statePtr + STATE.sites, true);
  for (var s = 0; s < siteCount; s++) {
    var at = sites + s * SITE_SIZE;
    fn(s, {
      liveBytes: u64(view, at + 8),
      totalBytes: u64(view, at + 16),
      peakLiveBytes: u64(view, at + 24),
      totalAllocs: u64(view, at + 32),
      liveBlocks: view.getUint32(at + 40, true),
      stackRef: view.getUint32(at + 44, true),
    });
  }
}

// The last min(heapGrowths, GROWTH_LOG) growth events, oldest first.
function readGrowth(view, statePtr, heapGrowths) {
  var out = [];
  var first = heapGrowths > GROWTH_LOG ? heapGrowths - GROWTH_LOG : 0;
  for (var i = first; i < heapGrowths; i++) {
    var at = statePtr + STATE.growth + (i % GROWTH_LOG) * GROWTH_SIZE;
    out.push({
      fromBytes: view.getUint32(at, true),
      toBytes: view.getUint32(at + 4, true),
      siteId: view.getUint32(at + 8, true),
    });
  }
  return out;
}

function setPaused(view, statePtr, paused) {
  view.setUint32(statePtr + STATE.paused, paused ? 1 : 0, true);
}

module.exports = {
  LAYOUT_VERSION: LAYOUT_VERSION, checkState: checkState, readCounters: readCounters,
  readMode: readMode, forEachSite: forEachSite, readGrowth: readGrowth, setPaused: setPaused,
};
