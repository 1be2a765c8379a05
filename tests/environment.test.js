// environment.test.js -- jslib/environment.js: page, node or worker is
// decided once, and each reads settings, bytes and debug info and saves
// files its own way. Fake globals throughout.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {NO_SINK} = require('../output/sinks');
const {chooseEnvironment} = require('../jslib/environment');

const fakeProcess = (over) => Object.assign({versions: {node: '20'}, env: {EMHEAP_MODE: 'exact'}, argv: ['node', '/app/run.js'],
  stderr: process.stderr, listeners: [], on(event, fn) { this.listeners.push([event, fn]); }}, over);
const reportError = (e) => { throw e; };

test('node: the environment gives settings, the script is the source, exit is watched, files go to disk', () => {
  const proc = fakeProcess();
  const env = chooseEnvironment({process: proc, console}, require, reportError, 30, setTimeout);
  assert.equal(env.node, true);
  assert.equal(env.page, false);
  assert.deepEqual(env.settings, {search: '', env: proc.env});
  assert.equal(env.source(), '/app/run.js');
  assert.notEqual(env.console(), console, 'emheap\'s messages go to stderr, not the program\'s stdout');
  assert.equal(env.onExit(() => {}), true);
  assert.equal(proc.listeners[0][0], 'exit');
  env.setExitCode(3);
  assert.equal(proc.exitCode, 3);
  assert.equal(typeof env.sink.saveSnapshot, 'function');
});

test('a file made at exit: under node the working folder, with a collector too; in a page, the collector', () => {
  const nodeEnv = chooseEnvironment({process: fakeProcess(), console}, require, reportError, 30, setTimeout);
  const files = nodeEnv.sink;
  assert.equal(nodeEnv.exitSink(), files);
  const remote = nodeEnv.sendTo('http://127.0.0.1:9/token');
  assert.equal(nodeEnv.sink, remote);
  assert.equal(typeof remote.send, 'function');
  assert.equal(nodeEnv.exitSink(), files, 'nothing sent as node ends would arrive');
  const pageEnv = chooseEnvironment({console, Blob, URL, setTimeout, document: {}, location: {href: 'https://a.example/', search: ''},
    fetch: () => Promise.reject(new Error('not here'))}, null, reportError, 30, setTimeout);
  assert.equal(pageEnv.exitSink(), pageEnv.sink);
  const pageRemote = pageEnv.sendTo('https://b.example:7890/token');
  assert.equal(pageEnv.exitSink(), pageRemote, 'a page goes on after its runtime\'s exit: the file is sent');
});

test('node without require (a realm that cannot reach fs) is not node', () => {
  const env = chooseEnvironment({process: fakeProcess(), console}, null, reportError, 30, setTimeout);
  assert.equal(env.node, false);
  assert.equal(env.settings.env, null);
  assert.equal(env.onExit(() => {}), false);
});

test('node reads the module from disk, a file: URL too, and a missing file is a rejection, not a throw', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-env-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  const file = path.join(dir, 'app.wasm');
  fs.writeFileSync(file, Buffer.from([1, 2, 3]));
  const env = chooseEnvironment({process: fakeProcess(), console}, require, reportError, 30, setTimeout);
  assert.deepEqual(Array.from(await env.moduleFileBytes(file)), [1, 2, 3]);
  assert.deepEqual(Array.from(await env.moduleFileBytes('file://' + file)), [1, 2, 3]);
  let promise;
  assert.doesNotThrow(() => { promise = env.moduleFileBytes(path.join(dir, 'gone.wasm')); });
  await assert.rejects(promise, /ENOENT/);
  let found = null;
  env.debugInfo(file, () => {}, (f) => { found = f; });
  assert.ok(found, 'under node the debug info is read before debugInfo returns');
});

test('a page: the URL gives settings, the page is the source, bytes and debug info are fetched', async () => {
  const fetched = [];
  const g = {
    console, Blob, location: {href: 'https://site.example/app/index.html?emheap=sampled', search: '?emheap=sampled'},
    document: {}, URL, setTimeout,
    fetch: (url, init) => {
      fetched.push([url, init]);
      return Promise.resolve({ok: url.endsWith('.wasm'), status: 404, arrayBuffer: () => Promise.resolve(new Uint8Array([7]).buffer),
        text: () => Promise.resolve('')});
    },
  };
  const env = chooseEnvironment(g, null, reportError, 30, setTimeout);
  assert.equal(env.page, true);
  assert.equal(env.node, false);
  assert.deepEqual(env.settings, {search: '?emheap=sampled', env: null});
  assert.equal(env.source(), g.location.href);
  assert.equal(env.console(), console);
  assert.deepEqual(Array.from(await env.moduleFileBytes('app.wasm')), [7]);
  assert.deepEqual(fetched[0], ['app.wasm', {credentials: 'same-origin'}]);
  await assert.rejects(env.moduleFileBytes('app.data'), /cannot fetch app.data: 404/);
  const found = await new Promise((resolve) => env.debugInfo('app.wasm', () => {}, resolve));
  assert.deepEqual(found, {functionNames: null, sourceLines: null, allocTypes: null, readOnlyData: {unknown: "the module's bytes could not be read"}, moduleRead: false}); // [7] is not a module: nothing found, nothing thrown
  assert.equal(fetched[2][0], 'https://site.example/app/app.wasm', 'debug info is fetched from the page\'s URL');
  assert.equal(env.onExit(() => {}), false);
});

test('a worker that is not node: no document, so nothing to save, said once per call', () => {
  const errors = [];
  const env = chooseEnvironment({console}, null, (e) => { errors.push(e.message); return null; }, 30, setTimeout);
  assert.equal(env.page, false);
  assert.equal(env.node, false);
  assert.equal(env.sink.saveText('x.json', '{}'), null);
  assert.equal(env.sink.saveSnapshot('x.json', {}, {}), null);
  assert.equal(env.sink.canSave, false);
  assert.deepEqual(errors, Array(2).fill(NO_SINK));
  assert.match(NO_SINK, /this program runs in a Web Worker, which has no document/);
  let found = 'not called';
  env.debugInfo('app.wasm', () => {}, (f) => { found = f; });
  assert.deepEqual(found, {functionNames: null, sourceLines: null}, 'no fetch: no debug info, at once');
});
