import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEastAsian } from '../../page/processors/fullwidth.js';
import { TextRecognizer } from '../../worker/engine/text/index.js';

/**
 * A page of East Asian script on the real models: the fixture is ten lines set in WenQuanYi Micro
 * Hei at 40 px (seven Chinese, one Japanese, one Korean, one Chinese), rendered by librsvg. On a
 * CPU the engine reads the largest lines of an upright page with the Latin recogniser first
 * (orientation.ts latinReadDoubtful); such a page must still be found East Asian and upright, and
 * a turned copy turned back.
 */

const FIXTURE = new URL('../fixtures/east-asian-page.png', import.meta.url);
const CHINESE_LINES = [
  '光学字符识别是把图像中的文字转换成可编辑文本的技术。',
  '本文介绍一种在中央处理器上运行的识别方法，',
  '它先检测文本行，然后逐行识别其中的字符。',
  '实验使用二百点每英寸的扫描页面，',
  '并与开源引擎比较每页所需的处理时间。',
  '结果表明，检测和识别两个网络占据了大部分时间，',
  '其余步骤各自不到总时间的十分之一。',
];

let engine: TextRecognizer;
let page: Buffer;

beforeAll(async () => {
  engine = await TextRecognizer.load();
  page = await readFile(FIXTURE);
}, 60_000);

afterAll(async () => {
  await engine?.release();
});

/** The share of the fixture's Chinese characters (punctuation aside) found in the read text. */
function chineseFound(text: string): number {
  const expected = [...CHINESE_LINES.join('')].filter((c) => isEastAsian(c) && /\p{L}/u.test(c));
  const got = new Set([...text]);
  return expected.filter((c) => got.has(c)).length / expected.length;
}

describe('an East Asian page', () => {
  for (const turn of [0, 90, 180] as const) {
    it(`is read as East Asian script and turned upright when turned by ${turn}°`, async () => {
      const input = turn ? await sharp(page).rotate(turn).png().toBuffer() : page;
      const result = await engine.recognize(input);
      expect(result.rotation).toBe(turn === 90 ? -90 : turn);
      const text = result.lines.map((l) => l.text).join('\n');
      // read with the Latin classes, these lines would come back as a few stray marks
      expect(chineseFound(text)).toBeGreaterThan(0.9);
      expect(result.lines.length).toBeGreaterThanOrEqual(9);
    }, 60_000);
  }
});
