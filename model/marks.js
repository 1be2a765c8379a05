// marks.js: what was allocated after a mark (or between two) and is still
// live, site by site, from a snapshot's marks and its sites' liveByMark
// (made by capture/mark_log.js: [after, bytes, blocks, estimatedBytes, after,
// ...], `after` the number of the last kept mark before those blocks, 0
// for none). Exact in exact mode: every block's serial says which marks it
// came after. Read by `emheap top --since/--between`, emheap.liveSince in
// the page, and the report.
'use strict';

var userError = require('./user_error').userError;

// A mark named by the user: "#N" is mark number N; anything else a name
// (the latest mark of that name). -> the snapshot's mark. Throws an Error
// (with .userError = true) saying what there is when there is no such mark.
function findMark(snapshot, spec) {
  var marks = snapshot.marks || [];
  var list = function () {
    return marks.length
      ? 'its marks: ' + marks.map(function (m) { return '#' + m.number + ' "' + m.name + '"'; }).join(', ')
      : 'it has no marks (emheap_mark(name) in C, emheap.mark(name) in JS, Ctrl+Shift+M in the page)';
  };
  var spelled = String(spec);
  var number = /^#\d+$/.test(spelled) ? Number(spelled.slice(1)) : null;
  var found = null;
  for (var i = marks.length - 1; i >= 0 && !found; i--) {
    if (number !== null ? marks[i].number === number : marks[i].name === spelled) found = marks[i];
  }
  if (found) return found;
  var dropped = snapshot.marksDropped || 0;
  if (number !== null && number >= 1 && number <= dropped) {
    throw userError('mark #' + number + ' is no longer kept: the runtime keeps the last ' + marks.length +
      ' marks (#' + (dropped + 1) + ' on)');
  }
  throw userError('no mark ' + (number !== null ? '#' + number : '"' + spelled + '"') + ' in this snapshot; ' + list());
}


// What was made after mark `since` (and before mark `until`, if given) and
// is live when the snapshot was taken: {since, until (marks, or null),
// liveBytes, liveBlocks, estimatedLiveBytes (the part that is an estimate:
// blocks recorded by sampling), sites: [{id, liveBytes, liveBlocks,
// estimatedLiveBytes}] largest first (ties: site order), only the sites with
// some}. Throws (userError) on a mark that is not there, or an `until` that
// is not after `since`.
function liveSince(snapshot, sinceSpec, untilSpec) {
  var since = findMark(snapshot, sinceSpec);
  var until = untilSpec === undefined || untilSpec === null ? null : findMark(snapshot, untilSpec);
  if (until && until.number <= since.number) {
    throw userError('--between: mark #' + until.number + ' "' + until.name + '" is not after mark #' + since.number +
      ' "' + since.name + '"');
  }
  var out = {since: since, until: until, liveBytes: 0, liveBlocks: 0, estimatedLiveBytes: 0, sites: []};
  if (!snapshot.sites.some(function (s) { return Array.isArray(s.liveByMark); }) && snapshot.sites.length) {
    throw userError('this snapshot has marks but no per-site ages (site.liveByMark): it was not read from a ' +
      'running program (a peak view, or a file made by another tool)');
  }
  snapshot.sites.forEach(function (site, order) {
    var rows = site.liveByMark || [];
    var bytes = 0;
    var blocks = 0;
    var estimated = 0;
    for (var i = 0; i + 3 < rows.length; i += 4) {
      var after = rows[i];
      if (after < since.number || (until && after >= until.number)) continue;
      bytes += rows[i + 1];
      blocks += rows[i + 2];
      estimated += rows[i + 3];
    }
    if (!(bytes > 0) && !(blocks > 0)) return;
    out.sites.push({id: site.id, order: order, liveBytes: bytes, liveBlocks: blocks, estimatedLiveBytes: estimated});
    out.liveBytes += bytes;
    out.liveBlocks += blocks;
    out.estimatedLiveBytes += estimated;
  });
  out.sites.sort(function (a, b) { return b.liveBytes - a.liveBytes || b.liveBlocks - a.liveBlocks || a.order - b.order; });
  out.sites.forEach(function (s) { delete s.order; });
  return out;
}

// "since mark #2 "warm" (at 1.234 s)" / "between ... and ...": the words
// for a liveSince result's window.
function windowText(result) {
  var m = function (mark) { return 'mark #' + mark.number + ' "' + mark.name + '" (at ' + (mark.t / 1000).toFixed(3) + ' s)'; };
  return result.until ? 'between ' + m(result.since) + ' and ' + m(result.until) : 'since ' + m(result.since);
}

module.exports = {findMark: findMark, liveSince: liveSince, windowText: windowText};
