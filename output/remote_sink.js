// remote_sink.js -- a sink (output/sinks.js) for a program profiled on a
// device where a downloaded file is out of reach (a phone, a tablet): each
// snapshot file goes to an emheap collector (`emheap serve`,
// cli/collector.js) over HTTP instead, gzip'd, as POST URL/snapshots?name=.
// URL is what the collector printed, http(s)://HOST:PORT/TOKEN.
//
// Only the formats that carry the snapshot (speedscope, PerfView) go: the
// collector keeps files the CLI reads. A heap dump, a pprof file or a diff
// is saved here by the sink it replaces (`local`), as without a collector.
// The console says what was sent, with the collector's origin and never
// its token; a send that fails says why, and nothing is retried. How the
// bytes travel (fetch, or node's http) is output/collector_post.js's.
'use strict';

var sinks = require('./sinks');

// host: as pageSink's (output/sinks.js) with post(url, blob) (output/
// collector_post.js: fetch in a page, node's http under node); url: the
// collector's; local: the sink used for what is not sent.
function remoteSink(host, url, local) {
  var origin = new URL(url).origin;
  var sending = 0;

  // -> a promise of the name the collector kept it under; rejected with an
  // Error that says why.
  var send = function (name, entry, snapshot) {
    sending++;
    return sinks.fileOf(host, name, entry, snapshot).then(function (file) {
      return host.post(url + '/snapshots?name=' + encodeURIComponent(name), file.blob);
    }).then(function (answer) {
      if (answer.status < 200 || answer.status > 299) {
        throw new Error('the collector answered ' + answer.status + ': ' + answer.text.trim().slice(0, 300));
      }
      var kept = JSON.parse(answer.text).file;
      host.log('emheap: sent ' + name + ' (' + Math.ceil(answer.bytes / 1024) + ' KiB) to the collector at ' + origin +
        (kept !== name ? ', which keeps it as ' + kept : ''));
      return kept;
    }).then(function (kept) {
      sending--;
      return kept;
    }, function (e) {
      sending--;
      throw new Error('could not send ' + name + ' to the collector at ' + origin + ': ' + String(e && e.message || e));
    });
  };

  return {
    canSave: true,
    saveSnapshot: function (name, entry, snapshot) {
      if (!entry.carriesSnapshot) return local.saveSnapshot(name, entry, snapshot);
      send(name, entry, snapshot).catch(host.reportError);
      return name;
    },
    saveText: function (name, text, mime) {
      return local.saveText(name, text, mime);
    },
    send: send,
    // files on their way: a trigger that fires meanwhile waits (jslib/remote.js)
    busy: function () { return sending > 0; },
    origin: origin,
  };
}

module.exports = {remoteSink: remoteSink};
