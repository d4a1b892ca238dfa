import type ort from 'onnxruntime-node';
import { type Crop, type LineRead, runCrops } from './recognize.js';
import { joinReads, splitCrop } from './split-crop.js';

/**
 * Line recognition shared by the pages an inference worker reads at once. With a batch size
 * above one (a GPU provider), the crops several pages ask for within WINDOW_MS, or until a batch
 * is full, go through the model together, sorted by width; each page gets its own lines back.
 * Runs never overlap: a flush waits for the one before it. With a batch size of one (CPU alone,
 * where one crop at a time was fastest: recognize.ts), each page's crops run as they come.
 */

/** How long the first crops wait for other pages' crops to share their batches. */
export const WINDOW_MS = 3;

interface Waiting {
  crops: Crop[];
  resolve: (reads: LineRead[]) => void;
  reject: (err: unknown) => void;
}

export class RecognitionBatcher {
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private previous: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: ort.InferenceSession,
    private readonly charset: string[],
    readonly batchSize: number,
    /** Reads long crops in pieces cut at word gaps (split-crop.ts): what a CPU wants. */
    private readonly splitLongLines = false,
  ) {}

  async read(crops: Crop[]): Promise<LineRead[]> {
    if (!this.splitLongLines) return this.readWhole(crops);
    const pieces = crops.map(splitCrop);
    const reads = await this.readWhole(pieces.flat());
    let at = 0;
    return pieces.map((p) => joinReads(reads.slice(at, (at += p.length))));
  }

  private readWhole(crops: Crop[]): Promise<LineRead[]> {
    if (this.batchSize <= 1 || !crops.length) return runCrops(this.session, crops, this.charset, 1);
    return new Promise((resolve, reject) => {
      this.waiting.push({ crops, resolve, reject });
      if (this.waiting.reduce((n, w) => n + w.crops.length, 0) >= this.batchSize) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), WINDOW_MS);
    });
  }

  /** Releases the session, for a reader that owns its own (index.ts latinReader). */
  release(): Promise<void> {
    return this.session.release();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const group = this.waiting.splice(0);
    this.previous = this.previous.then(async () => {
      try {
        const reads = await runCrops(
          this.session,
          group.flatMap((w) => w.crops),
          this.charset,
          this.batchSize,
        );
        let at = 0;
        for (const w of group) {
          w.resolve(reads.slice(at, at + w.crops.length));
          at += w.crops.length;
        }
      } catch (err) {
        for (const w of group) w.reject(err);
      }
    });
  }
}
