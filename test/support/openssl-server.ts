/**
 * Debian's `openssl s_server` on loopback for the TLS tests, and the PKI around it (a CA, a leaf
 * it issues, OCSP responses made with `openssl ocsp`). OpenSSL is required: CI installs it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const running: ChildProcess[] = [];

function openssl(args: string[]): string {
  const result = spawnSync('openssl', args, { encoding: 'utf8' });
  if (result.error !== undefined) throw new Error(`openssl not found on PATH: install it (apt-get install -y openssl): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr}`);
  return result.stdout;
}

/**
 * Starts s_server on an ephemeral loopback port; its "ACCEPT host:port" line says which. stdin
 * stays an open pipe: s_server ends a connection when its stdin reaches end of file.
 */
export function startSServer(serverArguments: string[]): Promise<number> {
  const child = spawn('openssl', ['s_server', '-accept', '127.0.0.1:0', ...serverArguments], { stdio: ['pipe', 'pipe', 'pipe'] });
  running.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`s_server did not start: ${output}`)), 5000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /ACCEPT \S*:(\d+)/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`s_server exited with ${code}: ${output}`)));
    child.once('error', (error) => reject(new Error(`s_server did not start: ${error.message}`)));
  });
}

export function stopSServers(): void {
  for (const child of running.splice(0)) child.kill();
}

export interface Pki {
  directory: string;
  caCertificate: string;
  caKey: string;
  leafCertificate: string;
  leafKey: string;
}

/** A P-256 CA named `caName` and a P-256 leaf for CN=localhost it issues, valid two days. */
export function issueLeaf(directory: string, caName = 'Test CA'): Pki {
  const file = (name: string) => path.join(directory, name);
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '2', '-subj', `/CN=${caName}`]);
  openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', file('leaf.key'), '-out', file('leaf.csr'), '-subj', '/CN=localhost']);
  openssl(['x509', '-req', '-in', file('leaf.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('leaf.pem'), '-days', '2']);
  return { directory, caCertificate: file('ca.pem'), caKey: file('ca.key'), leafCertificate: file('leaf.pem'), leafKey: file('leaf.key') };
}

/**
 * An OCSP response (DER file) for the leaf, as `openssl ocsp` answers a request offline: status
 * good, next update in one day, signed by `signer` (the CA unless a test wants a stranger).
 */
export function ocspResponseFor(pki: Pki, name: string, signer: { certificate: string; key: string } = { certificate: pki.caCertificate, key: pki.caKey }): string {
  const file = (entry: string) => path.join(pki.directory, entry);
  const serial = openssl(['x509', '-in', pki.leafCertificate, '-noout', '-serial']).trim().replace(/^serial=/, '');
  const expiry = new Date(Date.now() + 2 * 86_400_000).toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z';
  writeFileSync(file(`${name}.index`), `V\t${expiry}\t\t${serial}\tunknown\t/CN=localhost\n`);
  openssl(['ocsp', '-issuer', pki.caCertificate, '-cert', pki.leafCertificate, '-no_nonce', '-reqout', file(`${name}.req`)]);
  openssl(['ocsp', '-index', file(`${name}.index`), '-rsigner', signer.certificate, '-rkey', signer.key, '-CA', pki.caCertificate, '-reqin', file(`${name}.req`), '-respout', file(`${name}.der`), '-ndays', '1']);
  return file(`${name}.der`);
}

/** A self-signed P-256 certificate that is nobody's issuer, for a response signed by a stranger. */
export function strangerCertificate(directory: string): { certificate: string; key: string } {
  const certificate = path.join(directory, 'stranger.pem');
  const key = path.join(directory, 'stranger.key');
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', certificate, '-days', '2', '-subj', '/CN=Stranger']);
  return { certificate, key };
}
