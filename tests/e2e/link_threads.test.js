// link_threads.test.js -- a -pthread program linked with the
// single-threaded runtime (emheap-config without --pthread) would count
// wrong when its threads allocate at once: the link fails instead, naming
// the flag to use; with --pthread, and without threads, it links. And a
// removed option, --shadow, is refused, and so is -sSTANDALONE_WASM (a WASI
// host has none of the JS the runtime needs).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {ROOT} = require('../lib/paths');
const {spawnSync} = require('node:child_process');

const CONFIG = path.join(ROOT, 'bin', 'emheap-config');
const ENV = {...process.env, NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':')};

function link(extra, configArgs) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-link-'));
  try {
    fs.writeFileSync(path.join(dir, 'app.c'), '#include <stdlib.h>\nint main(void) { free(malloc(10)); return 0; }\n');
    const flags = spawnSync(CONFIG, [...configArgs, '--ldflags'], {encoding: 'utf8'}).stdout.trim().split(/\s+/);
    return spawnSync(process.env.EMCC || 'emcc', ['-O2', ...extra, 'app.c', ...flags, '-o', 'app.js'],
      {cwd: dir, encoding: 'utf8', env: ENV});
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

test('a -pthread program does not link with the single-threaded runtime, and says what to use', () => {
  const r = link(['-pthread'], []);
  assert.notEqual(r.status, 0, 'the link must fail');
  assert.match(r.stderr, /undefined symbol: emheap_single_threaded_runtime_in_a_threaded_program__link_with_emheap_config_pthread/);
});

test('the right runtime links: --pthread with -pthread, the plain one without threads', () => {
  const threaded = link(['-pthread'], ['--pthread']);
  assert.equal(threaded.status, 0, threaded.stderr);
  const plain = link([], []);
  assert.equal(plain.status, 0, plain.stderr);
});

test('emheap-config --shadow is refused with what to do instead', () => {
  for (const what of ['--ldflags', '--cflags']) {
    const r = spawnSync(CONFIG, ['--shadow', what], {encoding: 'utf8'});
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '', 'no flags printed: a build line with it fails rather than builds something else');
    assert.match(r.stderr, /^emheap-config: --shadow is gone: exact mode, the default, names every allocation's call stack without rebuilding the app/);
  }
});

test('-sSTANDALONE_WASM is refused at link time, naming emheap', () => {
  const r = link(['-sSTANDALONE_WASM'], []);
  assert.notEqual(r.status, 0, 'the link must fail');
  assert.match(r.stderr, /error: (\S+: )?emheap: -sSTANDALONE_WASM is not supported/);
});
