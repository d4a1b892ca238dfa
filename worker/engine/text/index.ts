import type ort from 'onnxruntime-node';
import { createSession, loadModelFile, readManifest, usableProviders, type ModelFileOptions, type SessionOptions } from '../models.js';
import type { ScoredBox } from './boxes.js';
import { ctcCharset, hasEastAsianForms, latinClasses } from './ctc.js';
import { boxBeforeTurn, measureSkew, MIN_CORRECTED_SKEW, turnImage } from './deskew.js';
import { detectLines } from './detect.js';
import { fuseHardSwish } from './fuse-hardswish.js';
import { boxToInput, decodeImage, readingScale, rotateImage, type RgbImage, type Rotation } from './image.js';
import { isEastAsian } from '../../../page/processors/fullwidth.js';
import { readingOrder } from './order.js';
import { largestBoxes, latinReadDoubtful, orientationScore, turnsToTry } from './orientation.js';
import { RecognitionBatcher } from './rec-batcher.js';
import { cropLine, type LineRead, REC_BATCH_SIZE_CPU, REC_BATCH_SIZE_GPU } from './recognize.js';
import { lineWords, type OcrWord } from './words.js';

export { EngineError } from '../errors.js';
export type { Rotation } from './image.js';
export type { OcrWord } from './words.js';

/** Printed-text OCR of a page image with PaddleOCR PP-OCRv4 (detection + CTC recognition). */

export interface OcrLine {
  text: string;
  /** Mean of the recogniser's per-character maximum probabilities, in (0, 1]. */
  confidence: number;
  /** In pixels of the input image (after its EXIF orientation), whatever `rotation` says. */
  box: { x: number; y: number; width: number; height: number };
  /** The line's space-separated words, boxes in the same pixels as the line's. */
  words: OcrWord[];
}

export interface OcrResult {
  /** In reading order of the upright page. */
  lines: OcrLine[];
  /** Size of the input image. */
  width: number;
  height: number;
  /** Clockwise degrees that turn the input upright (`sharp(input).rotate(rotation)`). */
  rotation: Rotation;
  /**
   * When the upright reading looked sound, that reading's character-weighted confidence (no other
   * turn was tried). When turns were tried, the winner's score minus the runner-up's, so two
   * turns that read equally well give about 0. 0 for a page without text.
   */
  rotationConfidence: number;
  /** Clockwise degrees the page was turned by before reading, to straighten a scan's lines (deskew.ts). */
  skew: number;
}

export interface TextRecognizerOptions extends SessionOptions, ModelFileOptions {
  /** Lines read with less confidence are dropped, as PaddleOCR's drop_score does. @default 0.5 */
  minLineConfidence?: number;
  /** Line crops per recognition run, padded to the widest. @default 1 on CPU alone, 8 with a GPU provider */
  recognitionBatchSize?: number;
}

interface Reading {
  rotation: Rotation;
  img: RgbImage;
  /** How much its line crops are enlarged before they are scaled to the recogniser's height (image.ts readingScale). */
  enlarge: number;
  boxes: ScoredBox[];
  texts: Map<number, LineRead>;
  score: number;
}

/**
 * Share of East Asian characters (kana, Han, Hangul) in the orientation sample's lines above
 * which the page counts as East Asian and is read with the whole dictionary. A Latin page read
 * noisily strays into Han now and then (`丨` for a bar), far below this.
 */
const EAST_ASIAN_PAGE_SHARE = 0.2;

function eastAsianShare(reads: { text: string }[]): number {
  const chars = reads.flatMap((r) => [...r.text.replace(/\s/g, '')]);
  return chars.length ? chars.filter((c) => isEastAsian(c)).length / chars.length : 0;
}

/**
 * The recogniser made for CPUs from 'text-recognition' (models/training/text_rec_cpu.py: the
 * same network with hard-swish as one op, its scalar affine blocks folded into its convolutions
 * and its 1×1 convolutions in int8; models/README.md), used when no GPU provider is; a GPU runs
 * the source model.
 */
export const CPU_RECOGNITION_MODEL = 'text-recognition-cpu';

async function recognitionModelId(opts: TextRecognizerOptions): Promise<string> {
  const cpuOnly = usableProviders(opts.executionProviders ?? ['cuda', 'cpu']).every((p) => p === 'cpu');
  const listed = (await readManifest(opts.manifestPath)).some((e) => e.id === CPU_RECOGNITION_MODEL);
  return cpuOnly && listed ? CPU_RECOGNITION_MODEL : 'text-recognition';
}

