/*
** dylink_plan.h -- the plan of tests/runtime/dylink_main.c and its side
** modules: what each module's own function leaks, and the blocks that
** cross from one module to the other (tests/e2e/dylink.test.js restates
** these numbers).
*/
#ifndef DYLINK_PLAN_H
#define DYLINK_PLAN_H

#define SIDE_BLOCKS 10    /* side_leak_block, in dylink_side.wasm (linked at load time) */
#define SIDE_BYTES 1000
#define FROM_JS_BYTES 96   /* side_called_from_js: one block, called by JS through the table */
#define KEPT_BLOCKS 4     /* side_keep and opened_keep: blocks each side module's globals point to */
#define KEPT_BYTES 512
#define OPENED_BLOCKS 5   /* opened_leak_block, in dylink_opened.wasm (dlopen) */
#define OPENED_BYTES 3000
#define ASYNC_BLOCKS 4    /* async_leak_block, in dylink_async.wasm (emscripten_dlopen), */
#define ASYNC_BYTES 2000  /*   and one more from async_plant_one */
#define MAIN_BLOCKS 3     /* main_leak_block, in the main module */
#define MAIN_BYTES 700
#define CROSSINGS 20      /* blocks made in one module and freed in the other, each way */
#define CROSS_BYTES 48

#endif
