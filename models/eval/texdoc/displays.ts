/**
 * Display equations out of a LaTeX source (a package manual's `.tex`, or a `.dtx` whose
 * documentation lines start with `%`), for the real-document evaluation (texdoc-run.ts).
 *
 * What is taken: `\[…\]`, `$$…$$`, and the environments equation, align, alignat, flalign, gather,
 * multline, eqnarray, displaymath (starred or not). What is left out, because the printed page
 * does not show it as maths typeset from that text: anything inside a verbatim-like environment
 * (verbatim, listings, examples, code, macrocode, filecontents …, or one the document declares with
 * `\lstnewenvironment` and the like, whose source the manual *prints*),
 * `\verb` (a display that prints code with it is left out whole), comments, and macro definitions. A display is kept only when every control word in it
 * is a standard LaTeX/amsmath/amssymb command (STANDARD_COMMANDS): a document's own macros typeset
 * as something its source does not spell, so no reader could be scored against them.
 */

export interface SourceDisplay {
  /** The environment it was written in: `[` for `\[…\]`, `$$`, or the environment's name. */
  environment: string;
  /** The text between the delimiters, as written. */
  body: string;
  /** The constructs it holds, for the per-construct table (constructsOf). */
  constructs: string[];
  /** Set under `\mathversion{bold}` (or `sansbold`): the page prints every symbol of it bold. */
  boldVersion?: true;
}

/** Environments whose content a manual prints as text (its name matches). */
const VERBATIM_LIKE =
  /verbatim|listing|example|code|minted|filecontents|comment|demo|sample|tcb|lstlisting|macrocode|source|latex|tex|show|alltt|sidebyside|ltx/iu;

/** Environments a document declares as verbatim itself (listings', fancyvrb's, tcolorbox's and minted's declarations), whatever their names. */
const VERBATIM_DECLARATION =
  /\\(?:lstnewenvironment|DefineVerbatimEnvironment|(?:new|renew|New|Renew|Declare)TCBListing|(?:re)?newtcblisting|newminted)\*?\s*\{([^}]+)\}/gu;

function declaredVerbatim(text: string): Set<string> {
  return new Set([...text.matchAll(VERBATIM_DECLARATION)].map((match) => match[1]!.trim()));
}

const DISPLAY_ENVIRONMENTS = /^(equation|align|alignat|flalign|gather|multline|eqnarray|displaymath)\*?$/u;

/** Strips comments (an unescaped `%` to the end of its line); a `.dtx` first loses its `%` prefixes and macrocode. */
export function documentText(source: string, isDtx: boolean): string {
  let text = source;
  if (isDtx) {
    text = text.replace(/^%[ \t]*\\begin\{macrocode\*?\}[\s\S]*?^%[ \t]*\\end\{macrocode\*?\}/gmu, '');
    text = text.replace(/^%/gmu, '');
  }
  return (
    text
      .split('\n')
      // `\%` is a percent sign, but `\\%` a row break and a comment: an even run of backslashes escapes nothing.
      .map((line) => line.replace(/(^|[^\\])((?:\\\\)*)%.*$/u, '$1$2'))
      .join('\n')
  );
}

/** The text TeX skips: an `\iffalse … \fi` block (the `\if…`/`\fi` pairs inside it counted). */
function withoutUnprinted(text: string): string {
  let out = text;
  for (let start = out.search(/\\iffalse\b/u); start >= 0; start = out.search(/\\iffalse\b/u)) {
    // ifthen's and etoolbox's tests (`\ifthenelse{…}{…}{…}`) are macros without a `\fi`.
    const conditional = /\\if(?!thenelse|toggle|bool|def\b|undef|csdef|csundef|defmacro|strequal|strempty|blank)[a-zA-Z@]*|\\fi(?![a-zA-Z@])/gu;
    conditional.lastIndex = start;
    let depth = 0;
    // An unbalanced block (a conditional this misses) takes nothing away but its `\iffalse`.
    let stop = start + '\\iffalse'.length;
    for (let match = conditional.exec(out); match; match = conditional.exec(out)) {
      depth += match[0] === '\\fi' ? -1 : 1;
      if (depth === 0) {
        stop = match.index + match[0].length;
        break;
      }
    }
    out = `${out.slice(0, start)} ${out.slice(stop)}`;
  }
  return out;
}

