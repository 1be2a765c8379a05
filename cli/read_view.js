// read_view.js: a snapshot file as the commands look at it: read and
// checked (cli/read_snapshot.js), finished as the page finishes its own
// (model/finish.js: the allocation layer declared by --wrappers and the one
// detected left out), at the peak when --at asks, filtered (--focus,
// --ignore, --hide) and grouped (--by) as the page's views are
// (model/view.js); and the one error for a view that needs the heap graph
// and has none.
'use strict';

const { EmheapError } = require('./errors');
const { readSnapshotFile } = require('./read_snapshot');
const { withPrintableNames } = require('./table');
const { finishSnapshot } = require('../model/finish');
const { parseWrapperList } = require('../model/wrappers');
const { peakView } = require('../model/peak');
const { GROUPINGS, DEFAULT_GROUPING } = require('../model/grouping');
const { view: viewOf } = require('../model/view');

// file, the command's options (wrappers, at, by, focus, ignore, hide, json) ->
// the snapshot to show.
//   printable: names made printable, for a command that prints a table (not
//     with --json, which keeps them as they are)
//   grouped: rows grouped by --by; `convert` writes the file's own sites
function readView(file, opts, { printable = false, grouped = true } = {}) {
  const read = readSnapshotFile(file).snapshot;
  const snapshot = printable && !opts.json ? withPrintableNames(read) : read;
  const named = finishSnapshot(snapshot, { wrappers: parseWrapperList(opts.wrappers === undefined ? [] : opts.wrappers) });
  const at = opts.at === undefined ? 'now' : opts.at;
  if (at !== 'now' && at !== 'peak') throw new EmheapError(`--at: "${at}" is not one of now, peak`);
  const by = opts.by === undefined ? DEFAULT_GROUPING : opts.by;
  if (!GROUPINGS.includes(by)) throw new EmheapError(`--by: "${by}" is not one of ${GROUPINGS.join(', ')}`);
  let view = named;
  if (at === 'peak') {
    view = peakView(named);
    if (!view) {
      throw new EmheapError(`${file}: --at peak: this snapshot has no per-site numbers at the peak ` +
        '(it was taken by an emheap older than this one)');
    }
  }
  if (!grouped) return view;
  try {
    return viewOf(view, { by, focus: opts.focus, ignore: opts.ignore, hide: opts.hide });
  } catch (e) {
    if (e.userError) throw new EmheapError(e.message);
    throw e;
  }
}

// `what` (an option or a command) reads the heap graph: one line saying why
// there is none. The peak view has none by design: the graph is of the
// moment the snapshot was taken, and the peak's blocks are gone.
function needHeapGraph(snapshot, file, what) {
  if (snapshot.heap) return;
  if (snapshot.view === 'peak') {
    throw new EmheapError(`${what} reads the heap graph, which is of the moment ${file} was taken, not of the peak: ` +
      'leave --at peak out');
  }
  throw new EmheapError(`${what}: ${file} has no heap graph: take the snapshot in exact mode with ` +
    'emheap.snapshot({heap: true}) or downloadSnapshot("heapsnapshot")');
}

module.exports = { readView, needHeapGraph };
