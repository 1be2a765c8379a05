// heap_scan.test.js -- the heap graph of a real program (runtime/roots.c,
// capture/heap_scan.js, model/heap_graph.js, model/heap_section.js):
// tests/runtime/heap_graph.c lays out a heap whose shape is known and
// prints emheap.snapshot({heap: true}); built exact with dlmalloc, emmalloc
// and -pthread. Also the CLI's --sort retained on it.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {runWasmProgram} = require('../lib/run_wasm');
const {validateSnapshot} = require('../lib/schemas');
const {peakView} = require('../../model/peak');
const {scanCaveat} = require('../../model/heap_section');

const {BUILD} = require('../lib/paths');
const {runCli} = require('../lib/cli');

// The blocks of the heap section with their site's frame names.
function blocksOf(snap) {
  const h = snap.heap;
  const siteById = new Map(snap.sites.map((s) => [s.id, s]));
  const first = h.groups.length + 1;
  return h.blocks.address.map((address, k) => {
    const site = siteById.get(h.blocks.site[k]);
    return {
      k, node: first + k, address, size: h.blocks.size[k], state: h.blocks.state[k], retained: h.blocks.retained[k],
      dominator: h.blocks.dominator[k], id: h.blocks.id[k], site,
      names: site ? site.stack.map((i) => snap.frames[i].name) : [],
    };
  });
}

function retainersOf(snap, node) {
  const h = snap.heap;
  const out = [];
  let pos = 0;
  for (let v = 0; v < h.edgeCounts.length; v++) {
    for (let e = 0; e < h.edgeCounts[v]; e++) if (h.edges[pos + e] === node) out.push(v);
    pos += h.edgeCounts[v];
  }
  return out;
}

// Runs a heap_graph program; its snapshot with the heap graph, checked
// against the schema, and the views the tests read it through.
function knownHeap(program) {
  const r = runWasmProgram(path.join(BUILD, program));
  assert.equal(r.status, 0, r.stderr);
  const snap = r.tagged.SNAPSHOT;
  assert.ok(snap && snap.heap, r.stdout.slice(0, 500) + r.stderr);
  assert.deepEqual(validateSnapshot(snap), []);
  const h = snap.heap;
  return {snap, h, blocks: blocksOf(snap), groupNode: (name) => 1 + h.groups.findIndex((g) => g.name === name)};
}

