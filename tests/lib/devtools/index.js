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

module.exports = {devtoolsBundle, devtoolsLoad};
