import { type ExecFileException, execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * OSRA (optical structure recognition, Debian's `osra`, GPL-2.0+), run as a separate program on a
 * PNG: every structure it finds, with its own confidence score, average bond length and box.
 *
 * OSRA is native code fed with user pixels, so every run is bounded: `prlimit` caps its address
 * space (an allocation past the cap fails inside OSRA, which exits) and a timer SIGKILLs it when it
 * runs too long. Either way the caller gets `{ stopped }` instead of structures and the page goes
 * on without chemistry.
 */

/** @defaultValue 10 s: a dense A4 page takes OSRA about 2 s on one core here. */
export const OSRA_TIMEOUT_MS = 10_000;
/** @defaultValue 1 GiB of address space; a 300 dpi A4 page needs about 300 MB. */
export const OSRA_MEMORY_BYTES = 1024 ** 3;

export interface OsraStructure {
  /** SMILES as OSRA wrote it; `*` marks atoms it could not name. */
  smiles: string;
  /** OSRA's own score (about -1 for noise to 3 and more for clean drawings); it rejects below 0 itself only with -p unset. */
  score: number;
  /** Average bond length in pixels. */
  bondLengthPx: number;
  box: { x: number; y: number; width: number; height: number };
}

export type OsraRun = { structures: OsraStructure[]; stopped?: undefined } | { structures: []; stopped: 'timeout' | 'failed'; message: string };

export interface OsraLimits {
  timeoutMs?: number;
  memoryBytes?: number;
}

/** One output line: `SMILES bond_length score x0xy0-x1xy1` (osra -b -p -c). */
const LINE = /^(\S+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(\d+)x(\d+)-(\d+)x(\d+)\s*$/;

export function parseOsraOutput(text: string): OsraStructure[] {
  const out: OsraStructure[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line.trim());
    if (!m) continue;
    const [x0, y0, x1, y1] = [m[4], m[5], m[6], m[7]].map(Number) as [number, number, number, number];
    out.push({ smiles: m[1]!, bondLengthPx: Number(m[2]), score: Number(m[3]), box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } });
  }
  return out;
}

/** Runs OSRA on one PNG under the limits; never throws for what OSRA does. */
export async function runOsra(png: Buffer, limits: OsraLimits = {}): Promise<OsraRun> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-osra-'));
  try {
    const image = join(dir, 'in.png');
    await writeFile(image, png);
    const timeoutMs = limits.timeoutMs ?? OSRA_TIMEOUT_MS;
    const args = [`--as=${limits.memoryBytes ?? OSRA_MEMORY_BYTES}`, '--', 'osra', '-b', '-p', '-c', image];
    const result = await new Promise<{ stdout: string; error?: ExecFileException }>((resolve) => {
      execFile('prlimit', args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 4 * 1024 * 1024, cwd: dir }, (error, stdout) => resolve({ stdout: String(stdout), error: error ?? undefined }));
    });
    if (result.error?.killed || result.error?.signal === 'SIGKILL') return { structures: [], stopped: 'timeout', message: `OSRA ran past ${timeoutMs} ms and was stopped` };
    if (result.error) return { structures: [], stopped: 'failed', message: `OSRA failed: ${result.error.message.split('\n')[0]}` };
    return { structures: parseOsraOutput(result.stdout) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