for (const build of ['dlmalloc', 'emmalloc', 'threads']) {
  test(`heap graph of a program whose heap shape is known (${build})`, () => {
    const {snap, h, blocks, groupNode} = knownHeap(`heap_graph.${build}.js`);
    const all = (pred) => blocks.filter(pred);
    const has = (fn) => (b) => b.names.includes(fn);
    const REACHABLE = 0;
    const DIRECT = 1;
    const INDIRECT = 2;
    const sum = (list, f) => list.reduce((a, b) => a + b[f], 0);

    // kept by globals: a list of 5, whose head retains all of it
    const kept = all((b) => has('make_list')(b) && !has('leak_list')(b));
    assert.equal(kept.length, 5);
    assert.ok(kept.every((b) => b.state === REACHABLE));
    assert.equal(Math.max(...kept.map((b) => b.retained)), sum(kept, 'size'));
    // a tree: its root retains the three blocks
    const tree = all(has('make_tree'));
    assert.equal(tree.length, 3);
    assert.equal(Math.max(...tree.map((b) => b.retained)), sum(tree, 'size'));
    // an interior pointer keeps a block
    const middle = all(has('keep_middle'));
    assert.equal(middle.length, 1);
    assert.equal(middle[0].state, REACHABLE);
    assert.equal(middle[0].dominator, groupNode('(C globals)'));
    // a leaked list: the head directly, the rest indirectly; the head
    // retains the list
    const lost = all(has('leak_list'));
    assert.deepEqual(lost.map((b) => b.state).sort(), [DIRECT, INDIRECT, INDIRECT]);
    assert.equal(lost.find((b) => b.state === DIRECT).retained, sum(lost, 'size'));
    // a leaked cycle: both indirect (nothing leaked points into it from outside)
    const cycle = all(has('leak_cycle'));
    assert.deepEqual(cycle.map((b) => b.state), [INDIRECT, INDIRECT]);
    // a pointer in untracked memory: kept when the region is registered
    const hidden = all(has('keep_hidden'));
    assert.equal(hidden.length, 2);
    const registered = hidden.find((b) => b.state === REACHABLE);
    assert.ok(registered, 'the block of the registered region is reachable');
    assert.equal(registered.dominator, groupNode('(registered roots)'));
    assert.equal(hidden.find((b) => b !== registered).state, DIRECT);
    // a pointer only JS holds (emheap.addRoot)
    const js = all(has('keep_in_js'));
    assert.equal(js[0].state, REACHABLE);
    assert.equal(js[0].dominator, groupNode('(JS roots)'));
    // a pointer in main's C stack (the snapshot is taken inside main)
    const onStack = all(has('on_stack_block'));
    assert.equal(onStack[0].state, REACHABLE);
    assert.equal(onStack[0].dominator, groupNode('(C stack: this thread)'),
      `retainers ${retainersOf(snap, onStack[0].node)}`);
    if (build === 'threads') {
      // a pointer in another thread's C stack
      const other = groupNode('(C stack: thread 2)') || groupNode('(C stack: thread 1)');
      assert.ok(other > 0, h.groups.map((g) => g.name).join(', '));
      const mine = blocks.filter((b) => retainersOf(snap, b.node).includes(other));
      assert.ok(mine.some((b) => b.size >= 136 && b.size < 152), 'the thread\'s block is found from its stack');
      // a thread that never allocated (roots.c does not know it): its
      // stack comes from Emscripten's thread table, and keeps the block
      // only it holds
      const idle = h.groups.findIndex((g) => /no block recorded/.test(g.name));
      assert.ok(idle >= 0, h.groups.map((g) => g.name).join(', '));
      const handed = all(has('hand_off_block'));
      assert.equal(handed.length, 1);
      assert.equal(handed[0].state, REACHABLE);
      assert.ok(retainersOf(snap, handed[0].node).includes(idle + 1), `retainers ${retainersOf(snap, handed[0].node)}`);
    }
    // the totals: leaks by class, and the root retains every block
    assert.deepEqual(h.leaked, {directBlocks: 2, directBytes: sum(all((b) => b.state === DIRECT), 'size'),
      indirectBlocks: 4, indirectBytes: sum(all((b) => b.state === INDIRECT), 'size')});
    assert.equal(h.groups.at(-1).name, '(leaked)');
    assert.equal(h.groups.at(-1).retainedBytes, h.leaked.directBytes + h.leaked.indirectBytes);
    assert.equal(h.blocks.address.length, snap.summary.liveBlocks, 'every live block is in the graph');
    // ids: odd, distinct
    assert.ok(h.blocks.id.every((id) => id % 2 === 1));
    assert.equal(new Set(h.blocks.id).size, h.blocks.id.length);
    // per-site totals (the constructor view)
    for (const s of snap.sites) {
      const mineBlocks = blocks.filter((b) => b.site === s);
      assert.equal(s.heapBlocks, mineBlocks.length, s.key);
      assert.equal(s.shallowBytes, sum(mineBlocks, 'size'), s.key);
      assert.equal(s.reachableBlocks + s.directBlocks + s.indirectBlocks, s.heapBlocks, s.key);
      assert.ok(s.retainedBytes >= s.shallowBytes || s.heapBlocks === 0, s.key);
    }
  });
}

test('a snapshot with the heap graph needs exact mode; bad options say so', () => {
  const r = runWasmProgram(path.join(BUILD, 'heap_graph.dlmalloc.js'), {env: {EMHEAP_MODE: 'sampled'}});
  assert.notEqual(r.status, 0);
  assert.match(r.stderr + r.stdout, /the heap graph needs every block recorded: take the profile in exact mode/);
});

