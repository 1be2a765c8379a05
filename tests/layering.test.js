// layering.test.js -- the folders follow the data: the runtime (C) fills
// tables in linear memory; capture/ reads them (the runtime's layout, the
// allocator's heap, JS stacks, the raw snapshot, timelines and marks);
// contexts/ rewrites the module for calling contexts; symbolize/ turns
// code positions into names and lines (DWARF, source maps); model/ makes
// sense of a snapshot wherever it is (page and CLI alike); formats/ writes
// it in other tools' formats; output/ puts a file somewhere (a download, a
// file under node); jslib/ is the page's front end and the Emscripten
// library; cli/ reads files people saved; testing/ is a test suite's side
// of a heap check. Code may only use what comes before it:
//
//   symbolize   model <- capture <- contexts
//        ^        ^ <- formats <- output <- cli
//        ^--------^---------^-------^--------^---- jslib (the page)
//
// and nothing the app gets or the CLI runs uses tests/, bench/ or harness/
// (the browsers, servers and fake runtime states that tests and bench
// drive). This test reads every require() of those folders and holds them
// to it.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const {ROOT} = require('./lib/paths');

// folder -> the folders (and top-level files) its code may require besides itself.
const MAY_USE = {
  symbolize: [],
  model: [],
  formats: ['model'],
  output: ['model', 'formats'],
  capture: ['symbolize', 'model'],
  contexts: ['symbolize', 'capture'],
  jslib: ['capture', 'contexts', 'symbolize', 'model', 'formats', 'output'],
  cli: ['symbolize', 'model', 'formats', 'output', 'schemas', 'package.json'],
  testing: ['model'], // (emheap/testing: a test suite's side of a heap check, in node)
  harness: ['capture'], // (fake runtime states, laid out by capture/layout.js)
  bench: ['harness', 'capture', 'contexts', 'symbolize', 'model', 'formats', 'output', 'jslib', 'cli'],
};

function jsFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), {withFileTypes: true})) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsFiles(rel));
    else if (entry.name.endsWith('.js')) out.push(rel);
  }
  return out;
}

// Every require() of a file (its text: read unless given): relative ones
// resolved to a path from ROOT, others (node's, packages) as written; a
// require of anything but a string literal is reported as such, so that no
// import hides from the rule.
function requiresOf(file, source = fs.readFileSync(path.join(ROOT, file), 'utf8')) {
  const text = source.replace(/^\s*\/\/.*$/gm, '');
  const found = [];
  for (const m of text.matchAll(/\brequire\(\s*([^)]*?)\s*\)/g)) {
    if (m[1].startsWith('${')) continue; // code written into another file (a template)
    const literal = /^(['"])([^'"]+)\1$/.exec(m[1]);
    if (!literal) found.push({dynamic: m[1]});
    else if (literal[2].startsWith('.')) found.push({path: path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), literal[2]))});
    else found.push({module: literal[2]});
  }
  return found;
}

test('every folder requires only what comes before it in the data flow', () => {
  const broken = [];
  let checked = 0;
  for (const [folder, allowed] of Object.entries(MAY_USE)) {
    for (const file of jsFiles(folder)) {
      for (const r of requiresOf(file)) {
        checked++;
        if (r.dynamic !== undefined) {
          // a computed path (bench reads the tree by ROOT): it must still
          // name a folder it may use
          const named = /['"]([\w.-]+)\//.exec(r.dynamic);
          if (!named || !allowed.includes(named[1])) broken.push(`${file}: require(${r.dynamic})`);
          continue;
        }
        if (r.module !== undefined) continue;
        const top = r.path.split(path.sep)[0];
        if (top !== folder && !allowed.includes(top)) broken.push(`${file} -> ${r.path} (${folder} may use: ${allowed.join(', ') || 'nothing else'})`);
      }
    }
  }
  assert.ok(checked > 100, `${checked} requires read`);
  assert.deepEqual(broken, []);
});

test("the page's bundle (jslib/bundle.js) holds only what jslib may use", () => {
  const {bundle, ENTRY} = require('../jslib/bundle');
  const inputs = bundle().inputs;
  assert.ok(inputs.includes(ENTRY), ENTRY);
  // (packages by any path: node_modules may be a link to another tree)
  const outside = inputs.filter((file) => !file.split('/').includes('node_modules') &&
    !['jslib', ...MAY_USE.jslib].includes(file.split('/')[0]));
  assert.deepEqual(outside, []);
  // the formats, the diff and the snapshot contract the CLI uses are in it
  for (const file of ['formats/index.js', 'model/diff.js', 'model/snapshot_file.js']) assert.ok(inputs.includes(file), file);
});

test('the rule sees a require that breaks it', () => {
  // a file of model/ as it would read (nothing written into the checkout)
  assert.deepEqual(requiresOf(path.join('model', 'probe.js'), "require('../capture/layout');\n"),
    [{path: path.join('capture', 'layout')}]);
});
