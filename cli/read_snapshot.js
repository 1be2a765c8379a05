// read_snapshot.js: turn any file emheap writes into the snapshot it carries.
// A *.speedscope.json or *.PerfView.json file holds the snapshot in its
// top-level "emheap" field; a bare snapshot JSON is the snapshot itself.
// Every way a file can be unusable becomes an EmheapError with one readable
// line: missing, empty, not JSON, truncated, another tool's file, a snapshot
// format or version this CLI does not know, or a damaged snapshot (a light
// structural check, enough for every command and format builder to run; the
// full JSON Schema is schemas/emheap-snapshot.schema.json, used by the tests).
'use strict';

const fs = require('node:fs');
const { EmheapError } = require('./errors');

const SNAPSHOT_FORMAT = 'emheap-snapshot';
const SNAPSHOT_VERSION = 1;
const MODES = ['exact-js', 'exact-shadow', 'sampled'];
const SUMMARY_COUNTS = [
  'liveBytes', 'liveBlocks', 'peakLiveBytes', 'peakLiveBlocks', 'totalBytes',
  'mallocCalls', 'callocCalls', 'reallocCalls', 'memalignCalls', 'freeCalls',
  'failedAllocs', 'invalidFrees', 'sampledAllocs', 'siteCount', 'heapSize', 'heapGrowths',
];
const SITE_COUNTS = ['id', 'liveBytes', 'liveBlocks', 'totalAllocs', 'totalBytes', 'peakLiveBytes'];
const READS = 'emheap reads the files it writes: *.speedscope.json, *.PerfView.json or a snapshot .json';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v) => Number.isSafeInteger(v) && v >= 0;

function readSnapshotFile(file) {
  let buf;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    const why = { ENOENT: 'no such file', EISDIR: 'is a directory', EACCES: 'permission denied' }[e.code];
    throw new EmheapError(`${file}: ${why || 'cannot read it (' + (e.code || e.message) + ')'}`);
  }
  return parseSnapshotBuffer(buf, file);
}

// -> {snapshot, container: 'speedscope' | 'perfview' | 'snapshot' | 'json'}
function parseSnapshotBuffer(buf, label) {
  if (buf.length === 0) throw new EmheapError(`${label}: empty file`);
  if (buf[0] === 0x1f && buf[1] === 0x8b) {
    throw new EmheapError(`${label}: a gzip file (a pprof profile?), not JSON; ${READS}`);
  }
  let text = buf.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let obj;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    throw new EmheapError(`${label}: ${jsonProblem(e, text)}`);
  }
  return fromJson(obj, label);
}

