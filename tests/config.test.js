// config.test.js -- jslib/config.js: where each setting comes from, which
// wins, and what a bad value gets (a warning, and the value left out).
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const {readOptions, outsideSettings, readConfig, readWrapperList, readLeakConfig, readRemote, readSnapshotAtExit} = require('../jslib/config');

const collect = () => {
  const said = [];
  return {said, warn: (m) => said.push(m)};
};
const seed = () => 42;

test('Module.emheapOptions: the known fields copied; a throwing getter or a non-object reported, not thrown', () => {
  const w = collect();
  const options = {mode: 'sampled', unknown: 1};
  Object.defineProperty(options, 'seed', {get() { throw new Error('no'); }, enumerable: true});
  const out = readOptions(options, w.warn);
  assert.equal(out.mode, 'sampled');
  assert.equal('unknown' in out, false);
  assert.equal(out.seed, undefined);
  assert.deepEqual(w.said, ['emheap: ignoring Module.emheapOptions.seed: reading it threw no']);
  assert.deepEqual(readOptions('exact', w.warn), {});
  assert.match(w.said[1], /ignoring Module\.emheapOptions: it is a string, not an object/);
  assert.deepEqual(readOptions(undefined, w.warn), {});
});

test('the page URL wins over the environment, which is read only without one', () => {
  const url = outsideSettings('?emheap=exact&emheap_interval=4096', {EMHEAP_MODE: 'off'});
  assert.equal(url.where, 'the page URL');
  assert.equal(url.get('emheap', 'EMHEAP_MODE'), 'exact');
  const env = outsideSettings('', {EMHEAP_MODE: 'off'});
  assert.equal(env.where, 'the environment');
  assert.equal(env.get('emheap', 'EMHEAP_MODE'), 'off');
  assert.equal(outsideSettings('', null), null);
});

test('the outside wins over Module.emheapOptions; bad values are said and left out', () => {
  const w = collect();
  const outside = outsideSettings('?emheap=exact&emheap_depth=0&emheap_contexts=verify', null);
  const config = readConfig({mode: 'sampled', samplingInterval: 8192, stackDepth: 20, contexts: 'maybe'}, outside, w.warn, seed);
  assert.deepEqual(config, {contexts: 'verify', outOfMemoryReport: true, growthLog: false, footers: true, mode: 'exact',
    samplingInterval: 8192, stackDepth: 20, seed: 42});
  assert.deepEqual(w.said, [
    'emheap: ignoring contexts "maybe" from Module.emheapOptions: use on, off or verify',
    'emheap: ignoring stack depth "0" from the page URL: use a whole number of frames from 1 to ' +
      require('../capture/stack_table').MAX_STACK_DEPTH,
  ]);
  const bad = collect();
  const none = readConfig({mode: 'fast', samplingInterval: 2 ** 31, seed: 1.5}, null, bad.warn, seed);
  assert.deepEqual(none, {contexts: true, outOfMemoryReport: true, growthLog: false, footers: true, seed: 42});
  assert.equal(bad.said.length, 3);
  assert.equal(readConfig({seed: 7}, null, bad.warn, seed).seed, 7, 'a seed asked for is kept');
});

test('footers are on unless turned off; the outside wins; a bad value is said', () => {
  const w = collect();
  assert.equal(readConfig({}, null, w.warn, seed).footers, true);
  assert.equal(readConfig({footers: false}, null, w.warn, seed).footers, false);
  assert.equal(readConfig({footers: false}, outsideSettings('?emheap_footers=on', null), w.warn, seed).footers, true);
  assert.equal(readConfig({}, outsideSettings('', {EMHEAP_FOOTERS: '0'}), w.warn, seed).footers, false);
  assert.deepEqual(w.said, []);
  assert.equal(readConfig({footers: 'maybe'}, null, w.warn, seed).footers, true);
  assert.deepEqual(w.said, ['emheap: ignoring footers "maybe" from Module.emheapOptions: use on or off']);
});

test('the report at an out-of-memory is on unless turned off; the outside wins', () => {
  const w = collect();
  assert.equal(readConfig({}, null, w.warn, seed).outOfMemoryReport, true);
  assert.equal(readConfig({outOfMemory: false}, null, w.warn, seed).outOfMemoryReport, false);
  assert.equal(readConfig({outOfMemory: false}, outsideSettings('', {EMHEAP_OOM: 'on'}), w.warn, seed).outOfMemoryReport, true);
  assert.equal(readConfig({}, outsideSettings('?emheap_oom=off', null), w.warn, seed).outOfMemoryReport, false);
  assert.deepEqual(w.said, []);
  assert.equal(readConfig({outOfMemory: 'later'}, null, w.warn, seed).outOfMemoryReport, true);
  assert.deepEqual(w.said, ['emheap: ignoring outOfMemory "later" from Module.emheapOptions: use on or off']);
});

test('the growth log is off unless asked for; the outside wins', () => {
  const w = collect();
  assert.equal(readConfig({}, null, w.warn, seed).growthLog, false);
  assert.equal(readConfig({growth: 'log'}, null, w.warn, seed).growthLog, true);
  assert.equal(readConfig({growth: 'log'}, outsideSettings('', {EMHEAP_GROWTH: 'off'}), w.warn, seed).growthLog, false);
  assert.equal(readConfig({}, outsideSettings('?emheap_growth=log', null), w.warn, seed).growthLog, true);
  assert.deepEqual(w.said, []);
  assert.equal(readConfig({growth: true}, null, w.warn, seed).growthLog, false);
  assert.deepEqual(w.said, ['emheap: ignoring growth "true" from Module.emheapOptions: use log or off']);
});

