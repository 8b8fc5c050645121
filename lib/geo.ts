import { asArray, entries, isObject, type JsonObject } from './json.js';
import { effectiveParameters, mediaTypeName, operationsOf } from './openapi.js';
import { walkDocumentSchemas, walkSchema } from './schema-walk.js';
import { declaredProperties } from './schema-shape.js';

export type GeoKind = 'Feature' | 'FeatureCollection' | 'Geometry';

export const GEOMETRY_TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection'];
export const GEOJSON_MEDIA_TYPE = 'application/geo+json';

/**
 * Well-known GeoJSON schemas by URL: geojson.org's and the OGC API Features schemas
 * (schemas.opengis.net, the ogcapi-features repository). Offline, or before resolution, the
 * `$ref` is all there is to go by.
 */
const KNOWN_SCHEMA_HOSTS = /geojson\.org|opengis\.net|ogcapi-features|opengeospatial/i;

export function kindOfReference(reference: string): GeoKind | undefined {
  if (!KNOWN_SCHEMA_HOSTS.test(reference)) return undefined;
  // `bundle.yaml#/components/schemas/featureCollectionGeoJSON` is named by its fragment, a schema file by its name.
  const [file = '', fragment = ''] = reference.split('#');
  const name = ((fragment !== '' ? fragment : file).split('/').pop() ?? '').toLowerCase();
  if (name.includes('featurecollection')) return 'FeatureCollection';
  if (name.includes('feature')) return 'Feature';
  if (/geometry|point|linestring|polygon/.test(name)) return 'Geometry';
  return undefined;
}

/** Properties of a schema, merged over composition, so it does not hide the shape. */
function shapeProperties(schema: JsonObject): JsonObject {
  return Object.fromEntries([...declaredProperties(schema, [])].map(([name, [property]]) => [name, property]));
}

/** The GeoJSON type names: what a `type` property pinned to GeoJSON may hold. */
const GEOJSON_TYPES = ['FeatureCollection', 'Feature', ...GEOMETRY_TYPES];
/** The geometry types that carry `coordinates` (a GeometryCollection has `geometries`). */
const COORDINATE_TYPES = GEOMETRY_TYPES.filter((type) => type !== 'GeometryCollection');

/**
 * The values the `type` property's `enum` or `const` allows (both: the const if the enum has it),
 * `null` aside, which a nullable enum lists; undefined when neither pins `type` down.
 */
function pinnedTypeValues(typeProperty: unknown): unknown[] | undefined {
  if (!isObject(typeProperty)) return undefined;
  const listed = Array.isArray(typeProperty.enum) && typeProperty.enum.length > 0 ? typeProperty.enum : undefined;
  const { const: constant } = typeProperty;
  const allowed = constant === undefined ? listed : listed === undefined || listed.includes(constant) ? [constant] : [];
  return allowed?.filter((value) => value !== null);
}

function isGeoJsonType(value: unknown): boolean {
  return typeof value === 'string' && GEOJSON_TYPES.includes(value);
}

/** GeoJSON `coordinates` and `geometries` are arrays; `{lat, lng}` objects are something else. */
function isArraySchema(schema: unknown): boolean {
  return isObject(schema) && (schema.type === 'array' || schema.items !== undefined || typeof schema.$ref === 'string');
}

/** A schema typed as something other than an object (3.1's lists of types included). */
function isNonObjectType(schema: JsonObject): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return schema.type !== undefined && !types.includes('object');
}

/** Properties that show a Feature (`type`, or a `geometry`, which loose descriptions give without `type`). */
const FEATURE_SIGNS = ['type', 'geometry'];
/** Properties that show a geometry. */
const GEOMETRY_SIGNS = ['type', 'coordinates', 'geometries'];

/**
 * Whether a schema may be a GeoJSON object of its own (a Feature in `features`, the `geometry` of
 * a Feature): a `$ref` not resolved, or an object schema that either says nothing of its
 * properties or declares one of the properties that show that object. A string, a number, a
 * list, or an object of other properties (`{lat, lng}` for a geometry, `{naam, actief}` for a
 * feature) is no GeoJSON object.
 */
