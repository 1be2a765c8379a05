// collector_page.js: the page `emheap serve` shows at http://HOST:PORT/TOKEN/:
// the newest snapshot received, as `emheap report` draws it (an iframe of
// TOKEN/report/NAME, made by cli/report.js), and the list of every file
// kept, newest first. It asks for the list every 2 s and follows a new
// file as it arrives. Every URL in it is relative to TOKEN/.
'use strict';

const POLL_MS = 2000;

function indexPage() {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>emheap serve</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { margin: 0; font: 14px system-ui, sans-serif; display: flex; height: 100vh; }
nav { width: 22em; overflow: auto; border-right: 1px solid #ccc; padding: 0.5em 1em; box-sizing: border-box; }
nav h1 { font-size: 1.1em; }
nav li { margin: 0.3em 0; word-break: break-all; }
nav li.shown { font-weight: bold; }
nav small { color: #666; }
main { flex: 1; display: flex; }
iframe { flex: 1; border: 0; }
#waiting { padding: 2em; color: #555; }
</style></head>
<body>
<nav><h1>emheap serve</h1><p id="status">waiting for a page to send a snapshot</p><ol id="files"></ol></nav>
<main><div id="waiting">Nothing received yet. Open the page with <code>?emheap_remote=</code> and the URL
this collector printed, then press Ctrl+Shift+H there, make a mark, or let it run out of memory.</div></main>
<script>
'use strict';
var shown = null;    // the file in the frame
var following = true; // the frame follows the newest file until one is picked
function show(name) {
  shown = name;
  var main = document.querySelector('main');
  var frame = document.querySelector('iframe');
  if (!frame) {
    main.textContent = '';
    frame = document.createElement('iframe');
    main.appendChild(frame);
  }
  frame.src = 'report/' + encodeURIComponent(name);
  document.title = 'emheap serve: ' + name;
  mark();
}
function mark() {
  document.querySelectorAll('#files li').forEach(function (li) {
    li.className = li.dataset.name === shown ? 'shown' : '';
  });
}
function list(files) {
  var ol = document.getElementById('files');
  ol.textContent = '';
  files.forEach(function (f, i) {
    var li = document.createElement('li');
    li.dataset.name = f.name;
    var a = document.createElement('a');
    a.href = 'report/' + encodeURIComponent(f.name);
    a.textContent = f.name;
    a.onclick = function (e) { e.preventDefault(); following = i === 0; show(f.name); };
    var raw = document.createElement('a');
    raw.href = 'files/' + encodeURIComponent(f.name);
    raw.textContent = 'file';
    var small = document.createElement('small');
    small.textContent = ' ' + Math.round(f.bytes / 1024) + ' KiB, ' + f.receivedAt.replace('T', ' ').slice(0, 19) + ' UTC, from ' + f.from + ' ';
    li.append(a, small, raw);
    ol.appendChild(li);
  });
  document.getElementById('status').textContent = files.length + ' file' + (files.length === 1 ? '' : 's') + ' received';
  if (files.length && (following || shown === null) && shown !== files[0].name) show(files[0].name);
  mark();
}
function poll() {
  fetch('files.json', {cache: 'no-store'}).then(function (r) {
    if (!r.ok) throw new Error(r.status);
    return r.json();
  }).then(list).catch(function (e) {
    document.getElementById('status').textContent = 'the collector does not answer (' + e.message + ')';
  }).then(function () { setTimeout(poll, ${POLL_MS}); });
}
poll();
</script>
</body></html>
`;
}

module.exports = { indexPage };