/** Removes what is never printed (withoutUnprinted, and what follows the last `\end{document}`), verbatim-like environments, `\verb`, and the bodies of macro definitions. */
function withoutPrintedCode(text: string): string {
  // Code a display prints with `\verb` is no maths its source spells: the marker keeps that display out (usesStandardCommandsOnly).
  let out = withoutUnprinted(text).replace(/\\verb\*?(.).*?\1/gu, ' \\FOLIOVERBATIM ');
  const declared = declaredVerbatim(out);
  const begin = /\\begin\{([^}]+)\}/gu;
  for (let match = begin.exec(out); match; match = begin.exec(out)) {
    const name = match[1]!;
    if (!(VERBATIM_LIKE.test(name) || declared.has(name)) || DISPLAY_ENVIRONMENTS.test(name)) continue;
    const end = out.indexOf(`\\end{${name}}`, match.index);
    out = `${out.slice(0, match.index)} ${end < 0 ? '' : out.slice(end + name.length + 6)}`;
    begin.lastIndex = match.index;
  }
  // TeX reads no further than `\end{document}`: the last one, since an example the manual prints in
  // an environment not named as code may hold a whole document; not a .dtx driver's (`\DocInput`).
  const end = out.lastIndexOf('\\end{document}');
  if (end >= 0 && !out.slice(0, end).includes('\\DocInput')) out = out.slice(0, end);
  return out;
}

/** A definition's body is a template, not maths on the page: its command is marked so that no display is taken from it. */
const withDefinitionsMarked = (text: string) =>
  text.replace(/\\(?:new|renew|provide)(?:command|environment)\*?|\\(?:g|e|x)?def\b|\\DeclareMathOperator|\\NewDocumentCommand/gu, '\\FOLIODEFINITION');

/** What a document makes of standard commands: `\let\tilde\widetilde` aliases one to another; any other definition (`\def\div{…}`) redefines it. */
interface StandardRedefinitions {
  aliases: Map<string, string>;
  redefined: Set<string>;
}

const DEFINITION =
  /\\(let|(?:g|e|x)?def|(?:re|new|provide)command\*?|DeclareMathOperator\*?|DeclareRobustCommand\*?|(?:New|Renew|Declare)DocumentCommand)\s*\{?\s*\\([A-Za-z]+)\s*\}?(?:\s*=?\s*\\([A-Za-z]+)(?![A-Za-z])|\s*\{\s*\\([A-Za-z]+)\s*\})?/gu;

/** The standard commands the document itself (re)defines: TeX prints its displays by those definitions, not by the standard ones. */
function standardRedefinitions(text: string): StandardRedefinitions {
  const aliases = new Map<string, string>();
  const redefined = new Set<string>();
  for (const [, how, name, bare, braced] of text.matchAll(DEFINITION)) {
    if (!STANDARD_COMMANDS.has(name!)) continue;
    // `\let\a\b` and `\renewcommand{\a}{\b}` make `\a` print as `\b`.
    const target = how === 'let' ? bare : braced;
    if (target !== undefined && STANDARD_COMMANDS.has(target)) aliases.set(name!, target);
    else redefined.add(name!);
  }
  return { aliases, redefined };
}

/** The display as the document's aliases print it (`\tilde R` under `\let\tilde\widetilde` is `\widetilde R`). */
function withAliases(body: string, aliases: Map<string, string>): string {
  return aliases.size === 0 ? body : body.replace(/\\([A-Za-z]+)/gu, (word, name: string) => (aliases.has(name) ? `\\${aliases.get(name)}` : word));
}

