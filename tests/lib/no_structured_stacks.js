// no_structured_stacks.js -- preloaded with `node -r` to make V8 look like an
// engine without structured call sites (Firefox, Safari): exact-JS mode must
// then take its text path and give the same stacks.
'use strict';
delete Error.captureStackTrace;
