/*
** leaky.c -- emheap's sample app: a C program that draws an animation into
** a canvas and leaks memory on demand, so there is something to profile.
**
**   leak_memory()  (button "Leak", key L): keeps 64 blocks of 16 KiB (1 MiB)
**                  on a list that nothing ever frees -- until:
**   free_leaked()  (button "Free", key F): frees the whole list.
**   scratch_work() runs every frame: short-lived allocations that are freed
**                  at once, so the profile shows they hold nothing.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>

#define WIDTH 320
#define HEIGHT 200
#define LEAK_BLOCKS 64
#define LEAK_BLOCK_SIZE (16 * 1024)

typedef struct leak {
  struct leak *next;
  char payload[];
} leak;

static leak *leaked;          /* the list "nobody remembers to free" */
static unsigned leaked_count; /* blocks on it */
static uint32_t *pixels;      /* the frame, RGBA, allocated once */

/* The function the profile should blame for the leak. */
EMSCRIPTEN_KEEPALIVE void leak_memory(void) {
  for (int i = 0; i < LEAK_BLOCKS; i++) {
    leak *l = malloc(sizeof(leak) + LEAK_BLOCK_SIZE);
    if (!l) return;
    memset(l->payload, i, LEAK_BLOCK_SIZE);
    l->next = leaked;
    leaked = l;
    leaked_count++;
  }
}

EMSCRIPTEN_KEEPALIVE void free_leaked(void) {
  while (leaked) {
    leak *next = leaked->next;
    free(leaked);
    leaked = next;
  }
  leaked_count = 0;
}

EMSCRIPTEN_KEEPALIVE unsigned leaked_blocks(void) { return leaked_count; }

/* Temporary allocations that do not outlive the next frame. (Kept in a
** static for one frame: clang deletes a malloc/free pair it can see.) */
static void scratch_work(int frame) {
  static char *previous;
  free(previous);
  previous = malloc(256 + (frame & 255));
  if (previous) memset(previous, frame, 256);
}

static void render(void) {
  static int frame;
  frame++;
  scratch_work(frame);
  /* Brighter red the more is leaked: the leak is visible on screen. */
  uint32_t red = leaked_count >= 64 ? 255 : leaked_count * 4;
  for (int y = 0; y < HEIGHT; y++) {
    for (int x = 0; x < WIDTH; x++) {
      uint32_t g = (uint32_t)((x + frame) ^ y) & 0xff;
      uint32_t b = (uint32_t)(y * 255 / HEIGHT);
      pixels[y * WIDTH + x] = 0xff000000u | (b << 16) | (g << 8) | (red > g ? red : g / 2);
    }
  }
  EM_ASM({
    var canvas = document.getElementById('canvas');
    if (!canvas) return;
    var ctx = canvas.getContext('2d');
    var image = new ImageData(new Uint8ClampedArray(HEAPU8.buffer, $0, $1 * $2 * 4), $1, $2);
    ctx.putImageData(image, 0, 0);
    var status = document.getElementById('status');
    if (status) status.textContent = 'leaked blocks: ' + $3;
  }, pixels, WIDTH, HEIGHT, leaked_count);
}

int main(void) {
  pixels = calloc(WIDTH * HEIGHT, sizeof *pixels);
  if (!pixels) return 1;
  emscripten_set_main_loop(render, 0, 0);
  return 0;
}
