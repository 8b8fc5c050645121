/**
 * The OGC's published OpenAPI building blocks (schemas.opengis.net) that this package ships in
 * schemas/ogc/, laid out as the OGC publishes them: a description of an OGC API `$ref`s them, and
 * they are read from the package instead of the network, so a lint gives the same findings
 * offline, in CI, and in adr-check (which fetches nothing from other origins). The same files as
 * raw.githubusercontent.com serves them from the OGC's own repositories come from the same copies
 * where they are the same bytes, and one file the OGC keeps on GitHub only has a copy of its own.
 * schemas/ogc/README.md names the OGC repository, tag and commit each file is copied from;
 * schemas/ogc/LICENSE is their licence.
 */

export const OGC_SCHEMAS_HOST = 'schemas.opengis.net';

/** Each file published at https://schemas.opengis.net/<path>, shipped at schemas/ogc/<path>. */
const PUBLISHED_OGC_SCHEMAS: ReadonlySet<string> = new Set([
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

const GITHUB_RAW_HOST = 'raw.githubusercontent.com';

/** Where the copies of files that the OGC keeps on GitHub only (no published file has their bytes) are, below schemas/ogc/. */
const GITHUB_ONLY_FOLDER = 'github/';

/**
 * ogcapi-features-1.yaml on the master branch: since version 1.1 moved to OpenAPI 3.1 files of
 * their own, the OGC keeps this file as the 1.0.1 building blocks "so that existing references
 * from APIs to this document continue to work" (core/openapi/README.md there); PDOK's and
 * Geonovum's descriptions `$ref` it. It is not the published file (it has `info.version` 1.0.1,
 * `rel` required in a link) and it refers to no other file.
 */
const GITHUB_ONLY_OGC_SCHEMAS: ReadonlySet<string> = new Set([
  `${GITHUB_ONLY_FOLDER}opengeospatial/ogcapi-features/master/core/openapi/ogcapi-features-1.yaml`,
]);

/** Every file below schemas/ogc/ (besides LICENSE and README.md), by its path there. */
export const PACKAGED_OGC_SCHEMAS: ReadonlySet<string> = new Set([...PUBLISHED_OGC_SCHEMAS, ...GITHUB_ONLY_OGC_SCHEMAS]);

/** A folder of an OGC repository on GitHub whose files, at `refs`, are the shipped files below `shipped`, byte for byte. */
interface OgcRepositoryFolder {
  /** owner/name, as raw.githubusercontent.com spells it. */
  repository: string;
  /** The path prefixes raw.githubusercontent.com takes for the refs (`1.0.1`, `refs/tags/1.0.1`, a commit). */
  refs: readonly string[];
  folder: string;
  shipped: string;
}

const tag = (name: string, commit: string) => [name, `refs/tags/${name}`, commit];
const branch = (name: string) => [name, `refs/heads/${name}`];

/**
 * Compared file by file with the repositories (schemas/ogc/README.md): the release tags the copies
 * were taken from, and the master branches where every shipped file of the folder is still the same. On
 * master, OGC API Features' core/openapi/ holds version 1.1's files besides the one file above: only
 * that one is served from there.
 */
const OGC_REPOSITORY_FOLDERS: readonly OgcRepositoryFolder[] = [
  { repository: 'opengeospatial/ogcapi-features', refs: tag('1.0.1', '4ff19a5734578cf1f815d03ab192e8e0dc407e9f'), folder: 'core/openapi/', shipped: 'ogcapi/features/part1/1.0/openapi/' },
  { repository: 'opengeospatial/ogcapi-features', refs: branch('master'), folder: 'core/openapi/', shipped: `${GITHUB_ONLY_FOLDER}opengeospatial/ogcapi-features/master/core/openapi/` },
  { repository: 'opengeospatial/ogcapi-features', refs: [...tag('part2-1.0.1', 'eed9c9dbb722264c62353cec29b8de7dfb8a1b6e'), ...branch('master')], folder: 'extensions/crs/openapi/', shipped: 'ogcapi/features/part2/1.0/openapi/' },
  { repository: 'opengeospatial/ogcapi-common', refs: [...tag('Common2023', '3dc3c6f8322fb4bb35f6a51d3bed153232535a7d'), ...branch('master')], folder: '19-072/openapi/', shipped: 'ogcapi/common/part1/1.0/openapi/' },
];

/** The OGC's repositories: a file of theirs the package has no copy of is named as such, not as any other URL. */
const OGC_GITHUB_OWNER = '/opengeospatial/';

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
  /** A URL of schemas.opengis.net or of the OGC's repositories on GitHub this package has no copy of: `message` says so, the URL last (a report may cut it off as the file's name). */
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
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { kind: 'other' };
  if (parsed.hostname === OGC_SCHEMAS_HOST) return served(parsed, url, publishedFile(parsed.pathname));
  if (parsed.hostname === GITHUB_RAW_HOST && parsed.pathname.startsWith(OGC_GITHUB_OWNER)) return served(parsed, url, repositoryFile(parsed.pathname));
  return { kind: 'other' };
}

function served(parsed: URL, url: string, file: string | undefined): OgcSchemaLookup {
  const plain = parsed.port === '' && parsed.username === '' && parsed.password === '' && parsed.search === '';
  if (plain && file !== undefined && PACKAGED_OGC_SCHEMAS.has(file)) return { kind: 'packaged', file };
  return { kind: 'not-packaged', message: `not read, not among the OGC API schemas this package ships (OGC API Features parts 1 and 2, Common part 1, each 1.0; docs/ogc-schemas.md), and ${parsed.hostname} is not fetched: ${url}` };
}

/** The shipped file of a schemas.opengis.net path, if it is one of the published ones. */
function publishedFile(pathname: string): string | undefined {
  const path = pathname.slice(1);
  const file = ALIASES.get(path) ?? path;
  return PUBLISHED_OGC_SCHEMAS.has(file) ? file : undefined;
}

/** The shipped file of a raw.githubusercontent.com path (`/<owner>/<name>/<ref>/<path>`) in a folder compared with the copies. */
function repositoryFile(pathname: string): string | undefined {
  for (const { repository, refs, folder, shipped } of OGC_REPOSITORY_FOLDERS) {
    for (const ref of refs) {
      const prefix = `/${repository}/${ref}/${folder}`;
      if (pathname.startsWith(prefix)) return `${shipped}${pathname.slice(prefix.length)}`;
    }
  }
  return undefined;
}

function under(folder: string, files: string[]): string[] {
  return files.map((file) => `${folder}${file}`);
}
