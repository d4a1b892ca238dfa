import type { MathResult, MathSymbol } from '../engine/math/types.js';
import type { Candidate } from '../../page/model.js';

/**
 * The n best distinct formulas of an image (/v3/latex n_best): every symbol may take its label or
 * one of the classifier's runner-up labels; label choices are enumerated best first by the product
 * of their probabilities, each is parsed, and the first n distinct LaTeX strings are kept. The
 * search stops after CHOICES_PER_CANDIDATE × n choices: two choices that differ only in a symbol
 * the parser drops give the same string.
 */

export const CHOICES_PER_CANDIDATE = 4;

type Parse = (symbols: MathSymbol[]) => Promise<MathResult>;

interface Choice {
  /** Index into each symbol's options (0 = its own label). */
  picks: number[];
  /** Lowest position that may still change, so each choice is generated once. */
  from: number;
  score: number;
}

const optionsOf = (s: MathSymbol) => [{ latex: s.latex, confidence: s.confidence }, ...(s.alternatives ?? [])];

export async function nBestFormulas(symbols: MathSymbol[], n: number, parse: Parse): Promise<Candidate[]> {
  const options = symbols.map(optionsOf);
  const score = (picks: number[]) => picks.reduce((p, k, i) => p * options[i]![k]!.confidence, 1);
  const start = symbols.map(() => 0);
  const frontier: Choice[] = [{ picks: start, from: 0, score: score(start) }];
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (let tried = 0; frontier.length && out.length < n && tried < CHOICES_PER_CANDIDATE * n; tried++) {
    frontier.sort((a, b) => b.score - a.score);
    const choice = frontier.shift()!;
    const chosen = symbols.map((s, i) => {
      if (choice.picks[i] === 0) return s;
      const o = options[i]![choice.picks[i]!]!;
      // Without alternatives the parser keeps the label it is given instead of re-deciding lookalikes.
      return { ...s, latex: o.latex, confidence: o.confidence, alternatives: undefined };
    });
    const result = await parse(chosen);
    if (result.latex && !seen.has(result.latex)) {
      seen.add(result.latex);
      out.push({ latex: result.latex, confidence: result.confidence });
    }
    for (let i = choice.from; i < symbols.length; i++) {
      if (choice.picks[i]! + 1 >= options[i]!.length) continue;
      const picks = [...choice.picks];
      picks[i]!++;
      frontier.push({ picks, from: i, score: score(picks) });
    }
  }
  return out;
}
