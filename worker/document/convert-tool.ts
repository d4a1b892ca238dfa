import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Why one format could not be made, as the format's status reports it: `unsupported_format`
 * when this build lacks the tool, `sys_exception` when the tool ran and failed. The message is
 * shown to the caller in conversion_status, so it says what went wrong in the caller's terms.
 */
export class FormatError extends Error {
  constructor(
    readonly errorId: 'unsupported_format' | 'content_too_large' | 'sys_exception',
    message: string,
  ) {
    super(message);
  }
}

/** Whether an executable is on PATH (the Makefile's RUN_PACKAGES installs them). */
export function hasTool(command: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

export interface ToolRun {
  code: number | null;
  /** stdout then stderr, cut to the last 64 KiB: enough for a LaTeX log's error lines. */
  output: string;
  timedOut: boolean;
}

const MAX_OUTPUT_CHARS = 64 * 1024;

/**
 * Runs a converter in its own process group and kills the whole group when `timeoutMs` passes:
 * Chromium and LibreOffice leave helper processes behind that a plain kill of the parent misses.
 * Never throws for a non-zero exit; the caller decides what the exit means.
 */
export function runTool(command: string, args: string[], opts: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let timedOut = false;
    const keep = (d: Buffer) => {
      output = (output + d.toString('utf8')).slice(-MAX_OUTPUT_CHARS);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      killGroup(); // helpers the tool forked and did not reap
      resolve({ code, output, timedOut });
    });
  });
}
