// fake_sites.js -- a site table and a block table in a plain buffer, laid
// out as runtime/site_table.c and runtime/block_table.c lay them out
// (chunks of sites, where each starts in the state; per 4 KiB region of
// addresses a table of 3-word entries, found by its address word), for the
// unit tests that read them
// with capture/layout.js and bench/timeline_cost.js.
'use strict';

const layout = require('../capture/layout');

const CHUNKS = 13; // runtime/state_layout.h EMHEAP_SITE_CHUNKS

function chunkFirst(k) { return k ? 1 << (k + 7) : 0; }

// Chunks enough for `count` sites. chunkAt(k): where chunk k starts
// (default: end to end from `at`, so site s is at at + s * SITE_SIZE).
// -> siteAt(s): where site s is.
function placeSites(view, statePtr, count, at, chunkAt) {
  const where = chunkAt || ((k) => at + chunkFirst(k) * layout.SITE_SIZE);
  let chunks = 1;
  while (chunks < CHUNKS && chunkFirst(chunks) < count) chunks++;
  view.setUint32(statePtr + layout.STATE.site_chunks, chunks, true);
  for (let k = 0; k < chunks; k++) view.setBigUint64(statePtr + layout.STATE.site_chunk_at + 8 * k, BigInt(where(k)), true);
  const chunkOf = (s) => 24 - Math.clz32(s | 255);
  return (s) => where(chunkOf(s)) + (s - chunkFirst(chunkOf(s))) * layout.SITE_SIZE;
}

// The recorded live blocks [{addr, site, size, serial}] (addresses
// 4-aligned, sizes under 2^27), their region directory and tables from
// `at` on. -> the first byte past them.
function placeBlocks(view, statePtr, blocks, at) {
  const regions = new Map();
  for (const b of blocks) {
    const r = b.addr >>> 12;
    if (!regions.has(r)) regions.set(r, []);
    regions.get(r).push(b);
  }
  const count = Math.max(0, ...regions.keys()) + 1;
  view.setBigUint64(statePtr + layout.STATE.blocks + layout.INDEX.regions, BigInt(at), true);
  view.setUint32(statePtr + layout.STATE.blocks + layout.INDEX.region_count, count, true);
  view.setUint32(statePtr + layout.STATE.blocks + layout.INDEX.count, blocks.length, true);
  let table = at + 4 * count;
  for (const [r, list] of regions) {
    view.setUint32(at + 4 * r, table / 4, true); // (an address word: tables are 4-aligned)
    view.setUint16(table, list.length, true); // slots (here all full)
    list.forEach((b, i) => {
      const e = table + 8 + 12 * i;
      view.setUint32(e, ((b.addr & 4095) >>> 2 | b.site << 10) >>> 0, true);
      view.setUint32(e + 4, b.size, true);
      view.setUint32(e + 8, b.serial, true);
    });
    table += 8 + 12 * list.length;
  }
  return table;
}

module.exports = {placeSites, placeBlocks, chunkFirst};
