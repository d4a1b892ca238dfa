import { normalisedEditDistance } from '../../../worker/engine/math/eval-metrics.js';
import type { SourceDisplay } from './displays.js';
import { intertextParts, normaliseDisplay, normaliseMmdDisplay, withoutBold } from './normalise.js';

/**
 * Scores one document: each source display is paired with one MMD display, greedily by the
 * smallest normalised token edit distance (each MMD display serves one source display at most;
 * identical source displays each need their own copy on the page). A source display left without
 * a partner (the page printed it, but the MMD has too few displays) scores distance 1. A display
 * that `\intertext` splits is printed as two or more displays with prose between: each part is
 * paired on its own, and the display scores their distances' mean weighted by the parts' lengths
 * (exact when every part is).
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
  // Scoring units: a display, or each part of one that `\intertext` splits on the page.
  const units = displays.flatMap((d, display) =>
    intertextParts(d.body).map((part) => ({ display, bold: d.boldVersion === true, expected: safeNormalise(() => normaliseDisplay(d.environment, part)) })),
  );
  const got = mmdDisplays.map((latex) => safeNormalise(() => normaliseMmdDisplay(latex)));
  // Under a bold math version every symbol is bold: a read's bold markup says what the page shows, no more.
  const gotPlain = mmdDisplays.map((latex) => safeNormalise(() => normaliseMmdDisplay(withoutBold(latex))));
  const gotFor = (unit: { bold: boolean }, mmd: number): string => (unit.bold ? gotPlain[mmd]! : got[mmd]!);
  const pairs: { unit: number; mmd: number; distance: number }[] = [];
  units.forEach((u, unit) =>
    got.forEach((_, mmd) => {
      const g = gotFor(u, mmd);
      pairs.push({ unit, mmd, distance: u.expected === g ? 0 : normalisedEditDistance(u.expected, g) });
    }),
  );
  pairs.sort((a, b) => a.distance - b.distance || a.unit - b.unit || a.mmd - b.mmd);
  const partner = new Map<number, { mmd: number; distance: number }>();
  const taken = new Set<number>();
  for (const pair of pairs) {
    if (partner.has(pair.unit) || taken.has(pair.mmd)) continue;
    partner.set(pair.unit, pair);
    taken.add(pair.mmd);
  }
  return displays.map((display, i) => {
    const own = units.map((u, unit) => ({ ...u, match: partner.get(unit) })).filter((u) => u.display === i);
    const length = own.reduce((sum, u) => sum + u.expected.length, 0);
    // Several parts: the distance is their mean weighted by length, exact when every part is.
    const distance = own.reduce((sum, u) => sum + (u.match?.distance ?? 1) * (u.expected.length / Math.max(1, length)), 0);
    const gotParts = own.map((u) => (u.match === undefined ? undefined : gotFor(u, u.match.mmd)));
    return {
      document,
      environment: display.environment,
      constructs: display.constructs,
      source: display.body,
      expected: own.map((u) => u.expected).join(PART_SEPARATOR),
      got: gotParts.every((g) => g === undefined) ? undefined : gotParts.map((g) => g ?? '').join(PART_SEPARATOR),
      distance: own.length === 1 ? (own[0]!.match?.distance ?? 1) : distance,
      exact: own.every((u, k) => gotParts[k] === u.expected),
    };
  });
}

/** Between the parts of a display split by `\intertext`, in the report. */
const PART_SEPARATOR = ' \\intertext{…} ';

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