/**
 * CPU_RECOGNITION_MODEL with its output layer cut to the blank, the dictionary's characters outside
 * the East Asian blocks and the space (models/training/text_rec_latin.py), and its dictionary: the
 * lines of a page without East Asian script are read with it, which spares the 6,400 other classes
 * of the output layer, its softmax and the decoder.
 */
export const LATIN_RECOGNITION_MODEL = 'text-recognition-cpu-latin';
const LATIN_DICTIONARY = 'text-dictionary-latin';

/** The Latin recogniser's line reader, when the CPU recogniser is in use and the manifest lists it. */
async function latinReader(recId: string, opts: TextRecognizerOptions, batchSize: number): Promise<RecognitionBatcher | undefined> {
  if (recId !== CPU_RECOGNITION_MODEL) return undefined;
  const ids = new Set((await readManifest(opts.manifestPath)).map((e) => e.id));
  if (!ids.has(LATIN_RECOGNITION_MODEL) || !ids.has(LATIN_DICTIONARY)) return undefined;
  const [rec, dict] = await Promise.all([LATIN_RECOGNITION_MODEL, LATIN_DICTIONARY].map((id) => loadModelFile(id, opts)));
  const { session } = await createSession({ ...rec, bytes: fuseHardSwish(rec.bytes) }, { ...opts, executionProviders: ['cpu'] });
  return new RecognitionBatcher(session, ctcCharset(dict.bytes.toString('utf8')), batchSize, true);
}

export class TextRecognizer {
  private constructor(
    private readonly detector: ort.InferenceSession,
    private readonly recognizer: ort.InferenceSession,
    private readonly lines: RecognitionBatcher,
    /** The classes a page without East Asian text may emit (ctc.ts latinClasses). */
    private readonly latin: Uint8Array,
    /** Reads such a page's lines with LATIN_RECOGNITION_MODEL, which emits only those classes; absent on a GPU. */
    private readonly latinLines: RecognitionBatcher | undefined,
    private readonly minLineConfidence: number,
    /** The execution providers in use, after filtering and CPU fallback. */
    readonly executionProviders: string[],
    /** The manifest id of the recognition model in use. */
    readonly recognitionModel: string,
  ) {}

  /** The manifest id of the model that reads pages without East Asian script, when it is not recognitionModel. */
  get latinRecognitionModel(): string | undefined {
    return this.latinLines && LATIN_RECOGNITION_MODEL;
  }

  /** Verifies the models against the manifest and creates one session per model; CPU alone reads with CPU_RECOGNITION_MODEL when the manifest lists it. */
  static async load(opts: TextRecognizerOptions = {}): Promise<TextRecognizer> {
    const recId = await recognitionModelId(opts);
    const [det, rec, dict] = await Promise.all(['text-detection', recId, 'text-dictionary'].map((id) => loadModelFile(id, opts)));
    const detector = await createSession(det, opts);
    const recognizer = await createSession({ ...rec, bytes: fuseHardSwish(rec.bytes) }, opts);
    const charset = ctcCharset(dict.bytes.toString('utf8'));
    const cpuOnly = recognizer.executionProviders.every((p) => p === 'cpu');
    const batchSize = opts.recognitionBatchSize ?? (cpuOnly ? REC_BATCH_SIZE_CPU : REC_BATCH_SIZE_GPU);
    // A CPU reads long lines in pieces (split-crop.ts); a GPU reads them whole, in batches.
    const lines = new RecognitionBatcher(recognizer.session, charset, batchSize, cpuOnly);
    return new TextRecognizer(
      detector.session,
      recognizer.session,
      lines,
      latinClasses(charset),
      await latinReader(recId, opts, batchSize),
      opts.minLineConfidence ?? 0.5,
      recognizer.executionProviders,
      recId,
    );
  }

  /** Line crops per recognition run: above one, pages read at once share their runs (rec-batcher.ts). */
  get batchSize(): number {
    return this.lines.batchSize;
  }

