/**
 * Launchers for the runners that run tests in their own process (jest in band, mocha): Retrace's reporter
 * flags reach the runner, never the code under test. Appended to the command line they would sit in
 * `process.argv`, which tests read (commander's `program.parse()` with no arguments parses `process.argv`):
 * an artefact of Retrace's, not of the code, would decide the verdict.
 *
 * Each launcher is a small CommonJS file placed in the workspace for one run (`.retrace-run-<nonce>.cjs`),
 * started with `node` in place of the runner's command word; the arguments the command gave the runner
 * follow it. It finds the runner the repository installed (from the working directory, as `npx` would)
 * and hands it the command's arguments plus Retrace's reporter options, last, so that they win over a
 * reporter option of the user's (`--reporter spec` on the command line, a `.mocharc` reporter), while
 * `process.argv` is what the command gave: `[node, <runner bin>, ...the command's arguments]`.
 * - jest: `run(argv)` of its programmatic API, `process.argv` set before; the command's own `--json` and
 *   `--outputFile` are dropped (Retrace's report is the one jest writes).
 * - mocha: its own bin, in process, so that everything it does (the config files, the child process for node
 *   flags, parallel mode) is unchanged; a module required first (`--require`, before the user's) sets
 *   `process.argv` back before any test file or user module loads, in every process that runs tests.
 * Written for the oldest Node Retrace runs (no `?.`, no `??`).
 */

/** A runner's arguments split at `--`, the options named in `drop` removed (with their value when `drop` says they take one). */
const SPLIT_ARGS = `
function splitArgs(args, drop) {
  var dash = args.indexOf('--');
  var head = dash === -1 ? args.slice() : args.slice(0, dash);
  var tail = dash === -1 ? [] : args.slice(dash);
  var kept = [];
  for (var i = 0; i < head.length; i++) {
    var a = head[i];
    var eq = a.indexOf('=');
    var name = eq === -1 ? a : a.slice(0, eq);
    if (!Object.prototype.hasOwnProperty.call(drop, name)) { kept.push(a); continue; }
    if (eq === -1 && drop[name] && i + 1 < head.length && head[i + 1].charAt(0) !== '-') i++;
  }
  return { head: kept, tail: tail };
}
function binOf(name, resolved) {
  var path = require('path');
  var fs = require('fs');
  for (var dir = process.cwd(); ; dir = path.dirname(dir)) {
    var candidate = path.join(dir, 'node_modules', '.bin', name);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return resolved;
  }
}
`;

/** The jest launcher: `run([...args, --ci, --json, --outputFile=<report>])` with `process.argv` as given. */
export function jestLauncher(reportPath: string): string {
  return `'use strict';
// Retrace: runs jest with Retrace's JSON report; process.argv stays what the command gave jest.
var path = require('path');
var req = require('module').createRequire(path.join(process.cwd(), '__retrace__.js'));
${SPLIT_ARGS}
var given = process.argv.slice(2);
// The command's --json and --outputFile (its value next when not after =): Retrace's own report replaces them.
var parts = splitArgs(given, { '--json': false, '--outputFile': true, '--output-file': true });
var run = null, bin = null, errors = [];
var tries = [['jest', 'jest/bin/jest.js'], ['jest-cli', 'jest-cli/bin/jest.js']];
for (var i = 0; i < tries.length && run === null; i++) {
  try {
    var m = req(tries[i][0]);
    run = typeof m.run === 'function' ? m.run : null;
    if (run === null) run = req('jest-cli/build/cli').run;
    try { bin = req.resolve(tries[i][1]); } catch (e) { bin = tries[i][0]; }
  } catch (e) { run = null; errors.push(tries[i][0] + ': ' + (e && e.message ? e.message.split('\\n')[0] : String(e))); }
}
if (run === null) {
  console.error('jest is not installed where the test command runs (' + process.cwd() + '): ' + errors.join('; '));
  process.exit(127);
}
var ours = ['--json', '--outputFile=' + ${JSON.stringify(reportPath)}];
if (parts.head.indexOf('--ci') === -1) ours.unshift('--ci');
process.argv.splice(0, process.argv.length, process.execPath, binOf('jest', bin));
Array.prototype.push.apply(process.argv, given);
if (process.env.NODE_ENV == null) process.env.NODE_ENV = 'test';
run(parts.head.concat(ours, parts.tail));
`;
}

/**
 * The module mocha requires first in every process it starts: `process.argv` without Retrace's options and,
 * in the process that reports (mocha's own, in process or the child started for node flags; not a parallel
 * worker), mocha's reporter set to Retrace's xunit file whatever the configuration says (a `.mocharc`
 * `reporter-option: output=…` would otherwise win over the command line's).
 */
