// save_file.test.js -- output/save_file.js: a page's download and a new
// file under node, with a stand-in document and a real temporary folder.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const {saveBlob, writeNewFile} = require('../output/save_file');

test('a page download clicks a hidden link to the Blob, and revokes its URL only after a grace period', () => {
  const events = [];
  const link = {style: {}, click: () => events.push('click'), remove: () => events.push('remove')};
  const timers = [];
  const host = {
    document: {createElement: (tag) => { events.push('create ' + tag); return link; }, body: {appendChild: () => events.push('append')}},
    URL: {createObjectURL: () => 'blob:1', revokeObjectURL: (u) => events.push('revoke ' + u)},
    setTimeout: (fn, ms) => timers.push({fn, ms}),
    log: (m) => events.push(m),
  };
  const blob = {size: 40e6, release: () => events.push('release')};
  assert.equal(saveBlob(host, 'memory.json', blob), 'memory.json');
  assert.deepEqual([link.href, link.download, link.style.display], ['blob:1', 'memory.json', 'none']);
  assert.deepEqual(events, ['create a', 'append', 'click', 'remove', 'emheap: saved memory.json']);
  assert.equal(timers.length, 1);
  assert.equal(timers[0].ms, 10000 + 4000, '10 s plus 1 s per 10 MB');
  timers[0].fn();
  assert.deepEqual(events.slice(-2), ['revoke blob:1', 'release']);
});

test('under node a new file never replaces one the user has; a failed write leaves nothing', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-save-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  const said = [];
  const host = {fs, log: (m) => said.push(m), error: (m) => said.push('error: ' + m)};
  const name = path.join(dir, 'memory.speedscope.json');
  fs.writeFileSync(name, 'the user\'s own');
  const write = (text) => (fd) => fs.writeSync(fd, text);
  assert.equal(writeNewFile(host, name, write('one')), path.join(dir, 'memory-1.speedscope.json'));
  assert.equal(writeNewFile(host, name, write('two')), path.join(dir, 'memory-2.speedscope.json'));
  assert.equal(fs.readFileSync(name, 'utf8'), 'the user\'s own');
  assert.equal(fs.readFileSync(path.join(dir, 'memory-2.speedscope.json'), 'utf8'), 'two');
  const failed = writeNewFile(host, path.join(dir, 'cut.json'), () => { throw new Error('disk full'); });
  assert.equal(failed, null);
  assert.equal(fs.existsSync(path.join(dir, 'cut.json')), false, 'the cut file is removed');
  assert.match(said.at(-1), /^error: emheap: cannot write .*cut\.json: disk full$/);
  assert.equal(writeNewFile(host, path.join(dir, 'no-such-dir', 'x.json'), write('x')), null);
  assert.match(said.at(-1), /^error: emheap: cannot write .*x\.json: ENOENT/);
});
