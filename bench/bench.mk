# Benchmarks: `make bench` (included from the Makefile). Builds the workloads
# in bench/workloads/ in every configuration and prints one table; see
# bench/README.md. Everything goes to build/bench/.
#
# SQLite is third-party code this project does not ship: its amalgamation is
# taken from the npm package better-sqlite3 at bench time (npm pack runs no
# install scripts). If that fails, the sqlite rows show the error and the rest
# of the bench still runs; so does a runtime that does not build right now
# (the emheap rows show it).

BENCH_OUT := $(B)/bench
BENCH_SQLITE_PKG := better-sqlite3@13.2.0
BENCH_SQLITE := $(BENCH_OUT)/sqlite/sqlite3.c
# Lua 5.2's C sources, as the npm package lua.vm.js ships them (MIT).
BENCH_LUA_PKG := lua.vm.js@0.0.1
BENCH_LUA := $(BENCH_OUT)/lua/src/lapi.c

.PHONY: bench bench-sqlite bench-lua

bench:
	@mkdir -p $(BENCH_OUT)
	@if $(MAKE) --no-print-directory runtime > $(BENCH_OUT)/runtime-build.log 2>&1; then \
	  rm -f $(BENCH_OUT)/runtime-build.failed; \
	else \
	  touch $(BENCH_OUT)/runtime-build.failed; \
	  echo "bench: 'make runtime' failed, emheap rows will show errors:"; tail -5 $(BENCH_OUT)/runtime-build.log; \
	fi
	-@$(MAKE) --no-print-directory bench-sqlite
	-@$(MAKE) --no-print-directory bench-lua
	$(NODE) bench/run-bench.js

bench-sqlite: $(BENCH_SQLITE)
bench-lua: $(BENCH_LUA)

$(BENCH_LUA):
	@mkdir -p $(BENCH_OUT)/lua/pack
	cd $(BENCH_OUT)/lua/pack && npm pack --ignore-scripts --silent $(BENCH_LUA_PKG) > pack.txt
	tar -xzmf $(BENCH_OUT)/lua/pack/$$(tail -1 $(BENCH_OUT)/lua/pack/pack.txt) -C $(BENCH_OUT)/lua/pack package/lua/src
	rm -rf $(BENCH_OUT)/lua/src && mv $(BENCH_OUT)/lua/pack/package/lua/src $(BENCH_OUT)/lua/src
	rm -rf $(BENCH_OUT)/lua/pack

$(BENCH_SQLITE):
	@mkdir -p $(BENCH_OUT)/sqlite/pack
	cd $(BENCH_OUT)/sqlite/pack && npm pack --ignore-scripts --silent $(BENCH_SQLITE_PKG) > pack.txt
	tar -xzmf $(BENCH_OUT)/sqlite/pack/$$(tail -1 $(BENCH_OUT)/sqlite/pack/pack.txt) -C $(BENCH_OUT)/sqlite/pack \
	  package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h
	mv $(BENCH_OUT)/sqlite/pack/package/deps/sqlite3/sqlite3.h $(BENCH_OUT)/sqlite/sqlite3.h
	mv $(BENCH_OUT)/sqlite/pack/package/deps/sqlite3/sqlite3.c $@
	rm -rf $(BENCH_OUT)/sqlite/pack