test('emheap top --sort retained|shallow on a snapshot with the heap graph', () => {
  const r = runWasmProgram(path.join(BUILD, 'heap_graph.dlmalloc.js'));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-heap-'));
  try {
    const file = path.join(tmp, 'heap.json');
    fs.writeFileSync(file, JSON.stringify(r.tagged.SNAPSHOT));
    const cli = (...args) => runCli(args, {cwd: tmp});
    const top = cli('top', file, '--sort', 'retained', '--json', '--top', '0');
    assert.equal(top.status, 0, top.stderr);
    const rows = JSON.parse(top.stdout).sites;
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].retainedBytes >= rows[i].retainedBytes);
    assert.match(rows[0].label, /^keep_middle/);
    const text = cli('top', file, '--sort', 'retained');
    assert.match(text.stdout, /retained/);
    assert.match(text.stdout, /leaked: 2 blocks directly \(\d+ B\), 4 indirectly \(\d+ B\)/);
    // the instances to drill into: by retained size, with their class
    assert.ok(rows.every((row) => Array.isArray(row.instances) && row.instances.length === Math.min(5, row.heapBlocks)));
    const list = rows.find((row) => /^make_list/.test(row.label) && row.reachableBlocks === 5);
    assert.equal(list.instances[0].retained, list.shallowBytes, 'the list head retains the list');
    assert.deepEqual(list.instances.map((b) => b.state), Array(5).fill('reachable'));
    const drill = cli('top', file, '--sort', 'retained', '--instances', '2');
    assert.match(drill.stdout, /\n#\d+ make_list\S*: blocks that retain the most\n  0x[0-9a-f]+  \d+ B, retains \d+ B, (reachable|directly leaked)\n/);
    const shallow = JSON.parse(cli('top', file, '--sort', 'shallow', '--json').stdout).sites;
    for (let i = 1; i < shallow.length; i++) assert.ok(shallow[i - 1].shallowBytes >= shallow[i].shallowBytes);
    // the peak view has no heap graph (it is of the moment the snapshot was
    // taken): its per-site heap numbers go too, and commands that read the
    // graph say why, before writing anything
    const view = peakView(r.tagged.SNAPSHOT);
    assert.equal(view.heap, undefined);
    assert.ok(view.sites.every((s) => s.retainedBytes === undefined && s.heapBlocks === undefined));
    assert.ok(r.tagged.SNAPSHOT.sites.some((s) => s.retainedBytes > 0), 'the snapshot itself keeps them');
    const peakRetained = cli('top', file, '--at', 'peak', '--sort', 'retained');
    assert.equal(peakRetained.status, 2);
    assert.match(peakRetained.stderr, /^emheap: --sort retained reads the heap graph, which is of the moment .* not of the peak: leave --at peak out\n$/);
    const peakFiles = cli('convert', file, '--at', 'peak', '--to', 'speedscope,heapsnapshot');
    assert.equal(peakFiles.status, 2);
    assert.match(peakFiles.stderr, /^emheap: --to heapsnapshot reads the heap graph/);
    assert.equal(fs.readdirSync(tmp).filter((f) => f !== 'heap.json').length, 0, 'no file written');
    // a damaged graph is refused, not read into wrong retained sizes
    const damaged = (mutate) => {
      const copy = JSON.parse(JSON.stringify(r.tagged.SNAPSHOT));
      mutate(copy.heap);
      const f = path.join(tmp, 'damaged.json');
      fs.writeFileSync(f, JSON.stringify(copy));
      return cli('top', f, '--sort', 'retained');
    };
    for (const [what, mutate, message] of [
      ['an edge count lost', (h) => h.edgeCounts.pop(), /heap\.edgeCounts has \d+ entries for \d+ nodes/],
      ['an edge lost', (h) => h.edges.pop(), /heap\.edgeCounts add up to \d+ edges, heap\.edges has \d+/],
      ['an edge out of range', (h) => { h.edges[0] = 1e6; }, /heap\.edges\[0\] is node 1000000/],
      ['a block field short', (h) => h.blocks.size.pop(), /heap\.blocks\.size has \d+ entries/],
      ['a dominator out of range', (h) => { h.blocks.dominator[0] = 1e6; }, /heap\.blocks\.dominator\[0\] is node 1000000/],
    ]) {
      const bad = damaged(mutate);
      assert.equal(bad.status, 2, what);
      assert.match(bad.stderr, new RegExp('^emheap: .*damaged emheap snapshot: ' + message.source), what);
    }
    fs.rmSync(path.join(tmp, 'damaged.json'));
    // without the heap graph: one clear line
    const plain = JSON.parse(JSON.stringify(r.tagged.SNAPSHOT));
    delete plain.heap;
    for (const s of plain.sites) for (const k of ['heapBlocks', 'shallowBytes', 'retainedBytes', 'reachableBlocks', 'directBlocks', 'indirectBlocks']) delete s[k];
    fs.writeFileSync(path.join(tmp, 'plain.json'), JSON.stringify(plain));
    const none = cli('top', path.join(tmp, 'plain.json'), '--sort', 'retained');
    assert.equal(none.status, 2);
    assert.match(none.stderr, /^emheap: --sort retained: .*no heap graph.*snapshot\(\{heap: true\}\)/);
    const noInstances = cli('top', path.join(tmp, 'plain.json'), '--instances', '3');
    assert.equal(noInstances.status, 2);
    assert.match(noInstances.stderr, /^emheap: --instances: .*no heap graph/);
  } finally {
    fs.rmSync(tmp, {recursive: true, force: true});
  }
});

