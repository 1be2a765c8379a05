/*
** sqlite_threads.c -- an app made of third-party code, for
** tests/third_party.test.js: SQLite (third_party/third_party.mk) used by four
** threads at once, each on a database of its own, while the app's first
** database stays open to the end, as apps leave theirs.
**
** Prints what SQLite answered (the same with or without emheap), then
** "SQLITE {...}": SQLite's own count of the allocations it holds and of
** their bytes (sqlite3_status), which the test compares with emheap's sites.
** Nothing allocates through SQLite after that line, and the kept database is
** never closed: the snapshot taken at exit sees what SQLite counted.
**
** Usage: sqlite_threads [rows per thread]   (default 3000)
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "sqlite3.h"

enum { THREADS = 4 };

static int rows = 3000;
/* Read by the heap scan at exit: the kept database is reachable. */
static sqlite3 *kept_db;

struct worker_result {
  int index;
  long long count, total_length;
  int status;
};

static int run_sql(sqlite3 *db, const char *sql) {
  char *error = NULL;
  int rc = sqlite3_exec(db, sql, NULL, NULL, &error);
  if (rc != SQLITE_OK) fprintf(stderr, "sqlite: %s\n", error ? error : sqlite3_errstr(rc));
  sqlite3_free(error);
  return rc;
}

/* A table with an index, `n` rows inserted in one transaction through a
** prepared statement. */
static int fill_table(sqlite3 *db, int n, int salt) {
  sqlite3_stmt *insert = NULL;
  int rc = run_sql(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, w REAL); CREATE INDEX tv ON t(v);");
  if (rc == SQLITE_OK) rc = run_sql(db, "BEGIN");
  if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(db, "INSERT INTO t(v, w) VALUES (?1, ?2)", -1, &insert, NULL);
  for (int i = 0; rc == SQLITE_OK && i < n; i++) {
    char text[64];
    snprintf(text, sizeof text, "row %d of %d, salt %d", (i * 7919) % n, n, salt);
    sqlite3_bind_text(insert, 1, text, -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(insert, 2, i * 0.5);
    rc = sqlite3_step(insert) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    sqlite3_reset(insert);
  }
  sqlite3_finalize(insert);
  if (rc == SQLITE_OK) rc = run_sql(db, "COMMIT");
  return rc;
}

static void *worker(void *arg) {
  struct worker_result *out = arg;
  sqlite3 *db = NULL;
  sqlite3_stmt *query = NULL;
  int rc = sqlite3_open(":memory:", &db);
  if (rc == SQLITE_OK) rc = fill_table(db, rows, out->index);
  if (rc == SQLITE_OK)
    rc = sqlite3_prepare_v2(db, "SELECT count(*), sum(length(v)) FROM t WHERE v LIKE 'row 1%' OR w > 100", -1,
                            &query, NULL);
  if (rc == SQLITE_OK && sqlite3_step(query) == SQLITE_ROW) {
    out->count = sqlite3_column_int64(query, 0);
    out->total_length = sqlite3_column_int64(query, 1);
  }
  sqlite3_finalize(query);
  sqlite3_close(db);
  out->status = rc;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc > 1) rows = atoi(argv[1]);
  if (sqlite3_open(":memory:", &kept_db) != SQLITE_OK || fill_table(kept_db, rows / 2, 99) != SQLITE_OK) return 1;

  /* Emscripten's default heap is 16 MB and a thread's default stack 2 MB:
  ** five threads (with -sPROXY_TO_PTHREAD's main) would not fit, with or
  ** without emheap. Apps that start threads set their stack size. */
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  pthread_t threads[THREADS];
  struct worker_result results[THREADS] = {{0}};
  for (int i = 0; i < THREADS; i++) {
    results[i].index = i;
    if (pthread_create(&threads[i], &attr, worker, &results[i]) != 0) return 2;
  }
  for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
  for (int i = 0; i < THREADS; i++)
    printf("thread %d: status %d, %lld rows, %lld characters\n", i, results[i].status, results[i].count,
           results[i].total_length);

  sqlite3_int64 count = 0, count_high = 0;
  sqlite3_status64(SQLITE_STATUS_MALLOC_COUNT, &count, &count_high, 0);
  printf("SQLITE {\"mallocCount\":%lld,\"memoryUsed\":%lld,\"sqliteVersion\":\"%s\"}\n", (long long)count,
         (long long)sqlite3_memory_used(), sqlite3_libversion());
  fflush(stdout);
  return 0;
}
