// tests/lib/devtools -- Chrome DevTools' own heap snapshot code for tests:
// build-loader.mjs bundles its worker sources (npm chrome-devtools-frontend)
// with esbuild, load-heapsnapshot.mjs loads a .heapsnapshot through them and
// prints what the Memory panel computes.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const {spawnSync} = require('node:child_process');
const assert = require('node:assert/strict');

const BUNDLE = path.join(__dirname, '..', '..', '..', 'build', 'devtools', 'devtools-heap-snapshot.mjs');

// Builds the bundle once per chrome-devtools-frontend version (test files
// run in parallel: written aside, then renamed into place).
function devtoolsBundle() {
  const version = require('chrome-devtools-frontend/package.json').version;
  const made = fs.existsSync(BUNDLE) ? fs.readFileSync(BUNDLE, 'utf8').slice(0, 200) : '';
  if (made.includes(`chrome-devtools-frontend@${version}.`)) return BUNDLE;
  const aside = `${BUNDLE}.${process.pid}.mjs`;
  const r = spawnSync(process.execPath, [path.join(__dirname, 'build-loader.mjs'), aside], {encoding: 'utf8'});
  assert.equal(r.status, 0, r.stderr);
  fs.renameSync(aside, BUNDLE);
  fs.rmSync(`${aside}.meta.json`, {force: true});
  return BUNDLE;
}

// -> DevTools' view of the file (see load-heapsnapshot.mjs).
function devtoolsLoad(file) {
  const r = spawnSync(process.execPath, [path.join(__dirname, 'load-heapsnapshot.mjs'), file, '--bundle', devtoolsBundle()],
    {encoding: 'utf8', maxBuffer: 1 << 28});
  assert.equal(r.status, 0, r.stderr + r.stdout.slice(0, 2000));
  return JSON.parse(r.stdout);
}

// Checks DevTools' view of a snapshot's .heapsnapshot (devtoolsLoad)
// against the snapshot's heap graph: every node, size, retained size,
// dominator and class. -> DevTools' nodes by id.
function checkAgainst(snap, dt) {
  const h = snap.heap;
  const first = h.groups.length + 1;
  assert.equal(dt.ok, true);
  assert.deepEqual(dt.brokenSnapshot, []);
  assert.deepEqual(dt.warnings, [], 'every node reachable: no unreachable-node warnings');
  assert.equal(dt.nodeCount, first + h.blocks.address.length);
  assert.equal(dt.edgeCount, h.edges.length);
  const total = h.blocks.size.reduce((a, b) => a + b, 0);
  assert.equal(dt.totalSize, total);
  // node ids: the root 2, groups even, blocks the heap section's odd ids
  const idOfNode = (v) => (v === 0 ? 2 : v < first ? 2 * (v + 1) : h.blocks.id[v - first]);
  const byId = new Map(dt.nodes.map((n) => [n.id, n]));
  for (let k = 0; k < h.blocks.address.length; k++) {
    const n = byId.get(h.blocks.id[k]);
    assert.ok(n, `block ${k} (id ${h.blocks.id[k]}) in DevTools' nodes`);
    assert.equal(n.type, 'native');
    assert.equal(n.selfSize, h.blocks.size[k]);
    assert.equal(n.retainedSize, h.blocks.retained[k], `retained size of block ${k} (${n.name})`);
    assert.equal(n.dominatorId, idOfNode(h.blocks.dominator[k]), `dominator of block ${k} (${n.name})`);
  }
  for (let g = 0; g < h.groups.length; g++) {
    const n = byId.get(idOfNode(g + 1));
    assert.equal(n.name, h.groups[g].name);
    assert.equal(n.retainedSize, h.groups[g].retainedBytes, h.groups[g].name);
  }
  // Summary: one class per site key, its count and shallow size
  const keyOf = new Map(snap.sites.map((s) => [s.id, s.key]));
  const want = {};
  h.blocks.site.forEach((site, k) => {
    const key = keyOf.get(site);
    want[key] = want[key] || {count: 0, self: 0};
    want[key].count++;
    want[key].self += h.blocks.size[k];
  });
  const got = {};
  for (const [name, a] of Object.entries(dt.aggregates)) got[name] = {count: a.count, self: a.self};
  assert.deepEqual(got, want);
  return byId;
}

module.exports = {devtoolsBundle, devtoolsLoad, checkAgainst};