// A heap dump (formats/heap_dump.js) analyzed offline gives the page's
// numbers: every site's heap totals, the leak classes, every block's class,
// retained size and dominator.
for (const build of ['dlmalloc', 'emmalloc', 'threads']) {
  test(`heap dump: emheap analyze gives offline what the page computed (${build})`, () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emheap-dump-'));
    try {
      const r = runWasmProgram(path.join(BUILD, `heap_graph.${build}.js`), {cwd: tmp});
      assert.equal(r.status, 0, r.stderr);
      const page = r.tagged.SNAPSHOT;
      const name = r.tagged.DUMP.file;
      assert.match(name, /^memory-dump-.*\.emheapdump\.gz$/);
      const dump = path.join(tmp, name);
      const bytes = fs.statSync(dump).size;
      assert.ok(bytes > 100 && bytes < 1e6, `a dump of the live heap, gzipped: ${bytes} bytes`);
      const cli = (...args) => runCli(args, {cwd: tmp});
      const analyzed = cli('analyze', dump, '--json', '--top', '0');
      assert.equal(analyzed.status, 0, analyzed.stderr);
      const offline = JSON.parse(analyzed.stdout);
      // the page's snapshot, ranked the same way by the same command
      fs.writeFileSync(path.join(tmp, 'page.json'), JSON.stringify(page));
      const online = JSON.parse(cli('top', path.join(tmp, 'page.json'), '--sort', 'retained', '--instances', '3', '--json', '--top', '0').stdout);
      const fields = (s) => [s.label, s.liveBytes, s.heapBlocks, s.shallowBytes, s.retainedBytes, s.reachableBlocks,
        s.directBlocks, s.indirectBlocks, JSON.stringify(s.instances)];
      assert.deepEqual(offline.sites.map(fields), online.sites.map(fields));
      assert.ok(offline.sites.some((s) => s.retainedBytes > 0));
      // block by block, through the file the CLI writes for DevTools
      const heapOf = (file) => {
        const out = path.join(tmp, path.basename(file) + '.heapsnapshot');
        const conv = cli('convert', file, '--to', 'heapsnapshot', '-o', out, '--force');
        assert.equal(conv.status, 0, conv.stderr);
        return fs.readFileSync(out, 'utf8');
      };
      assert.equal(heapOf(dump), heapOf(path.join(tmp, 'page.json')), 'the same heap snapshot file');
      // the text view: leaks by class, blocks that retain the most
      const text = cli('analyze', dump);
      assert.equal(text.status, 0, text.stderr);
      assert.match(text.stdout, /leaked: 2 blocks directly \(\d+ B\), 4 indirectly/);
      assert.match(text.stdout, /blocks that retain the most/);
      // two dumps of one run: the blocks themselves, matched by id
      const later = path.join(tmp, r.tagged.LATER_DUMP.file);
      assert.notEqual(later, dump, 'a second file, not the first one replaced');
      const diff = cli('diff', dump, later, '--json', '--top', '0');
      assert.equal(diff.status, 0, diff.stderr);
      const d = JSON.parse(diff.stdout);
      assert.equal(d.blocks.new, 2);
      assert.equal(d.blocks.deleted, 1);
      const middle = d.sites.find((s) => /^keep_middle/.test(s.label));
      assert.deepEqual(middle.blocks.instances.map((x) => [x.change, x.size >= 1000]), [['deleted', true]]);
      const list = d.sites.find((s) => s.blocks && s.blocks.new === 2);
      assert.ok(list && /^make_list/.test(list.label), JSON.stringify(d.sites.map((s) => [s.label, s.blocks])));
      assert.ok(list.blocks.instances.every((x) => x.change === 'new' && x.id % 2 === 1));
      const diffText = cli('diff', dump, later).stdout;
      assert.match(diffText, /blocks \(heap graphs, matched by block id\): 2 new \(\d+ B\), 1 deleted \(\d+ B\)/);
      assert.match(diffText, /#\d+ keep_middle\S*: 0 new, 1 deleted\n {2}- 0x[0-9a-f]+ {2}[\d,]+ B {2}id @\d+\n/);
      // not a dump: clear errors
      fs.writeFileSync(path.join(tmp, 'cut.emheapdump.gz'), fs.readFileSync(dump).subarray(0, 200));
      const cut = cli('analyze', path.join(tmp, 'cut.emheapdump.gz'));
      assert.equal(cut.status, 2);
      assert.match(cut.stderr, /^emheap: \S+cut\.emheapdump\.gz: a damaged gzip file .*cut short/);
    } finally {
      fs.rmSync(tmp, {recursive: true, force: true});
    }
  });
}

