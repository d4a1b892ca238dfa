import { api } from './api.js';

/** Value of an unlabelled sample in Prometheus text exposition, or null when absent. */
export function metricValue(text: string, name: string): number | null {
  const m = text.match(new RegExp(`^${name}(?:\\{\\})? (\\S+)`, 'm'));
  return m ? Number(m[1]) : null;
}

export interface RatePoint {
  /** Unix seconds. */
  t: number;
  pagesPerMinute: number;
}

/** One hour of samples: the Overview chart's window. */
const WINDOW_S = 3_600;
const STORE_KEY = 'folio.console.pagesPerMinute';

/**
 * Pages per minute from the pco_pages_completed_total counter, sampled while the console is open.
 * Samples survive navigation and reloads within the tab (sessionStorage); nothing is kept server-side.
 */
export class PagesRate {
  private last: { t: number; total: number } | null = null;
  readonly points: RatePoint[] = [];

  constructor() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? 'null') as { last: PagesRate['last']; points: RatePoint[] } | null;
      if (saved) {
        this.last = saved.last;
        this.points.push(...saved.points);
      }
    } catch {
      /* a corrupt entry starts a fresh series */
    }
  }

  async sample(now = Date.now() / 1000): Promise<void> {
    const total = metricValue(await api.metricsText(), 'pco_pages_completed_total');
    if (total === null) return;
    const prev = this.last;
    this.last = { t: now, total };
    // A counter that went down means the appliance restarted with a fresh ledger: start over.
    if (prev && total >= prev.total && now - prev.t >= 1) {
      this.points.push({ t: now, pagesPerMinute: ((total - prev.total) / (now - prev.t)) * 60 });
    }
    while (this.points.length && this.points[0]!.t < now - WINDOW_S) this.points.shift();
    try {
      sessionStorage.setItem(STORE_KEY, JSON.stringify({ last: this.last, points: this.points }));
    } catch {
      /* storage full or disabled: the series lives in memory only */
    }
  }

  /** Average over the window, in pages per minute. */
  average(): number | null {
    if (!this.points.length) return null;
    return this.points.reduce((n, p) => n + p.pagesPerMinute, 0) / this.points.length;
  }
}

export const pagesRate = new PagesRate();
