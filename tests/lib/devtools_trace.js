// devtools_trace.js -- loads a Chrome Trace Event Format object into the
// trace engine of the DevTools that ship inside Chromium (devtools://devtools/
// bundled/devtools_app.html, driven headless with puppeteer-core, as
// devtools_panel.js does) and returns what that engine made of it.
//
// The path is the Performance panel's own for "Load profile...": the file's
// text through JSON.parse and panels/timeline/TimelineLoader.js
// loadFromParsedJsonFile() (the panel's loader; it takes traceEvents and
// metadata out of the object), then, as TimelinePanel #executeNewTrace does,
// models/trace/trace.js TraceModel.Model.createWithAllHandlers(
// Types.Configuration.defaults()).parse(events, {metadata, isFreshRecording:
// false, isCPUProfile: false}) and parsedTrace().data, the handlers' output
// (sources: node_modules/chrome-devtools-frontend/front_end/models/trace/
// handlers/*.ts; the bundled build is the browser's, compiled JS).
//
// What is read from it:
// - kept / dropped: each input event, by identity, wherever it is referenced
//   in parsedTrace().data (a walk over its Maps, Sets, arrays and objects),
//   with the handler paths that hold it; an event no handler holds is
//   dropped: the engine read it and kept nothing of it. events: how many kept.
// - instants: the kept input events whose phase is an instant, with the
//   engine's own test Types.Events.isInstant (RendererHandler keeps those in
//   data.Renderer.processes[pid].threads[tid].entries, the tracks drawn for
//   a trace not from Chrome: data.Meta.traceIsGeneric).
// - counters: the engine's only store of counter values, data.Memory
//   .updateCountersByProcess (MemoryHandler: Chrome's 'UpdateCounters'
//   instants, args.data.{jsHeapSizeUsed, nodes, ...}), as {field: [[ts,
//   value], ...]}. No handler reads generic ph 'C' counter events.
// - meta: data.Meta's traceIsGeneric, traceBounds and process/thread names.
// - errors: a throw from the loader or parse, anything the engine sent to
//   console.error/console.warn while parsing, and the page's errors.
'use strict';

const {withDevtoolsApp} = require('./devtools_app');

async function traceEngineRead(traceObject) {
  const text = JSON.stringify(traceObject);
  return withDevtoolsApp(async (page, pageErrors) => {
    const read = await page.evaluate(async (fileText) => {
      const Trace = await import('./models/trace/trace.js');
      const Timeline = await import('./panels/timeline/timeline.js');
      const errors = [];
      const said = (kind) => (...a) => errors.push(`console.${kind}: ${a.map(String).join(' ')}`);
      const saved = {error: console.error, warn: console.warn};
      console.error = said('error');
      console.warn = said('warn');
      let input = null;
      let parsed = null;
      try {
        const model = Trace.TraceModel.Model.createWithAllHandlers(Trace.Types.Configuration.defaults());
        // the panel's loader calls its client back with the events it took
        const loaded = new Promise((resolve) => {
          const client = {
            recordingProgress() {}, recordingStatus() {}, loadingStarted() {}, processingStarted() {},
            loadingProgress() {}, loadingCompleteForTest() {},
            async loadingComplete(events, filter, metadata) { resolve({events, metadata}); },
          };
          Timeline.TimelineLoader.TimelineLoader.loadFromParsedJsonFile(JSON.parse(fileText), client);
        });
        const {events, metadata} = await Promise.race([loaded,
          new Promise((resolve, reject) => setTimeout(() => reject(new Error('TimelineLoader never completed')), 30000))]);
        input = events;
        await model.parse(events, {metadata: metadata ?? undefined, isFreshRecording: false, isCPUProfile: false});
        parsed = model.parsedTrace();
        if (!parsed) errors.push('parsedTrace() is null after parse');
      } catch (e) {
        errors.push(`throw: ${e && e.stack || e}`);
      } finally {
        console.error = saved.error;
        console.warn = saved.warn;
      }
      if (!input) return {eventsIn: 0, events: 0, kept: [], dropped: [], instants: [], counters: {}, meta: null, errors};
      const clean = (v) => JSON.parse(JSON.stringify(v === undefined ? null : v));
      const brief = (e, i) => ({index: i, name: e.name, ph: e.ph, ts: e.ts});
      if (!parsed) return {eventsIn: input.length, events: 0, kept: [], dropped: input.map(brief), instants: [], counters: {}, meta: null, errors};

      // Where each input event is held in the handlers' data.
      const index = new Map(input.map((e, i) => [e, i]));
      const where = input.map(() => []);
      const seen = new WeakSet();
      const walk = (v, at) => {
        if (v === null || typeof v !== 'object') return;
        if (index.has(v)) {
          const w = where[index.get(v)];
          if (w.length < 8 && !w.includes(at)) w.push(at);
          return;
        }
        if (seen.has(v)) return;
        seen.add(v);
        if (v instanceof Map) {
          for (const [k, x] of v) {
            walk(k, `${at}{key}`);
            walk(x, `${at}.${typeof k === 'object' ? '{obj}' : String(k)}`);
          }
        } else if (v instanceof Set || Array.isArray(v)) {
          for (const x of v) walk(x, `${at}[]`);
        } else if (!ArrayBuffer.isView(v)) {
          for (const k of Object.keys(v)) walk(v[k], `${at}.${k}`);
        }
      };
      walk(parsed.data, 'data');
      const kept = [];
      const dropped = [];
      input.forEach((e, i) => (where[i].length ? kept.push({...brief(e, i), where: where[i]}) : dropped.push(brief(e, i))));

      const instants = kept.filter((k) => Trace.Types.Events.isInstant(input[k.index])).map((k) => {
        const e = input[k.index];
        return {name: e.name, ts: e.ts, ph: e.ph, s: e.s, pid: e.pid, tid: e.tid, args: clean(e.args), where: k.where};
      });

      const counters = {};
      for (const list of parsed.data.Memory.updateCountersByProcess.values()) {
        for (const e of list) {
          for (const [field, value] of Object.entries(e.args?.data || {})) {
            if (typeof value === 'number') (counters[field] = counters[field] || []).push([e.ts, value]);
          }
        }
      }

      const meta = parsed.data.Meta;
      const names = (m) => [...m.entries()].map(([pid, e]) => [pid, e.args?.name]);
      return {
        eventsIn: input.length,
        events: kept.length,
        kept, dropped, instants, counters,
        meta: {
          traceIsGeneric: meta.traceIsGeneric,
          traceBounds: clean(meta.traceBounds),
          processNames: names(meta.processNames),
          threads: [...meta.threadsInProcess.entries()].map(([pid, m]) => [pid, names(m)]),
          rendererThreads: [...parsed.data.Renderer.processes.entries()].map(([pid, p]) =>
            [pid, [...p.threads.entries()].map(([tid, t]) => ({tid, name: t.name, entries: t.entries.length}))]),
        },
        errors,
      };
    }, text);
    read.errors = read.errors.concat(pageErrors.map((e) => `pageerror: ${e}`));
    read.chromium = await page.browser().version();
    return read;
  });
}

module.exports = {traceEngineRead};
