import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A one-day self-signed certificate and its key, made by Debian's openssl in a fresh temporary
 * folder (the caller removes `dir`). Test servers serve HTTPS with it; the appliance under test
 * trusts it through NODE_EXTRA_CA_CERTS=certFile.
 */
export function selfSignedCert(prefix: string, commonName: string, subjectAltName: string): { dir: string; certFile: string; keyFile: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${commonName}`, '-addext', `subjectAltName=${subjectAltName}`, '-days', '1'];
  execFileSync('openssl', [...args, '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
  return { dir, certFile, keyFile };
}
