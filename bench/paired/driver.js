// driver.js -- the order of a paired run: several builds of one workload
// (baseline, forwarding only, emheap's modes...), loaded side by side in one
// node process or one page, each run one repetition at a time.
//
// Why: this VM's speed drifts by 10-30% over seconds (a neighbour on the
// host, not this machine's load: bench/README.md, "Paired runs"). Two builds
// timed in separate processes seconds apart differ by that much; two
// repetitions 20-60 ms apart share the drift, and their remaining noise
// averages out over many pairs. So every repetition of a
// build is bracketed by repetitions of the reference build (forwarding only
// when present), and the harness (bench/lib/pairs.js) divides each one by
// its two neighbours:
//
//   round r:  REF a REF b REF c REF      (a, b, c rotated every round)
//
// Shared by bench/paired/node.js (worker threads) and bench/paired/page.html
// (web workers): plain script, no modules, exports through `this` or
// module.exports.
(function (root) {
  'use strict';

  // builds: [{rep() -> Promise<ns per op>}]; reference: index into builds.
  // -> {sequence: [{round, build, ns}], errors: {build index: message}}.
  // A build whose repetition throws is dropped from later rounds; the
  // others go on. A build other than the reference that has spent
  // budgetMs on its repetitions sits out the later rounds: the profilers
  // that cost 50-1,000x (exact/js on micro: 8 s a repetition) need few
  // repetitions to be read, and would otherwise take the whole run.
  // clock: ms now (a test passes its own, so the budget does not hang on a
  // loaded machine's timers).
  async function runRounds(builds, {rounds, reference = 0, budgetMs, clock = Date.now} = {}) {
    if (!(budgetMs > 0)) budgetMs = Infinity; // none given (JSON has no Infinity)
    const sequence = [];
    const errors = {};
    const spent = builds.map(() => 0);
    const alive = (i) => !(i in errors) && (i === reference || spent[i] < budgetMs);
    const others = builds.map((_, i) => i).filter((i) => i !== reference);
    async function rep(round, i) {
      if (!alive(i)) return;
      const started = clock();
      try {
        const ns = await builds[i].rep();
        spent[i] += clock() - started;
        if (!(ns > 0)) throw new Error(`repetition returned ${ns}`);
        sequence.push({round, build: i, ns});
      } catch (e) {
        errors[i] = String((e && e.message) || e).split('\n')[0].slice(0, 300);
      }
    }
    for (let round = 0; round < rounds; round++) {
      const shift = others.length ? round % others.length : 0;
      const order = others.slice(shift).concat(others.slice(0, shift));
      const running = order.filter(alive);
      if (round > 0 && !running.length) break;
      await rep(round, reference);
      for (const i of running) {
        await rep(round, i);
        await rep(round, reference);
      }
      if (!alive(reference)) break;
    }
    return {sequence, errors};
  }

  // The whole paired run over `count` builds. open(i) starts build i and
  // returns its channel (channel() below): {ready: Promise<message>,
  // ask(command) -> Promise<message>, close()}, where a message is {ready | ns | reported |
  // error, lines: [what the build printed since the last message]}
  // (node.js: a worker thread; page.html: a web worker).
  // -> {builds: [{lines, error}], sequence} (sequence: runRounds's, with
  // the spec's build indexes).
  async function runPaired(count, {rounds, reference, budgetMs}, open) {
    const builds = [];
    const channels = [];
    const take = (i, m) => {
      builds[i].lines.push(...(m.lines || []));
      if (m.error && !builds[i].error) builds[i].error = m.error;
      return m;
    };
    for (let i = 0; i < count; i++) {
      builds.push({lines: [], error: null});
      channels.push(open(i));
    }
    await Promise.all(channels.map(async (c, i) => {
      const m = take(i, await c.ready);
      if (!m.ready && !builds[i].error) builds[i].error = 'the build did not start';
    }));
    const usable = builds.map((_, i) => i).filter((i) => !builds[i].error);
    let sequence = [];
    if (!usable.includes(reference)) {
      for (const b of builds) b.error = b.error || 'the reference build failed to start';
    } else {
      const run = await runRounds(usable.map((i) => ({
        rep: async () => {
          const m = take(i, await channels[i].ask('rep'));
          if (m.error) throw new Error(m.error);
          return m.ns;
        },
      })), {rounds, reference: usable.indexOf(reference), budgetMs});
      sequence = run.sequence.map((s) => Object.assign({}, s, {build: usable[s.build]}));
      for (const [k, message] of Object.entries(run.errors)) builds[usable[k]].error = message;
    }
    for (let i = 0; i < count; i++) {
      if (!builds[i].error) take(i, await channels[i].ask('report'));
      await channels[i].close();
    }
    return {builds, sequence};
  }

  // A channel for runPaired over any worker: send(command) posts to the
  // build, and the owner calls deliver(message) for each message the build
  // posts back; a message nobody waits for is dropped. `ready` is the first.
  function channel(send, close) {
    let waiting = null;
    const next = () => new Promise((resolve) => { waiting = resolve; });
    const ready = next();
    return {
      ready,
      deliver(message) {
        const w = waiting;
        waiting = null;
        if (w) w(message);
      },
      ask(command) {
        const reply = next();
        send(command);
        return reply;
      },
      close,
    };
  }

  const api = {runRounds, runPaired, channel};
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.pairedDriver = api;
})(this);
