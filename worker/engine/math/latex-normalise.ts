import { genfracNode, isBracketed, operatorName, respelled, textNode, type Item, type Node } from './latex-spellings.js';
import { ARITY, DROPPED, FUNCTION_NAMES, OPTIONAL_ARGUMENT, SIZED_DELIMITER_PREFIX, SYNONYMS, TEXT_COMMANDS } from './latex-vocabulary.js';

/**
 * The normal form the maths evaluation compares LaTeX under: two strings that typeset the same
 * formula should normalise to the same string, and formulas that differ should not.
 *
 * The input is tokenised (control words, control symbols, braces, scripts, single characters) and
 * parsed into atoms with optional sub- and superscripts and commands with their arguments, so the
 * rules hold at any nesting depth. Rules:
 * - whitespace and spacing commands (`\,` `\;` `\:` `\!` `\ ` `~` `\quad` `\qquad` `\hspace{…}` …)
 *   are removed, and so are `\left` `\right` `\middle` and the `\big…` family (the delimiter
 *   stays; `\left.` vanishes), `\limits` `\nolimits` and the style switches (`\displaystyle` …);
 * - braces that group nothing are removed: `{x}` ≡ `x`, `{x+y}z` ≡ `x+yz`, `{x}^{2}` ≡ `x^2`, while
 *   `{ab}^2` keeps its group, but a group that is one bracketed expression prints as its closing bracket scripted
 *   (`{[x]}_{a}^{b}` ≡ `[x]_{a}^{b}`); arguments are always braced in the output, so `x^2` ≡ `x^{2}` and
 *   `\frac12` ≡ `\frac{1}{2}`;
 * - scripts come out in one order: primes, then `_{…}`, then `^{…}`; `'` ≡ `^{\prime}`, so
 *   `f'` ≡ `f^{\prime}` and `x'^{2}` ≡ `x^{\prime 2}`;
 * - synonyms: `\dfrac` `\tfrac` `\cfrac` (its `[l]`/`[r]` placement dropped) → `\frac`,
 *   `\begin{subarray}{l}…\end{subarray}` → `\substack{…}`; `\dbinom` `\tbinom` → `\binom`; `\to` → `\rightarrow`,
 *   `\gets` → `\leftarrow`, `\le` → `\leq`, `\ge` → `\geq`, `\ne` → `\neq`, `\dots` → `\ldots`,
 *   `...` → `\ldots`, `\lbrace` `\rbrace` → `\{` `\}`, `\vert` `\lvert` `\rvert` → `|`,
 *   `\Vert` `\lVert` `\rVert` → `\|`, `\mid` → `|`, `\colon` → `:` (a picture cannot tell these
 *   apart), `\implies` `\impliedby` `\iff` → `\Longrightarrow` `\Longleftarrow`
 *   `\Longleftrightarrow` (amsmath draws them with those arrows), `\pmod{n}` → `(\text{mod}n)`,
 *   `\mod` `\bmod` → `\text{mod}`, `\bm` → `\boldsymbol`, a digit's `\boldsymbol{0}` → `\mathbf{0}` (the same bold roman glyph), `\overline{\lim}` `\underline{\lim}` → `\varlimsup` `\varliminf`, `\stackrel{f}{\to}` `\overset{f}{\to}` → `\xrightarrow{f}`, `\pod{n}` → `(n)`, and a few Unicode characters to their commands (− × · ≤ ≥ ≠ → ∞ ± ∘ ⇌);
 * - `\operatorname{sin}` (and `\operatorname*`) → `\sin` for the standard function names, and
 *   `\operatorname*{arg\,max}` → `\arg\max` (names a thin space apart);
 * - `\genfrac` → the fraction, `\binom` or delimited two-row matrix it prints;
 * - upright text: `\text{…}` `\textrm{…}` → `\text{…}` with the spaces inside removed; adjacent
 *   texts are one (`\text{is}\text{odd}` ≡ `\text{is odd}`), closing punctuation stands outside
 *   (`\text{otherwise.}` ≡ `\text{otherwise}.`, `\text{number!}` ≡ `\text{number}!`) and TeX's quote
 *   ligatures are the quotes they print (`\text{''}` ≡ `”`);
 *   `\mathrm{…}` is maths in an upright font, so its scripts stay scripts and its letters read as
 *   a person would type them: `\mathrm{d}` → `d`, `\mathrm{H_2SO_4}` → `H_{2}\text{SO}_{4}`,
 *   `\mathrm{sin}` → `\sin` (the layout parser writes upright runs the same way);
 * - a row break just before `\end{…}` (`a\\b\\\end{pmatrix}`) is dropped: it opens no row;
 * A space is written only where LaTeX needs one: after a control word followed by a letter.
 */

