// worker_channel.test.js -- the protocol of a worker's files and its
// page's requests: ends in one process over an in-process channel of
// BroadcastChannel's shape (node's own cannot post a Blob, as browsers'
// can; tests/e2e/worker_app.test.js runs the real one in Chromium and
// Firefox), the worker's timers faked.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {workerEnd, pageEnd} = require('../output/worker_channel');

// BroadcastChannel's shape: every other channel of the same name gets each
// message, a task later.
const channels = new Set();
let inFlight = 0;
// Until every message posted, and every message those posted in turn, has
// been delivered: a fixed wait loses the race on a loaded machine, where a
// reply's task can come after a timer set before it.
async function tick() {
  do await new Promise((resolve) => setTimeout(resolve, 0));
  while (inFlight > 0);
}
class BroadcastChannel {
  constructor(name) {
    this.name = name;
    this.onmessage = null;
    channels.add(this);
  }
  postMessage(data) {
    for (const c of channels) {
      if (c !== this && c.name === this.name) {
        inFlight++;
        setTimeout(() => {
          inFlight--;
          if (c.onmessage) c.onmessage({data});
        }, 0);
      }
    }
  }
  close() {
    channels.delete(this);
  }
}

function fakeWorker() {
  const timers = new Map();
  let next = 1;
  const warnings = [];
  const g = {
    BroadcastChannel, crypto: globalThis.crypto,
    setTimeout: (fn) => { timers.set(next, fn); return next++; },
    clearTimeout: (id) => timers.delete(id),
  };
  const end = workerEnd(g, (m) => warnings.push(m));
  return {end, warnings, fireTimers: () => { for (const fn of timers.values()) fn(); timers.clear(); }};
}

function fakePage(visibilityState = 'visible') {
  const saved = [];
  const g = {BroadcastChannel, Blob, crypto: globalThis.crypto, document: {visibilityState}};
  const end = pageEnd(g, (name, blob) => saved.push({name, blob}));
  return {end, saved};
}

test('a file from a worker is saved by the page in view, which says so; none is a warning', async () => {
  const worker = fakeWorker();
  const page = fakePage();
  const hidden = fakePage('hidden');
  try {
    worker.end.send('memory-profile-x.speedscope.json', new Blob(['{}']), '');
    await tick();
    assert.deepEqual(page.saved.map((f) => f.name), ['memory-profile-x.speedscope.json']);
    assert.equal(await page.saved[0].blob.text(), '{}');
    assert.deepEqual(hidden.saved, [], 'a page out of view saves files no one asked it for');
    worker.fireTimers();
    assert.deepEqual(worker.warnings, [], 'claimed: nothing to say');
  } finally {
    page.end.close();
    hidden.end.close();
  }
  // no page: said, once the wait is over
  worker.end.send('memory-profile-y.pb.gz', new Blob(['x']), '');
  await tick();
  worker.fireTimers();
  assert.equal(worker.warnings.length, 1);
  assert.match(worker.warnings[0], /^emheap: no page saved memory-profile-y\.pb\.gz: .*load emheap_page\.js in the page/);
  worker.end.close();
});

test("a page's request reaches a worker app, and only the asking page saves the answer", async () => {
  const worker = fakeWorker();
  const asking = fakePage();
  const other = fakePage();
  const asked = [];
  try {
    assert.equal(asking.end.workers(), false);
    worker.end.answerRequests({
      downloadSnapshot: (format) => {
        asked.push(format);
        worker.end.send(`memory-profile-z.${format}`, new Blob(['z']), worker.end.addressee());
      },
    }, 'emheap: no page answered');
    await tick();
    assert.equal(asking.end.workers(), true, 'the worker app said hello');
    asking.end.request('heapsnapshot');
    await tick();
    await tick();
    assert.deepEqual(asked, ['heapsnapshot']);
    assert.deepEqual(asking.saved.map((f) => f.name), ['memory-profile-z.heapsnapshot']);
    assert.deepEqual(other.saved, []);
    assert.equal(worker.end.addressee(), '', 'only while answering');
    worker.fireTimers();
    assert.deepEqual(worker.warnings, [], 'a page answered the hello: no advice');
  } finally {
    worker.end.close();
    asking.end.close();
    other.end.close();
  }
});

test('a worker app that no page answers says so, once the wait is over', async () => {
  const worker = fakeWorker();
  try {
    worker.end.answerRequests({downloadSnapshot: () => null}, 'emheap: no page answered');
    await tick();
    assert.deepEqual(worker.warnings, []);
    worker.fireTimers();
    assert.deepEqual(worker.warnings, ['emheap: no page answered']);
  } finally {
    worker.end.close();
  }
});

test('what is not a file of emheap is not saved', async () => {
  const page = fakePage();
  const intruder = new BroadcastChannel('emheap');
  try {
    intruder.postMessage({emheap: 'file', id: 'a', name: '../../.bashrc', blob: new Blob(['x']), to: ''});
    intruder.postMessage({emheap: 'file', id: 'b', name: 'memory-profile-ok.json', blob: 'not a blob', to: ''});
    intruder.postMessage('memory-profile-plain-text');
    await tick();
    assert.deepEqual(page.saved, []);
  } finally {
    intruder.close();
    page.end.close();
  }
});
