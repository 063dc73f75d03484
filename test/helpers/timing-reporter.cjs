// A mocha reporter: the spec report, and for each test file the seconds its suites took (their hooks included), as a
// line `@file-seconds <file> <seconds>` that scripts/test-e2e.ts reads with --record (to deal the files into shards of
// about equal time) and leaves out of what it prints.
'use strict';
const path = require('node:path');
const Mocha = require('mocha');

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_RUN_END } = Mocha.Runner.constants;

class TimingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const seconds = new Map();
    const began = new Map();
    const top = (suite) => suite.file && suite.parent && suite.parent.root;
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (top(suite)) began.set(suite, process.hrtime.bigint());
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      if (!top(suite) || !began.has(suite)) return;
      const file = path.relative(process.cwd(), suite.file);
      seconds.set(file, (seconds.get(file) ?? 0) + Number(process.hrtime.bigint() - began.get(suite)) / 1e9);
    });
    runner.once(EVENT_RUN_END, () => {
      for (const [file, s] of seconds) process.stdout.write(`@file-seconds ${file} ${s.toFixed(2)}\n`);
    });
  }
}

module.exports = TimingReporter;
