// view.js -- a finished snapshot as one view asks for it: filtered
// (model/focus.js: --focus, --ignore, --hide) and then grouped
// (model/grouping.js: --by). The page's API (emheap.top, liveSince, diff)
// and every CLI command take the same options and call this, so both give
// the same answer for the same snapshot.
'use strict';

var focus = require('./focus');
var grouping = require('./grouping');
var runSteps = require('./steps').runSteps;
var estimates = require('./estimates');

// options: {by, focus, ignore, hide} (each may be missing: by function,
// nothing filtered). -> steps returning the view's snapshot.
function* viewSteps(snapshot, options) {
  options = options || {};
  var filtered = yield* focus.focusSnapshotSteps(snapshot, options);
  var grouped = yield* grouping.groupSnapshotSteps(filtered, options.by || grouping.DEFAULT_GROUPING);
  // (a row's sampled totals never read more than the program allocated)
  var bounded = estimates.boundedTotals(grouped, grouped.sites);
  if (bounded === grouped.sites) return grouped;
  return Object.assign({}, grouped, {sites: bounded});
}

function view(snapshot, options) {
  return runSteps(viewSteps(snapshot, options));
}

// The view options of an object a page passed (quoted names: the page's
// JS is minified), checked.
function viewOptions(o) {
  o = o || {};
  // checked now, before a page takes the snapshot the view is of
  var out = {by: grouping.checkGrouping(o['by'] || grouping.DEFAULT_GROUPING)};
  ['focus', 'ignore', 'hide'].forEach(function (k) {
    if (o[k] !== undefined && o[k] !== null) out[k] = o[k] instanceof RegExp ? o[k].source : String(o[k]);
  });
  return out;
}

module.exports = {view: view, viewOptions: viewOptions};
