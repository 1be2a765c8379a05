// node_output.js: writes a format's chunks (formats/index.js) to a file
// descriptor under node, synchronously, gzipped when the format says so.
// Used by the CLI (`emheap convert`) and by the runtime when a program runs
// under node (downloadSnapshot() saves a file): one writer for both.
//
// Synchronous on purpose: a program under node may exit right after asking
// for a file (a leak report at exit, EXIT_RUNTIME), and a pending stream
// write would be lost. Memory stays bounded by one chunk: each chunk is
// written (and compressed) before the next is made.
//
// node's fs and zlib come in as arguments: this file is also embedded in the
// --js-library (jslib/bundle.js), where require() resolves only emheap's own
// modules.

// gzip (RFC 1952) member whose deflate data is made by zlib a chunk at a
// time: each chunk is compressed on its own and ends with a sync flush (a
// byte-aligned, non-final block), so the pieces join into one valid deflate
// stream, closed by an empty final block. Every gunzip reads it as one
// member. The price of compressing chunks separately (each starts with an
// empty window) is under 1% on megabyte chunks.
function GzipChunks(zlib) {
  this.zlib = zlib;
  this.crc = 0;
  this.size = 0;
  this.crc32 = typeof zlib.crc32 === 'function' ? zlib.crc32 : crc32;
}

// magic, CM=8 (deflate), no flags, mtime 0, no extra flags, OS 255 (unknown)
GzipChunks.prototype.header = function () {
  return new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
};

GzipChunks.prototype.deflate = function (bytes) {
  this.crc = this.crc32(bytes, this.crc);
  this.size = (this.size + bytes.length) % 4294967296;
  return this.zlib.deflateRawSync(bytes, { finishFlush: this.zlib.constants.Z_SYNC_FLUSH });
};

// the empty final block (BFINAL=1, fixed Huffman, end-of-block), CRC32, ISIZE
GzipChunks.prototype.trailer = function () {
  var out = new Uint8Array(10);
  out[0] = 3;
  out[1] = 0;
  var crc = this.crc >>> 0;
  for (var i = 0; i < 4; i++) {
    out[2 + i] = Math.floor(crc / Math.pow(2, 8 * i)) & 255;
    out[6 + i] = Math.floor(this.size / Math.pow(2, 8 * i)) & 255;
  }
  return out;
};

// CRC-32 (the gzip polynomial) for node versions without zlib.crc32 (< 20.15).
var crcTable = null;
function crc32(bytes, crc) {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var k = 0; k < 8; k++) c = (c & 1) ? (0xedb88320 ^ (c >>> 1)) : (c >>> 1);
      crcTable[n] = c;
    }
  }
  crc = ~(crc || 0);
  for (var i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]) & 255] ^ (crc >>> 8);
  return ~crc >>> 0;
}

// Writes all of `data` (a string, written as UTF-8, or bytes); a pipe that is
// full (EAGAIN, non-blocking stdout) is waited for rather than failed.
function writeAll(fs, fd, data) {
  var buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  var done = 0;
  while (done < buf.length) {
    try {
      done += fs.writeSync(fd, buf, done, buf.length - done);
    } catch (e) {
      if (!e || e.code !== 'EAGAIN') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
  return buf.length;
}

// Writes the chunks of `format` for `snapshot` to fd; returns the bytes written.
function writeFormat(fs, zlib, fd, format, snapshot) {
  var written = 0;
  var gzip = format.gzip ? new GzipChunks(zlib) : null;
  if (gzip) written += writeAll(fs, fd, gzip.header());
  for (var chunk of format.chunks(snapshot)) {
    if (!chunk.length) continue; // a pause point (formats/index.js)
    if (gzip) {
      var bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      written += writeAll(fs, fd, gzip.deflate(bytes));
    } else {
      written += writeAll(fs, fd, chunk);
    }
  }
  if (gzip) written += writeAll(fs, fd, gzip.trailer());
  return written;
}

// The whole file as one Buffer, made the same way (small snapshots, tests).
function formatBytes(zlib, format, snapshot) {
  var parts = [];
  var fakeFs = { writeSync: function (fd, buf, offset, length) {
    parts.push(Buffer.from(buf.subarray(offset, offset + length)));
    return length;
  } };
  writeFormat(fakeFs, zlib, -1, format, snapshot);
  return Buffer.concat(parts);
}

module.exports = { writeFormat: writeFormat, formatBytes: formatBytes, writeAll: writeAll, GzipChunks: GzipChunks, crc32: crc32 };