function mayBeGeoJsonObject(schema: unknown, signs: readonly string[]): boolean {
  if (!isObject(schema)) return schema === undefined;
  if (typeof schema.$ref === 'string') return true;
  if (isNonObjectType(schema)) return false;
  const properties = declaredProperties(schema, []);
  return properties.size === 0 || signs.some((sign) => properties.has(sign));
}

/** GeoJSON `features` is a list of Features: a map of flags or a list of names is something else. */
function mayBeFeatureList(schema: unknown): boolean {
  if (!isArraySchema(schema)) return false;
  const { items } = schema as JsonObject;
  return typeof (schema as JsonObject).$ref === 'string' || mayBeGeoJsonObject(items, FEATURE_SIGNS);
}

/**
 * Kinds already judged, per schema object, as containsGeometry keeps its answers: a oneOf of the
 * same shared schema twice, level under level, would otherwise be judged once per route.
 */
const kindCache = new WeakMap<object, GeoKind | null>();

/** What GeoJSON object a schema is, judged on this schema alone (not its subschemas). */
export function geoKindOf(schema: unknown): GeoKind | undefined {
  if (!isObject(schema)) return undefined;
  const cached = kindCache.get(schema);
  if (cached !== undefined) return cached ?? undefined;
  const kind = judgedKind(schema);
  kindCache.set(schema, kind ?? null);
  return kind;
}

function judgedKind(schema: JsonObject): GeoKind | undefined {
  if (typeof schema.$ref === 'string') return kindOfReference(schema.$ref);
  if (schema.type === 'string' && (schema.format === 'wkt' || schema.format === 'wkb')) return 'Geometry';
  const shaped = mayDeclareType(schema, new Set()) ? shapeKind(shapeProperties(schema)) : undefined;
  if (shaped !== undefined) return shaped;
  const branches = [...asArray(schema.oneOf), ...asArray(schema.anyOf)];
  if (branches.length > 0) {
    const kinds = new Set(branches.map(geoKindOf));
    if (kinds.size === 1) return [...kinds][0];
  }
  return undefined;
}

/**
 * The kind its properties give a schema; each sign needs a `type` property. A `type` pinned by
 * `enum` or `const` to GeoJSON type names only is a sign by itself, and its values give the kind.
 * A `type` pinned to anything else (`[Bug, Feature, Task]`, `[basis, premium]`) lets a shape sign
 * count only when it allows the GeoJSON type that shape implies: `features` a FeatureCollection,
 * `geometry` and `properties` a Feature, `coordinates` a geometry type other than
 * GeometryCollection, `geometries` a GeometryCollection. Each shape sign also needs the shape:
 * `features` a list whose items may be Features, `geometry` a schema that may be a geometry beside
 * an object `properties`, `coordinates` and `geometries` lists.
 */
function shapeKind(properties: JsonObject): GeoKind | undefined {
  if (properties.type === undefined) return undefined;
  const pinned = pinnedTypeValues(properties.type);
  if (pinned !== undefined && pinned.length > 0 && pinned.every(isGeoJsonType)) {
    if (pinned.includes('FeatureCollection')) return 'FeatureCollection';
    return pinned.includes('Feature') ? 'Feature' : 'Geometry';
  }
  const allows = (types: string[]): boolean => pinned === undefined || pinned.some((value) => typeof value === 'string' && types.includes(value));
  if (mayBeFeatureList(properties.features) && allows(['FeatureCollection'])) return 'FeatureCollection';
  if (properties.geometry !== undefined && mayBeGeoJsonObject(properties.geometry, GEOMETRY_SIGNS) && isObject(properties.properties) && !isNonObjectType(properties.properties) && allows(['Feature'])) return 'Feature';
  if (isArraySchema(properties.coordinates) && allows(COORDINATE_TYPES)) return 'Geometry';
  if (isArraySchema(properties.geometries) && allows(['GeometryCollection'])) return 'Geometry';
  return undefined;
}

