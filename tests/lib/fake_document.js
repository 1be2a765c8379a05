// fake_document.js -- just enough of a page to download a file, for tests
// of the page's saving under node (tests/page.test.js, tests/sinks.test.js):
// each click on a download link hands the Blob behind it to `saved`.
'use strict';

const assert = require('node:assert/strict');

// -> {document, URL, saved: [{name, blob}]}
function fakeDocument() {
  const saved = [];
  const urls = new Map();
  const URL = {createObjectURL: (blob) => { const u = `blob:${urls.size}`; urls.set(u, blob); return u; }, revokeObjectURL: () => {}};
  const document = {
    body: {appendChild() {}},
    createElement: () => {
      const a = {style: {}, remove() {}, click() { saved.push({name: a.download, blob: urls.get(a.href)}); }};
      return a;
    },
  };
  return {document, URL, saved};
}

// Waits (up to a second) for the n-th download; -> it.
async function nthDownload(saved, n) {
  for (let i = 0; i < 200 && saved.length < n; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(saved.length, n, 'files saved');
  return saved[n - 1];
}

module.exports = {fakeDocument, nthDownload};