const PRIME: Item = { base: { kind: 'token', value: '\\prime' } };
const PAREN_OPEN: Item = { base: { kind: 'token', value: '(' } };
const PAREN_CLOSE: Item = { base: { kind: 'token', value: ')' } };

/** Normalises LaTeX (without math delimiters) to the form the evaluation compares; see the rules above. */
export function normaliseLatex(latex: string): string {
  const parser = new Parser(tokenise(latex));
  return emitSequence(parser.sequence(() => false));
}

function tokenise(latex: string): string[] {
  const tokens = latex.match(/\\[a-zA-Z]+\*?|\\[^a-zA-Z]|\s+|./gsu) ?? [];
  return tokens.filter((token) => !/^\s+$/u.test(token));
}

class Parser {
  private position = 0;

  constructor(private readonly tokens: string[]) {}

  /** Items until `stop` says so (the stop token is left unread) or the input ends. */
  sequence(stop: (token: string) => boolean): Item[] {
    const items: Item[] = [];
    while (this.position < this.tokens.length && !stop(this.tokens[this.position])) {
      const token = this.tokens[this.position];
      if (token === '^' || token === '_' || token === "'") {
        this.attachScript(items);
        continue;
      }
      const base = this.base();
      if (base) items.push({ base });
    }
    return mergeDots(items);
  }

  private attachScript(items: Item[]): void {
    const token = this.tokens[this.position++];
    let target = items[items.length - 1];
    const slot = token === '_' ? 'sub' : 'sup';
    const occupied = slot === 'sub' ? target?.sub : target?.sup?.filter((item) => !isPrime(item));
    if (!target || (occupied?.length && token !== "'")) {
      target = { base: { kind: 'group', items: [] } };
      items.push(target);
    }
    const script = token === "'" ? [PRIME] : this.argument();
    if (slot === 'sub') target.sub = [...(target.sub ?? []), ...script];
    else target.sup = orderPrimesFirst([...(target.sup ?? []), ...script]);
  }

  /** One base: a token, a braced group, a command with its arguments, or an environment; null when the token is dropped. */
  private base(): Node | null {
    const raw = this.tokens[this.position++];
    const token = SYNONYMS[raw] ?? raw;
    if (DROPPED.has(token)) {
      if (SIZED_DELIMITER_PREFIX.has(token) && this.tokens[this.position] === '.') this.position++;
      return null;
    }
    if (token === '{') {
      const items = this.sequence((next) => next === '}');
      this.position++;
      return { kind: 'group', items };
    }
    if (token === '}') return null;
    if (token === '\\begin') return this.environment();
    if (token === '\\genfrac') return this.genfrac();
    if (token === '\\mathrm') return { kind: 'group', items: uprightWords(this.argument()) };
    if (token === '\\pmod') return { kind: 'group', items: [PAREN_OPEN, { base: textNode('mod') }, ...this.argument(), PAREN_CLOSE] };
    if (token === '\\pod') return { kind: 'group', items: [PAREN_OPEN, ...this.argument(), PAREN_CLOSE] };
    if (token === '\\mod' || token === '\\bmod') return textNode('mod');
    if (TEXT_COMMANDS.has(token)) return this.textCommand(token);
    // `\cfrac[l]` only sets its numerator flush left: the same fraction.
    if (raw === '\\cfrac' && this.tokens[this.position] === '[') this.optionalArgument();
    const arity = ARITY[token];
    if (arity === undefined) return { kind: 'token', value: token };
    const optional = OPTIONAL_ARGUMENT.has(token) && this.tokens[this.position] === '[' ? this.optionalArgument() : undefined;
    const args = Array.from({ length: arity }, () => this.argument());
    return respelled(token, args) ?? { kind: 'command', name: token, optional, args };
  }

