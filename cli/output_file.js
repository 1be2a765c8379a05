// output_file.js: where `convert` and `report` write, and how: the default
// name beside the input, the rule for what may be written over, and the
// write through a temporary file renamed over the target.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const { EmheapError } = require('./errors');

// "dir/memory-profile-X.speedscope.json" + ".pb.gz" -> "dir/memory-profile-X.pb.gz"
function defaultOutput(file, suffix) {
  const base = path.basename(file).replace(/(\.speedscope|\.perfview)?\.json$/i, '');
  return path.join(path.dirname(file), base + suffix);
}

// Same file, whatever the names (links, "./x" and "x", hard links).
function sameFile(a, b) {
  try {
    const x = fs.statSync(a);
    const y = fs.statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch (e) {
    return false;
  }
}

function kindOf(stat) {
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isFIFO()) return 'a FIFO (a named pipe)';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}

// The output rule: never the input, never anything but a regular file, and
// never a file that exists unless --force says so (a profile the user kept
// must not vanish by surprise). `cmd` names the command in the message.
function checkTarget(target, input, force, cmd) {
  if (sameFile(target, input)) {
    throw new EmheapError(`${cmd} would overwrite its input ${input}${target !== input ? ' (through ' + target + ')' : ''}: give another name with -o`);
  }
  let link;
  try {
    link = fs.lstatSync(target);
  } catch (e) {
    return; // nothing there
  }
  const pointed = link.isSymbolicLink() ? fs.statSync(target, { throwIfNoEntry: false }) : link;
  if (pointed && pointed.isDirectory()) throw new EmheapError(`cannot write ${target}: is a directory`);
  // a device, a FIFO, a socket (/dev/null, /proc/self/fd/1): never replaced
  // by a file, --force or not
  if (pointed && !pointed.isFile()) {
    throw new EmheapError(`cannot write ${target}: it is ${kindOf(pointed)}, not a regular file; give a file name with -o`);
  }
  if (!force) throw new EmheapError(`${target} exists${link.isSymbolicLink() ? ' (a link)' : ''}: give another name with -o, or --force to replace it`);
}

// Writes a temporary file beside the target with write(fd) and renames it
// over the target: a failed write never leaves half a file, and a link at
// the target is replaced, not followed. -> what write(fd) returned.
function writeReplacing(target, write) {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.emheap-tmp`);
  let fd = null;
  try {
    fd = fs.openSync(temp, 'wx');
    const written = write(fd);
    fs.closeSync(fd);
    fd = null;
    fs.renameSync(temp, target);
    return written;
  } catch (e) {
    if (fd !== null) fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    if (e instanceof EmheapError) throw e;
    throw new EmheapError(`cannot write ${target}: ${e.code === 'ENOENT' ? 'no such directory' : e.code || e.message}`);
  }
}

module.exports = { defaultOutput, checkTarget, writeReplacing };
