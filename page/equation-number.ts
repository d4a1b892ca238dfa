/**
 * An equation number as printed beside display maths: `(1)`, `(2.3a)`, `(A1)`, `(4′)`, a tag of
 * capitals (`\tag{A}`, `\tag*{(B')}`; the text layer may give a prime as ’), and `\tag{*}`'s
 * starred marks. Born-digital pages find them in the text layer
 * (worker/document/pipeline/equation-numbers.ts), page images among the maths symbols of a line
 * (worker/inference/equation-number.ts).
 */
export const EQUATION_NUMBER = /^\(\s*(?:[0-9A-Za-z]{0,3}[0-9]+(?:\.[0-9]+)*[a-z]?['′’]*|[A-Z]{1,2}['′’]*|[*∗⋆†‡]{1,3})\s*\)$/u;

/** A text read that is only an equation number (`(3)`, `( 2.6′ )`), spaces and all. */
export const isEquationNumber = (text: string): boolean => EQUATION_NUMBER.test(text.replace(/\s+/g, ''));