// The same shapes in C++ (tests/runtime/heap_graph.cpp): new, unique_ptr and
// vector at -O2 with exceptions.
for (const build of ['exact']) {
  test(`heap graph of a C++ program whose heap shape is known (${build})`, () => {
    const {snap, h, blocks, groupNode} = knownHeap(`heap_graph_cpp.${build}.js`);
    // C++ frames read "grow_tree()", "make_nodes(int)"
    const has = (fn) => (b) => b.names.some((name) => name === fn || name.startsWith(fn + '('));
    const all = (pred) => blocks.filter(pred);
    const sum = (list, f) => list.reduce((a, b) => a + b[f], 0);
    const [REACHABLE, DIRECT, INDIRECT] = [0, 1, 2];
    // a tree held by a global: its root retains the nodes and the vectors' buffers
    const tree = all(has('grow_tree'));
    assert.equal(tree.length, 6, tree.map((b) => b.names.join('<')).join('\n'));
    assert.ok(tree.every((b) => b.state === REACHABLE));
    assert.equal(Math.max(...tree.map((b) => b.retained)), sum(tree, 'size'));
    // a list leaked whole: the head directly (retaining all of it), the rest indirectly
    const lost = all((b) => has('make_nodes')(b) && has('lose_list')(b));
    assert.deepEqual(lost.map((b) => b.state).sort(), [DIRECT, INDIRECT, INDIRECT]);
    assert.equal(lost.find((b) => b.state === DIRECT).retained, sum(lost, 'size'));
    // a leaked cycle: indirect
    assert.deepEqual(all(has('lose_cycle')).map((b) => b.state), [INDIRECT, INDIRECT]);
    // an interior pointer into a new[] array keeps it, from the globals
    const middle = all(has('keep_middle'));
    assert.equal(middle.length, 1);
    assert.equal(middle[0].state, REACHABLE);
    assert.equal(middle[0].dominator, groupNode('(C globals)'));
    // one held only by JS, one only from main's C stack
    assert.equal(all(has('keep_in_js'))[0].dominator, groupNode('(JS roots)'));
    const onStack = all(has('on_stack_node'));
    assert.equal(onStack[0].state, REACHABLE);
    assert.equal(onStack[0].dominator, groupNode('(C stack: this thread)'), `retainers ${retainersOf(snap, onStack[0].node)}`);
    assert.deepEqual([h.leaked.directBlocks, h.leaked.indirectBlocks], [1, 4]);
    assert.equal(h.blocks.address.length, snap.summary.liveBlocks, 'every live block is in the graph');
  });
}

