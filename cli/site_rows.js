// site_rows.js: a site's id -> what a row of `top --since` or `top
// --growing` shows of it (label, stack, live bytes, call sites), from one
// map built once per view: --top 0 may ask for a million sites.
'use strict';

const { siteLabel, stackFrames } = require('../model/sites');

// -> (id) -> {label, stack, liveBytes, callSites}
function siteRows(snapshot) {
  const byId = new Map(snapshot.sites.map((s) => [s.id, s]));
  return (id) => {
    const site = byId.get(id);
    return site ? { label: siteLabel(snapshot, site), stack: stackFrames(snapshot, site), liveBytes: site.liveBytes, callSites: site.parts || 1 }
      : { label: `(site ${id})`, stack: [], liveBytes: 0 };
  };
}

module.exports = { siteRows };