// "truncated JSON" when the parser ran out of text, else where it failed.
function jsonProblem(err, text) {
  const message = String(err && err.message || err);
  const end = text.replace(/\s+$/, '').length;
  const at = /position (\d+)/.exec(message);
  if (/end of JSON input/i.test(message) || (at && Number(at[1]) >= end)) {
    return `truncated JSON (the file ends after ${end} bytes, in the middle of a value): was the download or copy cut short?`;
  }
  if (!/^\s*[{[]/.test(text)) return `not a JSON file; ${READS}`;
  const what = message.split('\n')[0].replace(/\s*(in JSON )?at position \d+.*$/, '').slice(0, 80);
  return `invalid JSON${at ? ' at byte ' + at[1] : ''}: ${what}`;
}

function fromJson(obj, label) {
  if (!isObject(obj)) {
    throw new EmheapError(`${label}: JSON, but not an emheap file (the top level is ${Array.isArray(obj) ? 'an array' : typeof obj === 'object' ? 'null' : 'a ' + typeof obj}); ${READS}`);
  }
  let snapshot;
  let container;
  if (Object.prototype.hasOwnProperty.call(obj, 'emheap')) {
    snapshot = obj.emheap;
    container = obj.StackSource ? 'perfview' : (obj.profiles || obj.shared) ? 'speedscope' : 'json';
    if (!isObject(snapshot)) throw new EmheapError(`${label}: its "emheap" field is not a snapshot object`);
  } else if (obj.format === SNAPSHOT_FORMAT || (typeof obj.format === 'string' && /emheap/.test(obj.format)) ||
      (obj.summary !== undefined && obj.sites !== undefined)) {
    snapshot = obj;
    container = 'snapshot';
  } else {
    throw new EmheapError(`${label}: ${otherTool(obj)}`);
  }
  if (snapshot.format !== SNAPSHOT_FORMAT) {
    throw new EmheapError(`${label}: unknown snapshot format ${JSON.stringify(snapshot.format)} (expected "${SNAPSHOT_FORMAT}")`);
  }
  if (snapshot.version !== SNAPSHOT_VERSION) {
    const v = snapshot.version;
    throw new EmheapError(typeof v === 'number' && v > SNAPSHOT_VERSION
      ? `${label}: snapshot version ${v} is newer than this emheap reads (version ${SNAPSHOT_VERSION}): update emheap`
      : `${label}: unknown snapshot version ${JSON.stringify(v)} (this emheap reads version ${SNAPSHOT_VERSION})`);
  }
  const problem = checkSnapshot(snapshot);
  if (problem) throw new EmheapError(`${label}: damaged emheap snapshot: ${problem}`);
  return { snapshot, container };
}

// What a JSON file without a snapshot is, in words.
function otherTool(obj) {
  const noField = 'it has no "emheap" field, so it carries no emheap snapshot (only files emheap writes do)';
  if (typeof obj.$schema === 'string' && /speedscope/.test(obj.$schema) || Array.isArray(obj.profiles)) {
    const by = typeof obj.exporter === 'string' && obj.exporter ? ` written by ${obj.exporter}` : '';
    return `a speedscope file${by}, not by emheap: ${noField}`;
  }
  if (obj.StackSource) return `a PerfView file not written by emheap: ${noField}`;
  if (Array.isArray(obj.traceEvents)) {
    return `a Chrome trace (emheap's chrome-trace output or another tool's): it carries no emheap snapshot; give the .speedscope.json or .PerfView.json file`;
  }
  return `JSON, but not an emheap file: no "emheap" field and no "format": "${SNAPSHOT_FORMAT}"; ${READS}`;
}

// The first structural problem of a snapshot, or null. Unknown extra fields
// are allowed (a newer emheap of the same version may add some).
function checkSnapshot(s) {
  if (typeof s.capturedAt !== 'string') return 'capturedAt is not a string';
  if (typeof s.source !== 'string') return 'source is not a string';
  if (!MODES.includes(s.mode)) return `mode ${JSON.stringify(s.mode)} is not one of ${MODES.join(', ')}`;
  if (!isCount(s.samplingInterval)) return 'samplingInterval is not a whole number >= 0';
  if (!isObject(s.summary)) return 'summary is missing';
  for (const k of SUMMARY_COUNTS) {
    if (!isCount(s.summary[k])) return `summary.${k} is not a whole number >= 0`;
  }
  if (!Array.isArray(s.frames)) return 'frames is not an array';
  for (let i = 0; i < s.frames.length; i++) {
    const f = s.frames[i];
    if (!isObject(f) || typeof f.name !== 'string' || f.name === '') return `frames[${i}] has no name`;
    if (f.file !== undefined && typeof f.file !== 'string') return `frames[${i}].file is not a string`;
    if (f.line !== undefined && !isCount(f.line)) return `frames[${i}].line is not a whole number >= 0`;
    if (f.offset !== undefined && !isCount(f.offset)) return `frames[${i}].offset is not a whole number >= 0`;
  }
  if (!Array.isArray(s.sites)) return 'sites is not an array';
  for (let i = 0; i < s.sites.length; i++) {
    const site = s.sites[i];
    if (!isObject(site)) return `sites[${i}] is not an object`;
    if (typeof site.key !== 'string') return `sites[${i}].key is not a string`;
    for (const k of SITE_COUNTS) {
      if (!isCount(site[k])) return `sites[${i}].${k} is not a whole number >= 0`;
    }
    if (!Array.isArray(site.stack)) return `sites[${i}].stack is not an array`;
    for (const index of site.stack) {
      if (!Number.isInteger(index) || index < 0 || index >= s.frames.length) {
        return `sites[${i}].stack refers to frame ${JSON.stringify(index)}, but there are ${s.frames.length} frames`;
      }
    }
  }
  if (s.heapGrowth !== undefined && !Array.isArray(s.heapGrowth)) return 'heapGrowth is not an array';
  if (s.timeline !== undefined) {
    if (!Array.isArray(s.timeline)) return 'timeline is not an array';
    for (let i = 0; i < s.timeline.length; i++) {
      const p = s.timeline[i];
      if (!isObject(p) || typeof p.t !== 'number' || !(p.t >= 0) || !isCount(p.liveBytes) || !isCount(p.liveBlocks)) {
        return `timeline[${i}] is not {t, liveBytes, liveBlocks}`;
      }
    }
  }
  return null;
}

module.exports = { readSnapshotFile, parseSnapshotBuffer, checkSnapshot, SNAPSHOT_VERSION };
