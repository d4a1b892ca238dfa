/**
 * The one error class of the recognition engine. `kind` says what went wrong and `retryable`
 * whether running the same job again can help: a missing or tampered model needs an operator,
 * an undecodable image needs a different input.
 */
export type EngineErrorKind = 'model_missing' | 'model_mismatch' | 'manifest_invalid' | 'image_invalid';

export class EngineError extends Error {
  readonly retryable = false;

  constructor(
    readonly kind: EngineErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EngineError';
  }
}
