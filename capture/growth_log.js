// growth_log.js -- one console line per growth of the wasm memory, as it
// happens (?emheap_growth=log, EMHEAP_GROWTH=log, emheapOptions.growth):
// how much, when, the allocation that made it, and the sites that held the
// most (model/growth.js, the lines `emheap top` prints for the same event).
//
// The runtime calls this (emheap_js_memory_grew) inside that allocation,
// holding its lock: everything here reads memory without the lock (no
// other thread can change the tables meanwhile; taking it again would
// never return) and calls nothing in wasm. The allocation's stack is the
// JS stack now, so even an allocation sampled mode did not record is
// named. An error is said in a line, and the program goes on.
'use strict';

var layout = require('./layout');
var snapshotModule = require('./raw_snapshot');
var nameFrame = require('../model/frame_names').nameFrame;
var functionChain = require('../model/grouping').functionChain;
var allocationStack = require('./out_of_memory_moment').allocationStack;
var growth = require('../model/growth');
var shortStackText = require('../model/sites').shortStackText;
var UNATTRIBUTED = require('../model/snapshot_file').UNATTRIBUTED;

// p: jslib/page.js's profiler; host: the library's. -> log(serial, above):
// serial: the growth's number (1 = the first); above: the wasm import that
// called, left out of the stack.
function growthLogger(p, host) {
  return function (serial, above) {
    try {
      var buffer = host.buffer();
      var state = host.stateAddress();
      var g = layout.readGrowthEvent(new DataView(buffer), state, serial);
      var table = p.taker.table();
      p.taker.loadNames(); // (the line names the frames: node reads them now, a page has them by now)
      var info = p.taker.info();
      var causeStack = allocationStack(table, above, host.onWorker);
      var top = g.top.map(function (t) {
        var s = snapshotModule.oneSiteStack(buffer, state, table, t.siteId, info);
        // (on a worker, the main thread's stacks cannot be read)
        return {siteId: t.siteId, liveBytes: t.liveBytes, stack: s.stackId ? table.stacks[s.stackId].frames : null,
          label: s.mainThread ? '(a site of the main thread)' : s.label};
      });
      // names and places as a snapshot's (debug info, once it is loaded),
      // for the frames printed and the chains of functions
      var names = p.taker.names();
      var named = {frames: []};
      var frameAt = function (i) {
        if (!named.frames[i]) named.frames[i] = nameFrame(table.frames[i], names);
        return named.frames[i];
      };
      // byFunction: the frames without their lines (a row that may hold
      // several call sites of each function)
      var text = function (stack, label, byFunction) {
        if (stack) stack.slice(0, growth.STACK_FRAMES).forEach(frameAt);
        if (!stack || !stack.length) return label;
        if (!byFunction) return shortStackText(named, stack, growth.STACK_FRAMES);
        var functions = {frames: named.frames.map(function (f) { return f && {name: f.name, file: f.file}; })};
        return shortStackText(functions, stack, growth.STACK_FRAMES);
      };
      // the top's call sites of one chain of functions are one row, as
      // every view groups them (model/grouping.js); a function with call
      // sites outside the runtime's top may hold more ("at least")
      var keptOf = new Map(); // site id -> the id of its function chain's first row
      var firstOf = new Map(); // function chain -> that id
      var rows = new Map(); // that id -> how many rows it holds
      top.forEach(function (t) {
        var chain = t.stack && t.stack.length ? functionChain(t.stack, frameAt) : 'site:' + t.siteId;
        var first = firstOf.has(chain) ? firstOf.get(chain) : t.siteId;
        firstOf.set(chain, first);
        keptOf.set(t.siteId, first);
        rows.set(first, (rows.get(first) || 0) + 1);
      });
      var grouped = growth.withMergedSites(g, function (id) { return keptOf.has(id) ? keptOf.get(id) : id; },
        function (id) { return rows.get(id) > 1 ? Infinity : 1; });
      var bySite = new Map(top.map(function (t) { return [t.siteId, text(t.stack, t.label, true)]; }));
      var lines = growth.growthEventLines(grouped, text(causeStack, UNATTRIBUTED), function (id) { return bySite.get(id); });
      lines[0] = 'wasm memory grew ' + lines[0] + ' (growth ' + serial + ')';
      host.err(lines.map(function (line) { return 'emheap: ' + line; }).join('\n'));
    } catch (e) {
      host.err('emheap: wasm memory grew (growth ' + serial + '), and no line could be made: ' + (e && e.message || e));
    }
  };
}

module.exports = {growthLogger: growthLogger};
