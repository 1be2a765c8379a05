// remote_sink.test.js -- output/remote_sink.js with a fetch of the test's
// own (output/collector_post.js fetchPost): what it sends (gzip'd, to
// URL/snapshots?name=), what it says on success and failure (never the
// token), and what it leaves to the sink it replaces (formats that do not
// carry the snapshot, diffs); and the same sink through node's http
// (nodePost), to a real HTTP server of the test's, with no fetch at all.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const zlib = require('node:zlib');
const http = require('node:http');
const https = require('node:https');
const {remoteSink} = require('../output/remote_sink');
const {fetchPost, nodePost} = require('../output/collector_post');

const SNAPSHOT_FORMAT = {chunks: function* (s) { yield '{"x":'; yield JSON.stringify(s.text) + '}'; },
  mime: 'application/json', carriesSnapshot: true};
const OTHER_FORMAT = {chunks: function* () { yield 'a'; }, mime: 'text/plain'};

function setUp(answer) {
  const sent = [];
  const logs = [];
  const errors = [];
  const local = [];
  const fetch = async (url, options) => {
    sent.push({url, type: options.headers['Content-Type'], body: Buffer.from(await options.body.arrayBuffer())});
    return answer(url);
  };
  // a word said wakes whoever waits for one (until below)
  const waiting = [];
  const say = (list, m) => {
    list.push(m);
    waiting.splice(0).forEach((wake) => wake());
  };
  const until = async (done) => {
    while (!done()) await new Promise((wake) => waiting.push(wake));
  };
  const host = {Blob, storage: null, sliceMs: 30, nextTask: (fn) => setTimeout(fn, 0),
    log: (m) => say(logs, m), warn: (m) => say(logs, m), reportError: (e) => { say(errors, e.message); return null; },
    post: fetchPost({fetch, Response, CompressionStream})};
  const localSink = {saveSnapshot: (name) => { local.push(name); return name; }, saveText: (name) => { local.push(name); return name; }};
  return {sink: remoteSink(host, 'http://127.0.0.1:7890/secret-token', localSink), sent, logs, errors, local, until};
}

test('a snapshot file goes gzip\'d to the collector, which names it; the console says so without the token', async () => {
  const {sink, sent, logs, errors, until} = setUp(() => new Response('{"file": "m-2.speedscope.json"}', {status: 201}));
  assert.equal(sink.saveSnapshot('m.speedscope.json', SNAPSHOT_FORMAT, {text: 'hi'}), 'm.speedscope.json');
  assert.equal(sink.busy(), true);
  await until(() => logs.length + errors.length > 0); // the file's end: said, one way or the other
  assert.equal(sink.busy(), false);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].url, 'http://127.0.0.1:7890/secret-token/snapshots?name=m.speedscope.json');
  assert.equal(sent[0].type, 'application/gzip');
  assert.deepEqual(JSON.parse(zlib.gunzipSync(sent[0].body)), {x: 'hi'});
  assert.deepEqual(errors, []);
  assert.match(logs[0], /^emheap: sent m\.speedscope\.json \(1 KiB\) to the collector at http:\/\/127\.0\.0\.1:7890, which keeps it as m-2\.speedscope\.json$/);
});

test('a refusal or an unreachable collector is said, with what to check', async () => {
  const refused = setUp(() => new Response('emheap serve: a path without the collector\'s token\n', {status: 403}));
  refused.sink.saveSnapshot('m.speedscope.json', SNAPSHOT_FORMAT, {text: 'hi'});
  await refused.until(() => refused.logs.length + refused.errors.length > 0);
  assert.deepEqual(refused.errors, ['could not send m.speedscope.json to the collector at http://127.0.0.1:7890: ' +
    'the collector answered 403: emheap serve: a path without the collector\'s token']);
  const down = setUp(() => { throw new TypeError('Failed to fetch'); });
  await assert.rejects(down.sink.send('m.speedscope.json', SNAPSHOT_FORMAT, {text: 'hi'}),
    /could not send m\.speedscope\.json to the collector at http:\/\/127\.0\.0\.1:7890: Failed to fetch: is `emheap serve` running, and can this device reach http:\/\/127\.0\.0\.1:7890\? \(an https page/);
  assert.equal(down.sink.busy(), false);
  for (const m of [...refused.errors, ...refused.logs, ...down.logs]) assert.ok(!m.includes('secret-token'), m);
});

test('formats without the snapshot and diffs are saved by the sink it replaces', async () => {
  const {sink, sent, local} = setUp(() => { throw new Error('not to be called'); });
  assert.equal(sink.saveSnapshot('p.collapsed.txt', OTHER_FORMAT, {}), 'p.collapsed.txt');
  assert.equal(sink.saveText('d.json', '{}', 'application/json'), 'd.json');
  // saved at once, by the other sink: nothing on its way, nothing sent
  assert.deepEqual(local, ['p.collapsed.txt', 'd.json']);
  assert.equal(sink.busy(), false);
  assert.equal(sent.length, 0);
});

// A sink whose files travel through node's http, as a node program's do.
function nodeSetUp(url) {
  const logs = [];
  const host = {Blob, storage: null, sliceMs: 30, nextTask: (fn) => setImmediate(fn), log: (m) => logs.push(m),
    warn: (m) => logs.push(m), reportError: () => null, post: nodePost({http, https, zlib})};
  return {sink: remoteSink(host, url, {saveSnapshot: () => null, saveText: () => null}), logs};
}

test('under node, without fetch: node\'s http carries the file, gzip\'d, to a real server', async (t) => {
  const received = [];
  const server = http.createServer((req, res) => {
    const parts = [];
    req.on('data', (p) => parts.push(p));
    req.on('end', () => {
      received.push({url: req.url, type: req.headers['content-type'], body: Buffer.concat(parts)});
      res.writeHead(201, {'Content-Type': 'application/json'});
      res.end('{"file": "kept.speedscope.json"}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const url = `http://127.0.0.1:${server.address().port}/secret-token`;
  const {sink, logs} = nodeSetUp(url);
  assert.equal(await sink.send('m.speedscope.json', SNAPSHOT_FORMAT, {text: 'hi'}), 'kept.speedscope.json');
  assert.equal(received.length, 1);
  assert.equal(received[0].url, '/secret-token/snapshots?name=m.speedscope.json');
  assert.equal(received[0].type, 'application/gzip');
  assert.deepEqual(JSON.parse(zlib.gunzipSync(received[0].body)), {x: 'hi'});
  assert.match(logs[0], new RegExp(`^emheap: sent m\\.speedscope\\.json \\(1 KiB\\) to the collector at http://127\\.0\\.0\\.1:${server.address().port}, which keeps it as kept\\.speedscope\\.json$`));
});

test('under node, a collector that is not there: said with what to check, never the token', async () => {
  // a port that was free a moment ago: nothing listens there
  const probe = http.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = probe.address().port;
  await new Promise((resolve) => probe.close(resolve));
  const {sink} = nodeSetUp(`http://127.0.0.1:${port}/secret-token`);
  const failed = await sink.send('m.speedscope.json', SNAPSHOT_FORMAT, {text: 'hi'}).catch((e) => e);
  assert.match(failed.message, new RegExp(`^could not send m\\.speedscope\\.json to the collector at http://127\\.0\\.0\\.1:${port}: ` +
    `connect ECONNREFUSED 127\\.0\\.0\\.1:${port}: is \`emheap serve\` running, and can this machine reach http://127\\.0\\.0\\.1:${port}\\?$`));
  assert.ok(!failed.message.includes('secret-token'));
  assert.equal(sink.busy(), false);
});
