#!/usr/bin/env -S npx tsx
import { createRequire } from 'node:module';
import { Command } from 'commander';
import { jobsCommand } from './commands/jobs.js';
import { keysCommand } from './commands/keys.js';
import { opsCommands } from './commands/ops.js';
import { usageCommand } from './commands/usage.js';
import { watchCommand } from './commands/watch.js';
import { DEFAULT_URL } from './context.js';
import { printFailure } from './http.js';

/** The `folio` operator CLI: the appliance's private-cloud HTTP surface from a shell. */
function buildProgram(): Command {
  const program = new Command('folio')
    .description('operate a Folio appliance over its private-cloud HTTP surface')
    .option('--url <url>', `appliance address (env FOLIO_URL, default ${DEFAULT_URL})`)
    .version(createRequire(import.meta.url)('../package.json').version)
    .option('--json', 'print the raw JSON body instead of tables')
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError();
  opsCommands(program);
  watchCommand(jobsCommand(program));
  usageCommand(program);
  keysCommand(program);
  return program;
}

const program = buildProgram();
try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.exitCode = printFailure(err, process.argv.includes('--json'));
}
