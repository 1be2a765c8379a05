// collector.js: the HTTP server of `emheap serve` (cli/commands/serve.js).
// A page profiled on a phone or a tablet, which has no devtools and no
// keyboard, sends its snapshots here (output/remote_sink.js); the collector
// keeps each as a file `emheap top` reads and shows the newest as
// `emheap report` does (cli/collector_page.js).
//
// The token in every path is the only credential: the page is of another
// origin (CORS allows any, and no cookie is ever used), and the collector
// may listen on an interface a whole network reaches. What it refuses it
// refuses before writing anything, with one line on its console:
//   403  a path without the token (compared in constant time)
//   413  a body, or the file it unzips to, larger than maxBytes
//   400  a body that is not gzip or JSON, or not a snapshot emheap wrote
// Files are written with O_EXCL under a name of the collector's choosing
// (the page's, cleaned, numbered when taken): never over another file.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const zlib = require('node:zlib');

const { parseSnapshotBuffer } = require('./read_snapshot');
const units = require('./units');
const collectorPage = require('./collector_page');
const { snapshotSuffixes } = require('../formats/index');

// The files that hold a snapshot, by their suffix (formats/index.js).
const SNAPSHOT_SUFFIX = new RegExp(`(${snapshotSuffixes().map((suffix) => suffix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);
// The names the collector keeps a file under: what the page asked, reduced
// to a plain file name of the snapshot formats (anything else: a name of
// the collector's own).
function cleanName(asked, now) {
  const base = path.basename(String(asked || '')).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 160);
  if (SNAPSHOT_SUFFIX.test(base) && !base.startsWith('.')) return base;
  return `memory-profile-${now.toISOString().replace(/:/g, '-')}.speedscope.json`;
}

// `name`, or name-2, name-3... : the first that does not exist, created
// empty with O_EXCL so that no other writer can take it. -> [file, fd].
function newFile(dir, name) {
  const m = SNAPSHOT_SUFFIX.exec(name);
  const stem = m ? name.slice(0, m.index) : name;
  const suffix = m ? m[1] : '';
  for (let n = 1; ; n++) {
    const file = path.join(dir, n === 1 ? name : `${stem}-${n}${suffix}`);
    try {
      return [file, fs.openSync(file, 'wx')];
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
  }
}

class Refusal extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// The body of `req`, at most `max` bytes (a longer one: Refusal 413, and the
// rest is not read). -> a promise of a Buffer.
function readBody(req, max) {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (declared > max) {
      reject(new Refusal(413, `a body of ${units.formatBytes(declared)}, over the limit of ${units.formatBytes(max)}`));
      return;
    }
    const parts = [];
    let length = 0;
    req.on('data', (chunk) => {
      length += chunk.length;
      if (length > max) {
        req.pause();
        reject(new Refusal(413, `a body of over ${units.formatBytes(max)}, the limit`));
        return;
      }
      parts.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(parts, length)));
    req.on('error', reject);
  });
}

// A body as sent -> the file's bytes: gunzipped when it is gzip (as the
// page sends it), at most `max` bytes either way.
function fileBytes(body, max) {
  if (body.length < 2 || body[0] !== 0x1f || body[1] !== 0x8b) return body;
  try {
    return zlib.gunzipSync(body, { maxOutputLength: max });
  } catch (e) {
    if (e.code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) {
      throw new Refusal(413, `a body that unzips to over ${units.formatBytes(max)}, the limit`);
    }
    throw new Refusal(400, `a damaged gzip body (${e.code || e.message})`);
  }
}

// Report pages kept made (each a few MB for a large snapshot).
const REPORTS_KEPT = 4;

// The snapshot files already in dir (a collector started again on its
// folder lists what it kept before), oldest first.
function keptBefore(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && SNAPSHOT_SUFFIX.test(e.name)).map((e) => {
    const stat = fs.statSync(path.join(dir, e.name));
    return { name: e.name, bytes: stat.size, receivedAt: stat.mtime.toISOString(), from: '(kept before)', at: stat.mtimeMs };
  }).sort((a, b) => a.at - b.at).map(({ at, ...f }) => f);
}

// options: {dir (exists), token, maxBytes, log(line)} -> an http.Server,
// not yet listening. server.files(): what it kept, newest first.
function createCollector(options) {
  const { dir, token, maxBytes, log } = options;
  const tokenBytes = Buffer.from(token);
  const kept = keptBefore(dir); // {name, bytes, receivedAt, from}, oldest first
  const reports = new Map(); // name -> its report page, the last REPORTS_KEPT made

  const hasToken = (segment) => {
    const given = Buffer.from(segment || '');
    return given.length === tokenBytes.length && crypto.timingSafeEqual(given, tokenBytes);
  };

  const send = (res, status, type, body, extra = {}) => {
    res.writeHead(status, Object.assign({ 'Content-Type': type, 'Cache-Control': 'no-store' }, extra));
    res.end(body);
  };
  // The page that sends is of another origin; the token, not the origin,
  // says who may.
  const CORS = { 'Access-Control-Allow-Origin': '*' };
  const refuse = (req, res, status, why) => {
    log(`refused ${req.method} from ${req.socket.remoteAddress}: ${status} ${http.STATUS_CODES[status]}: ${why}; nothing written`);
    // (413: the connection closes after the answer; what is still coming
    // is read and dropped meanwhile, so that the sender gets the answer)
    send(res, status, 'text/plain; charset=utf-8', `emheap serve: ${why}\n`,
      status === 413 ? Object.assign({ Connection: 'close' }, CORS) : CORS);
  };

  const receive = async (req, res, url) => {
    let body;
    try {
      body = await readBody(req, maxBytes);
      const bytes = fileBytes(body, maxBytes);
      try {
        parseSnapshotBuffer(bytes, 'the body');
      } catch (e) {
        throw new Refusal(400, String(e.message || e).replace(/^the body: /, ''));
      }
      const received = new Date();
      const [file, fd] = newFile(dir, cleanName(url.searchParams.get('name'), received));
      try {
        fs.writeSync(fd, bytes);
      } finally {
        fs.closeSync(fd);
      }
      const entry = { name: path.basename(file), bytes: bytes.length, receivedAt: received.toISOString(), from: req.socket.remoteAddress };
      kept.push(entry);
      log(`received ${file} (${units.formatBytes(bytes.length)}, ${units.formatBytes(body.length)} sent) from ${entry.from}`);
      send(res, 201, 'application/json', JSON.stringify({ file: entry.name }), CORS);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      refuse(req, res, e.status, e.message);
      if (e.status === 413) req.resume(); // drain, so that the answer reaches the page
    }
  };

  const keptNamed = (name) => kept.find((k) => k.name === name);

  const reportOf = (entry) => {
    if (!reports.has(entry.name)) {
      const { readView } = require('./read_view');
      const { reportCommand } = require('./report');
      reports.set(entry.name, reportCommand(readView(path.join(dir, entry.name), {}), { file: entry.name }));
      if (reports.size > REPORTS_KEPT) reports.delete(reports.keys().next().value);
    }
    return reports.get(entry.name);
  };

  const handle = async (req, res) => {
    const url = new URL(req.url, 'http://collector');
    const [, segment, ...rest] = url.pathname.split('/');
    if (req.method === 'OPTIONS') { // a CORS preflight: the page's POST of gzip
      send(res, 204, 'text/plain', '', Object.assign({
        'Access-Control-Allow-Methods': 'POST',
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': '600',
      }, req.headers['access-control-request-private-network'] ? { 'Access-Control-Allow-Private-Network': 'true' } : {}, CORS));
      return;
    }
    if (!hasToken(segment)) return refuse(req, res, 403, `a path without the collector's token (${url.pathname.slice(0, 40)})`);
    if (rest.length === 0) return send(res, 301, 'text/plain', '', { Location: `/${segment}/` });
    const route = rest.join('/');
    if (req.method === 'POST' && route === 'snapshots') return receive(req, res, url);
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(req, res, 405, `${req.method} ${route}`);
    if (route === '') return send(res, 200, 'text/html; charset=utf-8', collectorPage.indexPage());
    if (route === 'files.json') return send(res, 200, 'application/json', JSON.stringify(kept.slice().reverse()));
    const [kind, name] = [rest[0], decodeURIComponent(rest.slice(1).join('/'))];
    const entry = keptNamed(name);
    if (entry && kind === 'report') return send(res, 200, 'text/html; charset=utf-8', reportOf(entry));
    if (entry && kind === 'files') {
      return send(res, 200, 'application/json', fs.readFileSync(path.join(dir, entry.name)),
        { 'Content-Disposition': `attachment; filename="${entry.name}"` });
    }
    send(res, 404, 'text/plain; charset=utf-8', `emheap serve: no ${route}\n`);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      log(`error answering ${req.method} ${req.url.slice(0, 60)}: ${e && e.message || e}`);
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'emheap serve: internal error\n', CORS);
      else res.end();
    });
  });
  server.files = () => kept.slice().reverse();
  return server;
}

module.exports = { createCollector };
