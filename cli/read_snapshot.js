// read_snapshot.js: turn any file emheap writes into the snapshot it carries.
// A *.speedscope.json or *.PerfView.json file holds the snapshot in its
// top-level "emheap" field; a bare snapshot JSON is the snapshot itself.
// Every way a file can be unusable becomes an EmheapError with one readable
// line: missing, empty, not JSON, truncated, another tool's file, a snapshot
// format or version this CLI does not know, or a damaged snapshot (one that
// fails schemas/emheap-snapshot.schema.json; see checkSnapshot).
'use strict';

const fs = require('node:fs');
const { EmheapError } = require('./errors');

const SNAPSHOT_FORMAT = 'emheap-snapshot';
const SNAPSHOT_VERSION = 1;
const READS = 'emheap reads the files it writes: *.speedscope.json, *.PerfView.json or a snapshot .json';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

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

// The first problem of a snapshot, or null. The check is the snapshot's
// JSON Schema (schemas/emheap-snapshot.schema.json, through Ajv), so what the
// CLI accepts is exactly what emheap's own files may hold; fields the schema
// does not know are removed on the way (a newer emheap of the same version
// may add some), so no command copies an unchecked field into a file it
// writes. Then what a schema cannot say: stack entries and growth events
// must point at frames and sites that exist.
let validator = null;
function schemaValidator() {
  if (!validator) {
    const Ajv = require('ajv');
    const addFormats = require('ajv-formats');
    const ajv = new Ajv({ removeAdditional: 'all', strict: true });
    addFormats(ajv);
    validator = ajv.compile(require('../schemas/emheap-snapshot.schema.json'));
  }
  return validator;
}

// "/sites/3/liveBytes" -> "sites[3].liveBytes"
function fieldName(pointer) {
  return pointer.split('/').slice(1).reduce((name, part) =>
    (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

function checkSnapshot(s) {
  const validate = schemaValidator();
  if (!validate(s)) {
    const e = validate.errors[0];
    const where = fieldName(e.instancePath);
    if (e.keyword === 'required') return `${where ? where + ' ' : ''}has no ${e.params.missingProperty}`;
    return `${where || 'the snapshot'} ${e.message}${e.params && e.params.allowedValues ? ' (' + e.params.allowedValues.join(', ') + ')' : ''}`;
  }
  for (let i = 0; i < s.sites.length; i++) {
    for (const index of s.sites[i].stack) {
      if (index >= s.frames.length) {
        return `sites[${i}].stack refers to frame ${index}, but there are ${s.frames.length} frames`;
      }
    }
  }
  return null;
}

module.exports = { readSnapshotFile, parseSnapshotBuffer, checkSnapshot, SNAPSHOT_VERSION };
