import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { ogcSchemaLookup, PACKAGED_OGC_SCHEMAS } from '../lib/ogc-schemas.js';
import { readOgcSchema } from '../lib/ogc-schema-files.js';

const SHIPPED = join(process.cwd(), 'schemas', 'ogc');
const BASE = 'https://schemas.opengis.net/ogcapi/features/part1/1.0/openapi';

function filesBelow(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesBelow(join(folder, entry.name)) : [join(folder, entry.name)]));
}

test('the list of packaged schemas is exactly the files in schemas/ogc/ (besides the licence and the README)', () => {
  const onDisk = filesBelow(SHIPPED).map((file) => relative(SHIPPED, file)).filter((file) => file !== 'LICENSE' && file !== 'README.md').sort();
  expect([...PACKAGED_OGC_SCHEMAS].sort()).toEqual(onDisk);
});

test('every relative or schemas.opengis.net $ref in a packaged file names a packaged file, so a resolved tree stays in the package', () => {
  const missing: string[] = [];
  for (const file of PACKAGED_OGC_SCHEMAS) {
    const url = `https://schemas.opengis.net/${file}`;
    const refs = [...readFileSync(join(SHIPPED, file), 'utf8').matchAll(/\$ref['"]?\s*:\s*['"]?([^'"\s#]*)/g)].map((match) => match[1] as string).filter((ref) => ref !== '');
    for (const ref of refs) {
      const target = new URL(ref, url).href;
      if (ogcSchemaLookup(target).kind !== 'packaged') missing.push(`${file}: ${ref}`);
    }
  }
  expect(missing).toEqual([]);
});

test.each([
  [`${BASE}/ogcapi-features-1.yaml`, 'ogcapi/features/part1/1.0/openapi/ogcapi-features-1.yaml'],
  [`${BASE}/ogcapi-features-1.yaml#/components/parameters/bbox`, 'ogcapi/features/part1/1.0/openapi/ogcapi-features-1.yaml'],
  ['http://schemas.opengis.net/ogcapi/features/part1/1.0/openapi/schemas/link.yaml', 'ogcapi/features/part1/1.0/openapi/schemas/link.yaml'],
  ['HTTPS://SCHEMAS.OPENGIS.NET/ogcapi/features/part2/1.0/openapi/parameters/crs.yaml', 'ogcapi/features/part2/1.0/openapi/parameters/crs.yaml'],
  ['https://schemas.opengis.net:443/ogcapi/features/part2/1.0/openapi/headers/Content-Crs.yaml', 'ogcapi/features/part2/1.0/openapi/headers/Content-Crs.yaml'],
  [`${BASE}/schemas/../parameters/limit.yaml`, 'ogcapi/features/part1/1.0/openapi/parameters/limit.yaml'],
  ['https://schemas.opengis.net/ogcapi/common/part1/1.0/openapi/schemas/link.json', 'ogcapi/common/part1/1.0/openapi/schemas/link.json'],
  ['https://schemas.opengis.net/ogcapi/common/part1/1.0/openapi/ogcapi-common-1.yaml', 'ogcapi/common/part1/1.0/openapi/3.0/API-Common-Part-1_1_0.yaml'],
])('%s is served from schemas/ogc/%s', (url, file) => {
  expect(ogcSchemaLookup(url)).toEqual({ kind: 'packaged', file });
});

test.each([
  `${BASE}/schemas/nothing.yaml`,
  `${BASE}/ogcapi-features-1.yaml?x=1`,
  'https://schemas.opengis.net:8443/ogcapi/features/part1/1.0/openapi/ogcapi-features-1.yaml',
  'https://user:secret@schemas.opengis.net/ogcapi/features/part1/1.0/openapi/ogcapi-features-1.yaml',
  'https://schemas.opengis.net/ogcapi/features/part1/1.0/openapi%2Fogcapi-features-1.yaml',
  'https://schemas.opengis.net/ogcapi/features/part1/1.0/openapi/../../../../../../etc/passwd',
  'https://schemas.opengis.net/LICENSE',
  'https://schemas.opengis.net/ogcapi/processes/part1/1.0/openapi/parameters/status.yaml',
])('%s is a schemas.opengis.net URL the package has no copy of', (url) => {
  expect(ogcSchemaLookup(url)).toEqual({ kind: 'not-packaged', message: `not read, not among the OGC API schemas this package ships (OGC API Features parts 1 and 2, Common part 1, each 1.0; docs/ogc-schemas.md), and schemas.opengis.net is not fetched: ${url}` });
});

test.each([
  'https://schemas.opengis.net.example.org/ogcapi/features/part1/1.0/openapi/ogcapi-features-1.yaml',
  'https://example.org/ogcapi/features/part1/1.0/openapi/ogcapi-features-1.yaml',
  'ftp://schemas.opengis.net/ogcapi/features/part1/1.0/openapi/ogcapi-features-1.yaml',
  '/ogcapi/features/part1/1.0/openapi/ogcapi-features-1.yaml',
  'not a url',
])('%s is no OGC schema URL', (url) => {
  expect(ogcSchemaLookup(url)).toEqual({ kind: 'other' });
});

test('the packaged text is the file in schemas/ogc/, a parseable OpenAPI document of the published version', () => {
  const part1 = readOgcSchema(`${BASE}/ogcapi-features-1.yaml`);
  expect(part1).toEqual({ kind: 'packaged', text: readFileSync(join(SHIPPED, 'ogcapi/features/part1/1.0/openapi/ogcapi-features-1.yaml'), 'utf8') });
  const document = parse((part1 as { text: string }).text) as { components: { parameters: Record<string, unknown> } };
  expect(Object.keys(document.components.parameters)).toEqual(expect.arrayContaining(['bbox', 'collectionId', 'datetime', 'featureId', 'limit']));
  expect(readOgcSchema('https://example.org/x.yaml')).toEqual({ kind: 'other' });
});
