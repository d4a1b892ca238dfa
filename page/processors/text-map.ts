import type { PageLine, PageRecognition } from '../model.js';

/**
 * A recognition with `change` applied to every piece of text the text model read (line texts,
 * words, the words around inline maths), each with the line it belongs to; maths and chemical structures are left alone. Words and lines left empty are
 * dropped, unless a line still holds inline maths.
 */
export function mapRecognitionText(r: PageRecognition, change: (text: string, line: PageLine) => string): PageRecognition {
  const lines = r.lines
    .map((l): PageLine => {
      if (l.kind === 'math' || l.chemistry) return l;
      const words = <W extends { text: string }>(list: W[]) => list.map((w) => ({ ...w, text: change(w.text, l) })).filter((w) => w.text);
      const segments = l.segments?.map((s) => (s.kind === 'text' ? { ...s, words: words(s.words) } : s));
      return { ...l, text: change(l.text, l), ...(l.words ? { words: words(l.words) } : {}), ...(segments ? { segments } : {}) };
    })
    .filter((l) => l.kind === 'math' || l.chemistry || l.text || l.segments?.some((s) => s.kind === 'math'));
  return { ...r, lines };
}
