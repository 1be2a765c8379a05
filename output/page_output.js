// page_output.js -- where a page puts a file it builds a slice at a time,
// before it is saved as a download: Blob parts while the file is small, the
// origin private file system (OPFS) once it is large.
//
// Why not Blob parts all the way: Chromium cannot read back a Blob of more
// than about 500 MB made in the page. Measured in headless Chromium 156
// (24 GB of RAM, incognito and persistent profiles alike): a Blob of 16 MB
// parts reads fine at 500 MiB; at 511 MiB reading it fails with
// NotReadableError and its download is canceled. The same bytes written to
// an OPFS file (a FileSystemWritableFileStream, then getFile()) are a
// disk-backed File, and a 1.1 GB one downloads fine. So a file moves to OPFS
// once it passes SPILL_BYTES; a browser without OPFS writes (Safari before
// 17, private windows that refuse storage) keeps Blob parts and is told
// the file may be too large for it.
'use strict';

// Not just under the ~500 MB a Blob can hold: a page's Blobs share the
// browser's blob memory until collected, and a download's Blob lives on a
// while after the click (saveBlob revokes its URL later). Measured in
// headless Chromium 156 at 256 MB: three Ctrl+Shift+H downloads of a 210 MB
// speedscope file in 30 s, and the third was canceled.
var SPILL_BYTES = 64 * 1024 * 1024;
var BLOB_LIMIT_BYTES = 500 * 1024 * 1024;
var PREFIX = 'emheap-export-';
var STALE_MS = 60 * 60 * 1000;

// storage: navigator.storage (or null). warn: fn(text). limits (tests):
// {spillBytes, blobLimitBytes}. Returns {add(parts) -> Promise,
// finish(type) -> Promise<Blob>, discard()}: parts are one slice's chunks
// (strings or Uint8Arrays); add and finish must be called one after another
// (each after the previous promise settled). discard() drops what was
// written (after an error).
//
// Once in OPFS, chunks are written as they are, never through a Blob: a
// Blob's bytes stay in the browser's blob memory until the page's garbage
// collector drops it, and slice Blobs made only to be written piled up past
// the ~500 MB limit (seen in CI, tests running two at a time: the write of
// a slice Blob failed with NotReadableError after 533 MB).
function pageFile(storage, warn, limits) {
  var spillBytes = limits && limits.spillBytes || SPILL_BYTES;
  var blobLimitBytes = limits && limits.blobLimitBytes || BLOB_LIMIT_BYTES;
  var parts = [];
  var size = 0;
  var handle = null;
  var writable = null;
  var dir = null;
  var name = null;
  var noSpill = !storage || typeof storage.getDirectory !== 'function';

  // Moves the parts so far into a new OPFS file; later parts follow them.
  // Where OPFS refuses (no API, no quota, a private window), the parts
  // stay in memory and the file is finished as a Blob.
  function spill() {
    var held = null;
    return storage.getDirectory().then(function (root) {
      dir = root;
      return removeStale(root);
    }).then(function () {
      name = PREFIX + Date.now() + '-' + Math.floor(Math.random() * 1e9) + '.tmp';
      return dir.getFileHandle(name, {create: true});
    }).then(function (h) {
      handle = h;
      if (typeof h.createWritable !== 'function') throw new Error('no createWritable');
      return h.createWritable();
    }).then(function (w) {
      writable = w;
      held = parts;
      parts = [];
      return writable.write(new Blob(held));
    }).then(function () {
      held = null;
    }, function () {
      if (held) parts = held;
      noSpill = true;
      var w = writable;
      writable = null;
      handle = null;
      var abort = w && typeof w.abort === 'function' ? w.abort().catch(function () {}) : Promise.resolve();
      return abort.then(function () {
        return dir && name ? dir.removeEntry(name).catch(function () {}) : null;
      });
    });
  }

  return {
    add: function (chunks) {
      var bytes = 0;
      for (var i = 0; i < chunks.length; i++) bytes += typeof chunks[i] === 'string' ? chunks[i].length : chunks[i].byteLength;
      size += bytes; // characters for text: an estimate, enough to decide
      if (writable) {
        var w = writable;
        var written = chunks.reduce(function (p, chunk) {
          return p.then(function () { return chunk.length || chunk.byteLength ? w.write(chunk) : null; });
        }, Promise.resolve());
        return written.catch(function (e) {
          throw new Error('the browser\'s storage refused the file after ' + Math.round(size / 1e6) + ' MB (' +
            (e && e.name || 'Error') + ': ' + (e && e.message || e) + '); a private window keeps that storage in memory, ' +
            'with little room: save from a normal window, or save speedscope and convert it with the emheap CLI');
        });
      }
      parts.push(new Blob(chunks));
      if (size >= spillBytes && !noSpill) return spill();
      return Promise.resolve();
    },
    finish: function (type) {
      if (!writable) {
        if (size > blobLimitBytes) {
          warn('emheap: this browser cannot write files to its storage (OPFS), and a file of ' +
            Math.round(size / 1e6) + ' MB held in memory may fail to save; the emheap CLI converts a snapshot of any size');
        }
        var blob = new Blob(parts, {type: type});
        parts = null;
        return Promise.resolve(blob);
      }
      return writable.close().then(function () {
        return handle.getFile();
      }).then(function (file) {
        // Read through a Blob of the type the download needs; the File
        // stays on disk, nothing is copied into memory.
        var out = file.slice(0, file.size, type);
        out.release = function () { return dir.removeEntry(name).catch(function () {}); };
        return out;
      });
    },
    discard: function () {
      parts = null;
      var w = writable;
      writable = null;
      var abort = w && typeof w.abort === 'function' ? w.abort().catch(function () {}) : Promise.resolve();
      return abort.then(function () {
        return dir && name ? dir.removeEntry(name).catch(function () {}) : null;
      });
    },
  };
}

