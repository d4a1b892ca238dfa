import { type ExecFileException, execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { osraLists } from './osra-lists.js';

/**
 * OSRA (optical structure recognition, Debian's `osra`, GPL-2.0+), run as a separate program on a
 * PNG: every structure it finds, with its own confidence score, average bond length and box. It is
 * given Debian's label lists with Folio's mends (osra-lists.ts: iPr, OMe, Boc, Ts... expand).
 *
 * OSRA is native code fed with user pixels, so every run is bounded: `prlimit` caps its address
 * space (an allocation past the cap fails inside OSRA, which exits) and its CPU time (the kernel
 * stops it with SIGXCPU, then SIGKILL a second later), and a wall-clock timer SIGKILLs a run that
 * sleeps instead of computing, or outlasts the wall time its caller has left (`wallMs`: a page's). CPU time rather than wall time is the main bound so a busy machine
 * does not cut off honest reads. Either way the caller gets `{ stopped }` instead of structures and
 * the page goes on without chemistry. OSRA (and the GraphicsMagick it reads with) runs on one
 * thread (OMP_NUM_THREADS=1): a worker runs several jobs at once, and a run's CPU time is then at
 * most its wall time, which is how a caller learns what a run may have cost (`cpuSpent`).
 */

/** @defaultValue 8 CPU seconds: a molecule takes OSRA 0.2 to 1 s, a dense A4 page at 300 dpi about 2 s. */
export const OSRA_CPU_SECONDS = 8;
/** A run waiting this many times its CPU allowance (plus a start-up margin) is killed whatever it does. */
const WALL_FACTOR = 6;
const WALL_MARGIN_MS = 10_000;
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
  /**
   * Each bond's length in OSRA's drawing over the median bond's, shortest first (2 decimals): how
   * regular the bonds it assembled are (structures.ts). Absent for a reading without bonds.
   */
  bondLengths?: number[];
}

type OsraOutcome = { structures: OsraStructure[]; stopped?: undefined } | { structures: []; stopped: 'timeout' | 'failed'; message: string };

export type OsraRun = OsraOutcome & {
  /**
   * CPU seconds the run may have used, at most: the smaller of its wall time (OSRA runs on one
   * thread) and the CPU of every child this process reaped meanwhile (its own included).
   */
  cpuSpent: number;
};

export interface OsraLimits {
  /** @defaultValue OSRA_CPU_SECONDS */
  cpuSeconds?: number;
  /** @defaultValue OSRA_MEMORY_BYTES */
  memoryBytes?: number;
  /** Wall-clock milliseconds the caller can wait (a page's remaining time), when shorter than the backstop. */
  wallMs?: number;
}

/** What OSRA is asked to write: SD records (parseOsraSdf) with its SMILES, score, bond length and box as data. */
export const OSRA_OUTPUT = ['-f', 'sdf', '--embedded-format', 'smi', '-p', '-b', '-c'];

/** OSRA's exit status when SIGXCPU reaches it (its handler exits with the signal's number). */
const EXIT_ON_SIGXCPU = 24;

/**
 * OSRA's SD output (OSRA_OUTPUT): each record's SMILES, score, bond
 * length and box from its data fields, and the lengths of its bonds from the molfile's atom
 * coordinates (bondLengthRatios).
 */
export function parseOsraSdf(text: string): OsraStructure[] {
  const out: OsraStructure[] = [];
  for (const record of text.split(/^\$\$\$\$\r?\n/m)) {
    const field = (name: string) => new RegExp(`^>\\s+<${name}>\\s*\\n(.*)$`, 'm').exec(record)?.[1]?.trim();
    const [smiles, bond, score, box] = [field('smi'), field('Average_bond_length'), field('Confidence_estimate'), field('Surrounding_box')];
    const corners = box && /^(\d+)x(\d+)-(\d+)x(\d+)$/.exec(box)?.slice(1);
    if (!smiles || !bond || !score || !corners) continue;
    const [x0, y0, x1, y1] = corners.map(Number) as [number, number, number, number];
    const s = { smiles, bondLengthPx: Number(bond), score: Number(score), box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } };
    const ratios = bondLengthRatios(record);
    out.push(ratios.length ? { ...s, bondLengths: ratios } : s);
  }
  return out;
}

