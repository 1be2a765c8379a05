// serve.js -- a small static file server for the samples and the speedscope
// app, on loopback only. Used by the browser tests (ephemeral port) and by
// `make serve` (node harness/serve.js DIR [PORT]).
'use strict';

const http = require('http');
const fs = require('fs');
const path = require('path');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json', '.css': 'text/css',
  '.png': 'image/png', '.ico': 'image/x-icon', '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2', '.txt': 'text/plain', '.gz': 'application/gzip', '.pb': 'application/octet-stream',
};

// mounts: {urlPrefix: directory}. Resolves to {server, url, close()}.
function serve(mounts, port = 0) {
  const entries = Object.entries(mounts).sort((a, b) => b[0].length - a[0].length);
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const mount = entries.find(([prefix]) => urlPath.startsWith(prefix));
    if (!mount) return notFound(res);
    const root = path.resolve(mount[1]);
    let file = path.resolve(root, '.' + urlPath.slice(mount[0].length - 1));
    if (!file.startsWith(root)) return notFound(res);
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) return notFound(res);
      // Cross-origin isolation, so that threaded builds (SharedArrayBuffer)
      // run too; everything is served from this one origin.
      res.writeHead(200, {'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
        'Cache-Control': 'no-store', 'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp'});
      res.end(data);
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${server.address().port}`;
      resolve({server, url, close: () => new Promise((r) => server.close(r))});
    });
  });
}

function notFound(res) {
  res.writeHead(404, {'Content-Type': 'text/plain'});
  res.end('not found');
}

if (require.main === module) {
  const dir = process.argv[2] || '.';
  const port = Number(process.argv[3] || 8000);
  serve({'/': dir}, port).then(({url}) => {
    console.log(`emheap: serving ${path.resolve(dir)} at ${url}/`);
    for (const name of fs.readdirSync(dir)) {
      if (fs.existsSync(path.join(dir, name, 'index.html'))) console.log(`  ${url}/${name}/`);
    }
    console.log('Press Ctrl+C to stop.');
  });
}

module.exports = {serve};
