# Third-party programs under emheap (tests/e2e/third_party.test.js), included
# from tests/tests.mk. Built as their users build them: -O2 and Emscripten's
# defaults (16 MB heap, no growth, aborting malloc), linked as
# `emheap-config --ldflags` (or `--pthread --ldflags`) says, and once
# without emheap, whose output each run must match. The sources come from
# third_party/third_party.mk.

TP_BUILD := $(TEST_BUILD)/third_party

# Lua 5.2's interpreter, lua.c included: the app is Lua's own main().
LUA_NAMES := lapi lcode lctype ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes lparser lstate \
  lstring ltable ltm lundump lvm lzio lauxlib lbaselib lbitlib lcorolib ldblib liolib lmathlib \
  loslib lstrlib ltablib loadlib linit lua
LUA_OBJS := $(LUA_NAMES:%=$(TP_BUILD)/lua/%.o)

# (the sources arrive together with lapi.c: order-only)
$(TP_BUILD)/lua/%.o: | $(LUA_C)
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -DLUA_COMPAT_ALL -c $(LUA_SRC)/$*.c -o $@

$(TP_BUILD)/lua.plain.js: $(LUA_OBJS)
	$(EMCC) -O2 $^ -o $@

# (with heap_probe.c: mallinfo() beside emheap's reading of the heap)
$(TP_BUILD)/lua.emheap.js: $(LUA_OBJS) tests/third_party/heap_probe.c $(B)/emheap.o $(B)/library_emheap.js $(PAGE_JS)
	$(EMCC) -O2 $(LUA_OBJS) tests/third_party/heap_probe.c $(EMHEAP_LDFLAGS) -o $@

# SQLite, thread-safe, driven by four threads (sqlite_threads.c); main() on
# a pthread too (-sPROXY_TO_PTHREAD), as threaded apps that block do.
SQLITE_APP_FLAGS := -O2 -pthread -I$(THIRD_PARTY)/sqlite -sPROXY_TO_PTHREAD -sEXIT_RUNTIME=1

$(TP_BUILD)/sqlite3-mt.o: | $(SQLITE_C)
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -pthread -DSQLITE_THREADSAFE=1 -DSQLITE_OMIT_LOAD_EXTENSION -c $(SQLITE_C) -o $@

$(TP_BUILD)/sqlite_threads.plain.js: tests/third_party/sqlite_threads.c $(TP_BUILD)/sqlite3-mt.o
	$(EMCC) $(SQLITE_APP_FLAGS) $^ -o $@

$(TP_BUILD)/sqlite_threads.emheap.js: tests/third_party/sqlite_threads.c tests/third_party/heap_probe.c $(TP_BUILD)/sqlite3-mt.o \
  $(B)/emheap-mt.o $(B)/library_emheap.js $(PAGE_JS)
	$(EMCC) $(SQLITE_APP_FLAGS) $< tests/third_party/heap_probe.c $(TP_BUILD)/sqlite3-mt.o $(B)/emheap-mt.o --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) \
	  --extern-pre-js $(PAGE_JS) --profiling-funcs -o $@

# The same as a page (headless Chromium): the runtime stays up after main()
# returns (no EXIT_RUNTIME), so that the key can be pressed then.
$(TP_BUILD)/sqlite_page/index.html: tests/third_party/sqlite_threads.c $(TP_BUILD)/sqlite3-mt.o $(B)/emheap-mt.o \
  $(B)/library_emheap.js $(PAGE_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $(filter-out -sEXIT_RUNTIME=1,$(SQLITE_APP_FLAGS)) $< $(TP_BUILD)/sqlite3-mt.o $(B)/emheap-mt.o \
	  --js-library $(B)/library_emheap.js --extern-pre-js $(PAGE_JS) --profiling-funcs -sMINIFY_HTML=0 -o $@

test-programs: $(TP_BUILD)/lua.plain.js $(TP_BUILD)/lua.emheap.js $(TP_BUILD)/sqlite_threads.plain.js \
  $(TP_BUILD)/sqlite_threads.emheap.js $(TP_BUILD)/sqlite_page/index.html
