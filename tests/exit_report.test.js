// exit_report.test.js -- jslib/exit_report.js: one report, at the first of
// Emscripten's exit and node's; the exit status set only when asked and
// only over a status of 0; the report's file written, or the report
// printed when it cannot be.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {installExitReport} = require('../jslib/exit_report');
const {makeSnapshot} = require('./lib/fixtures');

// A node environment whose exit listeners and status are kept.
function fakeEnv(node) {
  const env = {node, listeners: [], exitCode: undefined, files: {},
    onExit: (fn) => { if (node) env.listeners.push(fn); return node; },
    setExitCode: (code) => { if (node) env.exitCode = code; },
    writeFile: (file, text) => {
      if (file.includes('/no/such/')) throw new Error('ENOENT: ' + file);
      env.files[file] = text;
    }};
  return env;
}

function fakeHost() {
  const host = {exits: [], errs: [], addOnExit: (fn) => host.exits.push(fn), err: (t) => host.errs.push(t)};
  return host;
}

// A snapshot with live blocks (makeSnapshot's), from a sampled program.
const taker = {isExact: () => false, snapshot: () => makeSnapshot()};

test('the runtime\'s exit makes the report; node\'s exit after it adds nothing but the status', () => {
  const env = fakeEnv(true);
  const host = fakeHost();
  installExitReport({file: '', exitCode: 7, exitOn: 'live'}, host, env, taker);
  assert.equal(host.exits.length, 1);
  assert.equal(env.listeners.length, 1);
  host.exits[0]();
  assert.equal(host.errs.length, 1);
  assert.match(host.errs[0], /bytes? (in|still)|live/);
  assert.doesNotMatch(host.errs[0], /runtime did not exit/);
  env.listeners.forEach((fn) => fn(0));
  assert.equal(host.errs.length, 1, 'one report');
  assert.equal(env.exitCode, 7);
});

test('without EXIT_RUNTIME the report comes at node\'s exit, says so, and a failing program keeps its status', () => {
  const env = fakeEnv(true);
  const host = fakeHost();
  installExitReport({file: '', exitCode: 7, exitOn: 'live'}, host, env, taker);
  env.listeners[0](2);
  assert.equal(host.errs.length, 1);
  assert.match(host.errs[0], /the runtime did not exit \(link with -sEXIT_RUNTIME=1\)/);
  assert.equal(env.exitCode, undefined, 'status 2 kept');
});

test('the report goes to its file, and when the file cannot be written, to stderr with the reason', () => {
  const env = fakeEnv(true);
  const host = fakeHost();
  installExitReport({file: 'leaks.txt', exitCode: 0, exitOn: 'live'}, host, env, taker);
  host.exits[0]();
  assert.match(host.errs[0], /^emheap: leak report written to leaks.txt \(\d+ bytes still live\)$/);
  assert.ok(env.files['leaks.txt'].length > 0);
  const env2 = fakeEnv(true);
  const host2 = fakeHost();
  installExitReport({file: '/no/such/dir/leaks.txt', exitCode: 0, exitOn: 'live'}, host2, env2, taker);
  host2.exits[0]();
  assert.match(host2.errs[0], /^emheap: cannot write \/no\/such\/dir\/leaks.txt: ENOENT/);
  assert.equal(host2.errs.length, 2, 'the report itself follows');
});

test('a snapshot that cannot be taken gives a message, not an exception at exit', () => {
  const env = fakeEnv(true);
  const host = fakeHost();
  const said = [];
  const error = console.error;
  console.error = (m) => said.push(m);
  try {
    installExitReport({file: '', exitCode: 7, exitOn: 'live'}, host, env,
      {isExact: () => false, snapshot: () => { throw new Error('memory gone'); }});
    assert.doesNotThrow(() => host.exits[0]());
  } finally {
    console.error = error;
  }
  assert.deepEqual(said, ['emheap: no leak report: memory gone']);
  assert.equal(env.exitCode, undefined);
});
