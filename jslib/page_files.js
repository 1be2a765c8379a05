// page_files.js -- what the console API saves and compares:
// emheap.downloadSnapshot (Ctrl+Shift+H), dumpHeap, diff and downloadDiff.
// Each builds its file from the model and formats shared with the CLI
// (formats/index.js, formats/heap_dump.js, model/diff.js) and hands it to
// the sink chosen at startup (output/sinks.js). A bad argument or an
// unreadable state is said on the console, and the call returns null:
// never an exception into the page's code.
'use strict';

var formats = require('../formats/index');
var heapDump = require('../formats/heap_dump');
var diffModel = require('../model/diff');
var snapshotFile = require('../model/snapshot_file');
var view = require('../model/view');

function reportError(e) {
  console.error('emheap: ' + String(e && e.message || e).replace(/^emheap: /, ''));
  return null;
}

// A snapshot, or the text or parsed JSON of a file emheap wrote -> the
// snapshot; what `emheap diff` would refuse, refused with its words
// (model/snapshot_file.js). which: the argument's name, for the message.
function asSnapshot(x, which) {
  if (typeof x === 'string') {
    try {
      x = JSON.parse(x);
    } catch (e) {
      throw new Error(which + ' is not JSON (' + (e && e.message || e) + '): pass emheap.snapshot() or a file emheap wrote');
    }
  }
  try {
    return snapshotFile.unwrapSnapshot(x).snapshot;
  } catch (e) {
    throw new Error(which + ': ' + (e && e.message || e));
  }
}

// A file name for a moment: colons are not allowed in Windows file names.
function fileTime(isoTime) {
  return String(isoTime).replace(/:/g, '-');
}

// memory-profile-<time>[-peak|-oom][-tag]<suffix>: the moment the snapshot
// was taken (or, when it is still to be taken, now), what it shows, and
// (tag) why it was taken.
function profileName(snapshot, entry, tag) {
  var capturedAt = snapshot ? snapshot.capturedAt : new Date().toISOString();
  var view = snapshot && snapshot.view === 'peak' ? '-peak' : snapshot && snapshot.outOfMemory ? '-oom' : '';
  return 'memory-profile-' + fileTime(capturedAt) + view + (tag ? '-' + tag : '') + entry.suffix;
}

