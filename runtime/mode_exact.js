// mode_exact.js -- the --pre-js that `emheap-config --mode=exact` adds beside
// emheap_mode_exact.o: the JS library learns the link line's mode before the
// module loads (exact mode rewrites the module for calling contexts then).
Module['emheapLinkMode'] = 'exact';
