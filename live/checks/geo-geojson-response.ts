import type { CheckContext, LiveCheck } from '../context.js';
import { evidenceOf, type CheckResult } from '../report.js';
import { geoTarget, geometryResponses, type GeometryResponse } from '../geo/discover.js';
import { quoted } from '../geo/crs.js';
import { notGeospatial } from './geo-crs-list.js';
import { noSample } from './geo-crs-negotiation.js';

const GEOJSON = /^application\/geo\+json\b/i;
const JSON_TYPE = /^application\/([\w.-]+\+)?json\b/i;

/**
 * /geo/geojson-response: OGC API Features items are application/geo+json FeatureCollections and
 * their features Features; a plain JSON API answers application/json (or another +json type)
 * with GeoJSON geometry embedded. Judged on the responses the other geospatial checks got.
 */
export const geoGeojsonResponse: LiveCheck = {
  code: '/geo/geojson-response',
  async run(context: CheckContext): Promise<CheckResult> {
    const target = await geoTarget(context);
    if (target === undefined) return notGeospatial(this.code);
    const responses = geometryResponses(context);
    if (responses.length === 0) return noSample(this.code, target);
    const wrong = responses.map((response) => ({ response, problem: problemOf(response) })).filter((entry) => entry.problem !== undefined);
    if (wrong.length > 0) {
      return {
        code: this.code,
        verdict: 'fail',
        summary: `${wrong.length} of ${responses.length} geospatial responses are not as the geospatial module requires`,
        details: [...new Set(wrong.map((entry) => entry.problem as string))].slice(0, 10),
        evidence: wrong.slice(0, 5).map((entry) => evidenceOf(entry.response.exchange, ['Content-Type'])),
      };
    }
    const what = target.style === 'ogc' ? 'items are application/geo+json FeatureCollections and Features' : 'resources are JSON with GeoJSON geometry';
    return { code: this.code, verdict: 'pass', summary: `${what} (${responses.length} responses)`, details: [], evidence: [] };
  },
};

function problemOf({ exchange, kind, selection, facts }: GeometryResponse): string | undefined {
  const type = exchange.headers['content-type'] ?? '';
  const path = new URL(exchange.url).pathname;
  if (kind === 'plain') {
    if (!JSON_TYPE.test(type) || GEOJSON.test(type)) return `GET ${path} has Content-Type: ${type || '(none)'}, expected application/json with embedded geometry`;
    // An empty selection (a bbox away from everything) has nothing to embed geometry in, whether it
    // answers an empty list, an empty `_embedded` or leaves `_embedded` out.
    const empty = selection && facts.items === 0;
    if (!facts.embedsGeometry && !empty) return `GET ${path} embeds no GeoJSON geometry`;
  } else {
    const expected = kind === 'items' ? 'FeatureCollection' : 'Feature';
    if (!GEOJSON.test(type)) return `GET ${path} has Content-Type: ${type || '(none)'}, expected application/geo+json`;
    if (facts.type !== expected) return `GET ${path} is ${facts.type === undefined ? 'no GeoJSON object' : `a GeoJSON ${quoted(facts.type)}`}, expected a ${expected}`;
  }
  return facts.invalid === undefined ? undefined : `GET ${path}${crsAsked(exchange.url)} has invalid GeoJSON geometry: ${facts.invalid}`;
}

function crsAsked(url: string): string {
  const crs = new URL(url).searchParams.get('crs');
  return crs === null ? '' : ` (crs=${quoted(crs)})`;
}
