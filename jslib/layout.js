// layout.js -- reads the runtime's state out of linear memory, and writes
// the few fields JS may set (mode, sampling interval, paused, shadow depth).
//
// Mirrors runtime/emheap_internal.h (layout version 2); the C side pins
// these offsets with static asserts, tests/runtime.test.js checks that both
// sides read the same numbers. Never calls into wasm.
'use strict';

var LAYOUT_VERSION = 2;
var MAGIC = 0x50484d45;

var STATE = {magic: 0, layoutVersion: 4, mode: 8, paused: 12, counters: 16,
  sites: 128, framePool: 144, samplingInterval: 156, growth: 160, shadow: 1208};
var SHADOW = {depth: 0, linked: 4, truncated: 8, unmatchedExits: 12, fn: 32};
var SITE_SIZE = 64;
var GROWTH_LOG = 64;
var GROWTH_SIZE = 16;
var MODE_EXACT = 1;
var MODE_SAMPLED = 2;
var STACK_JS = 1;
var STACK_SHADOW = 2;

// [name, offset within emheap_counters, byte width]
var COUNTERS = [
  ['liveBytes', 0, 8], ['peakLiveBytes', 8, 8], ['totalBytes', 16, 8],
  ['liveBlocks', 24, 4], ['peakLiveBlocks', 28, 4],
  ['mallocCalls', 32, 8], ['callocCalls', 40, 8], ['reallocCalls', 48, 8],
  ['memalignCalls', 56, 8], ['freeCalls', 64, 8], ['failedAllocs', 72, 8],
  ['invalidFrees', 80, 8], ['sampledAllocs', 88, 8],
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

// What the numbers mean: {mode: 'exact-js' | 'exact-shadow' | 'sampled',
// samplingInterval (0 in exact modes), shadow: {linked, truncated, ...}}.
function readMode(view, statePtr) {
  var sh = statePtr + STATE.shadow;
  var shadow = {
    linked: view.getUint32(sh + SHADOW.linked, true) !== 0,
    depth: view.getUint32(sh + SHADOW.depth, true),
    truncated: view.getUint32(sh + SHADOW.truncated, true),
    unmatchedExits: view.getUint32(sh + SHADOW.unmatchedExits, true),
  };
  var sampled = view.getUint32(statePtr + STATE.mode, true) === MODE_SAMPLED;
  return {
    mode: sampled ? 'sampled' : shadow.linked ? 'exact-shadow' : 'exact-js',
    samplingInterval: sampled ? view.getUint32(statePtr + STATE.samplingInterval, true) : 0,
    shadow: shadow,
  };
}

// Calls fn(siteNumber, record) for every site, site 0 included. Shadow
// sites come with `frames`: function pointers, root first.
function forEachSite(view, statePtr, siteCount, fn) {
  var sites = view.getUint32(statePtr + STATE.sites, true);
  var pool = view.getUint32(statePtr + STATE.framePool, true);
  for (var s = 0; s < siteCount; s++) {
    var at = sites + s * SITE_SIZE;
    var kind = view.getUint32(at + 48, true);
    var ref = view.getUint32(at + 52, true);
    var depth = view.getUint32(at + 56, true);
    var frames = null;
    if (kind === STACK_SHADOW) {
      frames = [];
      for (var i = 0; i < depth; i++) frames.push(view.getUint32(pool + (ref + i) * 4, true));
    }
    fn(s, {
      liveBytes: view.getFloat64(at + 8, true),
      totalBytes: view.getFloat64(at + 16, true),
      peakLiveBytes: view.getFloat64(at + 24, true),
      totalAllocs: view.getFloat64(at + 32, true),
      liveBlocks: view.getFloat64(at + 40, true),
      stackKind: kind,
      stackRef: ref,
      frames: frames,
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

// Settings JS may write before the first block is recorded.
function writeConfig(view, statePtr, config) {
  if (config.mode) view.setUint32(statePtr + STATE.mode, config.mode === 'exact' ? MODE_EXACT : MODE_SAMPLED, true);
  if (config.samplingInterval) view.setUint32(statePtr + STATE.samplingInterval, config.samplingInterval, true);
}

function setPaused(view, statePtr, paused) {
  view.setUint32(statePtr + STATE.paused, paused ? 1 : 0, true);
}

// Address of the shadow stack depth (JS saves and restores it around calls
// that exceptions or longjmp may unwind).
function shadowDepthAddress(statePtr) {
  return statePtr + STATE.shadow + SHADOW.depth;
}

module.exports = {
  LAYOUT_VERSION: LAYOUT_VERSION, STACK_JS: STACK_JS, STACK_SHADOW: STACK_SHADOW,
  checkState: checkState, readCounters: readCounters, readMode: readMode,
  forEachSite: forEachSite, readGrowth: readGrowth, writeConfig: writeConfig,
  setPaused: setPaused, shadowDepthAddress: shadowDepthAddress,
};