  /**
   * `minTurnMargin`: a turn is taken only when its reading scores this much above the upright
   * one. Maths is no text, so an upright formula reads poorly and a turn may score a hair better
   * by chance: callers reading maths ask for a clear margin. It does not hold back a page whose
   * lines run down it (orientation.ts), except Infinity, which reads the image as it is.
   */
  async recognize(image: Buffer, opts: { minTurnMargin?: number } = {}): Promise<OcrResult> {
    const decoded = await decodeImage(image);
    const enlarge = readingScale(decoded);
    const measured = await measureSkew(decoded);
    const skew = Math.abs(measured) >= MIN_CORRECTED_SKEW ? measured : 0;
    const input = await turnImage(decoded, skew);
    const upright = await this.trial(input, 0, enlarge);
    let best = upright;
    let rotationConfidence = upright.score;
    const { turns, uprightStays } = turnsToTry(upright.boxes, upright.score);
    if (turns.length && opts.minTurnMargin !== Infinity) {
      const trials = [upright];
      for (const rotation of turns) trials.push(await this.trial(input, rotation, enlarge));
      trials.sort((a, b) => b.score - a.score);
      // Lines that run down the page are read turned, whatever the upright read scored (orientation.ts).
      const turned = trials.find((t) => t !== upright)!;
      best = !uprightStays || turned.score - upright.score >= (opts.minTurnMargin ?? 0) ? turned : upright;
      rotationConfidence = best === trials[0] ? best.score - trials[1]!.score : 0;
    }
    // Without East Asian script among the sample lines the page is read without it: its sample
    // lines that strayed into it are read again so.
    const allowed = eastAsianShare([...best.texts.values()]) < EAST_ASIAN_PAGE_SHARE ? this.latin : undefined;
    const rest = best.boxes.map((_, i) => i).filter((i) => !best.texts.has(i) || (allowed && hasEastAsianForms(best.texts.get(i)!.text)));
    await this.read(best, rest, allowed);

    const lines: OcrLine[] = [];
    best.boxes.forEach((b, i) => {
      const read = best.texts.get(i)!;
      if (!read.text.trim() || read.confidence < this.minLineConfidence) return;
      const box = { x: b.x, y: b.y, width: b.width, height: b.height };
      lines.push({ text: read.text.trim(), confidence: read.confidence, box, words: lineWords(read.spans, box) });
    });
    const toInput = (box: OcrLine['box']) => boxBeforeTurn(boxToInput(box, best.rotation, best.img.width, best.img.height), skew, input.width, input.height);
    return {
      lines: readingOrder(lines).map((l) => ({ ...l, box: toInput(l.box), words: l.words.map((w) => ({ ...w, box: toInput(w.box) })) })),
      width: decoded.width,
      height: decoded.height,
      rotation: best.rotation,
      rotationConfidence: Math.max(0, rotationConfidence),
      skew,
    };
  }

  async release(): Promise<void> {
    await Promise.all([this.detector.release(), this.recognizer.release(), this.latinLines?.release()]);
  }

  /** Detects lines in the input turned by `rotation` and reads only the largest, for a score and the page's script. */
  private async trial(input: RgbImage, rotation: Rotation, enlarge: number): Promise<Reading> {
    const img = await rotateImage(input, rotation);
    const boxes = await detectLines(this.detector, img);
    const reading: Reading = { rotation, img, enlarge, boxes, texts: new Map(), score: 0 };
    const sample = largestBoxes(boxes);
    if (rotation === 0 && this.latinLines) {
      // The upright sample is read first with the Latin recogniser; only the lines it read unsurely
      // or sparsely are read again with the whole one, which keeps the turn and script judgements.
      await this.read(reading, sample, this.latin);
      await this.read(
        reading,
        sample.filter((i) => latinReadDoubtful(reading.texts.get(i)!, boxes[i]!)),
      );
    } else await this.read(reading, sample);
    reading.score = orientationScore(sample.map((i) => reading.texts.get(i)!));
    return reading;
  }

  private async read(reading: Reading, indices: number[], allowed?: Uint8Array): Promise<void> {
    if (!indices.length) return;
    const latinModel = allowed && this.latinLines;
    const crops = await Promise.all(
      indices.map(async (i) => ({ ...(await cropLine(reading.img, reading.boxes[i]!, reading.enlarge)), allowed: latinModel ? undefined : allowed })),
    );
    const texts = await (latinModel || this.lines).read(crops);
    indices.forEach((i, n) => reading.texts.set(i, texts[n]));
  }
}