// Files an earlier page left behind (closed while saving): removed when
// more than an hour old, so that a tab exporting right now keeps its own.
function removeStale(root) {
  if (typeof root.entries !== 'function') return Promise.resolve();
  var old = [];
  var it = root.entries();
  function next() {
    return it.next().then(function (r) {
      if (r.done) return null;
      var key = r.value[0];
      var m = new RegExp('^' + PREFIX + '(\\d+)-').exec(key);
      if (m && Date.now() - Number(m[1]) > STALE_MS) old.push(key);
      return next();
    });
  }
  return next().then(function () {
    return Promise.all(old.map(function (key) { return root.removeEntry(key).catch(function () {}); }));
  }).catch(function () {});
}

// Writes a format's chunks (a generator: formats/index.js) into `out` (a
// pageFile) a slice at a time: each slice makes at most about sliceMs of
// work, its chunks handed to `out` at once (their bytes leave the JS heap,
// which holds one slice of the file, not all of it: GBs at 2M sites), the
// next slice in a task of its own (nextTask). A promise of the finished
// Blob of type `mime`; on an error `out` is discarded and the promise
// rejects.
function writeInSlices(chunks, out, mime, sliceMs, nextTask) {
  return new Promise(function (resolve, reject) {
    var fail = function (e) {
      out.discard();
      reject(e);
    };
    // What handing text to `out` costs per character (ms), measured each
    // slice, so that a slice stops early enough for it: in headless
    // Chromium a Blob of 1 MB strings costs ~3 ms a MB, 3-10x the time to
    // make the text, and a slice that made 30 ms of text then spent
    // 100-300 ms in new Blob (1M sites, speedscope).
    var addMsPerChar = 5 / 1048576; // a first guess, above what was measured
    function slice() {
      var start = Date.now();
      var parts = [];
      var chars = 0;
      var done = false;
      try {
        while (Date.now() - start + chars * addMsPerChar <= sliceMs) {
          var next = chunks.next();
          if (next.done) {
            done = true;
            break;
          }
          parts.push(next.value);
          chars += next.value.length || next.value.byteLength || 0;
        }
      } catch (e) {
        return fail(e);
      }
      var handing = Date.now();
      var written = parts.length ? out.add(parts) : Promise.resolve();
      // the highest of late, decaying: one cheap slice does not make the
      // next one long
      if (chars > 0) addMsPerChar = Math.max((Date.now() - handing) / chars, addMsPerChar * 0.75);
      parts = null;
      written.then(function () {
        if (!done) return nextTask(slice);
        return out.finish(mime).then(resolve);
      }).catch(fail);
    }
    nextTask(slice); // not in the task that finished the snapshot
  });
}

module.exports = {pageFile: pageFile, writeInSlices: writeInSlices};