/** A V2000 molfile's bond lengths over their median, shortest first; [] when it has no bonds or does not parse. */
export function bondLengthRatios(molfile: string): number[] {
  const lines = molfile.split(/\r?\n/);
  const [atoms, bonds] = [Number(lines[3]?.slice(0, 3)), Number(lines[3]?.slice(3, 6))];
  if (!(atoms > 0 && bonds > 0) || lines.length < 4 + atoms + bonds) return [];
  const xy = lines.slice(4, 4 + atoms).map((l) => [Number(l.slice(0, 10)), Number(l.slice(10, 20))] as const);
  const lengths: number[] = [];
  for (const l of lines.slice(4 + atoms, 4 + atoms + bonds)) {
    const [a, b] = [xy[Number(l.slice(0, 3)) - 1], xy[Number(l.slice(3, 6)) - 1]];
    if (!a || !b) return [];
    lengths.push(Math.hypot(a[0] - b[0], a[1] - b[1]));
  }
  lengths.sort((p, q) => p - q);
  const median = lengths[Math.floor((lengths.length - 1) / 2)]!;
  return median > 0 ? lengths.map((l) => Math.round((l / median) * 100) / 100) : [];
}

/** CPU seconds (user and system) of this process's reaped children, from /proc/self/stat (clock ticks of 1/100 s). */
export function childCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of proc(5), cutime and cstime; the slice starts at field 3.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Runs OSRA on one PNG under the limits; never throws for what OSRA does. */
export async function runOsra(png: Buffer, limits: OsraLimits = {}): Promise<OsraRun> {
  const [startedMs, childCpuBefore] = [performance.now(), childCpuSeconds()];
  const spent = () => Math.min((performance.now() - startedMs) / 1000, childCpuSeconds() - childCpuBefore);
  const run = await runOsraIn(png, limits);
  return { ...run, cpuSpent: spent() };
}

async function runOsraIn(png: Buffer, limits: OsraLimits): Promise<OsraOutcome> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-osra-'));
  try {
    const image = join(dir, 'in.png');
    await writeFile(image, png);
    const lists = await osraLists();
    const listArgs = lists ? ['-a', join(dir, 'superatom.txt'), '-l', join(dir, 'spelling.txt')] : [];
    if (lists) await Promise.all([writeFile(listArgs[1]!, lists.superatom), writeFile(listArgs[3]!, lists.spelling)]);
    const cpu = Math.max(1, Math.ceil(limits.cpuSeconds ?? OSRA_CPU_SECONDS));
    const timeoutMs = Math.max(1, Math.round(Math.min(cpu * 1000 * WALL_FACTOR + WALL_MARGIN_MS, limits.wallMs ?? Infinity)));
    const args = [`--as=${limits.memoryBytes ?? OSRA_MEMORY_BYTES}`, `--cpu=${cpu}:${cpu + 1}`, '--', 'osra', ...OSRA_OUTPUT, ...listArgs, image];
    const result = await new Promise<{ stdout: string; error?: ExecFileException }>((resolve) => {
      execFile(
        'prlimit',
        args,
        { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 32 * 1024 * 1024, cwd: dir, env: { ...process.env, OMP_NUM_THREADS: '1' } },
        (error, stdout) => resolve({ stdout: String(stdout), error: error ?? undefined }),
      );
    });
    const e = result.error;
    if (e && (e.code === EXIT_ON_SIGXCPU || e.signal === 'SIGXCPU' || (e.signal === 'SIGKILL' && !e.killed)))
      return { structures: [], stopped: 'timeout', message: `OSRA used its ${cpu} s of CPU time and was stopped` };
    if (e?.killed) return { structures: [], stopped: 'timeout', message: `OSRA ran past ${timeoutMs} ms and was stopped` };
    if (e) return { structures: [], stopped: 'failed', message: `OSRA failed: ${e.message.split('\n')[0]}` };
    return { structures: parseOsraSdf(result.stdout) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
