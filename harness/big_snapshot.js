// big_snapshot.js: a synthetic emheap snapshot of any size, for the export
// tests at scale: `sites` sites whose stacks are `depth` frames deep, all
// distinct (each stack spells its site number in base `fanout`, so no two
// sites share a stack and no format can fold them), drawn from a pool of
// depth x fanout frames. Valid against schemas/emheap-snapshot.schema.json.
'use strict';

function bigSnapshot(sites, depth, fanout = 16) {
  const frames = [];
  for (let level = 0; level < depth; level++) {
    for (let k = 0; k < fanout; k++) {
      frames.push({ name: `f${level}_${k}`, file: `s${level}.c`, line: k + 1, module: 'big.wasm', funcIndex: frames.length, offset: 1000 + frames.length });
    }
  }
  const siteList = new Array(sites);
  let liveBytes = 0;
  for (let i = 0; i < sites; i++) {
    const stack = new Array(depth);
    let n = i;
    // leaf first: the low digits at the leaf end, so neighbours differ there
    for (let level = 0; level < depth; level++) {
      stack[level] = level * fanout + (n % fanout);
      n = Math.floor(n / fanout);
    }
    const bytes = 16 + (i % 977) * 16;
    liveBytes += bytes;
    siteList[i] = {
      id: i + 1, key: `f0_${i % fanout}+0x${(1000 + (i % fanout)).toString(16)}`, stack,
      liveBytes: bytes, liveBlocks: 1, totalAllocs: 2, totalBytes: bytes * 2, peakLiveBytes: bytes,
      blocksAtPeakLiveBytes: 1, liveBytesAtPeak: bytes, liveBlocksAtPeak: 1,
    };
  }
  // in the order emheap writes sites (model/site_counters.js bySize)
  siteList.sort((a, b) => b.liveBytes - a.liveBytes || b.totalBytes - a.totalBytes || a.id - b.id);
  return {
    format: 'emheap-snapshot', version: 1, capturedAt: '2026-11-23T00:00:00.000Z', source: 'big.html',
    mode: 'exact-js', samplingInterval: 0,
    summary: {
      liveBytes, liveBlocks: sites, peakLiveBytes: liveBytes, peakLiveBlocks: sites, totalBytes: liveBytes * 2,
      liveBlocksAtPeak: sites, totalBytesAtPeak: liveBytes * 2,
      mallocCalls: sites * 2, callocCalls: 0, reallocCalls: 0, memalignCalls: 0, freeCalls: sites,
      failedAllocs: 0, invalidFrees: 0, sampledAllocs: 0, siteCount: sites, heapSize: 2 ** 31, heapGrowths: 0, preRunDone: true,
    },
    frames, sites: siteList, heapGrowth: [],
  };
}

module.exports = { bigSnapshot };