  /** A brace group's items, or the next single base when the argument is unbraced (`\frac12`, `x^2`). */
  private argument(): Item[] {
    if (this.tokens[this.position] === "'") {
      this.position++;
      return [PRIME];
    }
    while (this.position < this.tokens.length) {
      const base = this.base();
      if (!base) continue;
      return base.kind === 'group' ? base.items : [{ base }];
    }
    return [];
  }

  private optionalArgument(): Item[] {
    this.position++;
    const items = this.sequence((next) => next === ']');
    this.position++;
    return items;
  }

  /** The tokens of a brace group as text, or the next token alone when unbraced. */
  private rawGroup(): string {
    if (this.tokens[this.position] !== '{') return this.tokens[this.position++] ?? '';
    let depth = 0;
    let text = '';
    while (this.position < this.tokens.length) {
      const token = this.tokens[this.position++];
      if (token === '{' && depth++ === 0) continue;
      if (token === '}' && --depth === 0) break;
      text += token;
    }
    return text;
  }

  private textCommand(name: string): Node | null {
    const text = this.rawGroup();
    if (name === '\\hspace') return null;
    if (name.startsWith('\\operatorname')) {
      return operatorName(text);
    }
    // TeX's quote ligatures are one glyph each: ``…'' prints “…”.
    const quoted = text.replace(/''/gu, '\u201D').replace(/``/gu, '\u201C');
    // Punctuation closing the text (`\text{otherwise.}`, `\text{number!}`, a closing quote) is the
    // same mark outside it: maths sets `!` and `?` as closings, with no space before them either.
    const [, words = '', punctuation = ''] = /^(.*?)([.,;:!?\u201D]*)$/su.exec(quoted) ?? [];
    const marks = (of: string): Item[] => [...of].map((mark) => ({ base: { kind: 'token' as const, value: mark } }));
    if (!words && /^[\u201C\u201D]+$/u.test(quoted)) return { kind: 'group', items: marks(quoted) };
    if (!punctuation || !words) return textNode(quoted);
    return { kind: 'group', items: [{ base: textNode(words) }, ...marks(punctuation)] };
  }

  /** `\genfrac`'s six arguments, as what it prints (latex-spellings.ts). */
  private genfrac(): Node {
    const [open, close, thickness] = [this.rawGroup(), this.rawGroup(), this.rawGroup()];
    this.rawGroup();
    return genfracNode(open, close, thickness, this.argument(), this.argument());
  }

  private environment(): Node {
    const name = this.rawGroup();
    const spec = /^(array|tabular|subarray)$/u.test(name) ? this.rawGroup() : undefined;
    const body = this.sequence((next) => next === '\\end');
    // A row break before `\end` opens no row: the environment prints the same without it.
    while (body.length > 0 && isRowBreak(body[body.length - 1]!)) body.pop();
    this.position++;
    this.rawGroup();
    // A subarray is `\substack` with its lines set flush to one side.
    if (name === 'subarray') return { kind: 'command', name: '\\substack', args: [body] };
    return { kind: 'environment', name, spec, body };
  }
}

/**
 * `\mathrm{…}` is maths in an upright font: its scripts stay scripts (`\mathrm{H_2SO_4}`), a lone
 * letter is that letter, and a run of letters is a word (`\text{SO}_{4}`), or a function name.
 */
function uprightWords(items: Item[]): Item[] {
  const isLetter = (item: Item | undefined) => item?.base.kind === 'token' && /^[a-zA-Z]$/u.test(item.base.value);
  const words: Item[] = [];
  for (let i = 0; i < items.length;) {
    let end = i;
    while (isLetter(items[end]) && !items[end].sub && !items[end].sup && isLetter(items[end + 1])) end++;
    if (end === i || !isLetter(items[i])) {
      words.push(items[i++]);
      continue;
    }
    const run = items.slice(i, end + 1);
    const text = run.map((item) => (item.base.kind === 'token' ? item.base.value : '')).join('');
    const base: Node = FUNCTION_NAMES.has(text) ? { kind: 'token', value: `\\${text}` } : textNode(text);
    words.push({ base, sub: run[run.length - 1].sub, sup: run[run.length - 1].sup });
    i = end + 1;
  }
  return words;
}

