// sites.test.js -- model/sites.js's notes on what a snapshot's numbers are:
// a full site table and a table short of memory are told apart.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { modeNote } = require('../model/sites');

test('a full site table is named as such, with its limit', () => {
  const note = modeNote({ mode: 'exact', summary: { lostSites: 7, siteCount: 1 << 20, lostAllocs: 0 } });
  assert.match(note, /the site table is full: it holds 1,048,576 stacks, the most the runtime keeps/);
  assert.match(note, /7 new stacks were charged to \(unattributed\)/);
  assert.ok(!/for want of room/.test(note), note);
});

test('tables short of memory say so, and how to give them room', () => {
  const note = modeNote({ mode: 'exact', summary: { lostSites: 5, siteCount: 300, lostAllocs: 2, lostBytes: 10 } });
  assert.match(note, /not recorded for want of room \(fixed heap\): 2 allocations \(10 bytes\) in no site, 5 new stacks/);
  assert.ok(!/site table is full/.test(note));
  assert.match(modeNote({ mode: 'exact', summary: {} }), /^mode exact: every allocation recorded, per-site numbers are exact$/);
});
