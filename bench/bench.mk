# Benchmarks: `make bench` (included from the Makefile). Builds the workloads
# in bench/workloads/ in every configuration and prints one table; see
# bench/README.md. Everything goes to build/bench/.
#
# SQLite and Lua are third-party code this project does not ship
# (third_party/third_party.mk fetches them). If that fails, their rows show
# the error and the rest of the bench still runs; so does a runtime that does
# not build right now (the emheap rows show it).

BENCH_OUT := $(B)/bench

.PHONY: bench growth-scan timeline-cost

bench:
	@mkdir -p $(BENCH_OUT)
	@if $(MAKE) --no-print-directory runtime > $(BENCH_OUT)/runtime-build.log 2>&1; then \
	  rm -f $(BENCH_OUT)/runtime-build.failed; \
	else \
	  touch $(BENCH_OUT)/runtime-build.failed; \
	  echo "bench: 'make runtime' failed, emheap rows will show errors:"; tail -5 $(BENCH_OUT)/runtime-build.log; \
	fi
	-@$(MAKE) --no-print-directory $(SQLITE_C)
	-@$(MAKE) --no-print-directory $(LUA_C)
	$(NODE) bench/run-bench.js
	$(NODE) bench/timeline_cost.js

# What the per-site timelines and the marks cost (bench/timeline_cost.js);
# also the last part of `make bench`.
timeline-cost:
	$(NODE) bench/timeline_cost.js

# What a growth of the wasm memory costs: the pass over the sites that
# ranks them (bench/growth_scan.c), timed under node.
growth-scan: $(BENCH_OUT)/growth_scan.js
	$(NODE) --no-experimental-fetch $<
$(BENCH_OUT)/growth_scan.js: bench/growth_scan.c runtime/site_table.c $(RUNTIME_HDR)
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -Iruntime bench/growth_scan.c runtime/site_table.c -sALLOW_MEMORY_GROWTH=1 -o $@
