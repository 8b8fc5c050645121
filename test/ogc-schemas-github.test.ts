import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { ogcSchemaLookup, PACKAGED_OGC_SCHEMAS } from '../lib/ogc-schemas.js';
import { readOgcSchema } from '../lib/ogc-schema-files.js';
import { adrCheck, expectBounded, jsonReport } from './support/adr-check-process.js';
import { startDnsServer, type DnsServer } from './support/dns-server.js';
import { privateBuild } from './support/private-build.js';

/**
 * Descriptions of OGC APIs `$ref` the OGC's schemas as raw.githubusercontent.com serves them from
 * the OGC's own repositories (PDOK's goaf: `.../ogcapi-features/master/core/openapi/ogcapi-features-1.yaml`,
 * 23 times). Those URLs are served from the package's copies too, offline (docs/ogc-schemas.md):
 * where the repository's file is the published one, from that copy; master's
 * ogcapi-features-1.yaml, which differs from the published file, from a copy of its own. A file of
 * the OGC's repositories the package has no copy of is refused with that reason, never fetched.
 */
const run = promisify(execFile);
const SHIPPED = join(process.cwd(), 'schemas', 'ogc');
const RAW = 'https://raw.githubusercontent.com/opengeospatial';
const MASTER_PART1 = `${RAW}/ogcapi-features/master/core/openapi/ogcapi-features-1.yaml`;
const MASTER_PART1_COPY = 'github/opengeospatial/ogcapi-features/master/core/openapi/ogcapi-features-1.yaml';

test.each([
  [MASTER_PART1, MASTER_PART1_COPY],
  [`${MASTER_PART1}#/components/parameters/collectionId`, MASTER_PART1_COPY],
  [`http://raw.githubusercontent.com/opengeospatial/ogcapi-features/refs/heads/master/core/openapi/ogcapi-features-1.yaml`, MASTER_PART1_COPY],
  [`${RAW}/ogcapi-features/1.0.1/core/openapi/ogcapi-features-1.yaml`, 'ogcapi/features/part1/1.0/openapi/ogcapi-features-1.yaml'],
  [`${RAW}/ogcapi-features/refs/tags/1.0.1/core/openapi/schemas/featureGeoJSON.yaml`, 'ogcapi/features/part1/1.0/openapi/schemas/featureGeoJSON.yaml'],
  [`${RAW}/ogcapi-features/4ff19a5734578cf1f815d03ab192e8e0dc407e9f/core/openapi/parameters/bbox.yaml`, 'ogcapi/features/part1/1.0/openapi/parameters/bbox.yaml'],
  [`${RAW}/ogcapi-features/master/extensions/crs/openapi/parameters/crs.yaml`, 'ogcapi/features/part2/1.0/openapi/parameters/crs.yaml'],
  [`${RAW}/ogcapi-features/part2-1.0.1/extensions/crs/openapi/headers/Content-Crs.yaml`, 'ogcapi/features/part2/1.0/openapi/headers/Content-Crs.yaml'],
  [`${RAW}/ogcapi-common/master/19-072/openapi/schemas/confClasses.yaml`, 'ogcapi/common/part1/1.0/openapi/schemas/confClasses.yaml'],
  [`${RAW}/ogcapi-common/Common2023/19-072/openapi/3.0/API-Common-Part-1_1_0.yaml`, 'ogcapi/common/part1/1.0/openapi/3.0/API-Common-Part-1_1_0.yaml'],
])('%s is served from schemas/ogc/%s', (url, file) => {
  expect(ogcSchemaLookup(url)).toEqual({ kind: 'packaged', file });
});

test.each([
  // master's link.yaml requires rel; the published one does not: another document, not served.
  `${RAW}/ogcapi-features/master/core/openapi/schemas/link.yaml`,
  `${RAW}/ogcapi-features/master/core/openapi/ogcapi-features-1-oas31.yaml`,
  `${RAW}/ogcapi-features/1.0.0/core/openapi/ogcapi-features-1.yaml`,
  `${RAW}/ogcapi-features/1.0.1/core/openapi/ogcapi-features-1.yaml?token=x`,
  'https://raw.githubusercontent.com:8443/opengeospatial/ogcapi-features/master/core/openapi/ogcapi-features-1.yaml',
  `${RAW}/ogcapi-features/master/core/openapi%2Fogcapi-features-1.yaml`,
  `${RAW}/ogcapi-common/master/19-072/openapi/ogcapi-common-1.yaml`,
  `${RAW}/ogcapi-processes/master/openapi/parameters/processes-core/jobID.yaml`,
])('%s is a file of the OGC\'s repositories the package has no copy of: refused with that reason', (url) => {
  expect(ogcSchemaLookup(url)).toEqual({ kind: 'not-packaged', message: `not read, not among the OGC API schemas this package ships (OGC API Features parts 1 and 2, Common part 1, each 1.0; docs/ogc-schemas.md), and raw.githubusercontent.com is not fetched: ${url}` });
});

