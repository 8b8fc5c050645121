import { X509Certificate } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect as tlsConnect } from 'node:tls';
import { generate } from 'selfsigned';
import { loadDescription } from '../examples/reference-api/description.js';
import { clientCredentialsToken } from '../examples/reference-api/oauth-client.js';
import { JADES_HTTP_HEADERS as SERVER_JADES_URI } from '../examples/reference-api/signing.js';
import { startReferenceApi, type BreakSwitch, type ReferenceApi } from '../examples/reference-api/server.js';
import { signingPayload } from '../live/checks/signing.js';
import type { Verdict } from '../live/report.js';
import { runChecks } from '../live/run.js';
import { closeAgents, postJson, send, type Answer, type Call } from './support/reference-api-client.js';
import { certificateOf, fieldValues, JADES_HTTP_HEADERS, protectedHeaderOf, sha256Digest, signatureProblems, verifies } from './support/payload-signature.js';

/**
 * Payload signing of the reference API (SPEC.md, "Payload and message signing"), against the
 * real server on loopback: every response with a body carries one Payload-Signature and a
 * Digest; the signature is a detached compact JWS (PS256, b64 false, crit b64 and sigD, sigD the
 * JAdES HTTP headers over digest) that jose verifies with the x5c certificate over
 * `digest: <Digest>`; the certificate is issued by the CA the API hands out. adr-check's
 * /signing/payload passes, and each signing --break switch produces its own fault.
 */

const description = loadDescription();
const EXAMPLE_IDS: Record<string, string> = { monumentId: 'GM-0123', besluitId: 'BB-0042', collectionId: 'monumenten', featureId: 'GM-0123' };
const GET_PATHS = description.routes
  .filter((route) => route.operations.has('GET'))
  .map((route) => (route.template === '/' ? '' : route.template.replace(/\{(\w+)\}/g, (_, name: string) => EXAMPLE_IDS[name] ?? name)));
const KIOSK = { naam: 'Kiosk', monumentType: 'object', adres: { straatnaam: 'Parkweg', woonplaats: 'Voorbeeldstad' } };

let api: ReferenceApi;

const call = (path: string, options?: Call): Promise<Answer> => send(api.caPem, path.startsWith('https:') ? path : `${api.baseUrl}${path}`, options);
const withToken = (options: Call = {}): Call => ({ ...options, headers: { ...options.headers, Authorization: `Bearer ${api.writeToken}` } });

beforeAll(async () => {
  api = await startReferenceApi({ httpPort: 0 });
}, 60000);

afterAll(async () => {
  closeAgents();
  await api.close();
});

async function liveVerdict(target: ReferenceApi): Promise<{ verdict: Verdict; summary: string; details: string[] }> {
  const report = await runChecks(target.baseUrl, {
    client: { headers: {}, ca: target.caPem, insecure: false, timeoutMs: 5000, deadlineMs: 30000, maxRequests: 100, maxBodyBytes: 5_000_000, concurrency: 4 },
    checks: { unsafe: false, insecure: false, plainHttpPort: 80, signingCa: target.signingCaPem },
    extraPaths: [],
    liveChecks: [signingPayload],
  });
  const result = report.results.find((entry) => entry.code === '/signing/payload');
  if (result === undefined) throw new Error('/signing/payload did not run');
  return { verdict: result.verdict, summary: result.summary, details: result.details };
}

