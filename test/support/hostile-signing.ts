import { execFileSync } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { description, servingDescription, startHostile, type HostileServer } from './hostile-servers.js';

/**
 * The signing lab's servers: each serves one signed (or unsigned) response at /v1/monument, with
 * header fields OpenSSL made (test/fixtures/signing/make-lab.sh), under a description that
 * declares the signature header as the case says.
 */

export type Declaration = 'declared' | 'required' | 'ref-declared' | 'ref-required';

/** Runs make-lab.sh into a fresh folder and adds jwks.json: the signer's public key, converted by node:crypto. */
export function makeLab(): string {
  const folder = mkdtempSync(join(tmpdir(), 'adr-check-signing-lab-'));
  execFileSync('sh', [join(process.cwd(), 'test/fixtures/signing/make-lab.sh'), folder], { stdio: 'ignore' });
  const jwk = createPublicKey(readFileSync(join(folder, 'signer.pub.pem'))).export({ format: 'jwk' });
  writeFileSync(join(folder, 'jwks.json'), JSON.stringify({ keys: [{ ...jwk, alg: 'PS256', use: 'sig' }] }));
  return folder;
}

/** `Name: value` lines of a <case>.headers file. */
function headerFields(file: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const colon = line.indexOf(': ');
    if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 2);
  }
  return fields;
}

/** A description whose GET /monument 200 declares the signature header and Digest, directly or through `$ref`s. */
function labDescription(header: string, declaration: Declaration): string {
  const signatureHeader = { ...(declaration.endsWith('required') ? { required: true } : {}), schema: { type: 'string', format: 'jws-compact-detached' } };
  const digest = { schema: { type: 'string' } };
  const content = { 'application/json': { schema: { type: 'object' } } };
  if (!declaration.startsWith('ref-')) {
    return JSON.stringify(description({ paths: { '/monument': { get: { responses: { 200: { description: 'ok', headers: { [header]: signatureHeader, Digest: digest }, content } } } } } }));
  }
  return JSON.stringify(description({
    paths: { '/monument': { get: { responses: { 200: { $ref: '#/components/responses/Signed' } } } } },
    components: {
      responses: { Signed: { description: 'ok', headers: { [header]: { $ref: '#/components/headers/Signature' }, Digest: digest }, content } },
      headers: { Signature: signatureHeader },
    },
  }));
}

/** Serves the lab's body at /v1/monument with the case's header fields (none: unsigned). */
export function startLabServer(lab: string, header: string, declaration: Declaration, headersFile: string | undefined): Promise<HostileServer> {
  const body = readFileSync(join(lab, 'body.json'));
  const fields = headersFile === undefined ? {} : headerFields(join(lab, headersFile));
  return startHostile(servingDescription(labDescription(header, declaration), (request, response) => {
    if ((request.url ?? '').split('?')[0] !== '/v1/monument') {
      response.writeHead(404, { 'content-type': 'application/problem+json', 'api-version': '1.0.0' }).end('{"status":404,"title":"Not Found"}');
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length), 'API-Version': '1.0.0', ...fields }).end(body);
  }));
}
