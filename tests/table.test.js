// table.test.js -- cli/table.js: what the CLI's text puts on a terminal.
// Names a program chose come out with every control character escaped.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { printable, withPrintableNames, clip } = require('../cli/table');

test('control characters are escaped, but those kept', () => {
  assert.equal(printable('a\nb\tc\u001b[31m\u007f\u0085\u2028d'), 'a\\x0ab\\x09c\\x1b[31m\\x7f\\x85\\u2028d');
  assert.equal(printable('line one\nline two\n', '\n'), 'line one\nline two\n');
  assert.equal(printable('naïve ✓ 日本'), 'naïve ✓ 日本', 'printable text stays as it is');
});

test('a snapshot for the tables: frames, files and marks printable; the original untouched', () => {
  const snap = {
    frames: [{ name: 'evil\n::error::x', file: 'a\u001b.c', line: 3 }, { name: 'fine' }],
    marks: [{ number: 1, name: 'm\r', t: 0 }], sites: [],
  };
  const shown = withPrintableNames(snap);
  assert.deepEqual(shown.frames, [{ name: 'evil\\x0a::error::x', file: 'a\\x1b.c', line: 3 }, { name: 'fine' }]);
  assert.equal(shown.marks[0].name, 'm\\x0d');
  assert.equal(snap.frames[0].name, 'evil\n::error::x');
  assert.equal(clip('abcdef', 5), 'ab...');
});
