// docs_examples.test.js -- every example of command output in the docs
// (README.md, docs/*.md, cli/README.md) has the shape of what the command
// prints. Each example is tagged in the markdown with its command line and
// the test program whose snapshot its file is (an HTML comment before the
// block: tests/lib/doc_examples.js says how, and what "shape" means); the
// test runs that program (build/tests/, `make test-programs`), saves its
// snapshot under the file's name, runs the command line as the doc writes
// it (`emheap` being cli/emheap.js), and looks for the doc's block in what
// it prints: the same header lines and column titles, rows of the same
// cells, names grouped the same way (a function, or a call site key
// `fn+0x..`), numbers and names free. A block that looks like command
// output and carries no tag fails, so that a new example is tested too.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {spawn} = require('node:child_process');

const {ROOT, BUILD, CLI} = require('../lib/paths');
const {runCli} = require('../lib/cli');
const {runWasmProgram} = require('../lib/run_wasm');
const {readExamples, findBlock, isDocumented} = require('../lib/doc_examples');

const DOCS = [
  path.join(ROOT, 'README.md'),
  ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => path.join(ROOT, 'docs', f)),
  path.join(ROOT, 'cli', 'README.md'),
];
const read = DOCS.map(readExamples);
const examples = read.flatMap((r) => r.examples);
const where = (e) => `${path.relative(ROOT, e.file)}:${e.line}`;

function scratch(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-docs-'));
  t.after(() => fs.rmSync(dir, {recursive: true, force: true}));
  return dir;
}

// The snapshot a test program prints (SNAPSHOT {...}), as file text; each
// program runs once.
const snapshots = new Map();
function snapshotOf(program) {
  if (!snapshots.has(program)) {
    const run = runWasmProgram(path.join(BUILD, `${program}.js`));
    assert.equal(run.status, 0, `${program}: ${run.stderr.slice(-2000)}`);
    assert.ok(run.tagged.SNAPSHOT, `${program} printed its snapshot`);
    snapshots.set(program, JSON.stringify(run.tagged.SNAPSHOT));
  }
  return snapshots.get(program);
}

// `emheap ARGS` in a folder holding the program's snapshot under the name
// the doc gives it: what it prints (check's verdict goes to stderr).
function runDocumented(t, example, args) {
  const dir = scratch(t);
  if (example.fileName) {
    assert.ok(example.program, `${where(example)}: the tag says which program's snapshot ${example.fileName} is`);
    assert.ok(args.includes(example.fileName), `${where(example)}: the command reads ${example.fileName}`);
    fs.writeFileSync(path.join(dir, example.fileName), snapshotOf(example.program));
  }
  const r = runCli(args, {cwd: dir});
  // 1: check's "budget exceeded"; 2 would be bad usage or input
  assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${r.stderr}`);
  return r.stdout + r.stderr;
}

// `emheap serve` runs until stopped: what it prints until it has printed
// as many lines as the doc's block, or exits. On any free port (--port 0):
// the default the doc shows, 7890, may be taken on this machine.
function serveBanner(t, args, lines) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-docs-serve-'));
  const child = spawn(process.execPath, [CLI, ...args, '--port', '0'], {cwd: dir, stdio: ['ignore', 'pipe', 'pipe']});
  const exited = new Promise((resolve) => child.on('exit', resolve));
  t.after(async () => {
    child.kill();
    await exited;
    fs.rmSync(dir, {recursive: true, force: true});
  });
  let out = '';
  return new Promise((resolve) => {
    const take = (data) => {
      out += data;
      if (out.split('\n').length > lines) resolve(out);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    exited.then(() => resolve(out));
  });
}

test('the docs\' blocks of command output are all tagged examples', () => {
  assert.deepEqual(read.flatMap((r) => r.untagged).map(where), [], 'blocks that look like command output, without a tag');
  // top's views, check and serve, at least
  assert.ok(examples.length >= 7, `${examples.length} examples: ${examples.map(where).join(', ')}`);
});

for (const example of examples) {
  test(`${where(example)}: ${example.command}`, {timeout: 120e3}, async (t) => {
    const markdown = fs.readFileSync(example.file, 'utf8');
    assert.ok(isDocumented(markdown, example.command, example.fileName), 'the doc shows the command line its tag names');
    assert.doesNotMatch(example.command, /['"]/, 'a tag\'s command line is words, without quotes');
    const [emheap, ...args] = example.command.split(/\s+/);
    assert.equal(emheap, 'emheap');
    const output = args[0] === 'serve' ? await serveBanner(t, args, example.block.length) : runDocumented(t, example, args);
    const found = findBlock(example.block, output);
    assert.ok(found.at !== undefined, `${where(example)}: ${found.mismatch}\n--- what \`${example.command}\` printed:\n${output}`);
  });
}

// What docs/using.md showed for --since warm: rows by call site under a
// "site" column, where the command ranks functions.
const BY_SITE = [
  'allocated since mark #1 "warm" (at 0.005 s) and still live: 864.00 KiB (884,736 B) in 216 blocks',
  '',
  '#             bytes since  blocks since  live bytes (all)  site             stack (leaf first)',
  '1  768.00 KiB (786,432 B)           192        768.00 KiB  grow_list+0x3c0  grow_list < main',
  '2    96.00 KiB (98,304 B)            24         96.00 KiB  cache_put+0x97d  cache_put < main',
];

test('a block by call site is not the shape of output by function, nor the other way', (t) => {
  const dir = scratch(t);
  fs.writeFileSync(path.join(dir, 'profile.json'), snapshotOf('marks_rounds.dlmalloc'));
  const top = (...more) => {
    const r = runCli(['top', 'profile.json', '--since', 'warm', ...more], {cwd: dir});
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const byFunction = top();
  const bySite = top('--by', 'site');
  assert.match(findBlock(BY_SITE, byFunction).mismatch, /block's line 3 differs[\s\S]* site {2,}stack/);
  assert.equal(findBlock(BY_SITE, bySite).at >= 0, true, 'the same block is the shape of --by site');
  // the titles alone do not decide: rows of site keys under "function" do not pass either
  const titledFunction = BY_SITE.map((l) => l.replace('site           ', 'function'));
  assert.match(findBlock(titledFunction, byFunction).mismatch, /block's line 4 differs[\s\S]*grow_list\+0x3c0/);
  const byFunctionBlock = byFunction.split('\n').slice(byFunction.split('\n').findIndex((l) => l.startsWith('allocated since')));
  assert.match(findBlock(byFunctionBlock.slice(0, 5), bySite).mismatch, /differs/);
});