test.each([
  'https://raw.githubusercontent.com/someone/ogcapi-features/master/core/openapi/ogcapi-features-1.yaml',
  'https://raw.githubusercontent.com.example.org/opengeospatial/ogcapi-features/master/core/openapi/ogcapi-features-1.yaml',
  'https://github.com/opengeospatial/ogcapi-features/blob/master/core/openapi/ogcapi-features-1.yaml',
])('%s is no OGC schema URL', (url) => {
  expect(ogcSchemaLookup(url)).toEqual({ kind: 'other' });
});

/** Folders of the OGC's repositories whose every file is a shipped copy, and the folder of those copies. */
const SERVED_FOLDERS = [
  [`${RAW}/ogcapi-features/1.0.1/core/openapi/`, 'ogcapi/features/part1/1.0/openapi/'],
  [`${RAW}/ogcapi-features/master/extensions/crs/openapi/`, 'ogcapi/features/part2/1.0/openapi/'],
  [`${RAW}/ogcapi-features/part2-1.0.1/extensions/crs/openapi/`, 'ogcapi/features/part2/1.0/openapi/'],
  [`${RAW}/ogcapi-common/master/19-072/openapi/`, 'ogcapi/common/part1/1.0/openapi/'],
  [`${RAW}/ogcapi-common/Common2023/19-072/openapi/`, 'ogcapi/common/part1/1.0/openapi/'],
] as const;

