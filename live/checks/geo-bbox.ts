import type { JsonObject } from '../../lib/json.js';
import type { CheckContext, LiveCheck } from '../context.js';
import { count, describeAnswer, evidenceOf, type CheckResult, type Evidence } from '../report.js';
import { boxAround, CRS84, envelopeIn, envelopeOf, envelopesIntersect, envelopeToCrs84, grownBy, isDefaultCrs, quoted, sizeMetres, toCrs84, type Envelope, type Position } from '../geo/crs.js';
import { geoTarget, getGeometry, sameOriginHref, type GeoSample, type GeoTarget } from '../geo/discover.js';
import { geometryOf, geometryProblem, identityOf, itemsOf, linkHref, positionsOf } from '../geo/geojson.js';
import { notGeospatial } from './geo-crs-list.js';
import { noSample, shortCrs, skipReason, UNSUPPORTED_CRS } from './geo-crs-negotiation.js';

/**
 * How far the box around the sample reaches beyond it. Wide on purpose: these checks judge that
 * bbox and bbox-crs are applied, in the right CRS and axis order (faults that miss by kilometres);
 * how accurately a server transforms is /geo/crs-query-parameter's to judge (5 m). A server with
 * a datum error (about 120 m in the Netherlands) fails that check, not these as well.
 */
export const AROUND_METRES = 150;
/** A feature the box in another CRS selects may lie this far outside the same box in CRS84, for the same reason. */
export const SLACK_METRES = 150;
/** A bbox in the Southern Ocean, away from the features of any Dutch API. */
const AWAY: Envelope = [-150.001, -45.001, -150, -45];
const MAX_CRSS = 4;
/** Pages of a selection followed by their `next` link; beyond them a missing sample is not judged. */
const MAX_PAGES = 5;
/** A sample this large (in both directions) is tested with a box over part of it: intersects, not within. */
const PARTIAL_MIN_METRES = 20;

function bboxValue(envelope: Envelope): string {
  return envelope.map((value) => String(Number(value.toFixed(8)))).join(',');
}

interface Selection {
  items: JsonObject[];
  ids: Set<string>;
  /** Every page was read: a feature not among the items is not selected. */
  complete: boolean;
  /** Why the rest was not read, when it was not. */
  unread?: string;
  problem?: string;
  evidence: Evidence;
}

/** What a bbox query selects, following `next` links (on the API's origin) for up to MAX_PAGES pages. */
async function select(context: CheckContext, target: GeoTarget, sample: GeoSample, query: Record<string, string>): Promise<Selection> {
  const first = await getGeometry(context, target.style, sample.collection.itemsUrl, 'items', { ...(target.style === 'ogc' ? { limit: '100' } : {}), ...query });
  const evidence = evidenceOf(first.exchange, ['Content-Type', 'Content-Crs']);
  const asked = Object.entries(query).map(([name, value]) => `${name}=${value}`).join('&');
  if (first.exchange.status !== 200) return { items: [], ids: new Set(), complete: true, problem: `${asked}: ${describeAnswer(first.exchange)}, expected 200`, evidence };
  const items = itemsOf(first.body);
  let next = nextPage(context, first.body, first.exchange.url);
  for (let page = 1; page < MAX_PAGES && next !== undefined && next !== 'unusable'; page += 1) {
    const following = await getGeometry(context, target.style, next, 'items');
    if (following.exchange.status !== 200) break;
    // One by one, not push(...): a page of 400,000 features spread into a call overflows the stack.
    for (const item of itemsOf(following.body)) items.push(item);
    next = nextPage(context, following.body, following.exchange.url);
  }
  // Complete only where the last page read had no next link: one that could not be followed leaves the rest unseen.
  const unread = next === 'unusable' ? 'its next link leads off the API\'s origin or is no URL, which adr-check does not follow' : `the rest was not read (${MAX_PAGES} pages at most)`;
  return { items, ids: new Set(items.map(identityOf)), complete: next === undefined, ...(next === undefined ? {} : { unread }), evidence };
}

/**
 * The `next` link of a page (OGC `links` with rel next, or HAL `_links.next`), on the API's
 * origin; `unusable` where there is one adr-check does not follow (another origin, not a URL).
 */
function nextPage(context: CheckContext, body: unknown, url: string): string | 'unusable' | undefined {
  const href = linkHref(body, 'next');
  if (href === undefined) return undefined;
  return sameOriginHref(context, href, url) ?? 'unusable';
}

