// config.js -- emheap's settings, from where a user gives them: the link
// line (a --pre-js emheap-config writes), Module.emheapOptions, and from
// outside the code, the page URL (?emheap=exact) or under node the
// environment (EMHEAP_MODE=exact), which wins. A bad value is reported
// through warn(message) and ignored: the app starts as it would without
// it. settingsOf reads each once from the sources the page code hands in;
// nothing here reaches a global.
'use strict';

var MAX_STACK_DEPTH = require('../capture/stack_table').MAX_STACK_DEPTH;
var LEAK_EXIT_ON = require('../model/leak_report').LEAK_EXIT_ON;
var DEFAULT_LEAK_BY = require('../model/leak_report').DEFAULT_LEAK_BY;
var GROUPINGS = require('../model/grouping').GROUPINGS;
var parseWrapperList = require('../model/wrappers').parseWrapperList;

// The fields of Module.emheapOptions emheap knows.
var OPTION_NAMES = ['mode', 'samplingInterval', 'stackDepth', 'seed', 'leakReport', 'leakExitCode', 'leakExitOn', 'leakBy',
  'timeline', 'wrappers', 'contexts', 'outOfMemory', 'growth', 'footers', 'remote', 'remoteEvery', 'snapshotAtExit'];

var given = function (v) { return v !== undefined && v !== null && v !== ''; };

// Module.emheapOptions (`options`) read into a plain object of the fields
// emheap knows. The app owns that object: a getter that throws, or a value
// that is not an object, is reported and left out.
function readOptions(options, warn) {
  var out = {};
  try {
    if (options === undefined || options === null) return out;
    if (typeof options !== 'object') throw new Error('it is a ' + typeof options + ', not an object');
    OPTION_NAMES.forEach(function (name) {
      try {
        out[name] = options[name];
      } catch (e) {
        warn('emheap: ignoring Module.emheapOptions.' + name + ': reading it threw ' + (e && e.message || e));
      }
    });
  } catch (e) {
    warn('emheap: ignoring Module.emheapOptions: ' + (e && e.message || e));
  }
  return out;
}

// Settings given from outside the code: the page URL's parameters when it
// has any (search: location.search), else under node the environment (env:
// process.env, or null in a page). {where, get(parameter, variable)}, or
// null when there is neither.
function outsideSettings(search, env) {
  if (search && typeof URLSearchParams !== 'undefined') {
    var params = new URLSearchParams(search);
    return {where: 'the page URL', get: function (parameter) { return params.get(parameter); }};
  }
  if (env) return {where: 'the environment', get: function (parameter, variable) { return env[variable]; }};
  return null;
}

