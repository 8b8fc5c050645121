import type { IFunctionResult } from '@stoplight/spectral-core';
import { ruleFunction } from '../lib/rule-function.js';
import { entries, isObject } from '../lib/json.js';
import { isJsonMediaType, mediaTypeName, statusClass } from '../lib/openapi.js';
import { GEOJSON_MEDIA_TYPE, describesShape, geoKindOf, isGeospatial } from '../lib/geo.js';
import { resolvedDocument } from '../lib/inventory.js';

const FEATURE_KINDS = new Set(['Feature', 'FeatureCollection']);

/**
 * /geo/geojson-response on the 2xx responses of an operation: a Feature or FeatureCollection body
 * is offered as application/geo+json, and application/geo+json carries nothing else.
 */
export default ruleFunction<null>({ input: null, options: null }, (responses, _options, context) => {
  if (!isGeospatial(resolvedDocument(context))) return [];
  const results: IFunctionResult[] = [];
  for (const [status, response] of entries(responses)) {
    if (statusClass(status) !== 2 || !isObject(response)) continue;
    const media = entries(response.content).filter(([, value]) => isObject(value));
    const offersGeoJson = media.some(([name]) => mediaTypeName(name) === GEOJSON_MEDIA_TYPE);
    for (const [name, value] of media) {
      const { schema } = value as Record<string, unknown>;
      const kind = geoKindOf(schema);
      const isFeature = kind !== undefined && FEATURE_KINDS.has(kind);
      if (mediaTypeName(name) === GEOJSON_MEDIA_TYPE && !isFeature && (kind !== undefined || describesShape(schema))) {
        results.push({
          message: kind === undefined
            ? 'application/geo+json is offered for a body that is no GeoJSON object. Offer it as application/json.'
            : `application/geo+json is offered for a body that is not a Feature or FeatureCollection: a bare ${kind}. Offer it as application/json.`,
          path: [status, 'content', name],
        });
      } else if (isFeature && !offersGeoJson && isJsonMediaType(name)) {
        results.push({
          message: `${kind} response is not offered as application/geo+json: ${name}. Add application/geo+json for Features and FeatureCollections.`,
          path: [status, 'content', name],
        });
      }
    }
  }
  return results;
});
