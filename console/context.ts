import type { Command } from 'commander';
import { FolioClient } from './http.js';

/** The default appliance address when neither --url nor FOLIO_URL is given. */
export const DEFAULT_URL = 'http://localhost:8080';

/** What every command needs: the client for --url and whether --json asked for raw bodies. */
export interface CliContext {
  client: FolioClient;
  json: boolean;
  /** Writes a line (or lines) to stdout. */
  print(text: string): void;
  /** Writes a body as indented JSON to stdout. */
  printJson(body: unknown): void;
}

/** Builds the context from the global options as seen from `cmd` (options may follow the subcommand). */
export function contextOf(cmd: Command): CliContext {
  const opts = cmd.optsWithGlobals<{ url?: string; json?: boolean }>();
  return {
    client: new FolioClient(opts.url ?? process.env.FOLIO_URL ?? DEFAULT_URL),
    json: opts.json === true,
    print: (text) => process.stdout.write(`${text}\n`),
    printJson: (body) => process.stdout.write(`${JSON.stringify(body, null, 2)}\n`),
  };
}