// {mode, samplingInterval, stackDepth, seed, contexts}: the outside wins
// over the options, which win over the link line (the runtime's own
// defaults). randomSeed() gives a seed when none was asked for, so that
// sampling points, and so estimates, differ from run to run.
function readConfig(options, outside, warn, randomSeed) {
  var config = {contexts: true, outOfMemoryReport: true, growthLog: false, footers: true};
  var take = function (mode, interval, depth, seed, where) {
    if (given(mode)) {
      if (mode === 'exact' || mode === 'sampled' || mode === 'off') config.mode = mode;
      else warn('emheap: ignoring mode "' + mode + '" from ' + where + ': use exact, sampled or off');
    }
    if (given(interval)) {
      var n = Number(interval);
      if (n >= 1 && n <= 0x40000000 && Math.floor(n) === n) config.samplingInterval = n;
      else warn('emheap: ignoring sampling interval "' + interval + '" from ' + where + ': use a whole number of bytes from 1 to 2^30');
    }
    if (given(depth)) {
      var d = Number(depth);
      if (d >= 1 && d <= MAX_STACK_DEPTH && Math.floor(d) === d) config.stackDepth = d;
      else warn('emheap: ignoring stack depth "' + depth + '" from ' + where + ': use a whole number of frames from 1 to ' + MAX_STACK_DEPTH);
    }
    if (given(seed)) {
      var sd = Number(seed);
      if (sd >= 1 && sd <= Number.MAX_SAFE_INTEGER && Math.floor(sd) === sd) config.seed = sd;
      else warn('emheap: ignoring seed "' + seed + '" from ' + where + ': use a whole number from 1 to 2^53-1');
    }
  };
  // contexts: exact mode's sites from calling contexts (the default), or a
  // JS stack per allocation (false), or both, compared (verify).
  var takeContexts = function (value, where) {
    if (!given(value)) return;
    if (value === true || value === '1' || value === 'on') config.contexts = true;
    else if (value === false || value === '0' || value === 'off') config.contexts = false;
    else if (value === 'verify') config.contexts = 'verify';
    else warn('emheap: ignoring contexts "' + value + '" from ' + where + ': use on, off or verify');
  };
  // outOfMemory: the report and snapshot at an out-of-memory (the
  // default), or not (false, off)
  var takeOutOfMemory = function (value, where) {
    if (!given(value)) return;
    if (value === true || value === '1' || value === 'on') config.outOfMemoryReport = true;
    else if (value === false || value === '0' || value === 'off') config.outOfMemoryReport = false;
    else warn('emheap: ignoring outOfMemory "' + value + '" from ' + where + ': use on or off');
  };
  // footers: exact mode keeps each record in its block where it can
  // (runtime/footer.h; the default), or in the block table only (off)
  var takeFooters = function (value, where) {
    if (!given(value)) return;
    if (value === true || value === '1' || value === 'on') config.footers = true;
    else if (value === false || value === '0' || value === 'off') config.footers = false;
    else warn('emheap: ignoring footers "' + value + '" from ' + where + ': use on or off');
  };
  // growth: 'log' prints a line on the console at each growth of the wasm
  // memory, as it happens; 'off' (the default) does not
  var takeGrowth = function (value, where) {
    if (!given(value)) return;
    if (value === 'log') config.growthLog = true;
    else if (value === 'off' || value === false || value === '0') config.growthLog = false;
    else warn('emheap: ignoring growth "' + value + '" from ' + where + ': use log or off');
  };
  take(options.mode, options.samplingInterval, options.stackDepth, options.seed, 'Module.emheapOptions');
  takeContexts(options.contexts, 'Module.emheapOptions');
  takeOutOfMemory(options.outOfMemory, 'Module.emheapOptions');
  takeGrowth(options.growth, 'Module.emheapOptions');
  takeFooters(options.footers, 'Module.emheapOptions');
  if (outside) {
    take(outside.get('emheap', 'EMHEAP_MODE'), outside.get('emheap_interval', 'EMHEAP_SAMPLING_INTERVAL'),
      outside.get('emheap_depth', 'EMHEAP_STACK_DEPTH'), outside.get('emheap_seed', 'EMHEAP_SEED'), outside.where);
    takeContexts(outside.get('emheap_contexts', 'EMHEAP_CONTEXTS'), outside.where);
    takeOutOfMemory(outside.get('emheap_oom', 'EMHEAP_OOM'), outside.where);
    takeGrowth(outside.get('emheap_growth', 'EMHEAP_GROWTH'), outside.where);
    takeFooters(outside.get('emheap_footers', 'EMHEAP_FOOTERS'), outside.where);
  }
  if (!config.seed) config.seed = randomSeed();
  return config;
}

// The program's allocation layer (model/wrappers.js): names or globs from
// the link line (`emheap-config --wrappers=a,b` writes a --pre-js that sets
// Module.emheapLinkWrappers: linkWrappers), options.wrappers (an array or
// "a,b"), the page URL (?emheap_wrappers=a,b) or under node
// EMHEAP_WRAPPERS, all added up; "none" in any of them turns detection off.
function readWrapperList(linkWrappers, options, outside, warn) {
  var lists = [linkWrappers, options.wrappers];
  if (outside) lists.push(outside.get('emheap_wrappers', 'EMHEAP_WRAPPERS'));
  return parseWrapperList(lists.filter(function (v) {
    if (v === undefined || v === null || typeof v === 'string' || Array.isArray(v)) return true;
    warn('emheap: ignoring wrappers option: use an array of names or "a,b"');
    return false;
  }));
}

