// speedscope.js: turn an emheap snapshot into a speedscope file object
// (https://www.speedscope.app/file-format-schema.json), one "sampled" profile
// whose weights are live bytes. Pure CommonJS, embedded in the --js-library too:
// see formats/README.md for the rules this code follows.

var SCHEMA_URL = 'https://www.speedscope.app/file-format-schema.json';
var UNATTRIBUTED = '(unattributed)';

function toSpeedscope(snapshot) {
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

  function frameId(index) {
    var f = snapFrames[index];
    if (!f) throw new Error('emheap snapshot: stack refers to missing frame ' + index);
    return intern(String(f.name), f.file == null ? null : f.file, f.line == null ? null : f.line);
  }

  // Only live memory is drawn; zero-live sites stay in the snapshot for diffs.
  // Sorting heaviest first makes the "left heavy" and sample order agree.
  // Array.prototype.sort is stable since ES2019, so ties keep snapshot order.
  var live = (snapshot.sites || []).filter(function (s) { return s.liveBytes > 0; });
  live.sort(function (a, b) { return b.liveBytes - a.liveBytes; });

  var samples = [];
  var weights = [];
  var total = 0;
  live.forEach(function (site) {
    var stack = site.stack || [];
    var sample;
    if (stack.length === 0) {
      // site 0: no stack could be taken; speedscope needs at least one frame
      sample = [intern(UNATTRIBUTED, null, null)];
    } else {
      // the snapshot stores stacks leaf first; speedscope wants root first
      sample = [];
      for (var i = stack.length - 1; i >= 0; i--) sample.push(frameId(stack[i]));
    }
    samples.push(sample);
    weights.push(site.liveBytes);
    total += site.liveBytes;
  });

  return {
    $schema: SCHEMA_URL,
    name: 'emheap live bytes ' + snapshot.capturedAt,
    exporter: 'emheap',
    activeProfileIndex: 0,
    shared: { frames: frames },
    profiles: [{
      type: 'sampled',
      // What a person reads in speedscope's title bar: sampled numbers are
      // estimates, and says so.
      name: snapshot.mode === 'sampled'
        ? 'live bytes (estimated: one stack per ' + snapshot.samplingInterval + ' bytes; a site of B bytes is within about sqrt(' +
          snapshot.samplingInterval + '/B))'
        : 'live bytes',
      unit: 'bytes',
      startValue: 0,
      endValue: total,
      samples: samples,
      weights: weights,
    }],
    // speedscope ignores unknown top-level keys; the CLI reads the snapshot back from here
    emheap: snapshot,
  };
}

module.exports = { toSpeedscope: toSpeedscope };
