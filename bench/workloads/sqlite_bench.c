/*
** sqlite_bench.c -- a realistic third-party workload: SQLite (the amalgamation
** shipped in npm better-sqlite3, fetched by `make bench`) on an in-memory
** database. One round: create two tables with indexes, insert rows in
** transactions through prepared statements (text and integers), run range
** scans, a join, GROUP BY, LIKE and ORDER BY queries, update and delete rows,
** close. Prints one JSON line for the timed rounds; one op = one row
** processed (inserted, returned by a query, or changed by UPDATE/DELETE).
** "alloc_calls" counts the malloc/realloc/free calls SQLite made (through a
** counting shim over its default allocator) in the timed part.
**
** Usage: sqlite_bench [rounds [orders_per_round]]   (defaults 5, 5000)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>

#include "repetitions.h"

#include "sqlite3.h"

static long rows;        /* ops: rows processed */
static long alloc_calls; /* malloc + realloc + free calls made by SQLite */
static long checksum;
static sqlite3_mem_methods base_mem;

/* ---- counting shim over SQLite's default allocator ---------------------- */

static void *count_malloc(int n) { alloc_calls++; return base_mem.xMalloc(n); }
static void count_free(void *p) { alloc_calls++; base_mem.xFree(p); }
static void *count_realloc(void *p, int n) { alloc_calls++; return base_mem.xRealloc(p, n); }

static void install_counting_allocator(void) {
  sqlite3_mem_methods m;
  sqlite3_config(SQLITE_CONFIG_GETMALLOC, &base_mem);
  m = base_mem;
  m.xMalloc = count_malloc;
  m.xFree = count_free;
  m.xRealloc = count_realloc;
  sqlite3_config(SQLITE_CONFIG_MALLOC, &m);
}

/* ---- helpers ------------------------------------------------------------ */

static void die(sqlite3 *db, const char *what) {
  fprintf(stderr, "sqlite_bench: %s: %s\n", what, db ? sqlite3_errmsg(db) : "?");
  exit(1);
}

static void exec(sqlite3 *db, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
    fprintf(stderr, "sqlite_bench: %s: %s\n", sql, err ? err : "?");
    exit(1);
  }
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) die(db, sql);
  return st;
}

/* Steps a statement to the end; each result row is one op and its columns
** feed the checksum (so no query result is dead). */
static void drain(sqlite3 *db, sqlite3_stmt *st) {
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    rows++;
    for (int c = 0; c < sqlite3_column_count(st); c++) {
      if (sqlite3_column_type(st, c) == SQLITE_TEXT) checksum += sqlite3_column_bytes(st, c);
      else checksum += sqlite3_column_int64(st, c);
    }
  }
  if (rc != SQLITE_DONE) die(db, "step");
  sqlite3_reset(st);
}

/* Runs a statement that changes rows; the changed rows are ops. */
static void change(sqlite3 *db, sqlite3_stmt *st) {
  if (sqlite3_step(st) != SQLITE_DONE) die(db, "step (change)");
  rows += sqlite3_changes(db);
  sqlite3_reset(st);
}

static unsigned rng = 12345;
static unsigned next_rand(void) { return rng = rng * 1103515245u + 12345u; }

static const char *SYLLABLES[] = {"an", "ber", "co", "dan", "el", "fi", "gor", "ha", "is",
                                  "jo", "ka", "li", "mo", "ne", "or", "pa", "qui", "ro"};
static const char *CITIES[] = {"Amsterdam", "Berlin", "Cairo", "Dakar", "Edinburgh", "Faro",
                               "Geneva", "Hanoi", "Izmir", "Jakarta", "Kyoto", "Lima"};
static const char *PRODUCTS[] = {"apple", "bread", "cheese", "dates", "eggs", "flour", "grapes",
                                 "honey", "ink", "jam", "kale", "lemons", "milk", "nuts",
                                 "oats", "pears", "quinoa", "rice", "salt", "tea"};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void random_name(char *buf, size_t size) {
  size_t len = 0;
  int parts = 2 + (int)(next_rand() >> 16) % 3;
  buf[0] = 0;
  for (int i = 0; i < parts && len + 4 < size; i++) {
    const char *s = SYLLABLES[(next_rand() >> 16) % COUNT(SYLLABLES)];
    len += (size_t)snprintf(buf + len, size - len, "%s", s);
  }
  snprintf(buf + len, size - len, " %u", (next_rand() >> 16) % 1000);
}