// The leak report at exit, asked for by options {leakReport: true | 'file',
// leakExitCode: N, leakExitOn: 'live' | 'leaked' | 'direct', leakBy:
// 'line' | 'function' | 'site' | 'module'} or, under node (env:
// process.env, else null), by EMHEAP_LEAK_REPORT=1 | <file>,
// EMHEAP_LEAK_EXIT_CODE=N, EMHEAP_LEAK_EXIT_ON=..., EMHEAP_LEAK_BY=...,
// which win. An exit code alone also asks for the report. {file, exitCode,
// exitOn, by}, or null if not asked.
function readLeakConfig(options, env, warn) {
  var report = options.leakReport;
  var code = options.leakExitCode;
  var on = options.leakExitOn;
  var by = options.leakBy;
  if (env) {
    var asked = env['EMHEAP_LEAK_REPORT'];
    if (given(asked)) report = asked === '0' ? false : asked === '1' ? true : asked;
    if (env['EMHEAP_LEAK_EXIT_CODE']) code = env['EMHEAP_LEAK_EXIT_CODE'];
    if (env['EMHEAP_LEAK_EXIT_ON']) on = env['EMHEAP_LEAK_EXIT_ON'];
    if (env['EMHEAP_LEAK_BY']) by = env['EMHEAP_LEAK_BY'];
  }
  var config = {file: typeof report === 'string' ? report : '', exitCode: 0, exitOn: 'live', by: DEFAULT_LEAK_BY};
  if (given(by)) {
    if (GROUPINGS.indexOf(by) >= 0) config.by = by;
    else warn('emheap: ignoring leakBy "' + by + '": use ' + GROUPINGS.join(', '));
  }
  if (given(code)) {
    var n = Number(code);
    if (n >= 1 && n <= 255 && Math.floor(n) === n) config.exitCode = n;
    else warn('emheap: ignoring leak exit code "' + code + '": use a whole number from 1 to 255');
  }
  if (given(on)) {
    if (LEAK_EXIT_ON.indexOf(on) >= 0) config.exitOn = on;
    else warn('emheap: ignoring leakExitOn "' + on + '": use ' + LEAK_EXIT_ON.join(', '));
  }
  return report || config.exitCode ? config : null;
}

// One snapshot saved when the program exits (jslib/exit_snapshot.js), asked
// for by options {snapshotAtExit: true | 'FORMAT'} or, under node (env:
// process.env, else null), by EMHEAP_SNAPSHOT_AT_EXIT=1 | FORMAT (0: none),
// which wins. -> the format's name (1 and true: speedscope, the key's), or
// null if not asked; formats.js checks the name where it is used.
function readSnapshotAtExit(options, env) {
  var asked = options.snapshotAtExit;
  if (env && given(env['EMHEAP_SNAPSHOT_AT_EXIT'])) asked = env['EMHEAP_SNAPSHOT_AT_EXIT'];
  if (asked === true || asked === '1') return 'speedscope';
  if (!given(asked) || asked === false || asked === '0') return null;
  return String(asked);
}

// A seed for the sampler: crypto's where there is one, else Math.random's;
// never 0 (the runtime takes 0 for "none given").
function randomSeed(crypto) {
  var words = new Uint32Array(2);
  try {
    if (crypto && crypto.getRandomValues) crypto.getRandomValues(words);
    else throw 0;
  } catch (e) {
    words[0] = Math.random() * 4294967296;
    words[1] = Math.random() * 4294967296;
  }
  return (words[1] & 0x1FFFFF) * 4294967296 + words[0] + 1;
}

