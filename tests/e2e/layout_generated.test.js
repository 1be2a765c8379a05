// layout_generated.test.js -- the C-to-JS memory contract has one source:
// capture/layout_generated.js is what emcc's offsetof and sizeof give for
// the runtime's structs today (runtime/layout.js builds
// runtime/layout_info.c again, and the text must be the same byte for
// byte), for wasm64 as for wasm32, and every field the JS readers name is
// one it lists.
'use strict';

const {test} = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const {ROOT} = require('../lib/paths');
const {generate, compileLayouts, FILE} = require('../../runtime/layout');
const L = require('../../capture/layout_generated');

test('capture/layout_generated.js is what emcc lays out now (make layout)', async () => {
  const now = await generate();
  assert.deepEqual(Object.keys(now), [FILE]);
  assert.equal(fs.readFileSync(path.join(ROOT, 'capture', FILE), 'utf8'), now[FILE], `capture/${FILE} is stale: run \`make layout\``);
  assert.equal(L.emheap_block.sizeof, 16);
});

// runtime/state_layout.h: emheap's own structs are laid out alike in wasm32
// and wasm64 (pointers 8 bytes wide in both, addresses as uint64 or words),
// so that one reader serves both; dlmalloc's own structs are not.
test('emheap\'s structs and constants are the same in wasm32 and wasm64; dlmalloc\'s differ', async () => {
  const generated = await compileLayouts();
  const own = (name) => name.startsWith('emheap_') && !name.startsWith('emheap_dl_') || name === 'region_table';
  const structs = Object.keys(generated.wasm32).filter((name) => name !== 'constants');
  assert.ok(structs.filter(own).length >= 15, 'the structs JS reads are all there');
  for (const name of structs.filter(own)) assert.deepEqual(generated.wasm64[name], generated.wasm32[name], name);
  for (const [name, value] of Object.entries(generated.wasm32.constants)) {
    if (!name.startsWith('DL_')) assert.equal(generated.wasm64.constants[name], value, name);
  }
  assert.ok(generated.wasm64.emheap_dl_state.sizeof > generated.wasm32.emheap_dl_state.sizeof);
  assert.ok(generated.wasm64.emheap_dl_segment.sizeof > generated.wasm32.emheap_dl_segment.sizeof);
});

// What the readers call each struct (`var SITE = L.emheap_site`): a
// name -> the struct, for every file that takes the generated module.
function aliasesOf(source) {
  const out = {};
  for (const m of source.matchAll(/\b(?:var|const|let)\s+(\w+)\s*=\s*(?:L|layout)\.(emheap_\w+|region_table)\b/g)) out[m[1]] = m[2];
  if (/\bL\s*=\s*require\('[./]*(?:capture\/)?layout_generated'\)/.test(source)) {
    out.K = 'constants';
    out['L.constants'] = 'constants';
  }
  const direct = /\b(?:var|const)\s+(\w+)\s*=\s*require\('[./]*(?:capture\/)?layout_generated'\)\.(emheap_\w+)/.exec(source);
  if (direct) out[direct[1]] = direct[2];
  return out;
}

// Every `ALIAS.field` (and `ROOTS['field']`-style reads through a helper
// named for its struct) that names no field of its struct: -> ['file: X.y'].
function unknownFields(file, source, layout) {
  const aliases = aliasesOf(source);
  const missing = [];
  for (const [alias, struct] of Object.entries(aliases)) {
    const fields = layout[struct];
    if (!fields) {
      missing.push(`${file}: ${alias} = ${struct}, which layout_info.c does not list`);
      continue;
    }
    const re = new RegExp(`(?<![\\w.])${alias.replace('.', '\\.')}\\.(\\w+)`, 'g');
    for (const m of source.matchAll(re)) {
      if (!(m[1] in fields)) missing.push(`${file}: ${alias}.${m[1]}`);
    }
  }
  return missing;
}

function readers() {
  const out = [];
  for (const dir of ['capture', 'contexts', 'jslib', 'harness']) {
    for (const name of fs.readdirSync(path.join(ROOT, dir))) {
      if (!name.endsWith('.js') || /^layout_generated/.test(name)) continue;
      const source = fs.readFileSync(path.join(ROOT, dir, name), 'utf8');
      if (/layout_generated|require\('[./]*(?:capture\/)?layout'\)/.test(source)) out.push({file: `${dir}/${name}`, source});
    }
  }
  return out;
}

test('every field and constant the readers name is one the C structs have', () => {
  const files = readers();
  assert.ok(files.some((f) => f.file === 'capture/layout.js') && files.some((f) => f.file === 'capture/allocator_walk.js'),
    files.map((f) => f.file).join(', '));
  let named = 0;
  const missing = [];
  for (const {file, source} of files) {
    named += Object.keys(aliasesOf(source)).length;
    missing.push(...unknownFields(file, source, L));
  }
  assert.ok(named >= 20, `${named} struct names seen`);
  assert.deepEqual(missing, []);
  // the readers' string-keyed reads (readRoots' u('...'), a('...'), w('...'))
  const layoutJs = fs.readFileSync(path.join(ROOT, 'capture', 'layout.js'), 'utf8');
  for (const [helper, struct] of [['u', 'emheap_roots'], ['a', 'emheap_roots'], ['w', 'emheap_thread_roots']]) {
    const keys = [...layoutJs.matchAll(new RegExp(`\\b${helper}\\('(\\w+)'\\)`, 'g'))].map((m) => m[1]);
    assert.ok(keys.length >= 5, `${helper}() reads ${keys.length} fields`);
    for (const k of keys) assert.ok(k in L[struct], `${struct}.${k}`);
  }
});

test('the check sees a field the structs do not have', () => {
  const source = "var L = require('../../capture/layout_generated');\nvar SITE = L.emheap_site;\nx = SITE.live_bytes + SITE.no_such_field + K.EMHEAP_NOPE;\n";
  assert.deepEqual(unknownFields('probe.js', source, L),
    ['probe.js: SITE.no_such_field', 'probe.js: K.EMHEAP_NOPE']);
});
