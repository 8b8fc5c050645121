import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDnsServer, type DnsServer } from './support/dns-server.js';
import { servingDescription, startHostile, type HostileServer } from './support/hostile-servers.js';
import { adrCheck, expectBounded, jsonReport, startOffTarget, type OffTarget } from './support/adr-check-process.js';
import { ogcApiDescription, refusedReferencesDescription } from './support/hostile-ogc-schemas.js';
import { closedAfterAll } from './support/closed-after-all.js';

/**
 * Issue 22, item 11: an OGC API's description `$ref`s the OGC's published schemas
 * (schemas.opengis.net). adr-check lints it with the copies the package ships, so no request
 * leaves loopback (no name is even looked up), and a document it does not read is one finding,
 * /core/doc-openapi's: no invalid-ref beside it, no path-params for the parameters defined there.
 */
const DEADLINE = 10;
const { kept, onClose } = closedAfterAll();

let dns: DnsServer;
beforeAll(async () => { dns = await kept(startDnsServer({})); });

const where = (finding: { code: string; path: string }) => `${finding.code} ${finding.path}`;

test('the OGC schemas come from the package: the lint resolves every $ref, the geospatial rules judge the features, nothing leaves loopback', async () => {
  const server: HostileServer = await kept(startHostile(servingDescription(ogcApiDescription())));
  const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--dns-server', dns.address], { deadline: DEADLINE });
  expectBounded(outcome, DEADLINE);
  const report = jsonReport(outcome);
  expect(report.lint.status).toBe('done');
  const codes = report.staticFindings.map((finding) => finding.code);
  expect(codes).not.toContain('invalid-ref');
  expect(codes).not.toContain('path-params');
  expect(codes).not.toContain('/core/doc-openapi');
  // The geometry is only in the OGC's featureGeoJSON.yaml and featureCollectionGeoJSON.yaml.
  expect(report.staticFindings.filter((finding) => finding.code.startsWith('/geo/')).map(where).sort()).toEqual([
    '/geo/bbox-crs-query-parameter paths./collections/{collectionId}/items.get.parameters',
    '/geo/content-crs-response-header paths./collections/{collectionId}/items/{featureId}.get.responses.200.headers',
  ]);
  expect(server.requests.filter((request) => request.url.includes('ogcapi'))).toEqual([]);
  expect(dns.questions).toEqual([]);
}, 60000);

test('each document not read is one finding, /core/doc-openapi with its reason: no invalid-ref beside it, no path-params follow-on', async () => {
  const offTarget: OffTarget = await kept(startOffTarget(0));
  const server: HostileServer = await kept(startHostile(servingDescription(refusedReferencesDescription(offTarget.otherPort))));
  const outcome = await adrCheck(server.baseUrl, ['--format', 'json', '--dns-server', dns.address], { deadline: DEADLINE });
  expectBounded(outcome, DEADLINE);
  const report = jsonReport(outcome);
  expect(report.lint.status).toBe('done');
  const about = report.staticFindings.filter((finding) => ['invalid-ref', 'path-params', '/core/doc-openapi'].includes(finding.code));
  expect(about.map((finding) => `${where(finding)} | ${finding.message}`).sort()).toEqual([
    `/core/doc-openapi components.parameters.collectionId.$ref | Referenced file cannot be fetched (${offTarget.otherPort} is not the origin of the description (${server.origin}); a downloaded description may only reference documents of its own server): ${offTarget.otherPort}/parameters/collectionId.json. Its $ref stays unresolved: check that the URL is right and the file is published there, or keep a copy beside the description and refer to it by a relative path.`,
    `/core/doc-openapi paths./collections/{collectionId}/items.get.parameters.0.$ref | Referenced file cannot be fetched (not read, not among the OGC API schemas this package ships (OGC API Features parts 1 and 2, Common part 1, each 1.0; docs/ogc-schemas.md), and schemas.opengis.net is not fetched): https://schemas.opengis.net/ogcapi/features/part1/1.0/openapi/parameters/collectionIdentifier.yaml. Its $ref stays unresolved: check that the URL is right and the file is published there, or keep a copy beside the description and refer to it by a relative path.`,
    `/core/doc-openapi paths./gebouwen/{gebouwId}.get.parameters.0.$ref | Referenced file cannot be fetched (GET answered 404): ${server.baseUrl}/gedeeld/parameters.json. Its 2 $refs stay unresolved: check that the URL is right and the file is published there, or keep a copy beside the description and refer to it by a relative path.`,
    'path-params paths./straten/{straatId}.get | Operation must define parameter "{straatId}" as expected by path "/straten/{straatId}".',
  ]);
  expect(offTarget.requests).toEqual([]);
  expect(server.requests.filter((request) => request.url.includes('gedeeld')).map((request) => `${request.method} ${request.url}`)).toEqual(['GET /v1/gedeeld/parameters.json']);
  expect(dns.questions).toEqual([]);
}, 60000);

test('adr-check --static reads the OGC schemas from the package too, and fetches nothing', async () => {
  const outcome = await adrCheck('test/fixtures/ogc-schemas/ogc-api.yaml', ['--static', '--format', 'json', '--dns-server', dns.address], { deadline: DEADLINE });
  expectBounded(outcome, DEADLINE);
  const report = jsonReport(outcome);
  expect(report.lint.status).toBe('done');
  expect(report.staticFindings.filter((finding) => ['invalid-ref', 'path-params', '/core/doc-openapi'].includes(finding.code))).toEqual([]);
  expect(report.staticFindings.filter((finding) => finding.code.startsWith('/geo/')).map(where).sort()).toEqual([
    '/geo/bbox-crs-query-parameter paths./collections/{collectionId}/items.get.parameters',
    '/geo/content-crs-response-header paths./collections/{collectionId}/items/{featureId}.get.responses.200.headers',
  ]);
  expect(dns.questions).toEqual([]);
}, 60000);

test('adr-check --static: a $ref to another host is one finding, the reason before the URL', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'adr-check-ogc-static-'));
  onClose(async () => rmSync(folder, { recursive: true, force: true }));
  const file = join(folder, 'openapi.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(refusedReferencesDescription('http://127.0.0.1:9')), paths: { '/a/{id}': { get: { parameters: [{ $ref: 'https://api.example.org/parameters.json#/id' }], responses: { 200: { description: 'ok' } } } } }, components: {} }));
  const report = jsonReport(await adrCheck(file, ['--static', '--format', 'json', '--dns-server', dns.address], { deadline: DEADLINE }));
  const about = report.staticFindings.filter((finding) => ['invalid-ref', 'path-params', '/core/doc-openapi'].includes(finding.code));
  expect(about.map((finding) => `${where(finding)} | ${finding.message.replace(/\. Its \$ref stays unresolved: .*$/, '')}`)).toEqual([
    '/core/doc-openapi paths./a/{id}.get.parameters.0.$ref | Referenced file cannot be fetched (not fetched, a static run reads only files on this machine): https://api.example.org/parameters.json',
  ]);
  expect(dns.questions).toEqual([]);
}, 60000);
