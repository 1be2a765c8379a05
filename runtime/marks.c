/*
** marks.c -- moments the program names (emheap_mark), and keeping block
** serials in the order of those moments.
**
** A mark records the block serial of its moment: the recorded live blocks
** with a larger serial were made after it. That is how a snapshot tells,
** exactly in exact mode, what was allocated after a mark and is still
** live, with nothing added to an allocation's work. JS makes marks too
** (emheap.mark, Ctrl+Shift+M: jslib/marks.js), writing the same ring under
** the same lock.
**
** Serials are 31 bits (block_table.c). When the next would pass 2^31 - 1,
** the live blocks are numbered again from 1, period by period (a period:
** the blocks made between two kept marks), and each kept mark gets the
** last number of the period before it: every block then still compares
** with every mark as it did. Two passes over the recorded blocks, once per
** 2^31 allocations recorded. A block's identity across snapshots (its
** serial) changes there: a diff of snapshots taken on both sides of it
** matches sites, not blocks.
*/
#include <emscripten/emscripten.h>

#include "emheap_internal.h"
#include "lock.h"

/* JS side (jslib/library_emheap.js): mark `number` was just made; outside
** the lock. The main thread takes a point of the timelines then. */
extern void emheap_js_marked(uint32_t number);
extern double emheap_js_now(void);

/* "mark N" into out (at least 16 bytes). */
static void default_name(char *out, uint32_t n) {
  char digits[10];
  int k = 0;
  do digits[k++] = (char)('0' + n % 10); while ((n /= 10));
  const char *prefix = "mark ";
  int i = 0;
  while (*prefix) out[i++] = *prefix++;
  while (k) out[i++] = digits[--k];
  out[i] = 0;
}

/* name cut to fit, at a character boundary of its UTF-8. */
static void copy_name(char *out, const char *name) {
  uint32_t n = 0;
  while (name[n] && n < EMHEAP_MARK_NAME - 1) n++;
  if (name[n]) /* cut: do not end inside a character (10xxxxxx continues one) */
    while (n && ((unsigned char)name[n] & 0xC0u) == 0x80u) n--;
  for (uint32_t i = 0; i < n; i++) out[i] = name[i];
  out[n] = 0;
}

void emheap_mark(const char *name) {
  if (emheap_g.magic != EMHEAP_MAGIC) emheap_init_slow();
  emheap_lock();
  /* (timed under the lock: marks from two threads read in number order) */
  double t = emheap_js_now() - emheap_g.start_ms;
  uint32_t number = emheap_g.mark_count + 1u;
  emheap_mark_record *m = &emheap_g.marks[(number - 1u) % EMHEAP_MARK_LOG];
  m->serial = emheap_g.block_serial;
  m->reserved = 0;
  m->t = t;
  if (name && name[0]) copy_name(m->name, name);
  else default_name(m->name, number);
  emheap_g.mark_count = number;
  emheap_unlock();
  emheap_js_marked(number);
}

/* The kept marks, oldest first: their serials never go down. */
typedef struct renumbering {
  uint32_t marks;                          /* how many are kept */
  uint32_t bound[EMHEAP_MARK_LOG];         /* their serials */
  uint32_t next[EMHEAP_MARK_LOG + 1];      /* per period: its next number (pass 2), or its count (pass 1) */
} renumbering;

/* The period of a block with serial s: how many kept marks came before it. */
static uint32_t period_of(const renumbering *r, uint32_t s) {
  uint32_t lo = 0, hi = r->marks;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (r->bound[mid] < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static void count_block(uint32_t *serial, void *ctx) {
  renumbering *r = ctx;
  r->next[period_of(r, *serial & ~EMHEAP_BLOCK_WEIGHTED)]++;
}

static void number_block(uint32_t *serial, void *ctx) {
  renumbering *r = ctx;
  uint32_t p = period_of(r, *serial & ~EMHEAP_BLOCK_WEIGHTED);
  *serial = r->next[p]++ | (*serial & EMHEAP_BLOCK_WEIGHTED);
}

uint32_t emheap_serials_renumber(void) {
  static renumbering r; /* 1 KiB: not on a thread's small stack; under the lock */
  uint32_t count = emheap_g.mark_count;
  uint32_t kept = count < EMHEAP_MARK_LOG ? count : EMHEAP_MARK_LOG;
  uint32_t first = count - kept + 1u; /* the oldest kept mark's number */
  r.marks = kept;
  for (uint32_t j = 0; j < kept; j++) r.bound[j] = emheap_g.marks[(first + j - 1u) % EMHEAP_MARK_LOG].serial;
  for (uint32_t p = 0; p <= kept; p++) r.next[p] = 0;
  emheap_blocks_each_serial(count_block, &r);
  /* counts -> first numbers; mark j ends period j */
  uint32_t at = 1;
  for (uint32_t p = 0; p <= kept; p++) {
    uint32_t n = r.next[p];
    r.next[p] = at;
    at += n;
    if (p < kept) emheap_g.marks[(first + p - 1u) % EMHEAP_MARK_LOG].serial = at - 1u;
  }
  emheap_blocks_each_serial(number_block, &r);
  emheap_g.serial_renumbers++;
  return at - 1u;
}
