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
const { READS, SnapshotFileError, unwrapSnapshot } = require('../model/snapshot_file');

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// Files up to this size are read whole and given to JSON.parse (the fastest
// way); larger ones are parsed as a stream. JSON.parse needs the text as one
// string, and V8 makes none longer than 2^29 - 24 characters (512 MB): a
// snapshot of 2M sites x 60 frames is over 1 GB.
const WHOLE_FILE_BYTES = 256 * 1024 * 1024;

function readSnapshotFile(file) {
  let fd;
  let size;
  try {
    fd = fs.openSync(file, 'r');
    size = fs.fstatSync(fd).size;
    const head = Buffer.alloc(2);
    fs.readSync(fd, head, 0, 2, 0);
    if (head[0] === 0x1f && head[1] === 0x8b) return readGzipFile(fs.readFileSync(fd), file);
    if (size <= WHOLE_FILE_BYTES) return parseSnapshotBuffer(fs.readFileSync(fd), file);
    return parseLargeFile(fd, file);
  } catch (e) {
    if (e instanceof EmheapError) throw e;
    const why = { ENOENT: 'no such file', EISDIR: 'is a directory', EACCES: 'permission denied' }[e.code];
    throw new EmheapError(`${file}: ${why || 'cannot read it (' + (e.code || e.message) + ')'}`);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

// A gzip file: a heap dump (emheap.dumpHeap(), formats/heap_dump.js) is
// scanned here, with the page's code, into the snapshot with its heap
// graph; anything else gzipped (a pprof profile) is named as such.
function readGzipFile(buf, label) {
  const zlib = require('node:zlib');
  const heapDump = require('../formats/heap_dump');
  let bytes;
  try {
    bytes = zlib.gunzipSync(buf);
  } catch (e) {
    throw new EmheapError(`${label}: a damaged gzip file (${e.code || e.message}): was the download cut short?`);
  }
  if (!heapDump.isDump(bytes)) throw new EmheapError(`${label}: a gzip file (a pprof profile?), not JSON; ${READS}`);
  let dump;
  try {
    dump = heapDump.readDump(bytes);
  } catch (e) {
    throw new EmheapError(`${label}: ${e.message}`);
  }
  // the snapshot is checked as any other, its heap section (remade by the
  // scan below) apart
  const plain = Object.assign({}, dump.header.snapshot);
  delete plain.heap;
  fromJson(plain, label);
  const b = dump.header.snapshot.heap && dump.header.snapshot.heap.blocks;
  const n = b && Array.isArray(b.address) ? b.address.length : -1;
  if (n < 0 || ['size', 'site', 'id'].some((f) => !Array.isArray(b[f]) || b[f].length !== n)) {
    throw new EmheapError(`${label}: damaged heap dump: its block arrays are missing or of different lengths`);
  }
  return { snapshot: heapDump.analyzeDump(bytes), container: 'heap dump' };
}

// Top-level members a container holds besides the snapshot: only their kind
// matters here (to name another tool's file), so each becomes an empty one
// as soon as it is parsed (a speedscope file's samples are as big as the
// snapshot).
const CONTAINER_PARTS = new Set(['profiles', 'shared', 'StackSource', 'traceEvents']);

// The same result as parseSnapshotBuffer for a file of any size: parsed in
// 4 MB pieces by @streamparser/json, a top-level member at a time.
function parseLargeFile(fd, label) {
  const { JSONParser } = require('@streamparser/json');
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
  const obj = {};
  let error = null;
  let ended = false;
  parser.onValue = ({ value, key }) => {
    if (typeof key !== 'string') return;   // the top level is not an object: found below
    obj[key] = CONTAINER_PARTS.has(key) ? (Array.isArray(value) ? [] : isObject(value) ? {} : value) : value;
  };
  let lastToken = 0;   // byte offset of the last token: where a grammar error is
  parser.onToken = (t) => { lastToken = t.offset; };
  parser.onError = (e) => { error = error || e; };
  parser.onEnd = () => { ended = true; };
  const buf = Buffer.allocUnsafe(4 << 20);
  let position = 0;
  let first = true;
  for (;;) {
    const n = fs.readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    let piece = buf.subarray(0, n);
    if (first) {
      if (piece[0] === 0x1f && piece[1] === 0x8b) {
        throw new EmheapError(`${label}: a gzip file (a pprof profile?), not JSON; ${READS}`);
      }
      if (piece[0] === 0xef && piece[1] === 0xbb && piece[2] === 0xbf) piece = piece.subarray(3);   // BOM
      if (!/^\s*[{[]/.test(piece.subarray(0, 64).toString('latin1'))) throw new EmheapError(`${label}: not a JSON file; ${READS}`);
      if (!/^\s*\{/.test(piece.subarray(0, 64).toString('latin1'))) throw new EmheapError(`${label}: JSON, but not an emheap file (the top level is an array); ${READS}`);
      first = false;
    }
    parser.write(piece);
    position += n;
    if (error) break;
  }
  if (!error && !ended) parser.end();
  if (error || !ended) {
    const at = /absolute position "(\d+)"/.exec(String(error && error.message)) || [null, String(lastToken)];
    if (!error || /ended in (the )?mid|end of/i.test(error.message)) {
      throw new EmheapError(`${label}: truncated JSON (the file ends after ${position} bytes, in the middle of a value): was the download or copy cut short?`);
    }
    throw new EmheapError(`${label}: invalid JSON${at ? ' at byte ' + at[1] : ''}: ${String(error.message).replace(/ at chunk position.*$/, '').replace(/ in state \w+$/, '').slice(0, 80)}`);
  }
  return fromJson(obj, label);
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
  let unwrapped;
  try {
    unwrapped = unwrapSnapshot(obj);
  } catch (e) {
    if (e instanceof SnapshotFileError) throw new EmheapError(`${label}: ${e.message}`);
    throw e;
  }
  const problem = checkSnapshot(unwrapped.snapshot);
  if (problem) throw new EmheapError(`${label}: damaged emheap snapshot: ${problem}`);
  return unwrapped;
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
  const points = s.timeline ? s.timeline.length : 0;
  for (const [i, series] of (s.siteTimeline ? s.siteTimeline.series : []).entries()) {
    if ((series.siteId === undefined) === (series.siteIds === undefined)) {
      return `siteTimeline.series[${i}] must have one of siteId (one site) and siteIds (several)`;
    }
    if (series.from + series.liveBytes.length > points) {
      return `siteTimeline.series[${i}] runs to point ${series.from + series.liveBytes.length}, but the timeline has ${points}`;
    }
  }
  const marks = new Set((s.marks || []).map((m) => m.number));
  for (let i = 0; i < s.sites.length; i++) {
    const problem = s.sites[i].liveByMark && liveByMarkProblem(s.sites[i].liveByMark, marks);
    if (problem) return `sites[${i}].liveByMark ${problem}`;
  }
  for (const index of s.outOfMemory ? s.outOfMemory.stack : []) {
    if (index >= s.frames.length) return `outOfMemory.stack refers to frame ${index}, but there are ${s.frames.length} frames`;
  }
  return s.heap ? checkHeapSection(s.heap) : null;
}

// What the schema cannot say of a site's liveByMark (model/marks.js):
// whole rows of four (after, bytes, blocks, estimated bytes), ascending by
// a mark the file has (or 0), the estimate a part of the bytes. A row cut
// short would shift every number after it into another column.
function liveByMarkProblem(rows, marks) {
  if (rows.length % 4) return `has ${rows.length} numbers, not rows of four`;
  for (let r = 0; r < rows.length; r += 4) {
    const after = rows[r];
    if (after !== 0 && !marks.has(after)) return `row ${r / 4} is after mark #${after}, which the file does not have`;
    if (r && after <= rows[r - 4]) return `row ${r / 4} (after mark #${after}) is not after row ${r / 4 - 1}'s`;
    if (rows[r + 3] > rows[r + 1]) return `row ${r / 4} has more estimated bytes than bytes`;
  }
  return null;
}

// What the schema cannot say of the heap graph (model/heap_section.js):
// its arrays agree with each other. A damaged graph would otherwise give
// wrong retained sizes rather than an error.
function checkHeapSection(h) {
  const b = h.blocks;
  const count = b.address.length;
  for (const f of Object.keys(b)) {
    if (b[f].length !== count) return `heap.blocks.${f} has ${b[f].length} entries, heap.blocks.address ${count}`;
  }
  const nodes = 1 + h.groups.length + count;
  if (h.edgeCounts.length !== nodes) {
    return `heap.edgeCounts has ${h.edgeCounts.length} entries for ${nodes} nodes (root, ${h.groups.length} groups, ${count} blocks)`;
  }
  let edges = 0;
  for (let v = 0; v < nodes; v++) edges += h.edgeCounts[v];
  if (edges !== h.edges.length) return `heap.edgeCounts add up to ${edges} edges, heap.edges has ${h.edges.length}`;
  for (let e = 0; e < h.edges.length; e++) {
    if (h.edges[e] >= nodes) return `heap.edges[${e}] is node ${h.edges[e]}, but there are ${nodes} nodes`;
  }
  for (let k = 0; k < count; k++) {
    if (b.dominator[k] >= nodes) return `heap.blocks.dominator[${k}] is node ${b.dominator[k]}, but there are ${nodes} nodes`;
  }
  return null;
}

module.exports = { readSnapshotFile, parseSnapshotBuffer, parseLargeFile, checkSnapshot };
