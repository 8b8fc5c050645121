import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { privateBuild } from './support/private-build.js';

/**
 * The lint as users run it on an OGC API's description that $refs the OGC's published schemas
 * (schemas.opengis.net, parts 1 and 2 of OGC API Features): the built package, through
 * nlgov-adr-lint and through the Spectral CLI with --resolver. The schemas come from the package
 * (docs/ogc-schemas.md), offline; any other http(s) $ref is refused at once, never requested.
 */
const run = promisify(execFile);
const FIXTURE = join(process.cwd(), 'test', 'fixtures', 'ogc-schemas', 'ogc-api.yaml');

interface SpectralResult { code: string; path: string[]; message: string; source?: string }
interface Lint { exit: number; results: SpectralResult[]; stderr: string }

let build: string;

beforeAll(async () => {
  build = await privateBuild('nlgov-adr-ogc-schemas-');
  copyFileSync(FIXTURE, join(build, 'ogc-api.yaml'));
}, 180000);

afterAll(() => rmSync(build, { recursive: true, force: true }));

async function lint(command: string[], file: string): Promise<Lint> {
  const outcome = await run(process.execPath, [...command, file, '-f', 'json', '--quiet'], { cwd: build, maxBuffer: 1 << 26, timeout: 60000 })
    .then(({ stdout, stderr }) => ({ exit: 0, stdout, stderr }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({ exit: error.code, stdout: error.stdout, stderr: error.stderr }));
  return { exit: outcome.exit, results: JSON.parse(outcome.stdout) as SpectralResult[], stderr: outcome.stderr };
}

const nlgovAdrLint = (file: string) => lint(['bin/nlgov-adr-lint.js'], file);
const where = (result: SpectralResult) => `${result.code} ${result.path.join('.')}`;

test('nlgov-adr-lint resolves the OGC schemas from the package: no invalid-ref, no path-params, and the geospatial rules judge what the schemas say', async () => {
  const { results, stderr } = await nlgovAdrLint('ogc-api.yaml');
  expect(stderr).toBe('');
  const codes = results.map((result) => result.code);
  expect(codes).not.toContain('invalid-ref');
  expect(codes).not.toContain('path-params');
  expect(codes).not.toContain('/core/doc-openapi');
  // Geometry is known only from featureGeoJSON.yaml and featureCollectionGeoJSON.yaml: the API is geospatial.
  expect(results.filter((result) => result.code.startsWith('/geo/')).map(where).sort()).toEqual([
    '/geo/bbox-crs-query-parameter paths./collections/{collectionId}/items.get.parameters',
    '/geo/content-crs-response-header paths./collections/{collectionId}/items/{featureId}.get.responses.200.headers',
  ]);
  // The crs parameters of part 2 and Content-Crs of the items response (part 2's header) count as declared.
  expect(codes).not.toContain('/geo/crs-query-parameter');
}, 90000);

test('spectral lint --resolver dist/ogc-resolver.cjs gives the same findings as nlgov-adr-lint', async () => {
  const direct = await lint(['node_modules/@stoplight/spectral-cli/dist/index.js', 'lint', '--ruleset', 'dist/ruleset.js', '--resolver', 'dist/ogc-resolver.cjs'], 'ogc-api.yaml');
  const wrapped = await nlgovAdrLint('ogc-api.yaml');
  expect(direct.results.map(where).sort()).toEqual(wrapped.results.map(where).sort());
}, 90000);

describe('a $ref to another host', () => {
  let requests = 0;
  let server: http.Server;
  let elsewhere: string;
  const unpublished = 'https://schemas.opengis.net/ogcapi/features/part1/1.0/openapi/schemas/monument.yaml';

  beforeAll(async () => {
    server = http.createServer((_request, response) => {
      requests += 1;
      response.end('type: string\n');
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    elsewhere = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schemas/monument.yaml`;
    writeFileSync(join(build, 'elsewhere.yaml'), [
      'openapi: 3.0.2',
      'info: { title: Monumenten, version: 1.0.0 }',
      'paths: {}',
      'components:',
      '  schemas:',
      `    Monument: { $ref: '${elsewhere}' }`,
      `    Gebouw: { $ref: '${unpublished}' }`,
      '',
    ].join('\n'));
  });
  beforeEach(() => { requests = 0; });
  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

  test('is refused at once, never requested, and a schemas.opengis.net file the package lacks is named as such', async () => {
    const { results } = await nlgovAdrLint('elsewhere.yaml');
    const invalid = results.filter((result) => result.code === 'invalid-ref').map((result) => result.message).sort();
    expect(invalid).toEqual([
      `not fetched, this resolver reads only local files and the OGC API schemas this package ships (nlgov-adr-lint --fetch-remote-refs, or spectral lint without --resolver, fetches remote $refs): ${elsewhere}`,
      `not read, not among the OGC API schemas this package ships (OGC API Features parts 1 and 2, Common part 1, each 1.0; docs/ogc-schemas.md), and schemas.opengis.net is not fetched: ${unpublished}`,
    ]);
    expect(requests).toBe(0);
  }, 90000);

  test('is fetched with NLGOV_ADR_FETCH_REMOTE_REFS=1, by Spectral\'s own resolver', async () => {
    // Only the loopback $ref: Spectral's own reader has no timeout, and this test must not depend on the network.
    writeFileSync(join(build, 'loopback.yaml'), `openapi: 3.0.2\ninfo: { title: Monumenten, version: 1.0.0 }\npaths: {}\ncomponents:\n  schemas:\n    Monument: { $ref: '${elsewhere}' }\n`);
    const outcome = await run(process.execPath, ['bin/nlgov-adr-lint.js', 'loopback.yaml', '-f', 'json', '--quiet'], { cwd: build, env: { ...process.env, NLGOV_ADR_FETCH_REMOTE_REFS: '1' }, timeout: 60000 })
      .catch((error: { stdout: string }) => error);
    expect((JSON.parse(outcome.stdout) as SpectralResult[]).filter((result) => result.code === 'invalid-ref')).toEqual([]);
    expect(requests).toBe(1);
  }, 90000);
});
