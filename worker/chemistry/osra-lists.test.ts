import { describe, expect, it } from 'vitest';
import { mendList, ocrSpellings, osraLists } from './osra-lists.js';

describe("OSRA's label lists, mended", () => {
  it('replaces the entries of mended keys, keeps the rest and comments, appends the mends', () => {
    const list = '# labels\nMe C\niPr      CCC\nEt CC\n';
    const mended = mendList(list, { iPr: 'C(C)C', OMe: 'OC' }).split('\n');
    expect(mended).toContain('# labels');
    expect(mended).toContain('Me C');
    expect(mended).toContain('iPr C(C)C');
    expect(mended).toContain('OMe OC');
    expect(mended).not.toContain('iPr      CCC');
  });

  it("spells a label as OSRA's OCR reads it: t as l, x c o as capitals, a final letter lost", () => {
    expect(ocrSpellings('nPent')).toEqual(expect.arrayContaining(['nPenl', 'nPen']));
    expect(ocrSpellings('nHex')).toContain('nHeX');
    expect(ocrSpellings('nDec')).toContain('nDeC');
    expect(ocrSpellings('nHex')).not.toContain('nHex');
  });

  it("gives OSRA Debian's lists with isopropyl as C(C)C and nPr's OCR strings as nPr", async () => {
    const lists = await osraLists();
    expect(lists).not.toBeNull();
    const entries = (text: string, key: string) => text.split('\n').filter((l) => l.split(/\s+/)[0] === key);
    expect(entries(lists!.superatom, 'iPr')).toEqual(['iPr C(C)C']);
    expect(entries(lists!.superatom, 'tBu')).toHaveLength(1); // Debian's own entries stay
    expect(entries(lists!.spelling, 'npr')).toEqual(['npr nPr']);
    expect(entries(lists!.superatom, 'nHex')).toEqual(['nHex CCCCCC']);
    expect(entries(lists!.spelling, 'nNOn')).toEqual(['nNOn nNon']);
  });
});