// parts: {taker (capture/snapshot_taker.js), env (jslib/environment.js:
// its sink, its console, whether a page)}.
function pageFiles(parts) {
  var taker = parts.taker;
  var env = parts.env;

  // Saves what prepare asked for to sink (env.sink unless given): now, or
  // when a snapshot still being built is done. -> the file name, or null
  // after saying why (a sink that cannot save refuses now).
  var save = function (asked, sink) {
    sink = sink || env.sink;
    if (!asked.building || !sink.canSave) {
      if (asked.building) asked.building.catch(reportError);
      return sink.saveSnapshot(asked.name, asked.entry, asked.snapshot);
    }
    asked.building.then(function (snapshot) { sink.saveSnapshot(asked.name, asked.entry, snapshot); }).catch(reportError);
    return asked.name;
  };

  // The two snapshots (after: now when not given) and their diff, printed;
  // or null after saying why.
  var compare = function (before, after, options) {
    var result;
    try {
      var asked = view.viewOptions(options);
      before = view.view(asSnapshot(before, 'before'), asked);
      after = view.view(after === undefined || after === null ? taker.snapshot() : asSnapshot(after, 'after'), asked);
      result = diffModel.diffSnapshots(before, after);
    } catch (e) {
      return reportError(e);
    }
    result.rows = diffModel.sortDiffRows(result.rows, 'bytes');
    var t = result.totals;
    var log = env.console();
    log.log('emheap diff: live bytes ' + t.liveBytes.before + ' -> ' + t.liveBytes.after +
      ' (' + (t.liveBytes.delta >= 0 ? '+' : '') + t.liveBytes.delta + '), live blocks ' + t.liveBlocks.before +
      ' -> ' + t.liveBlocks.after + ', ' + result.rows.length + ' changed sites');
    if (result.rows.length && typeof log.table === 'function') {
      log.table(result.rows.map(function (r) {
        var row = {'site': r.label + (r.status === 'both' ? '' : ' (' + r.status + ')')};
        diffModel.DIFF_COLUMNS.forEach(function (col) { row[col.title] = r[col.key]; });
        row['stack (leaf first)'] = diffModel.stackText(r.stack);
        return row;
      }));
    }
    result.notes.forEach(function (n) { log.log('emheap diff: note: ' + n); });
    return {before: before, after: after, result: result};
  };

  // What downloadSnapshot(format, snapshot) asks for, begun: {name, entry,
  // snapshot (taken or given), or building (a promise of it)}; or null
  // after fail(error) (reportError by default) says why. A snapshot taken
  // here is finished with its frames named (capture/snapshot_taker.js):
  // at once when the module's debug info is in (always under node), else
  // once it arrives, so that a file saved however early has every name and
  // line; nothing names them again.
  // atCall: read the heap before returning, in a page too.
  var prepare = function (format, snapshot, tag, fail, atCall) {
    var entry;
    var given = snapshot !== undefined;
    var building = null;
    var mode;
    try {
      entry = formats.formatByName(format === undefined ? 'speedscope' : format);
      if (given) snapshot = asSnapshot(snapshot, 'snapshot');
      // (no state yet: nothing allocated, an empty snapshot is right)
      mode = given ? snapshot.mode : taker.attached() ? taker.modeNow() : null;
      if (mode === 'off') {
        var off = 'profiling is off (?emheap=off, EMHEAP_MODE=off or emheapOptions.mode): nothing to save; ' +
          (env.node ? 'run it again with EMHEAP_MODE=exact or EMHEAP_MODE=sampled' : 'reload with ?emheap=sampled or ?emheap=exact');
        if (fail) fail(new Error(off));
        else console.warn('emheap: ' + off);
        return null;
      }
      // a format that needs the heap graph gets a snapshot with it
      var options = entry.heap ? {heap: true} : {};
      if (entry.heap && !given) taker.needExact(); // before any slice of work
      // A page reads the heap in a moment and builds the snapshot in
      // slices; node (no page to keep responsive) builds it at once.
      if (given) {
        // saved as it is
      } else if (env.page && !atCall) building = taker.snapshotInSlices(options);
      else if (taker.loadNames()) snapshot = taker.snapshot(options);
      else building = taker.snapshotInSlices(options, true); // the heap read now, finished once the names are in
    } catch (e) {
      (fail || reportError)(e);
      return null;
    }
    // The name says when it was asked for (a page's snapshot is taken a
    // moment later, once its copy area is ready).
    return {name: profileName(snapshot, entry, tag), entry: entry, snapshot: snapshot, building: building};
  };

  var files = {
    // Builds the file and saves it. `snapshot` (optional) is a snapshot or
    // a file emheap wrote, saved in place of the heap as it is now. Returns
    // the file name, or null after printing why (unknown format, profiling
    // off, unreadable state). The heap is read now; if the module's debug
    // info is still loading, as in the first tens of ms after startup, the
    // snapshot is finished and saved when it arrives, so that its frames
    // have names and lines however early the key was pressed. In a page the
    // snapshot and then the file are built in slices and saved when done.
    downloadSnapshot: function (format, snapshot) {
      var asked = prepare(format, snapshot);
      return asked ? save(asked) : null;
    },

    // downloadSnapshot(format) with the heap read before this returns, in a
    // page too (where the key's is read a task later): the heap as it is
    // at a C program's call (emheap_save_snapshot), which goes on running
    // until it yields. sink: where it goes, if not the key's (the one at
    // exit: environment.js exitSink). -> the file name, or null after
    // printing why.
    saveSnapshotAtCall: function (format, sink) {
      var asked = prepare(format, undefined, undefined, undefined, true);
      return asked ? save(asked, sink) : null;
    },

    // A speedscope file's snapshot of now, its frames named, for a sink
    // that sends it on (jslib/remote.js): a promise of {name, entry,
    // snapshot}, rejected with the reason (nothing said here). tag goes in
    // the name (memory-profile-<time>-<tag>.speedscope.json).
    snapshotToSend: function (tag) {
      return new Promise(function (resolve, reject) {
        var asked = prepare('speedscope', undefined, tag, reject);
        if (!asked) return;
        var send = function (snap) { resolve({name: asked.name, entry: asked.entry, snapshot: snap}); };
        if (asked.building) asked.building.then(send, reject);
        else send(asked.snapshot);
      });
    },

    // Saves a snapshot taken in this program a moment ago (the one taken at
    // an out-of-memory), as it was finished then, in `format`; returns the
    // file name, or null.
    saveSnapshotNow: function (format, snapshot) {
      var entry;
      try {
        entry = formats.formatByName(format);
      } catch (e) {
        return reportError(e);
      }
      return env.sink.saveSnapshot(profileName(snapshot, entry), entry, snapshot);
    },

    // A heap dump (formats/heap_dump.js): the snapshot with its heap graph
    // and the memory the scan read, copied now, saved as
    // memory-dump-<time>.emheapdump.gz for `emheap analyze` and friends.
    // Exact modes. Returns the file name, or null (the console says why).
    dumpHeap: function () {
      var snapshot;
      var building = null;
      try {
        taker.needExact();
        // read now; finished (its frames named) once the debug info is in
        if (taker.loadNames()) snapshot = taker.snapshot({heap: true});
        else building = taker.snapshotInSlices({heap: true}, true);
      } catch (e) {
        return reportError(e);
      }
      var name = 'memory-dump-' + fileTime(snapshot ? snapshot.capturedAt : new Date().toISOString()) + heapDump.DUMP_FILE.suffix;
      // its heap section keeps the copy of the memory the scan read
      var saveDump = function (snap) { return env.sink.saveSnapshot(name, heapDump.DUMP_FILE, heapDump.makeDump(snap)); };
      if (!building) {
        try {
          return saveDump(snapshot);
        } catch (e) {
          return reportError(e);
        }
      }
      building.then(saveDump).catch(reportError);
      return name;
    },

    // emheap.diff(before, after = now, {by}): the comparison `emheap diff`
    // prints (model/diff.js, the same code), grouped as it groups (by
    // function unless options.by says line or site), printed with
    // console.table and returned as {rows (largest size delta first), sum,
    // totals, notes}.
    diff: function (before, after, options) {
      var compared = compare(before, after, options);
      return compared && compared.result;
    },

    // Saves the diff as `emheap diff --json` prints it (sites by size delta).
    downloadDiff: function (before, after, options) {
      var compared = compare(before, after, options);
      if (!compared) return null;
      var body = diffModel.diffReport(compared.before, compared.after, {sort: 'bytes', diff: compared.result});
      return env.sink.saveText('memory-diff-' + fileTime(compared.after.capturedAt) + '.json',
        JSON.stringify(body, null, 2), 'application/json');
    },
  };
  return files;
}

module.exports = {pageFiles: pageFiles, reportError: reportError};
