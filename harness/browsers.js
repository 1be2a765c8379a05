// browsers.js -- the headless browsers that the tests and the bench drive:
// where they are (EMHEAP_CHROMIUM, EMHEAP_FIREFOX override Debian's paths),
// whether this machine has them, and Chromium's flags, one list for both.
'use strict';

const fs = require('node:fs');

const CHROMIUM = process.env.EMHEAP_CHROMIUM || '/usr/bin/chromium';
// Headless, in a container (no sandbox, no GPU), and quiet: nothing goes
// to the network behind a test's back.
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run'];
const FIREFOX = process.env.EMHEAP_FIREFOX || '/usr/bin/firefox-esr';

function haveChromium() {
  return fs.existsSync(CHROMIUM);
}

function haveFirefox() {
  return fs.existsSync(FIREFOX);
}

module.exports = {CHROMIUM, CHROMIUM_FLAGS, FIREFOX, haveChromium, haveFirefox};