// A thread's own data (capture/heap_scan.js threadDataRanges): the struct
// pthread, and everything up to the stack where the layout is Emscripten
// 4's one block (struct, thread-locals, pthread_setspecific slots, stack);
// the struct alone where something else lies in between.
test('thread data: the struct pthread, and up to the stack only where they make one block', () => {
  const {threadDataRanges} = require('../../capture/heap_scan');
  const thread = (pthread, stackLo, tls) => ({pthread, structSize: 132, stackLo, tls, limit: 132 + 64 + 4096});
  const oneBlock = thread(0x10000, 0x10000 + 132 + 64 + 512 + 12, [0x10000 + 132, 0x10000 + 132 + 64]);
  const unregistered = thread(0x30000, 0x30000 + 132 + 64 + 512 + 12, null);
  const farStack = thread(0x50000, 0x90000, null); // 3.1.x: the stack memalign'd elsewhere
  const stackBelow = thread(0x70000, 0x20000, null);
  const blockBetween = thread(0x80000, 0x80000 + 2000, null); // a recorded block after the struct
  const blocks = {addr: Uint32Array.of(0x20, 0x80000 + 400, 0x95000), size: Uint32Array.of(16, 24, 8)};
  const all = [oneBlock, unregistered, farStack, stackBelow, blockBetween];
  threadDataRanges(all, blocks);
  // registered: its thread-locals are in its group already, the rest around them
  assert.deepEqual(oneBlock.ranges, [[0x10000, 0x10000 + 132], [0x10000 + 132 + 64, oneBlock.stackLo]]);
  assert.deepEqual(unregistered.ranges, [[0x30000, unregistered.stackLo]]);
  for (const t of [farStack, stackBelow, blockBetween]) assert.deepEqual(t.ranges, [[t.pthread, t.pthread + 132]]);
  // a block that starts before the span and reaches into it counts too
  const straddled = thread(0xa0000, 0xa0000 + 1000, null);
  threadDataRanges([straddled], {addr: Uint32Array.of(0xa0000 - 8), size: Uint32Array.of(16)});
  assert.deepEqual(straddled.ranges, [[0xa0000, 0xa0000 + 132]]);
});

// Read-only data holds no roots (tests/runtime/read_only_roots.c): a block
// whose address only a constant table holds is leaked, one a writable
// global holds is reachable; a module without names cannot tell where its
// read-only data is, scans it, and says so.
for (const build of ['dlmalloc', 'emmalloc', 'threads', 'nonames']) {
  test(`read-only data is no root (${build})`, () => {
    const r = runWasmProgram(path.join(BUILD, `read_only_roots.${build}.js`));
    assert.equal(r.status, 0, r.stderr);
    const {leaked, held, covered} = r.tagged.BLOCKS;
    assert.equal(covered, 1, 'the constant table holds both addresses');
    const snap = r.tagged.SNAPSHOT;
    assert.deepEqual(validateSnapshot(snap), []);
    const h = snap.heap;
    const state = (address) => h.blocks.state[h.blocks.address.indexOf(address)];
    assert.equal(state(held), 0, 'held by a writable global: reachable');
    if (build === 'nonames') {
      assert.equal(state(leaked), 0, 'scanned as a root, the constant keeps it');
      assert.match(h.readOnlyData.unknown, /no data segment names/);
      assert.match(scanCaveat(h), /read-only data scanned as roots .*shows as still reachable/);
    } else {
      assert.equal(state(leaked), 1, 'only a constant holds it: directly leaked');
      assert.ok(h.readOnlyData.skippedBytes >= (1 << 20) / 2, `the table's 512 KiB and more left out (${h.readOnlyData.skippedBytes})`);
      assert.equal(scanCaveat(h), '');
    }
  });
}
