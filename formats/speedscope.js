// speedscope.js: turn an emheap snapshot into a speedscope file object
// (https://www.speedscope.app/file-format-schema.json), one "sampled" profile
// whose weights are live bytes. Pure CommonJS, embedded in the --js-library too:
// see formats/README.md for the rules this code follows.

var jsonStream = require('./json_stream');
var liveHeaviestFirstSteps = require('../model/site_counters').liveHeaviestFirstSteps;
var steps = require('../model/steps');
var hasSampledBlocks = require('../model/estimates').hasSampledBlocks;
var lazyArray = jsonStream.lazyArray;
var resolve = jsonStream.resolve;

var SCHEMA_URL = 'https://www.speedscope.app/file-format-schema.json';
var UNATTRIBUTED = require('../model/snapshot_file').UNATTRIBUTED;

// The file as a value whose sample array is produced while it is written
// (json_stream.js): at 2M sites x 60 frames it is larger than any string.
function* speedscopeFileSteps(snapshot) {
  var frames = [];        // speedscope frames, in order of first use
  var frameIds = {};      // dedup key -> index in `frames`
  var snapFrames = snapshot.frames || [];

  // speedscope merges nothing itself and shows one row per frame index, so
  // snapshot frames that differ only in offset/funcIndex/module (the same
  // function called from several places) are folded into one frame here.
  function intern(name, file, line) {
    var key = JSON.stringify([name, file, line]);
    var id = frameIds[key];
    if (id === undefined) {
      var frame = { name: name };
      // absent keys are left out rather than null: speedscope's schema types them
      if (file !== null) frame.file = file;
      if (line !== null) frame.line = line;
      id = frames.length;
      frames.push(frame);
      frameIds[key] = id;
    }
    return id;
  }

  // speedscope frame id of each snapshot frame, made on first use
  var ids = new Array(snapFrames.length);
  function frameId(index) {
    var id = ids[index];
    if (id !== undefined) return id;
    var f = snapFrames[index];
    if (!f) throw new Error('emheap snapshot: stack refers to missing frame ' + index);
    id = intern(String(f.name), f.file == null ? null : f.file, f.line == null ? null : f.line);
    ids[index] = id;
    return id;
  }

  // Only live memory is drawn; zero-live sites stay in the snapshot for diffs.
  // Heaviest first makes the "left heavy" and sample order agree.
  var live = yield* liveHeaviestFirstSteps(snapshot.sites);
  var total = 0;
  var weights = new Array(live.length);
  for (var w = 0; w < live.length; w++) {
    if (w % steps.STEP_ITEMS === steps.STEP_ITEMS - 1) yield;
    weights[w] = live[w].liveBytes;
    total += live[w].liveBytes;
  }

  var samples = lazyArray(function* () {
    for (var s = 0; s < live.length; s++) {
      var stack = live[s].stack || [];
      if (stack.length === 0) {
        // site 0: no stack could be taken; speedscope needs at least one frame
        yield [intern(UNATTRIBUTED, null, null)];
        continue;
      }
      // the snapshot stores stacks leaf first; speedscope wants root first
      var sample = new Array(stack.length);
      for (var i = 0; i < stack.length; i++) sample[stack.length - 1 - i] = frameId(stack[i]);
      yield sample;
    }
  });

  return {
    $schema: SCHEMA_URL,
    name: 'emheap live bytes ' + snapshot.capturedAt,
    exporter: 'emheap',
    activeProfileIndex: 0,
    profiles: [{
      type: 'sampled',
      // What a person reads in speedscope's title bar: sampled numbers are
      // estimates, and says so.
      name: (snapshot.view === 'peak' ? 'live bytes at the peak' : 'live bytes') + (hasSampledBlocks(snapshot)
        ? (snapshot.mode === 'sampled' ? ' (estimated' : ' (partly estimated') + ': one stack per ' +
          snapshot.samplingInterval + ' bytes; a site of B bytes is within about sqrt(' + snapshot.samplingInterval + '/B))'
        : ''),
      unit: 'bytes',
      startValue: 0,
      endValue: total,
      samples: samples,
      weights: weights,
    }],
    // after the profiles, whose samples fill it as they are written
    shared: { frames: lazyArray(function* () { yield* frames; }) },
    // speedscope ignores unknown top-level keys; the CLI reads the snapshot back from here
    emheap: snapshot,
  };
}

function speedscopeFile(snapshot) {
  return steps.runSteps(speedscopeFileSteps(snapshot));
}

// The whole file as one object (small snapshots, the page's emheap.toSpeedscope()).
function toSpeedscope(snapshot) {
  return resolve(speedscopeFile(snapshot));
}

module.exports = { speedscopeFileSteps: speedscopeFileSteps, toSpeedscope: toSpeedscope };