/**
 * Whether the schema, or a part it is composed of, has a `type` property: what every shape sign
 * needs. A cheap test before shapeProperties, which merges all properties with their paths: over
 * the 40,000 schemas of GitHub's description, most without a `type` property, that merge was most
 * of the geospatial detection's time. It looks where declaredProperties looks (allOf, oneOf,
 * anyOf), and further (every branch, not only properties common to all), so it never says no wrongly.
 */
function mayDeclareType(schema: JsonObject, seen: Set<object>): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  if (isObject(schema.properties) && isObject(schema.properties.type)) return true;
  return ['allOf', 'oneOf', 'anyOf'].some((keyword) => asArray(schema[keyword]).some((part) => isObject(part) && mayDeclareType(part, seen)));
}

const containsCache = new WeakMap<object, boolean>();

/** Whether a schema or any of its subschemas is GeoJSON (or WKT/WKB). Cached per schema object. */
export function containsGeometry(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const cached = containsCache.get(schema);
  if (cached !== undefined) return cached;
  let found = false;
  walkSchema(schema, [], (node) => {
    if (!found && geoKindOf(node) !== undefined) found = true;
  }, new WeakSet());
  containsCache.set(schema, found);
  return found;
}

/** Whether a request body or response carries geometry in any of its media types. */
export function contentCarriesGeometry(holder: unknown): boolean {
  if (!isObject(holder)) return false;
  return entries(holder.content).some(([name, media]) => {
    const schema = isObject(media) ? media.schema : undefined;
    if (containsGeometry(schema)) return true;
    // application/geo+json is GeoJSON unless the schema describes something else (a /crss list).
    return mediaTypeName(name) === GEOJSON_MEDIA_TYPE && !describesShape(schema);
  });
}

/**
 * Whether a schema says what its body is made of. One that does not (`type: object` alone, no
 * schema) may well be GeoJSON under application/geo+json: nothing says otherwise.
 */
export function describesShape(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  return ['properties', 'items', 'allOf', 'oneOf', 'anyOf'].some((keyword) => schema[keyword] !== undefined);
}

const geospatialCache = new WeakMap<object, boolean>();

/**
 * RULES.md: an API is geospatial when an operation uses application/geo+json, a schema is GeoJSON
 * (by shape or by reference), a string has format wkt/wkb, or a bbox or crs parameter is declared.
 * Decided once per resolved document; the /geo/ rules stay silent on any other API.
 */
export function isGeospatial(document: unknown): boolean {
  if (!isObject(document)) return false;
  const cached = geospatialCache.get(document);
  if (cached !== undefined) return cached;
  const result = usesGeoJsonMediaType(document) || declaresGeoParameter(document) || anySchemaIsGeoJson(document);
  geospatialCache.set(document, result);
  return result;
}

/** One walk over every schema, each visited once, however often it is shared. */
function anySchemaIsGeoJson(document: JsonObject): boolean {
  let found = false;
  walkDocumentSchemas(document, (schema) => {
    if (!found && geoKindOf(schema) !== undefined) found = true;
  });
  return found;
}

function usesGeoJsonMediaType(document: JsonObject): boolean {
  return operationsOf(document).some(({ operation }) => {
    const holders = [operation.requestBody, ...entries(operation.responses).map(([, response]) => response)];
    return holders.some((holder) => isObject(holder) && entries(holder.content).some(([name]) => mediaTypeName(name) === GEOJSON_MEDIA_TYPE));
  });
}

/** bbox and crs (RULES.md), and the CRS headers, current and legacy, which only geospatial APIs use. */
function isGeoParameter(parameter: JsonObject): boolean {
  const name = typeof parameter.name === 'string' ? parameter.name : '';
  if (parameter.in === 'query') return name === 'bbox' || name === 'crs';
  return parameter.in === 'header' && ['content-crs', 'accept-crs'].includes(name.toLowerCase());
}

function declaresGeoParameter(document: JsonObject): boolean {
  return operationsOf(document).some(({ pathItem, operation }) =>
    effectiveParameters(pathItem, operation).some((parameter) => isGeoParameter(parameter)),
  );
}