test('wrapper lists add up from the link line, the options and the outside', () => {
  const w = collect();
  const list = readWrapperList('lua_alloc', {wrappers: ['my_malloc']}, outsideSettings('', {EMHEAP_WRAPPERS: 'pool_*'}), w.warn);
  assert.deepEqual(list.names, ['lua_alloc', 'my_malloc', 'pool_*']);
  assert.equal(list.detect, true);
  assert.equal(readWrapperList(undefined, {wrappers: 'none'}, null, w.warn).detect, false);
  readWrapperList(undefined, {wrappers: 5}, null, w.warn);
  assert.deepEqual(w.said, ['emheap: ignoring wrappers option: use an array of names or "a,b"']);
});

test('the leak report: asked by options or the environment (which wins); an exit code alone asks too', () => {
  const w = collect();
  assert.equal(readLeakConfig({}, null, w.warn), null);
  assert.deepEqual(readLeakConfig({leakReport: true}, null, w.warn), {file: '', exitCode: 0, exitOn: 'live', by: 'line'});
  assert.deepEqual(readLeakConfig({leakReport: true, leakBy: 'site'}, {EMHEAP_LEAK_REPORT: 'leaks.txt', EMHEAP_LEAK_EXIT_ON: 'leaked',
    EMHEAP_LEAK_BY: 'function'}, w.warn), {file: 'leaks.txt', exitCode: 0, exitOn: 'leaked', by: 'function'});
  assert.equal(readLeakConfig({leakReport: true}, {EMHEAP_LEAK_REPORT: '0'}, w.warn), null);
  assert.deepEqual(readLeakConfig({leakExitCode: 3, leakBy: 'site'}, null, w.warn), {file: '', exitCode: 3, exitOn: 'live', by: 'site'});
  assert.equal(readLeakConfig({leakExitCode: 300, leakExitOn: 'sometimes'}, null, w.warn), null);
  assert.equal(w.said.length, 2);
  assert.deepEqual(readLeakConfig({leakReport: true, leakBy: 'file'}, null, w.warn), {file: '', exitCode: 0, exitOn: 'live', by: 'line'});
  assert.equal(w.said[2], 'emheap: ignoring leakBy "file": use function, line, site, module, type');
});

test('a snapshot at exit: asked by options or the environment (which wins); 1 and true are the key\'s format', () => {
  assert.equal(readSnapshotAtExit({}, null), null);
  assert.equal(readSnapshotAtExit({snapshotAtExit: true}, null), 'speedscope');
  assert.equal(readSnapshotAtExit({snapshotAtExit: 'perfview'}, null), 'perfview');
  assert.equal(readSnapshotAtExit({}, {EMHEAP_SNAPSHOT_AT_EXIT: '1'}), 'speedscope');
  assert.equal(readSnapshotAtExit({snapshotAtExit: 'perfview'}, {EMHEAP_SNAPSHOT_AT_EXIT: 'dhat'}), 'dhat');
  assert.equal(readSnapshotAtExit({snapshotAtExit: true}, {EMHEAP_SNAPSHOT_AT_EXIT: '0'}), null);
  assert.equal(readSnapshotAtExit({snapshotAtExit: true}, {EMHEAP_SNAPSHOT_AT_EXIT: ''}), 'speedscope', 'an empty variable is not set');
  // a name that is no format is passed on, to be said where it is used (jslib/exit_snapshot.js)
  assert.equal(readSnapshotAtExit({}, {EMHEAP_SNAPSHOT_AT_EXIT: 'pdf'}), 'pdf');
});

test('a collector: its URL and the timer from options or the outside (which wins); a bad one said and left out', () => {
  const {said, warn} = collect();
  const page = (q) => outsideSettings(q, null);
  assert.equal(readRemote({}, page('?emheap=exact'), warn), null);
  assert.deepEqual(readRemote({remote: 'http://10.0.0.2:7890/abc/'}, null, warn), {url: 'http://10.0.0.2:7890/abc', everySeconds: 0});
  assert.deepEqual(readRemote({remote: 'http://a:1/x', remoteEvery: 5},
    page('?emheap_remote=' + encodeURIComponent('https://b:2/tok') + '&emheap_remote_every=30'), warn),
  {url: 'https://b:2/tok', everySeconds: 30});
  assert.deepEqual(readRemote({}, outsideSettings('', {EMHEAP_REMOTE: 'http://127.0.0.1:7890/t', EMHEAP_REMOTE_EVERY: '2'}), warn),
    {url: 'http://127.0.0.1:7890/t', everySeconds: 2});
  assert.deepEqual(said, []);
  for (const bad of ['not a url', 'ftp://a/b', 'http://a:1', 'http://a:1/t?x=1']) {
    assert.equal(readRemote({remote: bad}, null, warn), null, bad);
  }
  assert.equal(said.length, 4);
  assert.ok(said.every((m) => /^emheap: ignoring remote ".*" from Module.emheapOptions: give the URL `emheap serve` printed/.test(m)), said.join('\n'));
  assert.deepEqual(readRemote({remote: 'http://a:1/t', remoteEvery: 0.5}, null, warn), {url: 'http://a:1/t', everySeconds: 0});
  assert.match(said[4], /ignoring remoteEvery "0.5" from Module.emheapOptions: use a whole number of seconds/);
});