/** Where the selection misses a feature: a failure when every page was read, else not judged. */
function missing(selection: Selection, identity: string, failure: string, unjudged: string[], problems: string[]): void {
  if (selection.ids.has(identity)) return;
  if (selection.complete) problems.push(failure);
  else unjudged.push(`${identity} is not among the first ${selection.items.length} features read; ${selection.unread ?? 'the rest was not read'}`);
}

function outcome(code: string, summary: string, problems: string[], unjudged: string[], evidence: Evidence[], failSummary: string): CheckResult {
  if (problems.length > 0) return { code, verdict: 'fail', summary: failSummary, details: [...problems, ...unjudged], evidence };
  if (unjudged.length > 0) return { code, verdict: 'error', summary: 'not judged: a selection goes on where adr-check does not read it', details: unjudged, evidence };
  return { code, verdict: 'pass', summary, details: [], evidence: [] };
}

/**
 * /geo/bbox-query-parameter: a bbox (CRS84) around a known feature selects it; one over part of
 * a polygon selects it too (the default operator is intersects); a bbox away from all features
 * selects none.
 */
export const geoBboxQueryParameter: LiveCheck = {
  code: '/geo/bbox-query-parameter',
  async run(context: CheckContext): Promise<CheckResult> {
    const target = await geoTarget(context);
    if (target === undefined) return notGeospatial(this.code);
    const sample = target.samples[0];
    if (sample === undefined) return noSample(this.code, target);
    const box = grownBy(sample.envelope, AROUND_METRES);
    const around = await select(context, target, sample, { bbox: bboxValue(box) });
    const away = await select(context, target, sample, { bbox: bboxValue(AWAY) });
    const problems: string[] = [];
    const unjudged: string[] = [];
    if (around.problem !== undefined) problems.push(around.problem);
    else missing(around, sample.identity, `bbox=${bboxValue(box)} around ${sample.identity} does not select it`, unjudged, problems);
    if (away.problem !== undefined) problems.push(away.problem);
    else if (away.ids.size > 0) problems.push(`bbox=${bboxValue(AWAY)}, away from every feature, selects ${away.ids.size} (${[...away.ids].slice(0, 3).join(', ')}): the bbox is not applied`);
    const partial = await partlyCovered(context, target, sample, problems, unjudged);
    const name = featureName([sample, ...(partial === undefined ? [] : [partial])]);
    const summary = `a bbox around ${name(sample)} selects it (${around.ids.size} in all)${partial === undefined ? '' : `, one over part of ${name(partial)} selects it`}; a bbox away from all features selects none`;
    return outcome(this.code, summary, problems, unjudged, [around.evidence, away.evidence], '`bbox` does not select as the geospatial module requires');
  },
};

/**
 * A box around the first vertex of a sample with extent, reaching a quarter of the sample's size:
 * it intersects the sample without containing it. Returns the sample when tested.
 */
async function partlyCovered(context: CheckContext, target: GeoTarget, first: GeoSample, problems: string[], unjudged: string[]): Promise<GeoSample | undefined> {
  const sized = target.samples.map((sample) => ({ sample, side: Math.min(...sizeMetres(sample.envelope)) })).find(({ side }) => side >= PARTIAL_MIN_METRES);
  const vertex = sized?.sample.positions[0];
  if (sized === undefined || vertex === undefined) return undefined;
  const { sample, side } = sized;
  const reach = Math.round(side / 4);
  const box = boxAround(vertex, reach);
  const selection = await select(context, target, sample, { bbox: bboxValue(box) });
  if (selection.problem !== undefined) problems.push(selection.problem);
  else missing(selection, sample.identity, `bbox=${bboxValue(box)}, ${reach} m around a vertex of ${featureName([first, sample])(sample)}, covers part of it but does not select it: a bbox selects what it intersects, not only what lies within it`, unjudged, problems);
  return sample;
}

/** A feature as a message names it: with its collection where the message names features of two. */
function featureName(named: GeoSample[]): (sample: GeoSample) => string {
  const collections = new Set(named.map((sample) => sample.collection.id));
  return (sample) => (collections.size > 1 ? `${sample.identity} of collection ${quoted(sample.collection.id)}` : sample.identity);
}

/**
 * /geo/bbox-crs-query-parameter: the box around the sample, given in each advertised CRS with
 * `bbox-crs` (the envelope of its corners, in that CRS's axis order), selects the sample and
 * nothing that lies more than SLACK_METRES outside the same box in CRS84: judged from the
 * selected features' own geometry, and only where the same area asked in CRS84 does not select
 * them as well, so that a fault of plain `bbox` does not count twice. An unsupported `bbox-crs`
 * gives 400.
 */
