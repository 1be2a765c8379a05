// focus.js -- pprof's -focus, -ignore and -hide for emheap's views, on a
// finished snapshot before it is grouped (model/grouping.js):
//   focus REGEX   keeps the sites with a frame that matches;
//   ignore REGEX  drops the sites with a frame that matches;
//   hide REGEX    removes the matching frames from every stack (sites whose
//                 stacks become one merge: model/merge_sites.js), so a
//                 layer of plumbing leaves the names.
// A frame matches when the regex finds its function name, its file or its
// module (as pprof matches a location's function and file). The snapshot's
// summary stays the whole heap's; `focus` on the result says what was kept
// of it (sites, live bytes and blocks), and every view prints that, so a
// filtered number is never read as the whole.
'use strict';

var userError = require('./user_error').userError;

var runSteps = require('./steps').runSteps;
var mergeSitesSteps = require('./merge_sites').mergeSitesSteps;
var siteKey = require('./names').siteKey;

var HIDDEN = '(every frame hidden)';

// A regex given by a person -> RegExp; throws an Error with .userError on
// a bad one, naming the option.
function parseRegex(text, option) {
  try {
    return new RegExp(text);
  } catch (e) {
    throw userError(option + ': "' + text + '" is not a regular expression: ' + (e && e.message || e));
  }
}

function frameMatches(frame, re) {
  return !!frame && (re.test(frame.name) || (frame.file !== undefined && re.test(frame.file)) ||
    (frame.module !== undefined && re.test(frame.module)));
}

// options: {focus, ignore, hide}: strings (regexes) or undefined. -> a
// generator of steps returning the snapshot filtered (the snapshot itself
// when no option is given).
function* focusSnapshotSteps(snapshot, options) {
  options = options || {};
  var focus = options.focus ? parseRegex(options.focus, '--focus') : null;
  var ignore = options.ignore ? parseRegex(options.ignore, '--ignore') : null;
  var hide = options.hide ? parseRegex(options.hide, '--hide') : null;
  if (!focus && !ignore && !hide) return snapshot;
  var frames = snapshot.frames;
  var matchesOf = function (re) {
    var memo = frames.map(function (f) { return frameMatches(f, re); });
    return function (site) { return site.stack.some(function (i) { return memo[i]; }); };
  };
  var kept = snapshot;
  var all = totals(snapshot.sites);
  if (focus || ignore) {
    var inFocus = focus ? matchesOf(focus) : function () { return true; };
    var ignored = ignore ? matchesOf(ignore) : function () { return false; };
    var sites = snapshot.sites.filter(function (s) { return inFocus(s) && !ignored(s); });
    var keptIds = new Set(sites.map(function (s) { return s.id; }));
    kept = Object.assign({}, snapshot, {sites: sites});
    if (snapshot.siteTimeline) {
      // series of kept sites only (a sum with a dropped site is not theirs)
      var st = snapshot.siteTimeline;
      var series = (st.series || []).filter(function (s) {
        return (s.siteIds || [s.siteId]).every(function (id) { return keptIds.has(id); });
      });
      kept.siteTimeline = Object.assign({}, st, {series: series});
    }
    yield;
  }
  var left = totals(kept.sites); // (before hide merges sites)
  if (hide) {
    var hidden = frames.map(function (f) { return frameMatches(f, hide); });
    var merged = yield* mergeSitesSteps(kept, function (s) {
      if (!s.stack.some(function (i) { return hidden[i]; })) {
        return {identity: s.stack.length ? s.stack.join(',') : 'key:' + s.key, stack: s.stack, key: s.key};
      }
      var stack = s.stack.filter(function (i) { return !hidden[i]; });
      if (!stack.length) return {identity: 'key:' + HIDDEN, stack: stack, key: HIDDEN};
      return {identity: stack.join(','), stack: stack, key: siteKey(frames[stack[0]])};
    }, {countParts: true});
    kept = merged.snapshot;
  }
  var out = kept === snapshot ? Object.assign({}, snapshot) : kept;
  out.focus = {
    sites: left.sites, allSites: all.sites, liveBytes: left.liveBytes, allLiveBytes: all.liveBytes,
    liveBlocks: left.liveBlocks, allLiveBlocks: all.liveBlocks,
  };
  ['focus', 'ignore', 'hide'].forEach(function (k) { if (options[k]) out.focus[k] = String(options[k]); });
  return out;
}

function totals(sites) {
  var t = {sites: sites.length, liveBytes: 0, liveBlocks: 0};
  sites.forEach(function (s) {
    t.liveBytes += s.liveBytes;
    t.liveBlocks += s.liveBlocks;
  });
  return t;
}

function focusSnapshot(snapshot, options) {
  return runSteps(focusSnapshotSteps(snapshot, options));
}

// One line for a view's header: what a filtered view holds of the whole;
// '' when nothing was filtered.
function focusNote(snapshot, formatBytes) {
  var f = snapshot.focus;
  if (!f) return '';
  var what = ['focus', 'ignore', 'hide'].filter(function (k) { return f[k] !== undefined; })
    .map(function (k) { return '--' + k + ' ' + JSON.stringify(f[k]); }).join(' ');
  var share = f.allLiveBytes > 0 ? ' (' + (100 * f.liveBytes / f.allLiveBytes).toFixed(1) + '%)' : '';
  return what + ': ' + formatBytes(f.liveBytes) + share + ' of ' + formatBytes(f.allLiveBytes) + ' live, ' +
    f.sites + ' of ' + f.allSites + ' sites';
}

module.exports = {focusSnapshot: focusSnapshot, focusSnapshotSteps: focusSnapshotSteps, focusNote: focusNote};
