import type { CheckContext, LiveCheck } from '../context.js';
import { describeAnswer, evidenceOf, type CheckResult, type Evidence } from '../report.js';
import { CRS84, envelopeIn, envelopeToCrs84, isTransformable, sameCrs, type Envelope } from '../geo/crs.js';
import { geoTarget, getGeometry, type GeoSample, type GeoTarget } from '../geo/discover.js';
import { identityOf, itemsOf } from '../geo/geojson.js';
import { notGeospatial } from './geo-crs-list.js';
import { noSample, shortCrs, UNSUPPORTED_CRS } from './geo-crs-negotiation.js';

/** About 30 m around the sample, in degrees: the sample is inside, far neighbours are not. */
const MARGIN_DEGREES = 0.0003;
/** A bbox in the Southern Ocean, away from the features of any Dutch API. */
const AWAY: Envelope = [-150.001, -45.001, -150, -45];
const MAX_CRSS = 4;

function padded(envelope: Envelope): Envelope {
  return [envelope[0] - MARGIN_DEGREES, envelope[1] - MARGIN_DEGREES, envelope[2] + MARGIN_DEGREES, envelope[3] + MARGIN_DEGREES];
}

function bboxValue(envelope: Envelope): string {
  return envelope.map((value) => String(Number(value.toFixed(8)))).join(',');
}

/** The identities a bbox selects, or why it could not be read. */
async function select(context: CheckContext, target: GeoTarget, sample: GeoSample, query: Record<string, string>): Promise<{ ids?: Set<string>; problem?: string; evidence: Evidence }> {
  const { exchange, body } = await getGeometry(context, target.style, sample.collection.itemsUrl, 'items', { ...(target.style === 'ogc' ? { limit: '100' } : {}), ...query });
  const evidence = evidenceOf(exchange, ['Content-Type', 'Content-Crs']);
  const asked = Object.entries(query).map(([name, value]) => `${name}=${value}`).join('&');
  if (exchange.status !== 200) return { problem: `${asked}: ${describeAnswer(exchange)}, expected 200`, evidence };
  return { ids: new Set(itemsOf(body).map(identityOf)), evidence };
}

/**
 * /geo/bbox-query-parameter: a bbox (CRS84) around a known feature selects it; a bbox away
 * from all features selects none.
 */
export const geoBboxQueryParameter: LiveCheck = {
  code: '/geo/bbox-query-parameter',
  async run(context: CheckContext): Promise<CheckResult> {
    const target = await geoTarget(context);
    if (target === undefined) return notGeospatial(this.code);
    const sample = target.samples[0];
    if (sample === undefined) return noSample(this.code, target);
    const around = await select(context, target, sample, { bbox: bboxValue(padded(sample.envelope)) });
    const away = await select(context, target, sample, { bbox: bboxValue(AWAY) });
    const problems: string[] = [];
    if (around.problem !== undefined) problems.push(around.problem);
    else if (!around.ids?.has(sample.identity)) problems.push(`bbox=${bboxValue(padded(sample.envelope))} around ${sample.identity} does not select it`);
    if (away.problem !== undefined) problems.push(away.problem);
    else if ((away.ids?.size ?? 0) > 0) problems.push(`bbox=${bboxValue(AWAY)}, away from every feature, selects ${away.ids?.size} (${[...(away.ids ?? [])].slice(0, 3).join(', ')}): the bbox is not applied`);
    if (problems.length > 0) return { code: this.code, verdict: 'fail', summary: '`bbox` does not select as the geospatial module requires', details: problems, evidence: [around.evidence, away.evidence] };
    return { code: this.code, verdict: 'pass', summary: `a bbox around ${sample.identity} selects it (${around.ids?.size} in all); a bbox away from all features selects none`, details: [], evidence: [] };
  },
};

/**
 * /geo/bbox-crs-query-parameter: the bbox around the known feature, given again in each
 * advertised CRS with `bbox-crs`, selects what CRS84 selects. A transformed box is a little
 * larger (its corners' envelope), so the check is A ⊆ B ⊆ C: A the CRS84 box, B the box in the
 * other CRS, C the CRS84 envelope of B. An unsupported `bbox-crs` gives 400.
 */
export const geoBboxCrsQueryParameter: LiveCheck = {
  code: '/geo/bbox-crs-query-parameter',
  async run(context: CheckContext): Promise<CheckResult> {
    const target = await geoTarget(context);
    if (target === undefined) return notGeospatial(this.code);
    const sample = target.samples[0];
    if (sample === undefined) return noSample(this.code, target);
    const box = padded(sample.envelope);
    const inCrs84 = await select(context, target, sample, { bbox: bboxValue(box) });
    const problems: string[] = inCrs84.problem === undefined ? [] : [inCrs84.problem];
    const notes: string[] = [];
    const evidence: Evidence[] = [];
    const compared: string[] = [];
    for (const crs of sample.collection.crs.filter((uri) => !sameCrs(uri, CRS84)).slice(0, MAX_CRSS)) {
      const other = isTransformable(crs) ? envelopeIn(crs, box) : undefined;
      const back = other === undefined ? undefined : envelopeToCrs84(crs, other);
      if (other === undefined || back === undefined) { notes.push(`${crs}: no transformation known to adr-check, not compared`); continue; }
      const inOther = await select(context, target, sample, { bbox: bboxValue(other), 'bbox-crs': crs });
      const enclosing = await select(context, target, sample, { bbox: bboxValue(back) });
      const problem = inOther.problem ?? enclosing.problem ?? subsetProblem(crs, other, inCrs84.ids, inOther.ids, enclosing.ids);
      if (problem === undefined) compared.push(crs);
      else { problems.push(problem); evidence.push(inOther.evidence); }
    }
    const unsupported = await select(context, target, sample, { bbox: bboxValue(box), 'bbox-crs': UNSUPPORTED_CRS });
    const status = unsupported.evidence.status;
    if (status !== 400) { problems.push(`an unsupported bbox-crs (${UNSUPPORTED_CRS}) gives ${status ?? unsupported.evidence.error ?? 'no answer'}, expected 400`); evidence.push(unsupported.evidence); }
    if (problems.length > 0) return { code: this.code, verdict: 'fail', summary: '`bbox-crs` is not honoured as the geospatial module requires', details: [...problems, ...notes], evidence };
    const what = compared.length === 0 ? 'no other CRS advertised to compare' : `the bbox in ${compared.map(shortCrs).join(', ')} selects what it selects in CRS84`;
    return { code: this.code, verdict: 'pass', summary: `${what}; an unsupported bbox-crs gives 400`, details: notes, evidence: [] };
  },
};

function subsetProblem(crs: string, box: Envelope, inCrs84: Set<string> | undefined, inOther: Set<string> | undefined, enclosing: Set<string> | undefined): string | undefined {
  const missing = [...(inCrs84 ?? [])].filter((id) => !inOther?.has(id));
  if (missing.length > 0) return `bbox=${bboxValue(box)}&bbox-crs=${crs} misses ${missing.slice(0, 3).join(', ')}, which the same box in CRS84 selects: bbox-crs is not applied`;
  const extra = [...(inOther ?? [])].filter((id) => !enclosing?.has(id));
  if (extra.length > 0) return `bbox=${bboxValue(box)}&bbox-crs=${crs} selects ${extra.slice(0, 3).join(', ')}, outside the same box in CRS84: bbox-crs is not applied`;
  return undefined;
}
