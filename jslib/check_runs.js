// check_runs.js -- heap budgets for one run of some code, begun and ended
// from JS (emheap.checkBegin / checkEnd, which emheap/testing's heapCheck
// calls: testing/index.js) or from C (emheap_check_begin / emheap_check_end,
// runtime/heap_check.c). A check begins with a mark ("check: NAME"), a
// restart of the runtime's peak and a snapshot; it ends with a snapshot
// and model/heap_check.js's verdict. Main thread only.
'use strict';

var heapCheck = require('../model/heap_check');
var layout = require('../capture/layout');
var cText = require('../capture/c_text');
var L = require('../capture/layout_generated');

var LIMITS = L.emheap_limits;
var NO_LIMIT = L.constants.EMHEAP_NO_LIMIT;
// heapCheck's limit -> the emheap_limits field that gives it from C
var LIMIT_FIELDS = [['leaks', LIMITS.leaked_bytes], ['maxLiveBytes', LIMITS.live_bytes], ['maxPeakBytes', LIMITS.peak_bytes],
  ['maxAllocs', LIMITS.allocs], ['maxTotalBytes', LIMITS.total_bytes]];

// p: the profiler (jslib/page.js: taker, mark); host: the library's
// (buffer(), restartPeak(), onWorker).
function heapChecks(p, host) {
  var open = new Map();
  var next = 1;

  var checks = {
    // -> the check's number. Throws when it cannot begin.
    begin: function (name) {
      if (host.onWorker) throw new Error('heap check: begin and end checks on the main thread');
      if (!p.taker.attached()) {
        throw new Error('heap check: the program has not started its runtime yet (no allocation so far)');
      }
      if (p.taker.modeNow() === 'off') throw new Error('heap check: profiling is off (emheap mode off): nothing is counted');
      var mark = p.mark('check: ' + (name === undefined || name === null || name === '' ? 'run' : String(name)));
      host.restartPeak();
      var id = next++;
      open.set(id, {mark: mark.number, name: name, before: p.taker.snapshot()});
      return id;
    },

    // limits: as model/heap_check.js checkLimits takes them (undefined:
    // close the check unchecked, -> null); options: {warmups, cutAt,
    // testName} (model/heap_check.js checkRun's). -> its
    // checkRun result. Throws when the check is not open or a limit is bad.
    end: function (id, limits, options) {
      var check = open.get(id);
      if (!check) throw new Error('heap check: check ' + id + ' is not open (each check ends once)');
      open.delete(id);
      if (limits === undefined) return null;
      var checked = heapCheck.checkLimits(limits);
      return heapCheck.checkRun(check.before, p.taker.snapshot(), check.mark, checked,
        {name: check.name, warmups: options && options.warmups, cutAt: options && options.cutAt,
          testName: options && options.testName, by: limits.by});
    },

    // From C: a NUL-terminated UTF-8 name at `namePtr` (0: none). -> the
    // check's number, 0 after saying why it could not begin.
    beginFromC: function (namePtr) {
      try {
        return checks.begin(namePtr ? cText.cString(host.buffer(), namePtr) : undefined);
      } catch (e) {
        console.error('emheap: ' + String(e && e.message || e));
        return 0;
      }
    },

    // From C: limits (an emheap_limits at limitsPtr), the text written at
    // messagePtr (size bytes, NUL-terminated). -> 0 within, 1 over, -1 not
    // checked.
    endFromC: function (id, limitsPtr, messagePtr, size) {
      var status;
      var text;
      try {
        if (!limitsPtr) throw new Error('heap check: emheap_check_end: no limits given');
        var result = checks.end(id, readLimits(new DataView(host.buffer()), limitsPtr));
        status = result.ok ? 0 : 1;
        text = result.text;
      } catch (e) {
        status = -1;
        text = String(e && e.message || e);
      }
      if (messagePtr && size) writeCString(host.buffer(), messagePtr, size, text);
      return status;
    },
  };
  return checks;
}

// The emheap_limits at `at`: int64s, EMHEAP_NO_LIMIT for none.
function readLimits(view, at) {
  var limits = {};
  LIMIT_FIELDS.forEach(function (f) {
    var name = f[0];
    var v = view.getUint32(at + f[1], true) + view.getInt32(at + f[1] + 4, true) * 4294967296;
    if (v === NO_LIMIT) return;
    if (v < 0) throw new Error('heap check: emheap_limits.' + name + ' is ' + v + ': give a maximum >= 0 or EMHEAP_NO_LIMIT');
    limits[name] = name === 'leaks' ? (v === 0 ? true : v) : v;
  });
  return limits;
}

// text as UTF-8 at `at`, cut at a character to fit size - 1 bytes, then NUL.
function writeCString(buffer, at, size, text) {
  var encoded = cText.utf8Prefix(text, size - 1);
  var bytes = new Uint8Array(buffer);
  bytes.set(encoded, at);
  bytes[at + encoded.length] = 0;
}

module.exports = {heapChecks: heapChecks};