export const geoBboxCrsQueryParameter: LiveCheck = {
  code: '/geo/bbox-crs-query-parameter',
  async run(context: CheckContext): Promise<CheckResult> {
    const target = await geoTarget(context);
    if (target === undefined) return notGeospatial(this.code);
    const sample = target.samples[0];
    if (sample === undefined) return noSample(this.code, target);
    const box = grownBy(sample.envelope, AROUND_METRES);
    const problems: string[] = [];
    const unjudged: string[] = [];
    const notes: string[] = [];
    const evidence: Evidence[] = [];
    const compared: string[] = [];
    for (const crs of sample.collection.crs.filter((uri) => !isDefaultCrs(uri)).slice(0, MAX_CRSS)) {
      const skipped = skipReason(crs);
      if (skipped !== undefined) { notes.push(skipped); continue; }
      const other = envelopeIn(crs, box);
      const back = other === undefined ? undefined : envelopeToCrs84(crs, other);
      if (other === undefined || back === undefined) { notes.push(`${quoted(crs)}: the box around ${sample.identity} lies outside this CRS, not compared`); continue; }
      const asked = `bbox=${bboxValue(other)}&bbox-crs=${crs}`;
      const selection = await select(context, target, sample, { bbox: bboxValue(other), 'bbox-crs': crs });
      const before = problems.length + unjudged.length;
      if (selection.problem !== undefined) problems.push(selection.problem);
      else {
        missing(selection, sample.identity, `${asked}, around ${sample.identity}, misses it: bbox-crs is not applied as ${shortCrs(crs)} in its axis order`, unjudged, problems);
        const area = grownBy(back, SLACK_METRES);
        let outside = farOutside(selection.items, area);
        // What the API selects for the same area in CRS84 is its bbox's doing, not bbox-crs's (a server that ignores bbox fails /geo/bbox-query-parameter).
        if (outside.length > 0) {
          const inCrs84 = await select(context, target, sample, { bbox: bboxValue(area) });
          outside = outside.filter((identity) => !inCrs84.ids.has(identity));
        }
        if (outside.length > 0) problems.push(`${asked} selects ${outside.slice(0, 3).join(', ')}, more than ${SLACK_METRES} m outside the same box in CRS84: bbox-crs is not applied`);
      }
      if (problems.length + unjudged.length === before) compared.push(crs);
      else evidence.push(selection.evidence);
    }
    const unsupported = await select(context, target, sample, { bbox: bboxValue(box), 'bbox-crs': UNSUPPORTED_CRS });
    const status = unsupported.evidence.status;
    if (status !== 400) { problems.push(`an unsupported bbox-crs (${UNSUPPORTED_CRS}) gives ${status ?? unsupported.evidence.error ?? 'no answer'}, expected 400`); evidence.push(unsupported.evidence); }
    const advertised = sample.collection.crs.filter((uri) => !isDefaultCrs(uri)).length;
    // Advertised CRSs that could not be compared are not judged, never "none advertised": a pass would read as a proof.
    if (compared.length === 0 && advertised > 0 && problems.length === 0) {
      return { code: this.code, verdict: 'error', summary: `not judged: ${sample.collection.id} lists ${count(advertised, 'CRS')} besides CRS84, none of which adr-check could compare`, details: [...unjudged, ...notes], evidence };
    }
    const what = compared.length === 0 ? 'no other CRS advertised to compare' : `the bbox in ${compared.map(shortCrs).join(', ')} selects ${sample.identity} and nothing far outside the same box in CRS84`;
    const result = outcome(this.code, `${what}; an unsupported bbox-crs gives 400`, problems, unjudged, evidence, '`bbox-crs` is not honoured as the geospatial module requires');
    return { ...result, details: [...result.details, ...notes] };
  },
};

/** The identities of selected features whose geometry (CRS84, as served without `crs`) lies wholly outside `area`. */
function farOutside(items: JsonObject[], area: Envelope): string[] {
  return items.flatMap((item) => {
    // Invalid geometry (a non-finite coordinate) lies nowhere: /geo/geojson-response reports it.
    if (geometryProblem(geometryOf(item), CRS84) !== undefined) return [];
    const positions = positionsOf(geometryOf(item)).map((position) => toCrs84(CRS84, position) as Position);
    return positions.length > 0 && !envelopesIntersect(envelopeOf(positions), area) ? [identityOf(item)] : [];
  });
}