test.each(SERVED_FOLDERS)('every shipped file of %s is served, and each of its relative $refs names a file served from the same repository and ref', (folder, shipped) => {
  const missing: string[] = [];
  const files = [...PACKAGED_OGC_SCHEMAS].filter((file) => file.startsWith(shipped));
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const url = `${folder}${file.slice(shipped.length)}`;
    expect(ogcSchemaLookup(url)).toEqual({ kind: 'packaged', file });
    const refs = [...readFileSync(join(SHIPPED, file), 'utf8').matchAll(/\$ref['"]?\s*:\s*['"]?([^'"\s#]*)/g)].map((match) => match[1] as string).filter((ref) => ref !== '');
    for (const ref of refs) {
      if (ogcSchemaLookup(new URL(ref, url).href).kind !== 'packaged') missing.push(`${file}: ${ref}`);
    }
  }
  expect(missing).toEqual([]);
});

test('master\'s ogcapi-features-1.yaml is its own copy: the 1.0.1 building blocks, self-contained, links with a required rel', () => {
  const read = readOgcSchema(MASTER_PART1);
  expect(read).toEqual({ kind: 'packaged', text: readFileSync(join(SHIPPED, MASTER_PART1_COPY), 'utf8') });
  const text = (read as { text: string }).text;
  const document = parse(text) as { info: { version: string }; components: { parameters: Record<string, unknown>; responses: Record<string, unknown>; schemas: { link: { required: string[] } } } };
  expect(document.info.version).toBe('1.0.1');
  expect(Object.keys(document.components.parameters)).toEqual(expect.arrayContaining(['bbox', 'collectionId', 'datetime', 'featureId', 'limit']));
  expect(Object.keys(document.components.responses)).toEqual(expect.arrayContaining(['LandingPage', 'Collections', 'Features', 'Feature', 'ServerError']));
  expect(document.components.schemas.link.required).toEqual(['href', 'rel']);
  // Only references inside the file: nothing else of master's folder is needed.
  expect([...text.matchAll(/\$ref:\s*['"]?([^'"\s]*)/g)].map((match) => match[1]).filter((ref) => !ref?.startsWith('#/'))).toEqual([]);
});

/**
 * An OGC API Features description as PDOK's goaf writes it: parameters, responses and schemas by
 * `$ref` to the OGC's repositories on GitHub (master, a release tag, refs/tags/, the Common
 * repository), and one `$ref` to a file of master the package has no copy of.
 */
function githubReferencingDescription(): string {
  const masterPart1 = (pointer: string) => ({ $ref: `${MASTER_PART1}#/components/${pointer}` });
  const versionHeader = { 'API-Version': { description: 'Versie', schema: { type: 'string' } } };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Monumenten', version: '1.0.0' },
    servers: [{ url: 'https://api.example.nl/ogc/v1' }],
    paths: {
      '/conformance': {
        get: {
          operationId: 'getConformance',
          responses: { 200: { description: 'Conformiteit', headers: versionHeader, content: { 'application/json': { schema: { $ref: `${RAW}/ogcapi-common/master/19-072/openapi/schemas/confClasses.yaml` } } } } },
        },
      },
      '/collections': {
        get: {
          operationId: 'getCollections',
          responses: { 200: { description: 'Collecties', headers: versionHeader, content: { 'application/json': { schema: masterPart1('schemas/collections') } } } },
        },
      },
      '/collections/{collectionId}/items': {
        get: {
          operationId: 'getFeatures',
          parameters: [masterPart1('parameters/collectionId'), masterPart1('parameters/bbox'), masterPart1('parameters/limit'), { $ref: `${RAW}/ogcapi-features/master/extensions/crs/openapi/parameters/crs.yaml` }],
          responses: { 200: { description: 'Features', headers: versionHeader, content: { 'application/geo+json': { schema: masterPart1('schemas/featureCollectionGeoJSON') } } } },
        },
      },
      '/collections/{collectionId}/items/{featureId}': {
        get: {
          operationId: 'getFeature',
          parameters: [masterPart1('parameters/collectionId'), { $ref: `${RAW}/ogcapi-features/refs/tags/1.0.1/core/openapi/parameters/featureId.yaml` }],
          responses: { 200: { description: 'Feature', headers: versionHeader, content: { 'application/geo+json': { schema: { $ref: `${RAW}/ogcapi-features/1.0.1/core/openapi/schemas/featureGeoJSON.yaml` } } } } },
        },
      },
      '/links': {
        get: {
          operationId: 'getLinks',
          responses: { 200: { description: 'Links', headers: versionHeader, content: { 'application/json': { schema: { $ref: `${RAW}/ogcapi-features/master/core/openapi/schemas/link.yaml` } } } } },
        },
      },
    },
  }, null, 2);
}

const NOT_SHIPPED = `${RAW}/ogcapi-features/master/core/openapi/schemas/link.yaml`;
const REFUSED = `not read, not among the OGC API schemas this package ships (OGC API Features parts 1 and 2, Common part 1, each 1.0; docs/ogc-schemas.md), and raw.githubusercontent.com is not fetched: ${NOT_SHIPPED}`;
const ABOUT_REFERENCES = ['invalid-ref', 'path-params', '/core/doc-openapi'];
/** Geometry is only in the OGC's feature schemas: these findings show they were read. */
const GEOMETRY_READ = [
  '/geo/bbox-crs-query-parameter paths./collections/{collectionId}/items.get.parameters',
  '/geo/content-crs-response-header paths./collections/{collectionId}/items.get.responses.200.headers',
  '/geo/content-crs-response-header paths./collections/{collectionId}/items/{featureId}.get.responses.200.headers',
  '/geo/crs-query-parameter paths./collections/{collectionId}/items/{featureId}.get.parameters',
];

describe('the lint of a description that $refs the OGC\'s repositories on GitHub', () => {
  let build: string;
  let dns: DnsServer;

  beforeAll(async () => {
    dns = await startDnsServer({});
    build = await privateBuild('nlgov-adr-ogc-github-');
    writeFileSync(join(build, 'ogc-github.json'), githubReferencingDescription());
  }, 180000);

  afterAll(async () => {
    rmSync(build, { recursive: true, force: true });
    await dns.close();
  });

  const where = (finding: { code: string; path: string | string[] }) => `${finding.code} ${Array.isArray(finding.path) ? finding.path.join('.') : finding.path}`;

  test('nlgov-adr-lint reads them from the package; the one file it has no copy of is refused with the reason, nothing follows from it', async () => {
    const outcome = await run(process.execPath, ['bin/nlgov-adr-lint.js', 'ogc-github.json', '-f', 'json', '--quiet'], { cwd: build, maxBuffer: 1 << 26, timeout: 60000 })
      .catch((error: { stdout: string; stderr: string }) => error);
    expect(outcome.stderr).toBe('');
    const results = JSON.parse(outcome.stdout) as Array<{ code: string; path: string[]; message: string }>;
    // On the command line Spectral's own invalid-ref stands beside /core/doc-openapi (docs/ogc-schemas.md).
    expect(results.filter((result) => ABOUT_REFERENCES.includes(result.code)).map((result) => `${where(result)} | ${result.message.replace(/\. Its \$ref stays unresolved: .*$/, '')}`)).toEqual([
      `/core/doc-openapi paths./links.get.responses.200.content.application/json.schema.$ref | Referenced file cannot be fetched (${REFUSED.replace(`: ${NOT_SHIPPED}`, '')}): ${NOT_SHIPPED}`,
      `invalid-ref paths./links.get.responses.200.content.application/json.schema.$ref | ${REFUSED}`,
    ]);
    expect(results.filter((result) => result.code.startsWith('/geo/')).map(where).sort()).toEqual(GEOMETRY_READ);
  }, 90000);

  test('adr-check --static reads them from the package, looks up no name, and reports the file it has no copy of once', async () => {
    const outcome = await adrCheck(join(build, 'ogc-github.json'), ['--static', '--format', 'json', '--dns-server', dns.address], { deadline: 20 });
    expectBounded(outcome, 20);
    const report = jsonReport(outcome);
    expect(report.lint.status).toBe('done');
    expect(report.staticFindings.filter((finding) => ABOUT_REFERENCES.includes(finding.code)).map((finding) => `${where(finding)} | ${finding.message.replace(/\. Its \$ref stays unresolved: .*$/, '')}`)).toEqual([
      `/core/doc-openapi paths./links.get.responses.200.content.application/json.schema.$ref | Referenced file cannot be fetched (${REFUSED.replace(`: ${NOT_SHIPPED}`, '')}): ${NOT_SHIPPED}`,
    ]);
    expect(report.staticFindings.filter((finding) => finding.code.startsWith('/geo/')).map(where).sort()).toEqual(GEOMETRY_READ);
    expect(dns.questions).toEqual([]);
  }, 60000);
});
