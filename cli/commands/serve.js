// serve.js: `emheap serve`: a collector for pages that cannot save a file
// where you can reach it (a phone, a tablet, a kiosk): it prints the URL to
// give the page (?emheap_remote=...), keeps each snapshot the page sends
// as a file in --dir, and shows the newest at its own address
// (cli/collector.js). It runs until stopped (Ctrl+C).
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');

const { EmheapError } = require('../errors');
const units = require('../units');
const { createCollector } = require('../collector');

const DEFAULT_PORT = 7890;
const DEFAULT_DIR = 'emheap-remote';
// The collector checks a file whole (JSON.parse), as `emheap top` reads
// files up to this size (cli/read_snapshot.js).
const MAX_SIZE = 256 * 1024 * 1024;

const PORT = { name: 'port', kind: 'value', arg: 'N', help: `the TCP port (default ${DEFAULT_PORT}; 0: any free one)` };
const HOST = {
  name: 'host', kind: 'value', arg: 'ADDR',
  help: 'the interface to listen on: 127.0.0.1 (the default) reaches this machine only (and a phone through ' +
    '`adb reverse`); 0.0.0.0 every interface, for a phone on the same network (docs/remote.md)',
};
const DIR = { name: 'dir', kind: 'value', arg: 'DIR', help: `where the files go (default ./${DEFAULT_DIR}, made if missing)` };
const TOKEN = {
  name: 'token', kind: 'value', arg: 'TOKEN',
  help: 'the secret in every URL (16 to 64 letters, digits, - or _); default: a new random one each run',
};
const MAX_SIZE_OPTION = {
  name: 'max-size', kind: 'value', arg: 'SIZE',
  help: `the largest file taken, as sent and unzipped (default and most: ${units.formatBytes(MAX_SIZE)}); ${units.SIZE_HELP}`,
};

function tokenOf(opts) {
  if (opts.token === undefined) return crypto.randomBytes(16).toString('hex');
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(opts.token)) {
    throw new EmheapError('--token: give 16 to 64 letters, digits, - or _ (it is the password of the collector)');
  }
  return opts.token;
}

// The addresses a page can use to reach `host`: for every interface, this
// machine's own (IPv4 first).
function reachableAddresses(host) {
  if (host !== '0.0.0.0' && host !== '::') return [host];
  const found = [];
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list || []) if (a.family === 'IPv4' && !a.internal) found.push(a.address);
  }
  return found.length ? found : ['127.0.0.1'];
}

function run({ opts }, out, err) {
  const port = opts.port === undefined ? DEFAULT_PORT : units.parseWhole(opts.port, '--port');
  if (port > 65535) throw new EmheapError(`--port: ${port} is not a TCP port`);
  const host = opts.host === undefined ? '127.0.0.1' : opts.host;
  const dir = opts.dir === undefined ? DEFAULT_DIR : opts.dir;
  const maxBytes = opts['max-size'] === undefined ? MAX_SIZE : units.parseSize(opts['max-size'], '--max-size');
  if (maxBytes < 1 || maxBytes > MAX_SIZE) throw new EmheapError(`--max-size: from 1 byte to ${units.formatBytes(MAX_SIZE)}`);
  const token = tokenOf(opts);
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new EmheapError(`--dir ${dir}: cannot make it (${e.code || e.message})`);
  }
  const log = (line) => out(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
  const server = createCollector({ dir, token, maxBytes, log });
  server.on('error', (e) => {
    err(`emheap: serve: cannot listen on ${host}:${port} (${e.code || e.message})` +
      `${e.code === 'EADDRINUSE' ? ': another collector runs there? give --port' : ''}\n`);
    process.exitCode = 2;
  });
  server.listen(port, host, () => {
    const bound = server.address().port;
    const urls = reachableAddresses(host).map((a) => `http://${a.includes(':') ? `[${a}]` : a}:${bound}/${token}`);
    out(`emheap serve: keeping snapshots in ${dir}/ (files of up to ${units.formatBytes(maxBytes)})\n` +
      `  open the page with:  ?emheap_remote=${urls[0]}\n` +
      urls.slice(1).map((u) => `                  or:  ?emheap_remote=${u}\n`).join('') +
      `  (or in its code:     Module.emheapOptions = {remote: '${urls[0]}'})\n` +
      `  what arrives:        ${urls[0]}/\n` +
      (host === '127.0.0.1' || host === 'localhost' || host === '::1'
        ? '  listening on this machine only: --host 0.0.0.0 for a phone on this network, or `adb reverse` (docs/remote.md)\n'
        : `  listening on ${host}: anyone on the network who has the token can send and read; Ctrl+C stops it\n`));
  });
  return 0;
}

module.exports = {
  name: 'serve',
  summary: 'Collect snapshots from a page on another device (a phone, a tablet): prints the URL to open the page with ' +
    '(?emheap_remote=...); the page then sends a snapshot on Ctrl+Shift+H, at each mark, every N seconds when asked ' +
    '(?emheap_remote_every=N) and when it runs out of memory. Each is kept as a file in --dir that the other commands ' +
    'read, never over another, and the newest is shown at the printed address as `emheap report` draws it ' +
    '(docs/remote.md). Runs until Ctrl+C.',
  positional: [],
  options: [PORT, HOST, DIR, TOKEN, MAX_SIZE_OPTION],
  run,
};