/**
 * Splices brace groups that group nothing: `{x+y}` into its items, `{x}^2` and `{{x}}^2` into `x^2`. Done at
 * emission because scripts attach to a group only after the group has been read.
 */
function flattenGroups(items: Item[]): Item[] {
  const flat: Item[] = [];
  for (const item of items) {
    if (item.base.kind !== 'group') {
      flat.push(item);
      continue;
    }
    // Groups inside it group nothing either (`{{x}}^2`, `{\\mathrm{e}}^{x}`).
    const inner = flattenGroups(item.base.items);
    const scripted = item.sub !== undefined || item.sup !== undefined;
    if (!scripted) flat.push(...flattenGroups(inner));
    else if (inner.length === 1 && !inner[0].sub && !inner[0].sup) flat.push({ ...item, base: inner[0].base });
    else if (isBracketed(inner)) flat.push(...flattenGroups(inner.slice(0, -1)), { ...inner.at(-1)!, sub: item.sub, sup: item.sup });
    else flat.push(item);
  }
  return flat;
}

function isRowBreak(item: Item): boolean {
  return item.base.kind === 'token' && item.base.value === '\\\\' && !item.sub && !item.sup;
}

function isPrime(item: Item): boolean {
  return item.base.kind === 'token' && item.base.value === '\\prime' && !item.sub && !item.sup;
}

function orderPrimesFirst(items: Item[]): Item[] {
  return [...items.filter(isPrime), ...items.filter((item) => !isPrime(item))];
}

/** Three unscripted full stops in a row are `\ldots`. */
function mergeDots(items: Item[]): Item[] {
  const isDot = (item: Item | undefined) => item?.base.kind === 'token' && item.base.value === '.' && !item.sub && !item.sup;
  const merged: Item[] = [];
  for (let i = 0; i < items.length; i++) {
    if (isDot(items[i]) && isDot(items[i + 1]) && isDot(items[i + 2])) {
      merged.push({ base: { kind: 'token', value: '\\ldots' } });
      i += 2;
    } else merged.push(items[i]);
  }
  return merged;
}

function emitSequence(items: Item[]): string {
  return joinPieces(mergeTexts(flattenGroups(items)).map(emitItem));
}

/** Adjacent upright texts are one text: `\text{is}\text{odd}` ≡ `\text{is odd}`. */
function mergeTexts(items: Item[]): Item[] {
  const textOf = (item: Item | undefined) =>
    item && !item.sub && !item.sup && item.base.kind === 'command' && item.base.name === '\\text' && item.base.args[0]?.[0]?.base.kind === 'token'
      ? item.base.args[0][0].base.value
      : undefined;
  const merged: Item[] = [];
  for (const item of items) {
    const before = textOf(merged[merged.length - 1]);
    const text = textOf(item);
    if (before !== undefined && text !== undefined) merged[merged.length - 1] = { base: textNode(before + text) };
    else merged.push(item);
  }
  return merged;
}

function emitItem(item: Item): string {
  const sup = item.sup ?? [];
  const primes = sup.filter(isPrime);
  const rest = sup.slice(primes.length);
  let text = emitNode(item.base) + "'".repeat(primes.length);
  if (item.sub) text += `_{${emitSequence(item.sub)}}`;
  if (rest.length > 0) text += `^{${emitSequence(rest)}}`;
  return text;
}

function emitNode(node: Node): string {
  switch (node.kind) {
    case 'token':
      return node.value;
    case 'group':
      return `{${emitSequence(node.items)}}`;
    case 'command': {
      const optional = node.optional ? `[${emitSequence(node.optional)}]` : '';
      return node.name + optional + node.args.map((arg) => `{${emitSequence(arg)}}`).join('');
    }
    case 'environment': {
      const spec = node.spec === undefined ? '' : `{${node.spec.replace(/\s+/gu, '')}}`;
      return `\\begin{${node.name}}${spec}${emitSequence(node.body)}\\end{${node.name}}`;
    }
  }
}

/** Concatenates pieces, with a space only between a control word and a following letter. */
function joinPieces(pieces: string[]): string {
  let text = '';
  for (const piece of pieces) {
    if (/\\[a-zA-Z]+$/u.test(text) && /^[a-zA-Z]/u.test(piece)) text += ' ';
    text += piece;
  }
  return text;
}
