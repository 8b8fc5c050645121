import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The lab's PKI: a CA (given to adr-check with --ca) and the server's leaf for 127.0.0.1 and localhost. */
export interface LabPki {
  caCertificate: string;
  leafCertificate: string;
  leafKey: string;
}

function openssl(args: string[]): void {
  const result = spawnSync('openssl', args, { encoding: 'utf8' });
  if (result.error !== undefined) throw new Error(`openssl not found on PATH: install it (tools/system-packages.sh): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr}`);
}

/**
 * A P-256 CA and a leaf it issues with subjectAltName IP:127.0.0.1 and DNS:localhost (a name a
 * client checks against the URL's host, which is the loopback address here), valid two days.
 */
export function issueLabPki(directory: string): LabPki {
  const file = (name: string) => join(directory, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '2', '-subj', '/CN=Lab CA']);
  openssl(['req', ...ec, '-keyout', file('leaf.key'), '-out', file('leaf.csr'), '-subj', '/CN=localhost']);
  const extensions = file('leaf.ext');
  spawnSync('sh', ['-c', `printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > '${extensions}'`]);
  openssl(['x509', '-req', '-in', file('leaf.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-extfile', extensions, '-out', file('leaf.pem'), '-days', '2']);
  return { caCertificate: file('ca.pem'), leafCertificate: file('leaf.pem'), leafKey: file('leaf.key') };
}
