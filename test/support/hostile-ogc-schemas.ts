import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { description } from './hostile-servers.js';

/**
 * Descriptions for test/live-hostile-ogc-schemas.test.ts: an OGC API's, as servers generate them,
 * whose `$ref`s name the OGC's published schemas (schemas.opengis.net), and one whose `$ref`s name
 * documents adr-check does not read.
 */

/** test/fixtures/ogc-schemas/ogc-api.yaml as JSON: parts 1 and 2 of OGC API Features by `$ref`. */
export function ogcApiDescription(): string {
  return JSON.stringify(parse(readFileSync(join(process.cwd(), 'test', 'fixtures', 'ogc-schemas', 'ogc-api.yaml'), 'utf8')));
}

const ok = { 200: { description: 'ok', headers: { 'API-Version': { schema: { type: 'string' } } } } };

/**
 * Path parameters defined by `$ref`s into documents that are not read: a schemas.opengis.net file
 * the package has no copy of, a document of the server that answers 404 (named by two `$ref`s),
 * and one on `offTarget` reached through a local `$ref`. /straten/{straatId} declares no parameter
 * at all: its path-params finding is a finding of its own.
 */
export function refusedReferencesDescription(offTarget: string): string {
  return JSON.stringify(description({
    paths: {
      '/collections/{collectionId}/items': { get: { parameters: [{ $ref: 'https://schemas.opengis.net/ogcapi/features/part1/1.0/openapi/parameters/collectionIdentifier.yaml' }], responses: ok } },
      '/collections/{collectionId}': { parameters: [{ $ref: '#/components/parameters/collectionId' }], get: { responses: ok } },
      '/gebouwen/{gebouwId}': { get: { parameters: [{ $ref: 'gedeeld/parameters.json#/gebouwId' }], responses: ok } },
      '/panden/{pandId}': { get: { parameters: [{ $ref: 'gedeeld/parameters.json#/pandId' }], responses: ok } },
      '/straten/{straatId}': { get: { responses: ok } },
    },
    components: { parameters: { collectionId: { $ref: `${offTarget}/parameters/collectionId.json` } } },
  }));
}