/** Every display equation of a document's text (see the module header for what counts). */
export function extractDisplays(text: string): SourceDisplay[] {
  const printed = withoutPrintedCode(text);
  const { aliases, redefined } = standardRedefinitions(printed);
  const clean = withDefinitionsMarked(printed);
  const found: { at: number; environment: string; body: string }[] = [];
  const pattern =
    /\\\[([\s\S]*?)\\\]|\$\$([\s\S]*?)\$\$|\\begin\{((?:equation|align|alignat|flalign|gather|multline|eqnarray|displaymath)\*?)\}(\{\d+\})?([\s\S]*?)\\end\{\3\}/gu;
  for (const match of clean.matchAll(pattern)) {
    const [, bracket, dollars, environment, , body] = match;
    if (bracket !== undefined) found.push({ at: match.index, environment: '[', body: bracket });
    else if (dollars !== undefined) found.push({ at: match.index, environment: '$$', body: dollars });
    else found.push({ at: match.index, environment: environment!, body: body ?? '' });
  }
  return found
    .filter(({ at }) => !insideDefinition(clean, at))
    .filter(({ body }) => !usesAny(body, redefined))
    .map(({ at, environment, body }) => ({
      environment,
      body: withAliases(body, aliases).trim(),
      constructs: constructsOf(environment, body),
      ...(boldVersionAt(clean, at) ? { boldVersion: true as const } : {}),
    }))
    .filter((display) => display.body.length > 0 && usesStandardCommandsOnly(display.body));
}

const usesAny = (body: string, names: Set<string>) => [...body.matchAll(/\\([A-Za-z]+)/gu)].some((match) => names.has(match[1]!));

/** The math version in force at `at` (the last `\mathversion{…}` before it) is a bold one. */
function boldVersionAt(text: string, at: number): boolean {
  const versions = [...text.slice(0, at).matchAll(/\\mathversion\s*\{([^}]*)\}/gu)];
  return /bold/u.test(versions.at(-1)?.[1] ?? '');
}

/** A display inside a `\newcommand{…}{…}` (or similar) body: the definition marker is less than one brace level out. */
function insideDefinition(text: string, at: number): boolean {
  const marker = text.lastIndexOf('\\FOLIODEFINITION', at);
  if (marker < 0) return false;
  let depth = 0;
  for (let i = marker; i < at; i++) {
    if (text[i] === '{' && text[i - 1] !== '\\') depth++;
    else if (text[i] === '}' && text[i - 1] !== '\\') depth--;
  }
  return depth > 0;
}

