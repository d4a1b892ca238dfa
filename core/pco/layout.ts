import { posix } from 'node:path';
import type { JobSpec } from './job-spec.js';

/**
 * Where a source's outputs go, as a key in the output bucket without extension:
 * - alongside: beside the source (output folder = input folder);
 * - mirror: the source's path relative to the input folder, under the output folder;
 * - flat: that relative path with '/' turned into '__', directly in the output folder, so two
 *   sources with the same file name in different folders never overwrite each other.
 * With input.files there is no input folder; the relative path is the object's file name.
 */
export function outputBaseKey(spec: JobSpec, sourceKey: string, inputPrefix: string, outputPrefix: string): string {
  const stem = stripExtension(sourceKey);
  if (spec.output.layout === 'alongside') return stem;
  const rel = spec.input.folder && stem.startsWith(inputPrefix) ? stem.slice(inputPrefix.length) : posix.basename(stem);
  return outputPrefix + (spec.output.layout === 'flat' ? rel.split('/').join('__') : rel);
}

export function stripExtension(key: string): string {
  const base = posix.basename(key);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? key.slice(0, key.length - (base.length - dot)) : key;
}

/** Lower-case extension of a key without the dot ('' when none). */
export function extensionOf(key: string): string {
  const base = posix.basename(key);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Input types a job processes; anything else is excluded at enumeration. */
export const DOCUMENT_EXTENSIONS = new Set(['pdf', 'docx', 'doc', 'pptx', 'odt', 'odp', 'rtf', 'epub', 'wpd', 'mobi', 'azw', 'azw3', 'kfx', 'djvu']);

/** Keys Folio itself writes into customer folders, never to be taken as inputs. */
export function isFolioOutput(key: string): boolean {
  return /\.(mmd|lines\.json|lines\.mmd\.json)$|\.folio\.[a-z.]+$/.test(key) || key.includes('_folio/');
}
