// exit_snapshot.test.js -- jslib/exit_snapshot.js: one snapshot, at the
// first of Emscripten's exit and node's, saved where a file made at exit
// goes (environment.js exitSink); a format that is none said once at
// startup, and nothing installed.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {installExitSnapshot} = require('../jslib/exit_snapshot');

// A node environment whose exit listeners are kept, with its own sink for
// files made at exit.
function fakeEnv() {
  const env = {listeners: [], atExit: {name: 'the exit sink'},
    onExit: (fn) => { env.listeners.push(fn); return true; },
    exitSink: () => env.atExit};
  return env;
}

function fakeHost() {
  const host = {exits: [], errs: [], addOnExit: (fn) => host.exits.push(fn), err: (t) => host.errs.push(t)};
  return host;
}

// page_files.js's saveSnapshotAtCall, kept: [format, sink] per call.
function fakeFiles() {
  const files = {saves: [], saveSnapshotAtCall: (format, sink) => { files.saves.push([format, sink]); return 'name'; }};
  return files;
}

test('the runtime\'s exit saves it, into the exit sink; node\'s exit after it saves nothing more', () => {
  const env = fakeEnv();
  const host = fakeHost();
  const files = fakeFiles();
  installExitSnapshot('perfview', host, env, files);
  assert.equal(host.exits.length, 1);
  assert.equal(env.listeners.length, 1);
  assert.deepEqual(files.saves, [], 'nothing saved before the exit');
  host.exits[0]();
  assert.deepEqual(files.saves, [['perfview', env.atExit]]);
  env.listeners[0]();
  assert.equal(files.saves.length, 1);
  assert.deepEqual(host.errs, []);
});

test('without the runtime\'s exit (no -sEXIT_RUNTIME), node\'s exit saves it', () => {
  const env = fakeEnv();
  const files = fakeFiles();
  installExitSnapshot('speedscope', fakeHost(), env, files);
  env.listeners[0]();
  assert.deepEqual(files.saves, [['speedscope', env.atExit]]);
});

test('a format that is none: one line at startup, nothing installed', () => {
  const env = fakeEnv();
  const host = fakeHost();
  const files = fakeFiles();
  installExitSnapshot('pdf', host, env, files);
  assert.equal(host.errs.length, 1);
  assert.match(host.errs[0], /^emheap: no snapshot at exit: unknown format "pdf": use one of speedscope, perfview/);
  assert.equal(host.exits.length, 0);
  assert.equal(env.listeners.length, 0);
  assert.deepEqual(files.saves, []);
});