function usesStandardCommandsOnly(body: string): boolean {
  if (/[#@]/u.test(body.replace(/\\[#@]/gu, ''))) return false;
  const words = body.match(/\\[A-Za-z]+\*?/gu) ?? [];
  return words.every((word) => STANDARD_COMMANDS.has(word.replace(/\*$/u, '').slice(1)));
}

/**
 * The constructs a display holds, for the per-construct table: its environment family
 * (aligned, gathered, multline), matrices, cases, stacked limits (a big operator or `\lim` with
 * a limit below, `\substack`, `\underset`/`\overset`), numbered (an unstarred numbering
 * environment, or `\tag`), fractions, roots, accents; `plain` when none.
 */
export function constructsOf(environment: string, body: string): string[] {
  const tags = new Set<string>();
  if (/^(align|alignat|flalign|eqnarray)/u.test(environment) || /\\begin\{(split|aligned|alignedat)\}/u.test(body)) tags.add('aligned');
  if (/^gather/u.test(environment) || /\\begin\{gathered\}/u.test(body)) tags.add('gathered');
  if (/^multline/u.test(environment)) tags.add('multline');
  if (/\\begin\{[pbBvV]?matrix\*?\}|\\begin\{smallmatrix\}|\\begin\{array\}/u.test(body)) tags.add('matrix');
  if (/\\begin\{[dr]?cases\*?\}/u.test(body)) tags.add('cases');
  if (
    /\\(sum|prod|coprod|bigcup|bigcap|bigoplus|bigotimes|bigvee|bigwedge|bigsqcup|lim|limsup|liminf|max|min|sup|inf)\s*(\\limits\s*)?_|\\substack|\\underset|\\overset|\\stackrel/u.test(
      body,
    )
  )
    tags.add('stacked limits');
  const numberedEnvironment = /^(equation|align|alignat|flalign|gather|multline|eqnarray)$/u.test(environment);
  if ((numberedEnvironment && !/^\s*(\\nonumber|\\notag)/u.test(body.split('\\\\').at(-1) ?? '')) || /\\tag\b/u.test(body)) tags.add('numbered');
  if (/\\[dtc]?frac|\\binom|\\genfrac|\\over\b/u.test(body)) tags.add('fraction');
  if (/\\sqrt/u.test(body)) tags.add('root');
  if (/\\(hat|widehat|bar|overline|tilde|widetilde|vec|dot|ddot|check|breve|acute|grave|underline|overbrace|underbrace)\b/u.test(body)) tags.add('accent');
  if (/\\(int|iint|iiint|oint)\b/u.test(body)) tags.add('integral');
  if (tags.size === 0) tags.add('plain');
  return [...tags];
}

const GREEK =
  'alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa lambda mu nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega digamma';
const SYMBOLS =
  'leq le geq ge neq ne approx equiv sim simeq cong propto pm mp times div cdot ast star circ bullet sum prod coprod int iint iiint oint infty partial nabla in notin ni subset supset subseteq supseteq subsetneq supsetneq cup cap setminus emptyset varnothing forall exists nexists neg lnot wedge land vee lor oplus ominus otimes oslash odot bigoplus bigotimes bigodot bigcup bigcap bigvee bigwedge bigsqcup biguplus uplus sqcup sqcap to gets rightarrow leftarrow leftrightarrow Rightarrow Leftarrow Leftrightarrow longrightarrow longleftarrow longleftrightarrow Longrightarrow Longleftarrow Longleftrightarrow mapsto longmapsto iff implies impliedby hookrightarrow hookleftarrow uparrow downarrow Uparrow Downarrow updownarrow nearrow searrow swarrow nwarrow rightharpoonup rightharpoondown leftharpoonup leftharpoondown rightleftharpoons xrightarrow xleftarrow prime angle triangle perp parallel mid nmid models vdash dashv top bot ell hbar hslash wp aleph beth Re Im imath jmath ldots cdots vdots ddots dots dotsc dotsb dotsm dotsi colon langle rangle lfloor rfloor lceil rceil lvert rvert lVert rVert vert Vert lbrace rbrace backslash ll gg prec succ preceq succeq lesssim gtrsim leqslant geqslant doteq triangleq smile frown asymp bowtie diamond Box square blacksquare checkmark therefore because complement mho flat natural sharp clubsuit diamondsuit heartsuit spadesuit dagger ddagger wr amalg S P dag ddag surd';
const STRUCTURE =
  'frac dfrac tfrac cfrac binom dbinom tbinom genfrac sqrt left right middle big Big bigg Bigg bigl bigr bigm Bigl Bigr Bigm biggl biggr Biggl Biggr text textrm textit textbf textsf texttt textup mathrm mathit mathbf mathsf mathtt mathcal mathbb mathfrak mathscr boldsymbol bm operatorname hat widehat bar overline underline vec overrightarrow overleftarrow dot ddot dddot tilde widetilde check breve acute grave mathring overbrace underbrace boxed substack underset overset stackrel sideset limits nolimits displaystyle textstyle scriptstyle scriptscriptstyle begin end quad qquad hspace enspace thinspace medspace thickspace negthinspace phantom hphantom vphantom mathstrut strut smash label nonumber notag tag intertext shortintertext pmod bmod mod pod not cdotp ldotp';
const FUNCTIONS =
  'sin cos tan cot sec csc sinh cosh tanh coth arcsin arccos arctan log ln lg exp lim liminf limsup max min sup inf det arg gcd deg dim ker hom Pr';

export const STANDARD_COMMANDS = new Set([GREEK, SYMBOLS, STRUCTURE, FUNCTIONS].flatMap((list) => list.split(' ')));
