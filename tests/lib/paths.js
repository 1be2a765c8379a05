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
};
