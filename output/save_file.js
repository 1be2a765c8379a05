// save_file.js -- puts a finished file where the user can take it: in a
// page, a download (an <a download> click on a Blob URL); under node, a new
// file in the working directory, never one the user has. output/sinks.js
// hands in what the host has (document and URL, or fs) and how to report;
// nothing here reaches a global.
'use strict';

// host: {document, URL, setTimeout, log}. Returns name.
function saveBlob(host, name, blob) {
  var url = host.URL.createObjectURL(blob);
  var a = host.document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  (host.document.body || host.document.documentElement).appendChild(a);
  a.click();
  a.remove();
  // The browser reads the Blob through the URL while it saves the file,
  // and a revoked URL cancels the download: 10 s, plus 1 s per 10 MB
  // (a 4 GB file takes minutes to copy). A file in the browser's storage
  // (blob.release) is removed then too.
  host.setTimeout(function () {
    host.URL.revokeObjectURL(url);
    if (blob.release) blob.release();
  }, 10000 + blob.size / 10000);
  host.log('emheap: saved ' + name);
  return name;
}

// Under node: creates a file that did not exist (name, else name-1,
// name-2... before the suffix) and fills it with write(fd). host: {fs, log,
// error}. Returns the name used, or null (said through host.error; a file
// cut short by a failed write is removed).
function writeNewFile(host, name, write) {
  var fs = host.fs;
  var suffix = /(\.[A-Za-z][\w-]*)*$/.exec(name)[0]; // ".speedscope.json", ".pb.gz"
  var stem = name.slice(0, name.length - suffix.length);
  for (var n = 0; n < 1000; n++) {
    var candidate = n ? stem + '-' + n + suffix : name;
    var fd;
    try {
      fd = fs.openSync(candidate, 'wx');
    } catch (e) {
      if (e && e.code === 'EEXIST') continue;
      host.error('emheap: cannot write ' + candidate + ': ' + (e && e.message || e));
      return null;
    }
    try {
      write(fd);
      fs.closeSync(fd);
    } catch (e) {
      try { fs.closeSync(fd); } catch (ignored) { /* already closed */ }
      try { fs.unlinkSync(candidate); } catch (ignored) { /* gone */ }
      host.error('emheap: cannot write ' + candidate + ': ' + (e && e.message || e));
      return null;
    }
    host.log('emheap: saved ' + candidate);
    return candidate;
  }
  host.error('emheap: cannot write ' + name + ': 1000 files of that name exist');
  return null;
}

module.exports = {saveBlob: saveBlob, writeNewFile: writeNewFile};
