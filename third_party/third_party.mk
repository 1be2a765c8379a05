# Third-party C programs that the bench and the tests run under emheap: real
# code with its own allocation patterns, which this project does not ship.
# Each is taken from an npm package (npm pack runs no install scripts) into
# build/third_party/ the first time a target needs it; never committed.
#
#   SQLite  the amalgamation in better-sqlite3 (public domain); its own
#           allocation layer (sqlite3Malloc, lookaside, page cache)
#   Lua 5.2 the C sources in lua.vm.js (MIT); every allocation goes through
#           lua_Alloc (l_alloc, luaM_realloc_)

THIRD_PARTY := $(B)/third_party
SQLITE_PKG := better-sqlite3@13.2.0
SQLITE_C := $(THIRD_PARTY)/sqlite/sqlite3.c
LUA_PKG := lua.vm.js@0.0.1
LUA_SRC := $(THIRD_PARTY)/lua/src
LUA_C := $(LUA_SRC)/lapi.c

.PHONY: third-party
third-party: $(SQLITE_C) $(LUA_C)

# npm pack into a scratch folder, then the wanted files moved into place
# whole: an interrupted fetch leaves no half tree behind.
$(LUA_C):
	@rm -rf $(THIRD_PARTY)/lua/pack && mkdir -p $(THIRD_PARTY)/lua/pack
	cd $(THIRD_PARTY)/lua/pack && npm pack --ignore-scripts --silent $(LUA_PKG) > pack.txt
	tar -xzmf $(THIRD_PARTY)/lua/pack/$$(tail -1 $(THIRD_PARTY)/lua/pack/pack.txt) -C $(THIRD_PARTY)/lua/pack package/lua/src
	rm -rf $(LUA_SRC) && mv $(THIRD_PARTY)/lua/pack/package/lua/src $(LUA_SRC)
	rm -rf $(THIRD_PARTY)/lua/pack

$(SQLITE_C):
	@rm -rf $(THIRD_PARTY)/sqlite/pack && mkdir -p $(THIRD_PARTY)/sqlite/pack
	cd $(THIRD_PARTY)/sqlite/pack && npm pack --ignore-scripts --silent $(SQLITE_PKG) > pack.txt
	tar -xzmf $(THIRD_PARTY)/sqlite/pack/$$(tail -1 $(THIRD_PARTY)/sqlite/pack/pack.txt) -C $(THIRD_PARTY)/sqlite/pack \
	  package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h
	mv $(THIRD_PARTY)/sqlite/pack/package/deps/sqlite3/sqlite3.h $(THIRD_PARTY)/sqlite/sqlite3.h
	mv $(THIRD_PARTY)/sqlite/pack/package/deps/sqlite3/sqlite3.c $@
	rm -rf $(THIRD_PARTY)/sqlite/pack
