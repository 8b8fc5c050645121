import { isObject, type JsonObject } from '../../lib/json.js';
import type { CheckContext, LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { describeAnswer, evidenceOf, noAnswerResult, type CheckResult, type Evidence } from '../report.js';
import { CRS84, crsUriDefect, isDefaultCrs, isTransformable, normalCrsUri, quoted, sameCrs, toCrs84, worstDistance, type Position } from '../geo/crs.js';
import { geoTarget, geometryResponses, getGeometry, SAMPLED_COLLECTIONS, withQuery, type GeoSample, type GeoTarget } from '../geo/discover.js';
import { geometryOf, identityOf, itemsOf, positionsOf } from '../geo/geojson.js';
import { notGeospatial } from './geo-crs-list.js';

/**
 * How far a position may lie from where CRS84 puts it, after transformation, in metres. Servers
 * transform with other methods than adr-check's proj4 7-parameter shift for RD New (RDNAPTRANS
 * grids: within 1 m of it) and ETRS89 drifts from WGS84 by about 1 m in the Netherlands; a swapped
 * axis, an ignored `crs` or a missing datum shift all miss by 100 m or (much) more.
 */
export const TOLERANCE_METRES = 5;
/** CRSs compared per sample, and samples compared: enough to catch a fault, bounded in requests. */
const MAX_CRSS = 6;
/** No CRS has EPSG code 0: a server that accepts it does not check `crs` (and `bbox-crs`). */
export const UNSUPPORTED_CRS = 'http://www.opengis.net/def/crs/EPSG/0/0';

/**
 * /geo/crs-query-parameter: the sample feature fetched with each advertised `crs` agrees with its
 * CRS84 version after transformation (axis order per CRS); an unsupported `crs` gives 400.
 */
export const geoCrsQueryParameter: LiveCheck = {
  code: '/geo/crs-query-parameter',
  async run(context: CheckContext): Promise<CheckResult> {
    const target = await geoTarget(context);
    if (target === undefined) return notGeospatial(this.code);
    const sample = target.samples[0];
    if (sample === undefined) return noSample(this.code, target);
    const problems: string[] = [];
    const notes: string[] = [];
    const evidence: Evidence[] = [];
    const compared: string[] = [];
    const misplaced: (string | Misplaced)[] = [];
    // CRS84 is asked for by name too, where it is listed: a server may serve it only as the default.
    const listed = sample.collection.crs;
    const asked = [...(listed.some((uri) => sameCrs(uri, CRS84)) ? [CRS84] : []), ...listed.filter((uri) => !isDefaultCrs(uri)).slice(0, MAX_CRSS)];
    for (const crs of asked) {
      const skipped = skipReason(crs);
      if (skipped !== undefined) { notes.push(skipped); continue; }
      const { exchange, body } = await getGeometry(context, target.style, sample.url, sample.url === sample.collection.itemsUrl ? 'items' : 'feature', { crs });
      const problem = exchange.status === 200 ? comparison(sample, crs, body, exchange.headers['content-crs']) : `crs=${crs}: ${describeAnswer(exchange)}, expected 200`;
      if (problem === undefined) compared.push(crs);
      else { misplaced.push(problem); evidence.push(evidenceOf(exchange, ['Content-Type', 'Content-Crs'], undefined, exchange.status !== 200)); }
    }
    problems.push(...explained(misplaced));
    const unsupported = await context.send({ method: 'GET', url: withQuery(sample.url, { crs: UNSUPPORTED_CRS }), headers: { accept: acceptOf(target) } });
    if (unsupported.status === undefined) return noAnswerResult(this.code, [`GET with an unsupported crs: no answer (${unsupported.error ?? 'unknown'})`]);
    if (unsupported.status !== 400) { problems.push(`an unsupported crs (${UNSUPPORTED_CRS}) gives ${describeAnswer(unsupported)}, expected 400`); evidence.push(evidenceOf(unsupported, ['Content-Type', 'Content-Crs'])); }
    if (problems.length > 0) return { code: this.code, verdict: 'fail', summary: '`crs` is not honoured as the geospatial module requires', details: [...problems, ...notes], evidence };
    const what = compared.length === 0 ? 'no CRS advertised to ask for' : `${sample.identity} asked in ${listing(compared.map(shortCrs))} lies within ${TOLERANCE_METRES} m of where the answer without crs puts it`;
    return { code: this.code, verdict: 'pass', summary: `${what}; an unsupported crs gives 400`, details: notes, evidence: [] };
  },
};

/** A sample whose positions in `crs` lie off where CRS84 puts them, and what they match instead. */
interface Misplaced {
  crs: string;
  /** `crs=...: f1 lies 6,759 km from where CRS84 puts it (tolerance 5 m)` */
  finding: string;
  /** `; first position [5.1,52.1]` */
  firstPosition: string;
  /** Read with the axes swapped, they are right. */
  swapped: boolean;
  /** They are the CRS84 positions themselves. */
  unchanged: boolean;
  contentCrs?: string;
}

/** What is wrong with the sample as fetched in `crs`, or undefined when every position agrees. */
function comparison(sample: GeoSample, crs: string, body: unknown, contentCrs: string | undefined): string | Misplaced | undefined {
  const item = sample.url === sample.collection.itemsUrl ? itemsOf(body).find((candidate) => identityOf(candidate) === sample.identity) ?? singleResource(body, sample) : body;
  if (item === undefined) return `crs=${crs}: ${sample.identity} is not in the answer`;
  const positions = positionsOf(geometryOf(item));
  if (positions.length === 0) return `crs=${crs}: ${sample.identity} has no geometry in the answer`;
  if (positions.length !== sample.positions.length) return `crs=${crs}: ${sample.identity} has ${positions.length} positions, in CRS84 ${sample.positions.length}`;
  const worst = worstDistance(positions.map((position) => toCrs84(crs, position) as Position), sample.positions);
  if (worst <= TOLERANCE_METRES) return undefined;
  return {
    crs,
    finding: `crs=${crs}: ${sample.identity} lies ${formatDistance(worst)} from where CRS84 puts it (tolerance ${TOLERANCE_METRES} m)`,
    firstPosition: `; first position ${JSON.stringify(positions[0])}`,
    swapped: worstDistance(positions.map((position) => toCrs84(crs, [position[1], position[0]]) as Position), sample.positions) <= TOLERANCE_METRES,
    unchanged: worstDistance(positions, sample.positions) <= TOLERANCE_METRES,
    ...(contentCrs === undefined ? {} : { contentCrs }),
  };
}

/**
 * Each misplaced sample with its likely cause. In a CRS with latitude first (EPSG:4326, EPSG:4258)
 * the CRS84 positions are also those of swapped axes; where a CRS with other axes came back as
 * CRS84 too, the server ignores `crs`, and that is the cause for all of them.
 */
function explained(misplaced: (string | Misplaced)[]): string[] {
  const ignoring = misplaced.find((item): item is Misplaced => typeof item !== 'string' && item.unchanged && !item.swapped);
  return misplaced.map((item) => (typeof item === 'string' ? item : `${item.finding}${likelyCause(item, ignoring)}${item.firstPosition}`));
}

const IGNORED = ': the coordinates are CRS84, the crs was ignored';

function likelyCause(item: Misplaced, ignoring: Misplaced | undefined): string {
  if (item.swapped && item.unchanged) {
    if (ignoring !== undefined) return `${IGNORED} (as with ${shortCrs(ignoring.crs)})`;
    if (item.contentCrs !== undefined && sameCrs(item.contentCrs, item.crs)) return `: its axes are swapped (longitude first, where ${shortCrs(item.crs)} puts latitude first)`;
    return `${IGNORED} (${item.contentCrs === undefined ? 'no Content-Crs' : `Content-Crs: ${item.contentCrs}`}), or it was honoured with the axes swapped`;
  }
  if (item.swapped) return ': its axes are swapped';
  return item.unchanged ? IGNORED : '';
}

/** A plain API's single resource (its path is its "collection"): the answer itself, when it is the sample. */
function singleResource(body: unknown, sample: GeoSample): JsonObject | undefined {
  return isObject(body) && geometryOf(body) !== undefined && identityOf(body) === sample.identity ? body : undefined;
}

/**
 * Why an advertised CRS is not asked for: a value unfit to send (a control character, CR, LF or
 * U+2028 would break the request; /geo/crs-list reports it), or one adr-check cannot transform.
 */
export function skipReason(crs: string): string | undefined {
  const defect = crsUriDefect(crs);
  if (defect !== undefined) return `${quoted(crs)}: not a valid CRS URI (${defect}), not sent`;
  return isTransformable(crs) ? undefined : `${quoted(crs)}: no transformation known to adr-check, not compared`;
}

export function formatDistance(metres: number): string {
  if (!Number.isFinite(metres)) return 'outside the CRS';
  return metres >= 10_000 ? `${Math.round(metres / 1000).toLocaleString('en')} km` : `${Math.round(metres).toLocaleString('en')} m`;
}

/** `a`, `a and b`, `a, b and c`. */
function listing(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

export function shortCrs(uri: string): string {
  const match = /\/(EPSG|OGC)\/[^/]+\/([^/]+)$/.exec(normalCrsUri(uri));
  return match === null ? uri : match[1] === 'EPSG' ? `EPSG:${match[2]}` : (match[2] ?? uri);
}

function acceptOf(target: GeoTarget): string {
  return target.style === 'ogc' ? 'application/geo+json' : 'application/json';
}

export function noSample(code: string, target: GeoTarget): CheckResult {
  const sampled = target.collections.slice(0, SAMPLED_COLLECTIONS).map((collection) => quoted(collection.id)).join(', ');
  const where = target.collections.length === 0 ? 'no collection with geometry found' : target.unusable.length > 0 ? 'no feature with valid geometry (/geo/geojson-response reports it)' : `no feature with geometry in ${sampled}`;
  return { code, verdict: 'skip', summary: `nothing to compare: ${where}`, details: target.unusable, evidence: [] };
}

/**
 * /geo/content-crs-response-header: every response with geometry that the geospatial checks got
 * carries Content-Crs, equal to the requested `crs`, or CRS84 when none was requested (angle
 * brackets allowed, as OGC API Features part 2 writes it). Runs after the other geospatial checks.
 */
export const geoContentCrsResponseHeader: LiveCheck = {
  code: '/geo/content-crs-response-header',
  async run(context: CheckContext): Promise<CheckResult> {
    const target = await geoTarget(context);
    if (target === undefined) return notGeospatial(this.code);
    const judged = geometryResponses(context).filter((response) => response.facts.hasGeometry);
    if (judged.length === 0) return noSample(this.code, target);
    const wrong = judged.filter((response) => !contentCrsMatches(response.exchange, response.expectedCrs));
    if (wrong.length > 0) {
      return {
        code: this.code,
        verdict: 'fail',
        summary: `${wrong.length} of ${judged.length} responses with geometry lack the right Content-Crs`,
        details: wrong.slice(0, 10).map((response) => contentCrsProblem(response.exchange, response.expectedCrs)),
        evidence: wrong.slice(0, 5).map((response) => evidenceOf(response.exchange, ['Content-Crs'])),
      };
    }
    return { code: this.code, verdict: 'pass', summary: `all ${judged.length} responses with geometry carry Content-Crs with the requested CRS (CRS84 when none was asked)`, details: [], evidence: [] };
  },
};

function contentCrsMatches(exchange: Exchange, expected: string): boolean {
  const value = exchange.headers['content-crs'];
  // Without `crs`, 3D data comes in CRS84h (SPEC.md, geospatial behaviour 6).
  return value !== undefined && (sameCrs(value, expected) || (sameCrs(expected, CRS84) && isDefaultCrs(value)));
}

function contentCrsProblem(exchange: Exchange, expected: string): string {
  const query = new URL(exchange.url).search;
  const value = exchange.headers['content-crs'];
  const request = `GET ${new URL(exchange.url).pathname}${query === '' ? '' : decodeURIComponent(query)}`;
  return value === undefined ? `${request} lacks Content-Crs (expected <${expected}>)` : `${request} has Content-Crs: ${value}, expected <${expected}>`;
}