/* ---- one round ---------------------------------------------------------- */

static void round_of(int orders) {
  int customers = orders / 10 > 10 ? orders / 10 : 10;
  char name[64], note[96];
  sqlite3 *db;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) die(db, "open");

  exec(db,
       "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL,"
       " created INTEGER NOT NULL);"
       "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, product TEXT NOT NULL,"
       " qty INTEGER NOT NULL, price INTEGER NOT NULL, note TEXT);"
       "CREATE INDEX customers_city ON customers(city);"
       "CREATE INDEX orders_customer ON orders(customer_id);"
       "CREATE INDEX orders_product ON orders(product, price);");

  /* Inserts: transactions of 1000 rows through prepared statements. */
  sqlite3_stmt *ins_c = prepare(db, "INSERT INTO customers(id, name, city, created) VALUES(?1, ?2, ?3, ?4)");
  sqlite3_stmt *ins_o = prepare(db, "INSERT INTO orders(customer_id, product, qty, price, note)"
                                    " VALUES(?1, ?2, ?3, ?4, ?5)");
  for (int i = 1; i <= customers; i++) {
    if (i % 1000 == 1) exec(db, "BEGIN");
    random_name(name, sizeof name);
    sqlite3_bind_int(ins_c, 1, i);
    sqlite3_bind_text(ins_c, 2, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(ins_c, 3, CITIES[(next_rand() >> 16) % COUNT(CITIES)], -1, SQLITE_STATIC);
    sqlite3_bind_int64(ins_c, 4, 1700000000 + (sqlite3_int64)(next_rand() % 10000000));
    change(db, ins_c);
    if (i % 1000 == 0 || i == customers) exec(db, "COMMIT");
  }
  for (int i = 1; i <= orders; i++) {
    if (i % 1000 == 1) exec(db, "BEGIN");
    const char *product = PRODUCTS[(next_rand() >> 16) % COUNT(PRODUCTS)];
    snprintf(note, sizeof note, "%s order %d for %s", i % 9 == 0 ? "gift" : "regular", i, product);
    sqlite3_bind_int(ins_o, 1, 1 + (int)((next_rand() >> 8) % (unsigned)customers));
    sqlite3_bind_text(ins_o, 2, product, -1, SQLITE_STATIC);
    sqlite3_bind_int(ins_o, 3, 1 + (int)((next_rand() >> 16) % 20));
    sqlite3_bind_int(ins_o, 4, 50 + (int)((next_rand() >> 16) % 5000));
    sqlite3_bind_text(ins_o, 5, note, -1, SQLITE_TRANSIENT);
    change(db, ins_o);
    if (i % 1000 == 0 || i == orders) exec(db, "COMMIT");
  }
  sqlite3_finalize(ins_c);
  sqlite3_finalize(ins_o);

  /* Range scans on the customer index. */
  sqlite3_stmt *range = prepare(db, "SELECT id, qty, price, note FROM orders"
                                    " WHERE customer_id BETWEEN ?1 AND ?2 ORDER BY price DESC");
  for (int i = 0; i < 50; i++) {
    int lo = 1 + (int)((next_rand() >> 8) % (unsigned)customers);
    sqlite3_bind_int(range, 1, lo);
    sqlite3_bind_int(range, 2, lo + customers / 50);
    drain(db, range);
  }
  sqlite3_finalize(range);

  /* A join with GROUP BY, per city. */
  sqlite3_stmt *join = prepare(db,
      "SELECT c.name, COUNT(*), SUM(o.qty * o.price) FROM customers c"
      " JOIN orders o ON o.customer_id = c.id WHERE c.city = ?1"
      " GROUP BY c.id ORDER BY 3 DESC LIMIT 25");
  for (int i = 0; i < COUNT(CITIES); i++) {
    sqlite3_bind_text(join, 1, CITIES[i], -1, SQLITE_STATIC);
    drain(db, join);
  }
  sqlite3_finalize(join);

  /* GROUP BY over the whole table, LIKE scans, a sort on text. */
  const char *queries[] = {
      "SELECT product, COUNT(*), SUM(qty), AVG(price), MAX(note) FROM orders GROUP BY product ORDER BY 2 DESC",
      "SELECT city, COUNT(*), MIN(name), MAX(created) FROM customers GROUP BY city",
      "SELECT id, name FROM customers WHERE name LIKE '%an%o%'",
      "SELECT id, note FROM orders WHERE note LIKE 'gift%'",
      "SELECT name, city FROM customers ORDER BY name LIMIT 200",
      "SELECT o.product, c.city, SUM(o.qty) FROM orders o JOIN customers c ON c.id = o.customer_id"
      " WHERE o.price BETWEEN 1000 AND 1500 GROUP BY 1, 2",
  };
  for (int i = 0; i < COUNT(queries); i++) {
    sqlite3_stmt *q = prepare(db, queries[i]);
    drain(db, q);
    sqlite3_finalize(q);
  }

  /* Updates (a bulk one and point updates) and deletes, in transactions. */
  exec(db, "BEGIN");
  sqlite3_stmt *bulk = prepare(db, "UPDATE orders SET qty = qty + 1, note = note || ' (updated)'"
                                   " WHERE customer_id % 7 = ?1");
  sqlite3_bind_int(bulk, 1, 3);
  change(db, bulk);
  sqlite3_finalize(bulk);
  sqlite3_stmt *point = prepare(db, "UPDATE customers SET city = ?1, name = name || '*' WHERE id = ?2");
  for (int i = 0; i < customers / 4; i++) {
    sqlite3_bind_text(point, 1, CITIES[(next_rand() >> 16) % COUNT(CITIES)], -1, SQLITE_STATIC);
    sqlite3_bind_int(point, 2, 1 + (int)((next_rand() >> 8) % (unsigned)customers));
    change(db, point);
  }
  sqlite3_finalize(point);
  exec(db, "COMMIT");
  exec(db, "BEGIN");
  sqlite3_stmt *del = prepare(db, "DELETE FROM orders WHERE id % 5 = 0 OR qty > 19");
  change(db, del);
  sqlite3_finalize(del);
  del = prepare(db, "DELETE FROM customers WHERE id NOT IN (SELECT customer_id FROM orders)");
  change(db, del);
  sqlite3_finalize(del);
  exec(db, "COMMIT");

  sqlite3_stmt *left = prepare(db, "SELECT (SELECT COUNT(*) FROM orders), (SELECT COUNT(*) FROM customers)");
  drain(db, left);
  sqlite3_finalize(left);

  if (sqlite3_close(db) != SQLITE_OK) die(db, "close");
}

static int orders_per_round;

static long one_repetition(void) {
  long before = rows;
  round_of(orders_per_round);
  return rows - before;
}

static void report(repetitions *reps) {
  repetitions_print_timing("sqlite", reps);
  printf(",\"alloc_calls\":%ld,\"rounds\":%d,\"orders_per_round\":%d,\"sqlite\":\"%s\",\"checksum\":%ld}\n", alloc_calls,
         reps->count, orders_per_round, sqlite3_libversion(), checksum);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5;
  int orders = argc > 2 ? atoi(argv[2]) : 5000;
  if (rounds < 1) rounds = 1;
  if (orders < 100) orders = 100;
  orders_per_round = orders;
  install_counting_allocator();
  if (sqlite3_initialize() != SQLITE_OK) die(NULL, "initialize");

  /* Warm-up: a small round grows the heap, tiers up the code and lets a
  ** profiler see the stacks once, before timing. */
  round_of(orders / 10);
  rows = 0;
  alloc_calls = 0;
  checksum = 0;
  rng = 12345;
  run_repetitions(one_repetition, rounds, report);
  return 0;
}
