// page_size.test.js -- what emheap adds to a page, measured: an -O2
// hello-world page linked with and without emheap's flags, its JS as
// emcc writes it and gzipped. The README states these numbers in KB (1000
// bytes), no more precisely than this test holds them: with the Emscripten
// they were measured on (the one named there), within 3%, or the README is
// out of date.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../lib/paths');

const EMCC = process.env.EMCC || 'emcc';
const ENV = { ...process.env, NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':') };

function linkPage(dir, name, flags) {
  const r = spawnSync(EMCC, ['-O2', 'hello.c', ...flags, '-sMINIFY_HTML=0', '-o', `${name}.html`], { cwd: dir, encoding: 'utf8', env: ENV });
  assert.equal(r.status, 0, r.stderr);
  const js = fs.readFileSync(path.join(dir, `${name}.js`));
  return { js: js.length, gzip: zlib.gzipSync(js, { level: 9 }).length };
}

test('the README states the JS emheap adds to an -O2 page, as measured', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-page-size-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'hello.c'), '#include <stdio.h>\nint main(void) { printf("hello\\n"); return 0; }\n');
  const flags = spawnSync(path.join(ROOT, 'bin', 'emheap-config'), ['--ldflags'], { encoding: 'utf8' }).stdout.trim().split(/\s+/);
  const plain = linkPage(dir, 'plain', []);
  const withEmheap = linkPage(dir, 'with', flags);
  const added = { js: withEmheap.js - plain.js, gzip: withEmheap.gzip - plain.gzip };
  t.diagnostic(`hello-world page JS: ${withEmheap.js} B with emheap (${withEmheap.gzip} gzipped), ${plain.js} without ` +
    `(${plain.gzip}); emheap adds ${added.js} (${added.gzip} gzipped)`);
  assert.ok(added.js > 0);

  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const m = /about (\d+) KB of JS from emheap \((\d+) KB gzipped; an `-O2` hello-world page on Emscripten ([\d.]+): (\d+) KB of JS with it, (\d+) KB without[;)]/.exec(readme);
  assert.ok(m, 'the README states the page size in the words this test reads');
  const version = (spawnSync(EMCC, ['--version'], { encoding: 'utf8', env: ENV }).stdout.match(/(\d+\.\d+\.\d+)/) || [])[1];
  if (version !== m[3]) {
    t.skip(`emcc ${version}: the README's numbers are of Emscripten ${m[3]}; not compared`);
    return;
  }
  const near = (stated, measured, what) => assert.ok(Math.abs(stated - measured) <= 0.03 * measured,
    `README: ${what} ${stated}, measured ${measured}`);
  near(Number(m[1]) * 1000, added.js, 'KB of JS from emheap');
  near(Number(m[2]) * 1000, added.gzip, 'KB gzipped');
  near(Number(m[4]) * 1000, withEmheap.js, 'KB with it');
  near(Number(m[5]) * 1000, plain.js, 'KB without');
});
