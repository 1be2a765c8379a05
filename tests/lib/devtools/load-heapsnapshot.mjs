#!/usr/bin/env node
// Load a .heapsnapshot through Chrome DevTools' own worker code (bundled from the npm package
// chrome-devtools-frontend by build-loader.mjs) and print what the Memory panel would compute.
//
// Usage: node load-heapsnapshot.mjs FILE.heapsnapshot --bundle PATH [--chunk-size N] [--edges] [--pretty]
// (PATH: what build-loader.mjs wrote; tests/heapsnapshot.test.js builds it
// into build/devtools/.) Written for emheap's tests: prints JSON on stdout.
//
// Flow (mirrors models/heap_snapshot/HeapSnapshotProxy.ts HeapSnapshotLoaderProxy.close() and
// entrypoints/heap_snapshot_worker/HeapSnapshotWorkerDispatcher.ts):
//   loader = new HeapSnapshotLoader(dispatcher); loader.write(chunk)...; loader.close();
//   {port1, port2} = new MessageChannel(); new SecondaryInitManager(port2)   ('setupForSecondaryInit')
//   snapshot = await loader.buildSnapshot(port1)                              ('factory' buildSnapshot)
// The panel reads the file with ChunkedFileReader(file, 10000000) (HeapSnapshotView.ts loadFromFile),
// so the default chunk size is 10,000,000 characters.
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
let file = null;
let chunkSize = 10_000_000;
let withEdges = false;
let pretty = false;
let bundle = null;
for (let i = 0; i < args.length; ++i) {
  const a = args[i];
  if (a === '--chunk-size') chunkSize = Number(args[++i]);
  else if (a === '--edges') withEdges = true;
  else if (a === '--pretty') pretty = true;
  else if (a === '--bundle') bundle = path.resolve(args[++i]);
  else if (!file) file = a;
  else throw new Error('unexpected argument ' + a);
}
if (!file || !bundle || !(chunkSize > 0)) {
  console.error('usage: node load-heapsnapshot.mjs FILE.heapsnapshot --bundle PATH [--chunk-size N] [--edges] [--pretty]');
  process.exit(2);
}

const DT = await import(bundle);
const {HeapSnapshotLoader} = DT.HeapSnapshotLoader;
const {SecondaryInitManager} = DT.HeapSnapshot;
const {HeapSnapshotWorkerDispatcher} = DT.HeapSnapshotWorkerDispatcher;
const {NodeFilter, HeapSnapshotProgressEvent} = DT.HeapSnapshotModel;

const out = {
  devtoolsFrontendVersion: DT.DEVTOOLS_FRONTEND_VERSION,
  file: path.resolve(file),
  chunkSize,
  chunks: 0,
  ok: false,
};
const warnings = [];      // console.warn from the worker code (e.g. unreachable-node problem reports)
const brokenSnapshot = [];  // HeapSnapshotProgressEvent.BrokenSnapshot events
const progress = [];      // status strings (deserialized), deduplicated consecutive
const origWarn = console.warn;
const origAssert = console.assert;
console.warn = (...a) => warnings.push(a.map(String).join(' '));
console.assert = (cond, ...a) => { if (!cond) warnings.push('assertion failed: ' + a.map(String).join(' ')); };

// The dispatcher is only used as the sink for progress events, as in the real worker.
const dispatcher = new HeapSnapshotWorkerDispatcher(msg => {
  if (msg?.eventName === HeapSnapshotProgressEvent.BrokenSnapshot) {
    brokenSnapshot.push(String(msg.data));
  } else if (msg?.eventName === HeapSnapshotProgressEvent.Update) {
    let s = msg.data;
    try { s = JSON.parse(msg.data).string; } catch {}
    if (progress[progress.length - 1] !== s) progress.push(s);
  }
});

let snapshot;
try {
  const loader = new HeapSnapshotLoader(dispatcher);
  // Stream the file as UTF-8 text (like ChunkedFileReader's streaming TextDecoder).
  const stream = fs.createReadStream(file, {encoding: 'utf8', highWaterMark: Math.min(chunkSize, 1 << 24)});
  let pending = '';
  for await (const piece of stream) {
    pending += piece;
    while (pending.length >= chunkSize) {
      loader.write(pending.slice(0, chunkSize));
      pending = pending.slice(chunkSize);
      out.chunks++;
      await new Promise(r => setImmediate(r));  // let the parser run between chunks
    }
  }
  if (pending) { loader.write(pending); out.chunks++; }
  loader.close();
  const {port1, port2} = new MessageChannel();
  new SecondaryInitManager(port2);
  try {
    snapshot = await loader.buildSnapshot(port1);
  } finally {
    port1.close();
    port2.close();
  }
} catch (e) {
  out.error = String(e?.stack || e);
}

if (snapshot) {
  const s = snapshot;
  const stat = s.updateStaticData();  // what HeapSnapshotProxy.updateStaticData() fetches for the panel
  out.ok = true;
  out.nodeCount = s.nodeCount;
  out.edgeCount = s.containmentEdges.length / s.edgeFieldsCount;
  out.rootNodeIndex = s.rootNodeIndex;
  out.totalSize = s.totalSize;   // root retained size + snapshot.extra_native_bytes
  out.maxJSObjectId = stat.maxJSObjectId;  // max odd id
  out.statistics = s.getStatistics();
  out.nodes = [];
  const node = s.createNode(0);
  for (let ordinal = 0; ordinal < s.nodeCount; ++ordinal) {
    node.nodeIndex = ordinal * s.nodeFieldCount;
    const dom = s.createNode(node.dominatorIndex());
    const n = {
      id: node.id(),
      name: node.name(),
      className: node.className(),
      type: node.type(),
      selfSize: node.selfSize(),   // after JSHeapSnapshot.calculateShallowSizes()
      retainedSize: node.retainedSize(),
      dominatorId: dom.id(),
      distance: node.distance(),   // -5 = unreachable (HeapSnapshot #noDistance)
      detachedness: node.detachedness(),  // 0 unknown, 1 attached, 2 detached
      edgeCount: node.edgesCount(),
      retainerCount: node.retainersCount(),
    };
    if (withEdges) {
      n.edges = [];
      for (const it = node.edges(); it.hasNext(); it.next()) {
        const e = it.item();
        n.edges.push({type: e.type(), name: e.name(), toId: e.node().id()});
      }
    }
    out.nodes.push(n);
  }
  // Summary view: HeapSnapshotConstructorsDataGrid.populateChildren() -> aggregatesWithFilter(new NodeFilter()).
  // Columns: Constructor=name, Distance=distance, count, Shallow Size=self, Retained Size=maxRet.
  const aggregates = s.aggregatesWithFilter(new NodeFilter());
  out.aggregates = {};
  for (const [classKey, a] of Object.entries(aggregates)) {
    out.aggregates[a.name] = {classKey, count: a.count, self: a.self, maxRet: a.maxRet, distance: a.distance};
  }
}
out.warnings = warnings;
out.brokenSnapshot = brokenSnapshot;
out.progress = progress;
console.warn = origWarn;
console.assert = origAssert;
process.stdout.write(JSON.stringify(out, null, pretty ? 2 : undefined) + '\n');
process.exitCode = out.ok ? 0 : 1;
