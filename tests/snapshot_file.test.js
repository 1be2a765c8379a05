// snapshot_file.test.js -- model/snapshot_file.js, the snapshot contract:
// the snapshot comes out of every file emheap writes, other files and
// other versions are refused in words, and the empty summary has every
// field the schema requires.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const {SNAPSHOT_FORMAT, SNAPSHOT_VERSION, UNATTRIBUTED, SnapshotFileError, unwrapSnapshot, emptySummary} =
  require('../model/snapshot_file');
const {validateSnapshot} = require('./lib/schemas');
const schema = require('../schemas/emheap-snapshot.schema.json');

const snapshot = () => ({
  format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, capturedAt: '2026-01-01T00:00:00.000Z', source: '',
  mode: 'exact', samplingInterval: 0, summary: emptySummary(16777216, true), frames: [], sites: [], heapGrowth: [],
});

test('the snapshot comes out of a bare snapshot, a speedscope file and a PerfView file', () => {
  const s = snapshot();
  assert.deepEqual(unwrapSnapshot(s), {snapshot: s, container: 'snapshot'});
  assert.deepEqual(unwrapSnapshot({$schema: 'https://www.speedscope.app/file-format-schema.json', profiles: [], emheap: s}),
    {snapshot: s, container: 'speedscope'});
  assert.deepEqual(unwrapSnapshot({StackSource: {}, emheap: s}), {snapshot: s, container: 'perfview'});
});

test('other files, formats and versions are refused with a reason', () => {
  const refuses = (obj, pattern) => assert.throws(() => unwrapSnapshot(obj),
    (e) => e instanceof SnapshotFileError && pattern.test(e.message));
  refuses([1, 2], /the top level is an array/);
  refuses(null, /the top level is null/);
  refuses({profiles: [], exporter: 'speedscope@1.2'}, /a speedscope file written by speedscope@1\.2, not by emheap/);
  refuses({traceEvents: []}, /a Chrome trace/);
  refuses({emheap: 'x'}, /its "emheap" field is not a snapshot object/);
  refuses(Object.assign(snapshot(), {format: 'emheap-other'}), /unknown snapshot format "emheap-other"/);
  refuses(Object.assign(snapshot(), {version: SNAPSHOT_VERSION + 1}), /is newer than this emheap reads.*update emheap/);
  refuses(Object.assign(snapshot(), {version: 'one'}), /unknown snapshot version "one"/);
});

test('the empty summary has every field the schema requires, and validates', () => {
  const summary = emptySummary(65536, false);
  for (const field of schema.properties.summary.required) assert.ok(field in summary, field);
  assert.deepEqual(validateSnapshot(snapshot()), []);
  assert.equal(UNATTRIBUTED, '(unattributed)');
});
