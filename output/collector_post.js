// collector_post.js -- how one file reaches an emheap collector (`emheap
// serve`, cli/collector.js): POST to its URL, gzip'd where the engine can,
// answered with a status and a text. In a page (or a worker) through
// fetch() and CompressionStream; under node through node's own http(s) and
// zlib, which need no fetch(): node 18-20 running Emscripten 3.1.6 output
// with --no-experimental-fetch (which that output needs to load its .wasm)
// have none. output/remote_sink.js decides what is sent and says what came
// of it; these only carry it.
//
// Each is post(url, blob) -> a promise of {status, text, bytes (the bytes
// sent)}, rejected with an Error that says what to check when the
// collector could not be reached.
'use strict';

var gzipBlob = require('./sinks').gzipBlob;

// What a person checks when nothing answered at `url`.
function unreachable(e, url, where) {
  return new Error(String(e && e.message || e) + ': is `emheap serve` running, and can ' + where + ' reach ' +
    new URL(url).origin + '?');
}

// host: {fetch, Response and CompressionStream (either may be missing:
// then the file goes as it is)}.
function fetchPost(host) {
  return function (url, blob) {
    var body = typeof host.CompressionStream === 'function' && typeof host.Response === 'function'
      ? gzipBlob(host, blob).then(function (gz) { return {body: gz, type: 'application/gzip'}; })
      : Promise.resolve({body: blob, type: 'application/json'});
    return body.then(function (c) {
      return host.fetch(url, {method: 'POST', body: c.body, headers: {'Content-Type': c.type}}).then(function (response) {
        return response.text().then(function (text) { return {status: response.status, text: text, bytes: c.body.size}; });
      }, function (e) {
        // (fetch rejects with a TypeError when nothing answered)
        var error = unreachable(e, url, 'this device');
        error.message += ' (an https page can send only to https or to localhost: docs/remote.md)';
        throw error;
      });
    });
  };
}

// node: {http, https, zlib} (node's modules).
function nodePost(node) {
  return function (url, blob) {
    return blob.arrayBuffer().then(function (bytes) {
      var body = node.zlib.gzipSync(new Uint8Array(bytes));
      return new Promise(function (resolve, reject) {
        var target = new URL(url);
        var request = (target.protocol === 'https:' ? node.https : node.http).request(target, {method: 'POST',
          headers: {'Content-Type': 'application/gzip', 'Content-Length': body.length}}, function (response) {
          var parts = [];
          response.setEncoding('utf8');
          response.on('data', function (part) { parts.push(part); });
          response.on('end', function () { resolve({status: response.statusCode, text: parts.join(''), bytes: body.length}); });
          response.on('error', reject);
        });
        request.on('error', function (e) { reject(unreachable(e, url, 'this machine')); });
        request.end(body);
      });
    });
  };
}

module.exports = {fetchPost: fetchPost, nodePost: nodePost};
