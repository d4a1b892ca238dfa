import { FRAME, RADICAL, RULE, type SymbolStyle } from '../types.js';

/**
 * Where a token's ink sits relative to its baseline, in em (positive is up). Image and stroke
 * symbols carry no baseline, so the parser reads one off the box through this table: a box from
 * a class with `sizes: true` gives both the baseline and the em; the others (operators centred on
 * the maths axis, delimiters and big operators that grow, punctuation) give a baseline only once
 * the em is known from a neighbour. Values follow Computer Modern's glyph ink.
 */
export interface VerticalClass {
  top: number;
  bottom: number;
  /** True when the box height alone tells the em (letters and digits of fixed height). */
  sizes: boolean;
  /** How the baseline follows from the box once the em is known: from the bottom edge, or from the centre (axis). */
  anchor: 'bottom' | 'axis';
}

/** Script and scriptscript sizes are at most this share of the size they stand beside (TeX: 0.7 and 0.5). */
export const SCRIPT_SHARE = 0.85;

/** Height of the maths axis (fraction bars, centres of + and =) above the baseline, in em. */
export const AXIS_HEIGHT = 0.25;

const cls = (top: number, bottom: number, sizes: boolean, anchor: 'bottom' | 'axis'): VerticalClass => ({
  top,
  bottom,
  sizes,
  anchor,
});

const X_HEIGHT = cls(0.44, 0, true, 'bottom');
const ASCENDER = cls(0.69, 0, true, 'bottom');
/** `t` stops between the x-height and the ascenders: measured as an ascender, it looks a smaller size than the `an` of `\tan`. */
const T_HEIGHT = cls(0.615, 0, true, 'bottom');
const DESCENDER = cls(0.44, -0.2, true, 'bottom');
const ASCENDER_DESCENDER = cls(0.7, -0.2, true, 'bottom');
const CENTRED = cls(0.55, -0.05, false, 'axis');
const THIN_CENTRED = cls(0.37, 0.13, false, 'axis');
export const TALL = cls(0.75, -0.25, false, 'axis');
const LOW_PUNCTUATION = cls(0.1, -0.19, false, 'bottom');
const ON_BASELINE = cls(0.1, 0, false, 'bottom');
const COLON = cls(0.43, 0, false, 'bottom');
const RAISED = cls(0.75, 0.43, false, 'bottom');
const CAPITAL_ITALIC_DESCENDER = cls(0.69, -0.2, true, 'bottom');

const TABLE = new Map<string, VerticalClass>();
const assign = (vertical: VerticalClass, tokens: string[]) => tokens.forEach((token) => TABLE.set(token, vertical));
const greek = (names: string) => names.split(' ').map((name) => `\\${name}`);

assign(X_HEIGHT, [...'acemnorsuvwxz']);
assign(X_HEIGHT, greek('alpha epsilon varepsilon iota kappa nu pi sigma tau upsilon omega varpi infty propto'));
assign(T_HEIGHT, ['t']);
assign(ASCENDER, [...'bdhikl0123456789ABCDEFGHIJKLMNOPRSTUVWXYZ!?&%#']);
assign(ASCENDER, ['\\%', '\\#', '\\&']);
assign(ASCENDER, greek('Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega delta theta vartheta lambda partial ell hbar nabla forall exists'));
assign(DESCENDER, [...'gpqy']);
assign(DESCENDER, greek('gamma eta mu rho varrho chi varphi varsigma'));
assign(ASCENDER_DESCENDER, [...'fj/']);
assign(ASCENDER_DESCENDER, greek('beta zeta xi phi psi emptyset'));
assign(CAPITAL_ITALIC_DESCENDER, ['Q']);
assign(CENTRED, [...'+<>*']);
assign(CENTRED, greek('pm mp times div leq geq le ge neq ne in notin subset subseteq supset supseteq cup cap circ ast star'));
assign(cls(0.3, 0.2, false, 'axis'), ['\\cdot', '\\cdotp']);
assign(THIN_CENTRED, ['=', '-', RULE]);
assign(THIN_CENTRED, greek('approx equiv sim simeq cong rightarrow leftarrow leftrightarrow Rightarrow Leftarrow Leftrightarrow to mapsto'));
assign(
  THIN_CENTRED,
  greek('longrightarrow longleftarrow longleftrightarrow Longrightarrow Longleftarrow Longleftrightarrow longmapsto hookrightarrow hookleftarrow nrightarrow'),
);
assign(TALL, [...'()[]|']);
assign(
  TALL,
  greek('{ } | langle rangle lfloor rfloor lceil rceil sum prod coprod int iint iiint iiiint oint bigcup bigcap bigoplus bigotimes bigvee bigwedge'),
);
assign(TALL, [RADICAL, FRAME]);
assign(LOW_PUNCTUATION, [',', ';']);
assign(ON_BASELINE, ['.', '\\ldotp']);
assign(COLON, [':']);
assign(RAISED, [
  "'",
  '\\prime',
  '^',
  '\\hat',
  '\\tilde',
  '\\vec',
  '\\dot',
  '\\ddot',
  '\\dddot',
  '\\ddddot',
  '\\mathring',
  '\\bar',
  '\\check',
  '\\breve',
  '\\acute',
  '\\grave',
  '\\widehat',
  '\\widetilde',
  '"',
  '`',
]);

/** Letters whose roman shape stands otherwise than the maths italic one: roman f has no descender. */
const UPRIGHT = new Map([['f', ASCENDER]]);

/**
 * Tokens without an entry (rare symbols) are treated like operators: centred, sized by their
 * neighbours. An upright letter (`style`) takes its roman shape's class where that differs.
 */
export function verticalClass(token: string, style?: SymbolStyle): VerticalClass {
  return (style === 'upright' ? UPRIGHT.get(token) : undefined) ?? TABLE.get(token) ?? TABLE.get(token.replace(/^\\math[a-z]+\{(.)\}$/u, '$1')) ?? CENTRED;
}

/** Operators that take limits above and below in display style (words like lim come from `words.ts`). */
export const LIMIT_OPERATORS = new Set(
  greek('sum prod coprod bigcup bigcap bigoplus bigotimes bigvee bigwedge int iint iiint iiiint oint lim liminf limsup max min sup inf det gcd Pr'),
);