describe('every response with a body is signed', () => {
  test.each(GET_PATHS.map((path) => [path === '' ? '/' : path, path]))('GET %s', async (_label, path) => {
    const answer = await call(path);
    expect(answer.status).toBe(200);
    expect(await signatureProblems(answer.rawHeaders, answer.bytes)).toEqual([]);
  });

  test.each<[string, number, () => Promise<Answer>]>([
    ['POST /_search', 200, () => call('/_search', postJson({ zoekterm: 'waag' }))],
    ['POST /monumenten with the token', 201, () => call('/monumenten', withToken(postJson(KIOSK)))],
    ['POST /monumenten without a token', 401, () => call('/monumenten', postJson(KIOSK))],
    ['a token without the scope', 403, async () => call('/monumenten', postJson(KIOSK, { Authorization: `Bearer ${(await clientCredentialsToken(api, 'monumenten:lezen')).access_token}` }))],
    ['an invalid body', 400, () => call('/monumenten', withToken(postJson({ naam: 'Zonder adres' })))],
    ['an unknown monument', 404, () => call('/monumenten/GM-9999')],
    ['a path outside the API', 404, () => call(`${api.origin}/bestaat-niet`)],
    ['an undeclared method', 405, () => call('/monumenten', { method: 'TRACE' })],
    ['an unservable Accept', 406, () => call('/monumenten', { headers: { Accept: 'text/html' } })],
    ['a body of another media type', 415, () => call('/_search', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'waag' })],
    ['an unsupported crs', 400, () => call('/collections/monumenten/items?crs=http://www.opengis.net/def/crs/EPSG/0/4326')],
  ])('%s: %i', async (_label, status, request) => {
    const answer = await request();
    expect(answer.status).toBe(status);
    expect(await signatureProblems(answer.rawHeaders, answer.bytes)).toEqual([]);
  });

  test('HEAD carries the Digest and signature of the GET', async () => {
    const get = await call('/monumenten/GM-0123');
    const head = await call('/monumenten/GM-0123', { method: 'HEAD' });
    expect(head.bytes).toHaveLength(0);
    expect(head.headers.digest).toBe(get.headers.digest);
    expect(head.headers.digest).toBe(sha256Digest(get.bytes));
    expect(await verifies(String(head.headers['payload-signature']), `digest: ${String(head.headers.digest)}`)).toBe(true);
  });

  test('a request the HTTP parser refuses gets a signed problem too', async () => {
    const { hostname, port } = new URL(api.origin);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = tlsConnect({ host: hostname, port: Number(port), ca: api.caPem });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.write('dit is geen HTTP\r\n\r\n');
    });
    const end = text.indexOf('\r\n\r\n');
    const rawHeaders = text.slice(0, end).split('\r\n').slice(1).flatMap((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(await signatureProblems(rawHeaders, Buffer.from(text.slice(end + 4), 'utf8'))).toEqual([]);
  });

  test('responses without a body carry neither header', async () => {
    const created = await call('/monumenten', withToken(postJson(KIOSK)));
    const deleted = await call(String(created.headers.location), withToken({ method: 'DELETE' }));
    const options = await call('/monumenten', { method: 'OPTIONS' });
    const redirect = await new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
      httpRequest(`${api.httpOrigin ?? ''}/v1/monumenten`, { agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
      }).on('error', reject).end();
    });
    for (const [answer, status] of [[deleted, 204], [options, 204], [redirect, 301]] as const) {
      expect(answer.status).toBe(status);
      expect(answer.headers['payload-signature']).toBeUndefined();
      expect(answer.headers.digest).toBeUndefined();
    }
  });

  test('a browser client may read them: CORS exposes Digest and Payload-Signature', async () => {
    const answer = await call('/monumenten', { headers: { Origin: 'https://app.example.nl' } });
    expect(String(answer.headers['access-control-expose-headers']).split(', ')).toEqual(expect.arrayContaining(['Digest', 'Payload-Signature']));
  });
});

