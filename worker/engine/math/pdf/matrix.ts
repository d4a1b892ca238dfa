/** A PDF transformation matrix [a, b, c, d, e, f]. */
export type Matrix = [number, number, number, number, number, number];

/** The PDF matrix product m1 × m2 (pdf.js's Util.transform order). Pure: no pdf.js import. */
export function multiplyMatrix(m1: readonly number[], m2: readonly number[]): Matrix {
  return [
    m1[0]! * m2[0]! + m1[2]! * m2[1]!,
    m1[1]! * m2[0]! + m1[3]! * m2[1]!,
    m1[0]! * m2[2]! + m1[2]! * m2[3]!,
    m1[1]! * m2[2]! + m1[3]! * m2[3]!,
    m1[0]! * m2[4]! + m1[2]! * m2[5]! + m1[4]!,
    m1[1]! * m2[4]! + m1[3]! * m2[5]! + m1[5]!,
  ];
}
