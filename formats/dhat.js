// dhat.js: turn an emheap snapshot into a DHAT file (Valgrind's DHAT JSON,
// "dhatFileVersion": 2), which Valgrind's viewer dh_view.html and the
// Firefox Profiler open. Pure CommonJS, embedded in the --js-library too:
// see formats/README.md for the rules this code follows.
//
// The format, as dh_view.js reads it (Valgrind 3.19, dh_view.js buildTree
// and checkPP): top-level dhatFileVersion, mode, verb, bklt (block
// lifetimes: the at-peak and at-end figures), bkacc (access counts), tu and
// Mtu (the time unit and its million), cmd, pid, te (time at the end), tg
// and tuth (with bklt), pps (program points) and ftbl (frame table, entry
// 0 "[root]"). A program point is one allocation stack: fs (ftbl indices,
// the allocation point first, as emheap's site stacks are), tb/tbk (bytes
// and blocks ever allocated), tl (their total lifetime), mb/mbk (its own
// highest live bytes and the blocks then), gb/gbk (at the global peak,
// "t-gmax"), eb/ebk (at the end: the snapshot).
//
// What emheap has and DHAT expects differently:
//  - time: DHAT counts instructions; emheap counts bytes allocated, so te is
//    summary.totalBytes and tg the bytes allocated until the peak (layout 5:
//    summary.totalBytesAtPeak), as Massif's --time-unit=B does; those count
//    usable sizes, the program points the bytes asked for (as DHAT does).
//  - lifetimes: emheap does not time blocks. tl is 0 and tuth -1 (no block
//    counts as short-lived); cmd says so, as the viewer shows it.
//  - sampled mode: site numbers are estimates (rounded here); cmd says so.
'use strict';

var jsonChunks = require('./json_stream').jsonChunks;
var lazyArray = require('./json_stream').lazyArray;
var resolve = require('./json_stream').resolve;
var hasSampledBlocks = require('../model/estimates').hasSampledBlocks;

function frameLabel(frame) {
  var name = frame && frame.name ? frame.name : '???';
  if (frame && frame.file) return name + ' (' + frame.file + (frame.line !== undefined ? ':' + frame.line : '') + ')';
  return name;
}

function count(v) {
  return v > 0 ? Math.round(v) : 0;
}

// What DHAT needs of a site, or the reason this snapshot cannot give it.
function missingFields(snapshot) {
  if (snapshot.view === 'peak') {
    return 'a DHAT file carries the peak itself (its "At t-gmax" figures): write it from the snapshot, not its peak view';
  }
  if (!snapshot.summary || snapshot.summary.totalBytesAtPeak === undefined) {
    return 'this snapshot has no bytes allocated until the peak (summary.totalBytesAtPeak): it was taken by an ' +
      'emheap older than this one';
  }
  var sites = snapshot.sites || [];
  for (var i = 0; i < sites.length; i++) {
    if (sites[i].liveBytesAtPeak === undefined || sites[i].blocksAtPeakLiveBytes === undefined) {
      return 'site ' + sites[i].id + ' has no numbers at the peak: the snapshot was taken by an emheap older than this one';
    }
  }
  return null;
}

function command(snapshot) {
  var text = (snapshot.source || 'wasm') + ': emheap ' + snapshot.mode;
  if (hasSampledBlocks(snapshot)) {
    text += (snapshot.mode === 'sampled' ? '' : ', thinned') + ', one stack per ' + snapshot.samplingInterval +
      ' bytes allocated on average: per-point numbers holding sampled blocks are estimates, totals in emheap top are exact';
  }
  return text + '; times are bytes allocated (usable sizes); block lifetimes are not measured (shown as 0)';
}

// -> the DHAT file as a value whose pps and ftbl are lazy arrays (written
// as they are made: a million sites make a file of hundreds of MB).
function dhatFile(snapshot) {
  var reason = missingFields(snapshot);
  if (reason) throw new Error(reason);
  var sites = snapshot.sites || [];
  var frames = snapshot.frames || [];
  var summary = snapshot.summary;
  // a site without a stack (unattributed, a worker's JS stack) gets a frame
  // of its own, named by its key: a program point needs at least one
  var stackless = new Map();
  sites.forEach(function (s) {
    if (s.totalAllocs > 0 && !s.stack.length && !stackless.has(s.key)) stackless.set(s.key, frames.length + 1 + stackless.size);
  });
  return {
    dhatFileVersion: 2,
    mode: 'heap',
    verb: 'Allocated',
    bklt: true,
    bkacc: false,
    tu: 'bytes allocated',
    Mtu: 'MB allocated',
    tuth: -1,
    cmd: command(snapshot),
    pid: 0,
    te: count(summary.totalBytes),
    tg: count(summary.totalBytesAtPeak),
    pps: lazyArray(function* () {
      for (var i = 0; i < sites.length; i++) {
        var s = sites[i];
        if (!(s.totalAllocs > 0)) continue;
        yield {
          tb: count(s.totalBytes), tbk: count(s.totalAllocs), tl: 0,
          mb: count(s.peakLiveBytes), mbk: count(s.blocksAtPeakLiveBytes),
          gb: count(s.liveBytesAtPeak), gbk: count(s.liveBlocksAtPeak),
          eb: count(s.liveBytes), ebk: count(s.liveBlocks),
          fs: s.stack.length ? s.stack.map(function (f) { return f + 1; }) : [stackless.get(s.key)],
        };
      }
    }),
    ftbl: lazyArray(function* () {
      yield '[root]';
      for (var f = 0; f < frames.length; f++) yield frameLabel(frames[f]);
      for (var key of stackless.keys()) yield key;
    }),
  };
}

function* dhatChunks(snapshot) {
  yield* jsonChunks(dhatFile(snapshot));
}

// The whole file as one value (tests, small snapshots).
function toDhat(snapshot) {
  return resolve(dhatFile(snapshot));
}

module.exports = { dhatChunks: dhatChunks, toDhat: toDhat };
