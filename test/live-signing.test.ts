import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../live/main.js';
import type { Report } from '../live/report.js';
import { description, startHostile } from './support/hostile-servers.js';

/** The live signing checks beyond the reference API (tested in test/live-checks.test.ts) and the OpenSSL vector (test/live-signing-vector.test.ts). */
test.each([
  [true, 'fail', 'GET /v1 lacks Payload-Signature, which the description declares required: true for its 200'],
  [false, 'warn', 'GET /v1 lacks Payload-Signature, which the description declares (not required) for its 200: sign the response, or leave the header out of the description where it is not sent'],
])('/signing/payload: a response the description declares signed (required: %s) but that comes without the header: %s', async (required, verdict, detail) => {
  const folder = mkdtempSync(join(tmpdir(), 'adr-check-signing-'));
  const server = await startHostile((request, response) => {
    const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json', 'api-version': '1.0.0' }).end(JSON.stringify(body));
    if (request.url === '/v1/openapi.json') {
      const signed = { description: 'ok', headers: { 'Payload-Signature': { required, schema: { type: 'string', format: 'jws-compact-detached' } }, Digest: { schema: { type: 'string' } } }, content: { 'application/json': { schema: { type: 'object' } } } };
      return json(200, description({ paths: { '/': { get: { responses: { 200: signed } } } } }));
    }
    json(request.url === '/v1' ? 200 : 404, { naam: 'niet ondertekend' });
  });
  try {
    const output = join(folder, 'report.json');
    await main([server.baseUrl, '--format', 'json', '--output', output, '--timeout', '1000', '--deadline', '20'], {});
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
    expect(report.results.find((result) => result.code === '/signing/payload')).toEqual(expect.objectContaining({ verdict, details: [detail] }));
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}, 60000);
