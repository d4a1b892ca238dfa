import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../../core/config.js';

/**
 * The development key used when FOLIO_DATA_SOURCE_KEY is unset: derived from a published phrase,
 * so anyone can decrypt with it. The data-source surface logs a warning at start while it is in use.
 */
export const DEV_DATA_SOURCE_KEY_HEX = createHash('sha256').update('folio development data-source key').digest('hex');
const FORMAT = 'v1';
const IV_BYTES = 12;

export interface DataSourceKey {
  key: Buffer;
  /** True when no key was configured and the published development key is in use. */
  isDevDefault: boolean;
}

/** The AES-256-GCM key that encrypts data-source secrets at rest: FOLIO_DATA_SOURCE_KEY (validated by core/config.ts), or the development key. */
export function dataSourceKey(config: Config): DataSourceKey {
  const configured = config.FOLIO_DATA_SOURCE_KEY;
  if (!configured) return { key: Buffer.from(DEV_DATA_SOURCE_KEY_HEX, 'hex'), isDevDefault: true };
  return { key: Buffer.from(configured, 'hex'), isDevDefault: false };
}

/**
 * Seals and opens data-source secrets with AES-256-GCM. `context` (the data source id) is bound as
 * additional data, so a sealed value copied onto another row does not open there.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT, iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  /** The plaintext; throws when the value was altered, sealed for another context or with another key. */
  open(sealed: string, context: string): string {
    const [format, iv, tag, ciphertext] = sealed.split('.');
    if (format !== FORMAT || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed data-source secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
