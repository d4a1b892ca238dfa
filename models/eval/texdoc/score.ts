import { normalisedEditDistance } from '../../../worker/engine/math/eval-metrics.js';
import type { SourceDisplay } from './displays.js';
import { normaliseDisplay, normaliseMmdDisplay } from './normalise.js';

/**
 * Scores one document: each source display is paired with one MMD display, greedily by the
 * smallest normalised token edit distance (each MMD display serves one source display at most;
 * identical source displays each need their own copy on the page). A source display left without
 * a partner (the page printed it, but the MMD has too few displays) scores distance 1.
 */

export interface ScoredDisplay {
  document: string;
  environment: string;
  constructs: string[];
  source: string;
  expected: string;
  /** The paired MMD display, normalised; undefined when none was left. */
  got?: string;
  distance: number;
  exact: boolean;
}

/** Within this normalised edit distance a display counts as "close" (the 0.1 bar). */
export const CLOSE_DISTANCE = 0.1;

export function scoreDocument(document: string, displays: SourceDisplay[], mmdDisplays: string[]): ScoredDisplay[] {
  const expected = displays.map((d) => safeNormalise(() => normaliseDisplay(d.environment, d.body)));
  const got = mmdDisplays.map((latex) => safeNormalise(() => normaliseMmdDisplay(latex)));
  const pairs: { source: number; mmd: number; distance: number }[] = [];
  expected.forEach((e, source) => got.forEach((g, mmd) => pairs.push({ source, mmd, distance: e === g ? 0 : normalisedEditDistance(e, g) })));
  pairs.sort((a, b) => a.distance - b.distance || a.source - b.source || a.mmd - b.mmd);
  const partner = new Map<number, { mmd: number; distance: number }>();
  const taken = new Set<number>();
  for (const pair of pairs) {
    if (partner.has(pair.source) || taken.has(pair.mmd)) continue;
    partner.set(pair.source, pair);
    taken.add(pair.mmd);
  }
  return displays.map((display, i) => {
    const match = partner.get(i);
    const gotLatex = match === undefined ? undefined : got[match.mmd];
    return {
      document,
      environment: display.environment,
      constructs: display.constructs,
      source: display.body,
      expected: expected[i]!,
      got: gotLatex,
      distance: match?.distance ?? 1,
      exact: match !== undefined && gotLatex === expected[i],
    };
  });
}

/** A display the normaliser cannot read is compared as written (and will rarely match). */
function safeNormalise(normalise: () => string): string {
  try {
    return normalise();
  } catch {
    return '\\FOLIOUNREADABLE';
  }
}

export interface ConstructRow {
  construct: string;
  count: number;
  exact: number;
  close: number;
  meanDistance: number;
}

/** One row per construct (a display counts under each construct it holds), then `all`. */
export function constructTable(rows: ScoredDisplay[]): ConstructRow[] {
  const names = [...new Set(rows.flatMap((r) => r.constructs))].sort();
  const summarise = (construct: string, subset: ScoredDisplay[]): ConstructRow => ({
    construct,
    count: subset.length,
    exact: subset.filter((r) => r.exact).length / Math.max(1, subset.length),
    close: subset.filter((r) => r.distance <= CLOSE_DISTANCE).length / Math.max(1, subset.length),
    meanDistance: subset.reduce((sum, r) => sum + r.distance, 0) / Math.max(1, subset.length),
  });
  return [
    ...names.map((name) =>
      summarise(
        name,
        rows.filter((r) => r.constructs.includes(name)),
      ),
    ),
    summarise('all', rows),
  ];
}