// Where to send snapshots (output/remote_sink.js): the collector's URL as
// `emheap serve` prints it (http(s)://HOST:PORT/TOKEN), from
// Module.emheapOptions.remote, ?emheap_remote= or EMHEAP_REMOTE (which
// win), and every how many seconds to send one besides the key, the marks
// and an out-of-memory (remoteEvery, ?emheap_remote_every=,
// EMHEAP_REMOTE_EVERY; 0 or none: never). -> {url, everySeconds} or null.
function readRemote(options, outside, warn) {
  var url = options.remote;
  var every = options.remoteEvery;
  var where = {url: 'Module.emheapOptions', every: 'Module.emheapOptions'};
  if (outside && given(outside.get('emheap_remote', 'EMHEAP_REMOTE'))) {
    url = outside.get('emheap_remote', 'EMHEAP_REMOTE');
    where.url = outside.where;
  }
  if (outside && given(outside.get('emheap_remote_every', 'EMHEAP_REMOTE_EVERY'))) {
    every = outside.get('emheap_remote_every', 'EMHEAP_REMOTE_EVERY');
    where.every = outside.where;
  }
  if (!given(url)) return null;
  var parsed = null;
  try {
    parsed = new URL(String(url));
  } catch (e) {
    // (said below)
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.pathname.length < 2 ||
      parsed.search || parsed.hash) {
    warn('emheap: ignoring remote "' + url + '" from ' + where.url + ': give the URL `emheap serve` printed, ' +
      'http://HOST:PORT/TOKEN');
    return null;
  }
  var seconds = 0;
  if (given(every)) {
    var n = Number(every);
    if (n >= 1 && n <= 86400 && Math.floor(n) === n) seconds = n;
    else warn('emheap: ignoring remoteEvery "' + every + '" from ' + where.every + ': use a whole number of seconds from 1 to 86400');
  }
  return {url: parsed.href.replace(/\/+$/, ''), everySeconds: seconds};
}

// Each setting read once, when first asked for. sources: {moduleOptions()
// (Module.emheapOptions: the app's, and its getter may throw),
// linkMode() and linkWrappers() (Module.emheapLinkMode and
// emheapLinkWrappers, from emheap-config's --pre-js), search and env
// (jslib/environment.js settings), crypto, warn}.
function settingsOf(sources) {
  var warn = sources.warn;
  var options = null;
  var config = null;
  var wrappers = null;
  var settings = {
    options: function () {
      if (!options) {
        var given;
        try {
          given = sources.moduleOptions();
        } catch (e) {
          warn('emheap: ignoring Module.emheapOptions: ' + (e && e.message || e));
        }
        options = readOptions(given, warn);
      }
      return options;
    },
    // {mode, samplingInterval, stackDepth, seed, contexts}
    config: function () {
      if (!config) {
        config = readConfig(settings.options(), outsideSettings(sources.search, sources.env), warn,
          function () { return randomSeed(sources.crypto); });
      }
      return config;
    },
    // The mode the user chose (the page, the environment, the link line),
    // or undefined: the default.
    chosenMode: function () {
      return settings.config().mode || sources.linkMode();
    },
    // The program's allocation layer (model/wrappers.js).
    wrapperList: function () {
      if (!wrappers) {
        wrappers = readWrapperList(sources.linkWrappers(), settings.options(), outsideSettings(sources.search, sources.env), warn);
      }
      return wrappers;
    },
    // read where it is used, once: at startup
    remote: function () {
      return readRemote(settings.options(), outsideSettings(sources.search, sources.env), warn);
    },
    // read where it is used, once: at startup
    leakConfig: function () {
      return readLeakConfig(settings.options(), sources.env, warn);
    },
    // read where it is used, once: at startup
    snapshotAtExit: function () {
      return readSnapshotAtExit(settings.options(), sources.env);
    },
  };
  return settings;
}

module.exports = { readOptions: readOptions, outsideSettings: outsideSettings, readConfig: readConfig,
  readWrapperList: readWrapperList, readLeakConfig: readLeakConfig, readRemote: readRemote, readSnapshotAtExit: readSnapshotAtExit, settingsOf: settingsOf,
};
