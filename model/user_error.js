// user_error.js -- an error that is the user's to mend (a mark that is not
// there, a bad pattern, a grouping the file cannot give), marked so that
// the CLI says its message alone, without a stack (cli/errors.js).
'use strict';

function userError(message) {
  var e = new Error(message);
  e.userError = true;
  return e;
}

module.exports = {userError: userError};
