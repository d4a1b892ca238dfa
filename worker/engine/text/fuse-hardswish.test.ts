import ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { loadModelFile } from '../models.js';
import { fuseHardSwish, opTypes } from './fuse-hardswish.js';

const count = (model: Buffer, op: string) => opTypes(model).filter((o) => o === op).length;

describe('fuseHardSwish', () => {
  it('rewrites the recogniser hard-swishes into HardSigmoid and Mul, reading a line the same', async () => {
    const { bytes } = await loadModelFile('text-recognition');
    const fused = fuseHardSwish(bytes);
    const swishes = count(bytes, 'Clip');
    expect(swishes).toBeGreaterThan(20);
    expect(count(fused, 'Clip')).toBe(0);
    expect(count(fused, 'HardSigmoid') - count(bytes, 'HardSigmoid')).toBe(swishes);
    expect(count(bytes, 'Div') - count(fused, 'Div')).toBe(swishes);
    expect(opTypes(fused).length).toBeLessThan(opTypes(bytes).length - 3 * swishes);

    const input = new Float32Array(3 * 48 * 160).map((_, i) => Math.sin(i * 0.37));
    const run = async (model: Buffer) => {
      const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, logSeverityLevel: 3 });
      const out = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, 48, 160]) });
      await session.release();
      return out[session.outputNames[0]!]!.data as Float32Array;
    };
    const [a, b] = [await run(bytes), await run(fused)];
    expect(b.length).toBe(a.length);
    expect(a.reduce((worst, v, i) => Math.max(worst, Math.abs(v - b[i]!)), 0)).toBeLessThan(1e-4);
  });

  it('returns a model without the pattern unchanged', async () => {
    const { bytes } = await loadModelFile('text-detection');
    expect(fuseHardSwish(bytes)).toBe(bytes);
  });
});
