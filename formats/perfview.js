// perfview.js: turn an emheap snapshot into a *.PerfView.json object, read by
// PerfView's XML stack source (microsoft/perfview XMLStackSource.cs) through
// .NET's JSON-to-XML reader. Pure CommonJS, embedded in the --js-library too:
// see formats/README.md for the rules this code follows.

var jsonStream = require('./json_stream');
var liveHeaviestFirstSteps = require('../model/site_counters').liveHeaviestFirstSteps;
var steps = require('../model/steps');
var lazyArray = jsonStream.lazyArray;
var resolve = jsonStream.resolve;

var UNATTRIBUTED = require('../model/snapshot_file').UNATTRIBUTED;

// "http://host/dir/app.wasm?v=2" -> "app.wasm". PerfView shortens "path!name"
// itself only in some views, so the module is written short everywhere.
function moduleBase(url) {
  var path = String(url).split('?')[0].split('#')[0];
  var parts = path.split(/[\\/]/);
  return parts[parts.length - 1];
}

// "app.wasm!leak_memory (app.c:42)", the module!function shape PerfView groups by.
function frameLabel(f) {
  var label = String(f.name);
  var base = f.module ? moduleBase(f.module) : '';
  if (base) label = base + '!' + label;
  if (f.file != null && f.line != null) label += ' (' + f.file + ':' + f.line + ')';
  return label;
}

// The file as a value whose samples are produced while it is written
// (json_stream.js). PerfView's JSON reader takes only this shape, full label
// lists per sample: frame and stack tables with ids are read from XML
// attributes only (XMLStackSource.cs), which .NET's JSON-to-XML reader never
// makes. So the file repeats each label in every sample that has it.
function* perfViewFileSteps(snapshot) {
  var snapFrames = snapshot.frames || [];
  var labels = snapFrames.map(frameLabel);

  var live = yield* liveHeaviestFirstSteps(snapshot.sites);

  var samples = lazyArray(function* () {
    for (var s = 0; s < live.length; s++) {
      var site = live[s];
      var ids = site.stack || [];
      var stack = new Array(ids.length);
      for (var i = 0; i < ids.length; i++) {
        if (labels[ids[i]] === undefined) throw new Error('emheap snapshot: stack refers to missing frame ' + ids[i]);
        stack[i] = labels[ids[i]];
      }
      if (stack.length === 0) stack = [UNATTRIBUTED];
      // Exactly these three keys: the reader takes every array item two levels
      // below a sample as a stack frame, so any extra array would pollute the stack.
      // PerfView keeps Metric as a 32-bit float: sizes above 16 MiB (2^24) are
      // rounded to float precision in its views, but stay exact in "emheap".
      // Stack is leaf first, which is what the reader expects (it reverses it).
      yield { Time: 0, Metric: site.liveBytes, Stack: stack };
    }
  });

  // StackSource first: the reader parses the first "StackSource" element it
  // meets at any depth and walks past the rest, including the snapshot below.
  // PerfView also picks up elements named Log, Notes, FilterXml and
  // StackWindowGuiState anywhere, so the snapshot must not use those keys.
  return { StackSource: { Samples: samples }, emheap: snapshot };
}

function perfViewFile(snapshot) {
  return steps.runSteps(perfViewFileSteps(snapshot));
}

// The whole file as one object (small snapshots, the page's emheap.toPerfView()).
function toPerfView(snapshot) {
  return resolve(perfViewFile(snapshot));
}

module.exports = { perfViewFileSteps: perfViewFileSteps, toPerfView: toPerfView };