describe('the signature', () => {
  test('has exactly the protected header the module asks for, with the certificate in x5c', async () => {
    const answer = await call('/monumenten');
    const header = protectedHeaderOf(String(answer.headers['payload-signature']));
    expect(SERVER_JADES_URI).toBe(JADES_HTTP_HEADERS);
    expect(header).toEqual({ alg: 'PS256', b64: false, crit: ['b64', 'sigD'], sigD: { mId: 'http://uri.etsi.org/19182/HttpHeaders', pars: ['digest'] }, x5c: [expect.stringMatching(/^[A-Za-z0-9+/]+=*$/)] });
    expect(String(answer.headers['payload-signature'])).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
  });

  test('is made with an RSA 3072 certificate for signing, issued by the TLS root the API hands out', async () => {
    const answer = await call('');
    const certificate = certificateOf(String(answer.headers['payload-signature']));
    const ca = new X509Certificate(api.signingCaPem);
    expect(api.signingCaPem).toBe(api.caPem);
    expect(certificate.toString()).toBe(new X509Certificate(api.signingCertPem).toString());
    expect(certificate.checkIssued(ca) && certificate.verify(ca.publicKey)).toBe(true);
    expect(certificate.ca).toBe(false);
    expect(certificate.publicKey.asymmetricKeyDetails?.modulusLength).toBe(3072);
    expect(certificate.subject).toBe('CN=nlgov-adr reference API payload signing');
  });

  test('signs the JAdES data and nothing else: not the Digest value alone, not the body', async () => {
    const answer = await call('/monumenten/GM-0123');
    const jws = String(answer.headers['payload-signature']);
    const digest = String(answer.headers.digest);
    expect(await verifies(jws, `digest: ${digest}`)).toBe(true);
    expect(await verifies(jws, digest)).toBe(false);
    expect(await verifies(jws, `digest: ${digest}\n`)).toBe(false);
    expect(await verifies(jws, answer.body)).toBe(false);
  });

  test('adr-check /signing/payload passes, the certificate judged under the signing CA', async () => {
    const result = await liveVerdict(api);
    expect(result.verdict).toBe('pass');
    expect(result.details).toEqual([expect.stringMatching(/issued under the --signing-ca CN=nlgov-adr reference API test root$/)]);
  }, 60000);

  test('with a TLS certificate of its own, the API signs under a signing root of its own', async () => {
    const tls = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', algorithm: 'sha256' });
    const own = await startReferenceApi({ tls: { key: tls.private, cert: tls.cert } });
    try {
      const answer = await send(own.caPem, `${own.baseUrl}/monumenten`);
      expect(await signatureProblems(answer.rawHeaders, answer.bytes)).toEqual([]);
      expect(own.signingCaPem).not.toBe(own.caPem);
      const certificate = certificateOf(String(answer.headers['payload-signature']));
      const ca = new X509Certificate(own.signingCaPem);
      expect(certificate.checkIssued(ca) && certificate.verify(ca.publicKey)).toBe(true);
    } finally {
      closeAgents();
      await own.close();
    }
  }, 60000);
});

describe.each<[BreakSwitch, (answer: Answer) => Promise<void>, RegExp]>([
  ['signature-other-data', async (answer) => {
    const jws = String(answer.headers['payload-signature']);
    expect(String(answer.headers.digest)).toBe(sha256Digest(answer.bytes));
    expect(await verifies(jws, `digest: ${String(answer.headers.digest)}`)).toBe(false);
    expect(await verifies(jws, String(answer.headers.digest))).toBe(true);
  }, /^GET \/v1: Payload-Signature does not verify over "digest: SHA-256=[A-Za-z0-9+/]+=*" with the x5c certificate/],
  ['digest-mismatch', async (answer) => {
    expect(String(answer.headers.digest)).toBe(sha256Digest(Buffer.concat([answer.bytes, Buffer.from('\n')])));
    expect(await verifies(String(answer.headers['payload-signature']), `digest: ${String(answer.headers.digest)}`)).toBe(true);
  }, /^GET \/v1 has Digest: SHA-256=\S+, expected SHA-256=\S+ \(the body's\)$/],
  ['signature-rs256', async (answer) => {
    const jws = String(answer.headers['payload-signature']);
    expect(protectedHeaderOf(jws).alg).toBe('RS256');
    expect(await verifies(jws, `digest: ${String(answer.headers.digest)}`, 'RS256')).toBe(true);
  }, /^GET \/v1: Payload-Signature has alg "RS256", expected PS256$/],
  ['two-signature-headers', async (answer) => {
    const signatures = fieldValues(answer.rawHeaders, 'payload-signature');
    expect(signatures).toHaveLength(2);
    for (const jws of signatures) expect(await verifies(jws, `digest: ${String(answer.headers.digest)}`)).toBe(true);
  }, /^GET \/v1 has 2 Payload-Signature fields: the module makes that signature invalid$/],
])('--break %s', (fault, evidence, finding) => {
  let broken: ReferenceApi;

  beforeAll(async () => {
    broken = await startReferenceApi({ breaks: [fault] });
  }, 60000);

  afterAll(async () => {
    closeAgents();
    await broken.close();
  });

  test('breaks the signature in just that way, on every signed response', async () => {
    for (const path of ['', '/monumenten', '/bestaat-niet']) {
      const answer = await send(broken.caPem, `${broken.baseUrl}${path}`);
      await evidence(answer);
      expect(fieldValues(answer.rawHeaders, 'digest')).toHaveLength(1);
    }
  });

  test('adr-check /signing/payload fails on it', async () => {
    const result = await liveVerdict(broken);
    expect(result.verdict).toBe('fail');
    expect(result.details).toContainEqual(expect.stringMatching(finding));
  }, 60000);
});