export function mochaArgvRestore(nonce: string, reportPath: string): string {
  return `'use strict';
// Retrace: the tests see process.argv as the command gave it, without Retrace's reporter options.
var key = Symbol.for('retrace.argv');
var given = global[key];
var reporting = Array.isArray(given) || /[\\\\/]cli[\\\\/]cli\\.js$/.test(process.argv[1] || '');
if (Array.isArray(given)) {
  delete global[key];
  process.argv.splice.apply(process.argv, [0, process.argv.length].concat(given));
} else {
  // A child mocha started (node flags, parallel workers): drop every option naming this run's files.
  var a = process.argv, out = [];
  for (var i = 0; i < a.length; i++) {
    var t = a[i];
    if (t.indexOf(${JSON.stringify(nonce)}) !== -1) {
      var prev = out[out.length - 1];
      if (t.charAt(0) !== '-' && /^(--require|-r|--reporter-options?|-O)$/.test(prev)) out.pop();
      continue;
    }
    if ((t === '--reporter' || t === '-R') && a[i + 1] === 'xunit') { i++; continue; }
    if (t === '--reporter=xunit') continue;
    out.push(t);
  }
  process.argv.splice.apply(process.argv, [0, a.length].concat(out));
}
if (reporting) {
  try {
    var Mocha = require(require.resolve('mocha/lib/mocha.js', { paths: [process.cwd()] }));
    var reporter = Mocha.prototype.reporter;
    if (typeof reporter === 'function' && !reporter.retrace) {
      var forced = function (name, options) {
        var o = {};
        for (var k in options || {}) o[k] = options[k];
        o.output = ${JSON.stringify(reportPath)};
        return reporter.call(this, 'xunit', o);
      };
      forced.retrace = true;
      Mocha.prototype.reporter = forced;
    }
  } catch (e) {
    // The command line's --reporter xunit still stands.
  }
}
`;
}

/** The mocha launcher: mocha's own bin with Retrace's xunit reporter last and the argv-restoring module first. */
export function mochaLauncher(reportPath: string, restorePath: string): string {
  return `'use strict';
// Retrace: runs mocha with Retrace's xunit report; the tests see process.argv as the command gave it.
var path = require('path');
var req = require('module').createRequire(path.join(process.cwd(), '__retrace__.js'));
${SPLIT_ARGS}
var given = process.argv.slice(2);
var parts = splitArgs(given, {});
var bin = null, errors = [];
var bins = ['mocha/bin/mocha.js', 'mocha/bin/mocha'];
for (var i = 0; i < bins.length && bin === null; i++) {
  try { bin = req.resolve(bins[i]); } catch (e) { errors.push(e && e.message ? e.message.split('\\n')[0] : String(e)); }
}
if (bin === null) {
  console.error('mocha is not installed where the test command runs (' + process.cwd() + '): ' + errors.join('; '));
  process.exit(127);
}
global[Symbol.for('retrace.argv')] = [process.execPath, binOf('mocha', bin)].concat(given);
var ours = ['--reporter', 'xunit', '--reporter-option', 'output=' + ${JSON.stringify(reportPath)}];
process.argv.splice.apply(process.argv, [0, process.argv.length, process.execPath, bin, '--require', ${JSON.stringify(restorePath)}].concat(parts.head, ours, parts.tail));
require(bin);
`;
}

/**
 * `python -m unittest …` prints a line per test only with `-v`; without it a passing run is dots and `OK`, which
 * names no test, so a passing patched run could not be read (hold5: every honest fix under `python3 -m unittest`
 * was REJECTED as "the results list no tests"). Passing `-v` on the command line would put it in `sys.argv`, which
 * the code under test can read. So the command's `python3 -m unittest` is replaced by `python3 <this launcher>`,
 * which sets `sys.argv` to what `-m unittest` gives (`["python3 -m unittest", …the command's arguments]`) and
 * `sys.path[0]` to the working directory (as `-m` does), then runs `unittest.main(module=None, verbosity=2)`: the
 * verbosity is a keyword argument, never an argument the code sees (a `-q` of the command's still wins).
 */
export function unittestLauncher(): string {
  return [
    "import os, sys, unittest",
    "sys.argv = [os.path.basename(sys.executable) + ' -m unittest'] + sys.argv[1:]",
    "sys.path[0] = os.getcwd()",
    "del os",
    "unittest.main(module=None, verbosity=2)",
    "",
  ].join("\n");
}
