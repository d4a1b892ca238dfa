import { spawn } from 'node:child_process';
import { access, constants, mkdtemp, open, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { ApiError } from '../../../core/errors.js';

/**
 * Office documents → PDF with LibreOffice (`soffice --headless --convert-to pdf`). Each conversion
 * gets its own temporary directory and its own profile (-env:UserInstallation) so that parallel
 * conversions do not fight over one profile lock.
 */

/** @default 120_000 — LibreOffice's first start in a fresh profile alone takes a second or two. */
export const OFFICE_TIMEOUT_MS = 120_000;

export interface OfficeOptions {
  /** Path to soffice; found on PATH when absent. */
  soffice?: string;
  timeoutMs?: number;
}

export interface ConvertedPdf {
  pdfPath: string;
  /** Removes the temporary directory; call when done with the PDF. */
  cleanup(): Promise<void>;
}

/** Finds an executable on PATH, or undefined. */
export async function findOnPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Converts `path` (of type `ext`: docx, doc, pptx, odt, rtf, wpd — WordPerfect through libwpd) to PDF in a fresh temporary directory. */
export async function officeToPdf(path: string, ext: string, opts: OfficeOptions = {}): Promise<ConvertedPdf> {
  const soffice = opts.soffice ?? (await findOnPath('soffice'));
  if (!soffice || !(await isExecutable(soffice))) {
    throw new ApiError('unsupported_format', `Cannot convert ${ext}: LibreOffice (soffice) is not installed on this worker`, {}, false);
  }
  await checkZipExpansion(path, ext);
  const dir = await mkdtemp(join(tmpdir(), 'folio-office-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    // soffice names its output after the input and trusts the extension: give it both.
    const input = join(dir, `input.${ext}`);
    await symlink(resolve(path), input);
    const out = join(dir, 'out');
    const args = [
      '--headless',
      '--norestore',
      '--nolockcheck',
      `-env:UserInstallation=file://${join(dir, 'profile')}`,
      '--convert-to',
      'pdf',
      '--outdir',
      out,
      input,
    ];
    const { code, stderr } = await run(soffice, args, { ...process.env, HOME: dir }, opts.timeoutMs ?? OFFICE_TIMEOUT_MS);
    const produced = (await readdir(out).catch(() => [] as string[])).find((f) => f.endsWith('.pdf'));
    if (!produced) {
      throw new ApiError('unsupported_format', `LibreOffice could not convert this ${ext} file (exit ${code}): ${stderr.trim().slice(0, 300)}`, {}, false);
    }
    return { pdfPath: join(out, produced), cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * Zip-based office files (docx, pptx, odt…) declare each part's expanded size in the central
 * directory. Over MAX_OFFICE_EXPANDED_BYTES in total (a zip bomb: ~1 MB that expands to 1 GB made
 * LibreOffice run 40 s at 7 GB RSS) → content_too_large before LibreOffice sees the file. Not a zip
 * (doc, rtf): left to LibreOffice.
 */
export const MAX_OFFICE_EXPANDED_BYTES = 256 * 1024 * 1024;

export async function checkZipExpansion(path: string, ext: string, limit = MAX_OFFICE_EXPANDED_BYTES): Promise<void> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const tailLen = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLen);
    await fh.read(tail, 0, tailLen, size - tailLen);
    let eocd = -1;
    for (let i = tailLen - 22; i >= 0; i--)
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    if (eocd < 0) return;
    const cdSize = tail.readUInt32LE(eocd + 12);
    const cdOffset = tail.readUInt32LE(eocd + 16);
    const tooLarge = () => new ApiError('content_too_large', `This ${ext} file expands to more than ${limit} bytes`, { max_limit: limit }, false);
    if (cdSize === 0xffffffff || cdOffset === 0xffffffff || cdOffset + cdSize > size) throw tooLarge();
    const cd = Buffer.alloc(cdSize);
    await fh.read(cd, 0, cdSize, cdOffset);
    let total = 0;
    for (
      let p = 0;
      p + 46 <= cd.length && cd.readUInt32LE(p) === 0x02014b50;
      p += 46 + cd.readUInt16LE(p + 28) + cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32)
    ) {
      const expanded = cd.readUInt32LE(p + 24);
      total += expanded === 0xffffffff ? Infinity : expanded; // zip64: no office file of ours is that large
      if (total > limit) throw tooLarge();
    }
  } finally {
    await fh.close();
  }
}

async function isExecutable(p: string): Promise<boolean> {
  return access(p, constants.X_OK).then(
    () => true,
    () => false,
  );
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    // Own process group, so a timeout kills soffice.bin and not only the wrapper script.
    const child = spawn(cmd, args, { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new ApiError('sys_exception', `LibreOffice conversion timed out after ${timeoutMs} ms`, {}, true));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new ApiError('unsupported_format', `Cannot run LibreOffice: ${err.message}`, {}, false));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}
