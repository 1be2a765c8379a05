// tests/lib/schemas.js: JSON Schema validators for the files emheap writes,
// shared by the tests and tools. Each validate* returns a list of error strings
// (empty when valid) so a failing assertion shows every problem at once.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const Ajv = require('ajv');
const addFormats = require('ajv-formats');

const root = path.join(__dirname, '..', '..');
const readJson = (file) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

const SNAPSHOT_ID = 'https://emheap.dev/schemas/emheap-snapshot.schema.json';
const SPEEDSCOPE_ID = 'https://emheap.dev/schemas/speedscope.schema.json';
const PERFVIEW_ID = 'https://emheap.dev/schemas/perfview.schema.json';
const CHROME_TRACE_ID = 'https://emheap.dev/schemas/chrome-trace.schema.json';
// speedscope's schema has no $id, so it is registered under a key of our own
const UPSTREAM_KEY = 'speedscope-upstream';

// allErrors: report every problem, not just the first one.
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
ajv.addSchema(readJson('schemas/emheap-snapshot.schema.json'));
ajv.addSchema(readJson('schemas/speedscope.schema.json'));
ajv.addSchema(readJson('schemas/perfview.schema.json'));
ajv.addSchema(readJson('schemas/chrome-trace.schema.json'));
// The upstream file is a bag of "definitions" whose root is just
// {"$ref": "#/definitions/FileFormat.File"}; compiling the whole document keeps
// that ref resolvable, and validating against it validates a whole file.
ajv.addSchema(readJson('node_modules/speedscope/dist/release/file-format-schema.json'), UPSTREAM_KEY);

function run(label, key, obj) {
  const validate = ajv.getSchema(key);
  if (validate(obj)) return [];
  return validate.errors.map((e) => `${label} ${e.instancePath || '/'} ${e.message}` +
    (e.params && e.params.additionalProperty ? ` (${e.params.additionalProperty})` : ''));
}

// What no schema can say: stack entries must point at existing frames, and
// speedscope needs one weight per sample.
function checkIndices(label, stacks, frameCount) {
  const errors = [];
  stacks.forEach((stack, i) => {
    if (!Array.isArray(stack)) return;
    stack.forEach((f, j) => {
      if (Number.isInteger(f) && f >= frameCount) {
        errors.push(`${label} ${i}/${j} frame index ${f} out of range (${frameCount} frames)`);
      }
    });
  });
  return errors;
}

// The allocator's heap a snapshot read (snapshot.allocatorHeap) may say
// why it was not read: threads were running, an allocator emheap does not
// walk, an allocator not yet started. Any other {error} is a reading gone
// wrong (a heap emheap misread), which every test that checks a snapshot
// fails on; a schema cannot say so, {error} being a valid file.
const HEAP_NOT_READ = /^not walked: |is not walked \(|: not initialized|not found in the static data \(not initialized yet\?\)/;
function heapReadErrors(obj) {
  const heap = obj.allocatorHeap;
  return heap && heap.error !== undefined && !HEAP_NOT_READ.test(heap.error)
    ? [`snapshot /allocatorHeap the allocator's heap was misread: ${heap.error}`] : [];
}

function validateSnapshot(obj) {
  const errors = run('snapshot', SNAPSHOT_ID, obj);
  if (errors.length === 0) {
    errors.push(...checkIndices('snapshot /sites', obj.sites.map((s) => s.stack), obj.frames.length));
    errors.push(...heapReadErrors(obj));
  }
  return errors;
}

function validateSpeedscope(obj) {
  const errors = run('speedscope(upstream)', UPSTREAM_KEY, obj).concat(run('speedscope(emheap)', SPEEDSCOPE_ID, obj));
  if (errors.length === 0) {
    const p = obj.profiles[0];
    if (p.samples.length !== p.weights.length) {
      errors.push(`speedscope /profiles/0 has ${p.samples.length} samples but ${p.weights.length} weights`);
    }
    errors.push(...checkIndices('speedscope /profiles/0/samples', p.samples, obj.shared.frames.length));
  }
  return errors;
}

function validatePerfView(obj) {
  return run('perfview', PERFVIEW_ID, obj);
}

// Beyond the schema: counters come in (live bytes, live blocks) pairs at the
// same times, in time order, and the snapshot's instant sits at the last
// point; the memory's size steps up at each growth's instant, in time order.
function validateChromeTrace(obj) {
  const errors = run('chrome-trace', CHROME_TRACE_ID, obj);
  if (errors.length === 0) {
    const bytes = obj.traceEvents.filter((e) => e.name === 'live bytes');
    const blocks = obj.traceEvents.filter((e) => e.name === 'live blocks');
    const instants = obj.traceEvents.filter((e) => e.name === 'emheap snapshot');
    const sizes = obj.traceEvents.filter((e) => e.name === 'wasm memory');
    const growths = obj.traceEvents.filter((e) => e.name === 'wasm memory grew');
    if (sizes.length !== (growths.length ? growths.length + 1 : 0)) {
      errors.push(`chrome-trace has ${growths.length} growths but ${sizes.length} wasm memory points`);
    }
    growths.forEach((g, i) => {
      const size = sizes[i + 1];
      if (size && (size.ts !== g.ts || size.args.bytes !== g.args.toBytes || sizes[i].args.bytes !== g.args.fromBytes)) {
        errors.push(`chrome-trace growth ${i}: the wasm memory counter does not step from ${g.args.fromBytes} to ${g.args.toBytes} at ${g.ts}`);
      }
      if (i > 0 && growths[i - 1].ts > g.ts) errors.push(`chrome-trace growth ${i} goes back in time`);
    });
    if (bytes.length === 0) errors.push('chrome-trace has no live bytes counter');
    if (bytes.length !== blocks.length) errors.push(`chrome-trace has ${bytes.length} live bytes but ${blocks.length} live blocks points`);
    bytes.forEach((e, i) => {
      if (blocks[i] && blocks[i].ts !== e.ts) errors.push(`chrome-trace point ${i}: bytes at ${e.ts} but blocks at ${blocks[i].ts}`);
      if (i > 0 && bytes[i - 1].ts > e.ts) errors.push(`chrome-trace point ${i} goes back in time`);
    });
    if (instants.length !== 1) errors.push(`chrome-trace has ${instants.length} snapshot instants, not 1`);
    else if (bytes.length && instants[0].ts !== bytes[bytes.length - 1].ts) errors.push('chrome-trace snapshot instant is not at the last point');
  }
  return errors;
}

module.exports = { ajv, validateSnapshot, validateSpeedscope, validatePerfView, validateChromeTrace };
