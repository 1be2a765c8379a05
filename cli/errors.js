// errors.js: the one error type the CLI reports to the user. Anything thrown
// as an EmheapError is printed as a single "emheap: <message>" line on stderr
// and ends the program with its exit code (2: bad usage or bad input;
// 1 is reserved for a budget that `emheap check` found exceeded).
'use strict';

class EmheapError extends Error {
  constructor(message, exitCode = 2) {
    super(message);
    this.name = 'EmheapError';
    this.exitCode = exitCode;
  }
}

module.exports = { EmheapError };
