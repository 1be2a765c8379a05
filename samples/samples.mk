# Sample apps. Each is built twice: with emheap (what a user does: one
# addition to the link line) and without it (the control for the tests).

SAMPLE_BUILD := $(B)/samples
# A web app's own link flags; emheap adds $(EMHEAP_LDFLAGS) and nothing else.
# -gsource-map: emheap reads the map, so frames show leaky.c:LINE.
LEAKY_FLAGS := -O2 -gsource-map --source-map-base ./ -sALLOW_MEMORY_GROWTH=1 -sMINIFY_HTML=0 \
  -sEXPORTED_RUNTIME_METHODS=ccall --shell-file samples/leaky-canvas/shell.html

samples: $(SAMPLE_BUILD)/leaky-canvas/index.html $(SAMPLE_BUILD)/leaky-canvas-plain/index.html

$(SAMPLE_BUILD)/leaky-canvas/index.html: samples/leaky-canvas/leaky.c samples/leaky-canvas/shell.html $(B)/emheap.o $(B)/library_emheap.js $(SHELL_JS)
	@mkdir -p $(dir $@)
	$(EMCC) $< $(LEAKY_FLAGS) $(EMHEAP_LDFLAGS) -o $@

$(SAMPLE_BUILD)/leaky-canvas-plain/index.html: samples/leaky-canvas/leaky.c samples/leaky-canvas/shell.html
	@mkdir -p $(dir $@)
	$(EMCC) $< $(LEAKY_FLAGS) -o $@
