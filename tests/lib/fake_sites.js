// fake_sites.js -- a site table in a plain buffer, laid out as
// runtime/site_table.c lays it out (chunks of sites, their bases in the
// state), for the unit tests that read sites with jslib/layout.js.
'use strict';

const layout = require('../../jslib/layout');

const CHUNKS = 13; // runtime/state_layout.h EMHEAP_SITE_CHUNKS

function chunkFirst(k) { return k ? 1 << (k + 7) : 0; }

// Chunks enough for `count` sites. chunkAt(k): where chunk k starts
// (default: end to end from `at`, so site s is at at + s * SITE_SIZE).
// -> siteAt(s): where site s is.
function placeSites(view, statePtr, count, at, chunkAt) {
  const where = chunkAt || ((k) => at + chunkFirst(k) * layout.SITE_SIZE);
  let chunks = 1;
  while (chunks < CHUNKS && chunkFirst(chunks) < count) chunks++;
  view.setUint32(statePtr + layout.STATE.siteChunks, chunks, true);
  for (let k = 0; k < chunks; k++) {
    view.setUint32(statePtr + layout.STATE.siteBase + 4 * k, (where(k) - chunkFirst(k) * layout.SITE_SIZE) >>> 0, true);
  }
  const chunkOf = (s) => 24 - Math.clz32(s | 255);
  return (s) => where(chunkOf(s)) + (s - chunkFirst(chunkOf(s))) * layout.SITE_SIZE;
}

module.exports = {placeSites, chunkFirst};
