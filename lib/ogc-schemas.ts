/**
 * The OGC's published OpenAPI building blocks (schemas.opengis.net) that this package ships in
 * schemas/ogc/, laid out as the OGC publishes them: a description of an OGC API `$ref`s them, and
 * they are read from the package instead of the network, so a lint gives the same findings
 * offline, in CI, and in adr-check (which fetches nothing from other origins). schemas/ogc/README.md
 * names the OGC repository, tag and commit each file is copied from; schemas/ogc/LICENSE is their
 * licence.
 */

export const OGC_SCHEMAS_HOST = 'schemas.opengis.net';

/** Each shipped file, by its path below https://schemas.opengis.net/ and below schemas/ogc/. */
export const PACKAGED_OGC_SCHEMAS: ReadonlySet<string> = new Set([
  ...under('ogcapi/features/part1/1.0/openapi/', [
    'ogcapi-features-1.yaml',
    ...under('parameters/', ['bbox.yaml', 'collectionId.yaml', 'datetime.yaml', 'featureId.yaml', 'limit.yaml']),
    ...under('schemas/', [
      'collection.yaml', 'collections.yaml', 'confClasses.yaml', 'exception.yaml', 'extent.yaml', 'featureCollectionGeoJSON.yaml',
      'featureGeoJSON.yaml', 'geometryGeoJSON.yaml', 'geometrycollectionGeoJSON.yaml', 'landingPage.yaml', 'linestringGeoJSON.yaml',
      'link.yaml', 'multilinestringGeoJSON.yaml', 'multipointGeoJSON.yaml', 'multipolygonGeoJSON.yaml', 'numberMatched.yaml',
      'numberReturned.yaml', 'pointGeoJSON.yaml', 'polygonGeoJSON.yaml', 'timeStamp.yaml',
    ]),
  ]),
  ...under('ogcapi/features/part2/1.0/openapi/', [
    'ogcapi-features-2.yaml',
    'headers/Content-Crs.yaml',
    ...under('parameters/', ['bbox-crs.yaml', 'crs.yaml']),
    ...under('schemas/', ['collection.yaml', 'collectionExtensionCrs.yaml', 'collections.yaml', 'collectionsExtensionCrs.yaml']),
  ]),
  ...under('ogcapi/common/part1/1.0/openapi/', [
    '3.0/API-Common-Part-1_1_0.yaml',
    ...under('schemas/', [
      'confClasses.json', 'confClasses.yaml', 'exception.json', 'exception.yaml', 'landingPage.json', 'landingPage.yaml',
      'link.json', 'link.yaml', 'oasInfo.json',
    ]),
  ]),
]);

/**
 * Published URLs served by another shipped file: the Common building blocks name
 * .../common/part1/1.0/openapi/ogcapi-common-1.yaml as where they are "also available", and are
 * published at .../openapi/3.0/API-Common-Part-1_1_0.yaml.
 */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['ogcapi/common/part1/1.0/openapi/ogcapi-common-1.yaml', 'ogcapi/common/part1/1.0/openapi/3.0/API-Common-Part-1_1_0.yaml'],
]);

export type OgcSchemaLookup =
  /** `file`: its path below schemas/ogc/. */
  | { kind: 'packaged'; file: string }
  /** A schemas.opengis.net URL this package has no copy of: `message` says so, the URL last (a report may cut it off as the file's name). */
  | { kind: 'not-packaged'; message: string }
  /** Any other URL. */
  | { kind: 'other' };

/**
 * Where a `$ref`'s URL (http or https, any fragment) is served from. Only the exact published
 * paths match: the URL parser has already resolved `.` and `..` segments, and anything else (a
 * query, credentials, a port, an escaped slash) is not a published file.
 */
export function ogcSchemaLookup(url: string): OgcSchemaLookup {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'other' };
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname !== OGC_SCHEMAS_HOST) return { kind: 'other' };
  const path = parsed.pathname.slice(1);
  const file = ALIASES.get(path) ?? path;
  if (parsed.port === '' && parsed.username === '' && parsed.password === '' && parsed.search === '' && PACKAGED_OGC_SCHEMAS.has(file)) return { kind: 'packaged', file };
  return { kind: 'not-packaged', message: `not read, not among the OGC API schemas this package ships (OGC API Features parts 1 and 2, Common part 1, each 1.0; docs/ogc-schemas.md), and schemas.opengis.net is not fetched: ${url}` };
}

function under(folder: string, files: string[]): string[] {
  return files.map((file) => `${folder}${file}`);
}
