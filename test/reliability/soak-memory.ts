import { readFile } from 'node:fs/promises';
import { rssKb } from './support.js';

/**
 * The soak's memory check. A process's RSS is only comparable at like moments: a cold worker
 * has not loaded pdf.js's worker module yet, a busy one holds garbage, and a worker that began
 * reading documents under ~25 s ago still holds the module loader's transient (~190 MB under
 * tsx). So both samples are taken after a batch of documents, once every process has been idle
 * for QUIET_MS, and each worker is reported with its uptime.
 */

/** How long the appliance and the workers must stay idle before they are sampled. */
export const QUIET_MS = 30_000;
/** Longest wait for quiet; past it the sample is taken anyway and marked not quiet. */
const QUIET_LIMIT_MS = 120_000;
/** "Idle": all sampled processes together use less than this share of one core. */
const IDLE_CPU_SHARE = 0.05;
/** The bound: memory at the end within 20 % of the start. */
export const MEMORY_GROWTH_LIMIT = 0.2;
/** Linux's USER_HZ, the unit of /proc/<pid>/stat times. */
const CLOCK_TICKS_PER_S = 100;

export interface ProcessMemory {
  pid: number;
  rss_mb: number;
  uptime_s: number;
}

export interface MemorySample {
  appliance: ProcessMemory;
  workers: ProcessMemory[];
  /** False when the processes never stayed idle for QUIET_MS within the limit. */
  quiet: boolean;
}

/** utime + stime (ticks) and start time (seconds since boot) of a process, or null once it is gone. */
async function procStat(pid: number): Promise<{ cpuTicks: number; startedS: number } | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces: [0] is field 3 (state), [11] utime, [12] stime, [19] starttime.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { cpuTicks: Number(fields[11]) + Number(fields[12]), startedS: Number(fields[19]) / CLOCK_TICKS_PER_S };
  } catch {
    return null;
  }
}

async function processMemory(pid: number): Promise<ProcessMemory> {
  const [rss, stat, uptime] = await Promise.all([rssKb(pid), procStat(pid), readFile('/proc/uptime', 'utf8')]);
  return { pid, rss_mb: Math.round(rss / 1024), uptime_s: stat ? Math.round(Number(uptime.split(' ')[0]) - stat.startedS) : 0 };
}

/**
 * Waits until the processes `pids()` names (the same ones throughout) have used under
 * IDLE_CPU_SHARE of a core for QUIET_MS, then samples them. A worker restart starts the wait over.
 */
export async function sampleWhenQuiet(appliancePid: number, workerPids: () => number[]): Promise<MemorySample> {
  const until = Date.now() + QUIET_LIMIT_MS;
  const ticks = async (pids: number[]) => (await Promise.all(pids.map(procStat))).reduce((sum, s) => sum + (s?.cpuTicks ?? Number.NaN), 0);
  let pids = [appliancePid, ...workerPids()];
  let last = await ticks(pids);
  let quietSince = Date.now();
  let quiet = false;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 1_000));
    const now = [appliancePid, ...workerPids()];
    const next = await ticks(now);
    const busy = now.join() !== pids.join() || Number.isNaN(next) || next - last > IDLE_CPU_SHARE * CLOCK_TICKS_PER_S;
    [pids, last] = [now, next];
    if (busy) quietSince = Date.now();
    else if (Date.now() - quietSince >= QUIET_MS) {
      quiet = true;
      break;
    }
  }
  const [appliance, ...workers] = await Promise.all(pids.map(processMemory));
  return { appliance: appliance!, workers, quiet };
}

/**
 * What breaks the bound: the appliance against itself, and each worker at the end against the
 * mean of the workers at the start (a worker killed in between is a new process, so workers are
 * not paired by pid).
 */
export function memoryProblems(start: MemorySample, end: MemorySample, limit = MEMORY_GROWTH_LIMIT): string[] {
  const problems: string[] = [];
  const over = (from: number, to: number) => to > from * (1 + limit);
  const pct = (from: number, to: number) => `${to >= from ? '+' : ''}${Math.round(((to - from) / from) * 100)} %`;
  if (over(start.appliance.rss_mb, end.appliance.rss_mb))
    problems.push(`appliance ${start.appliance.rss_mb} → ${end.appliance.rss_mb} MB (${pct(start.appliance.rss_mb, end.appliance.rss_mb)})`);
  const base = Math.round(start.workers.reduce((sum, w) => sum + w.rss_mb, 0) / Math.max(1, start.workers.length));
  for (const w of end.workers)
    if (over(base, w.rss_mb)) problems.push(`document worker ${w.pid} (up ${w.uptime_s} s) ${base} → ${w.rss_mb} MB (${pct(base, w.rss_mb)})`);
  if (!start.quiet || !end.quiet) problems.push(`the processes did not stay idle for ${QUIET_MS / 1000} s before the ${start.quiet ? 'end' : 'start'} sample`);
  return problems;
}
