import type { CheckContext, LiveCheck } from '../context.js';
import { describeAnswer, evidenceOf, noAnswerResult, type CheckResult } from '../report.js';
import { CRS84, isDefaultCrs, normalCrsUri, sameCrs } from '../geo/crs.js';
import { geoTarget } from '../geo/discover.js';
import { isCrsUri } from '../../lib/crs.js';

/**
 * /geo/crs-list: the API lists its CRSs where clients look (OGC API Features `/collections`,
 * or `/crss`); every entry is a CRS URI, CRS84 is in every list, and each collection's storage
 * CRS is one it lists.
 */
export const geoCrsList: LiveCheck = {
  code: '/geo/crs-list',
  async run(context: CheckContext): Promise<CheckResult> {
    const target = await geoTarget(context);
    if (target === undefined) return notGeospatial(this.code);
    const where = target.style === 'ogc' ? 'GET /collections' : 'GET /crss';
    if (target.list.status === undefined) return noAnswerResult(this.code, [`${where}: no answer (${target.list.error ?? 'unknown'})`], [evidenceOf(target.list)]);
    if (target.list.status !== 200 || (target.globalCrs.length === 0 && target.collections.length === 0)) {
      return { code: this.code, verdict: 'fail', summary: `${where} gives no CRS list`, details: [`${where} answered ${describeAnswer(target.list)}, expected 200 with ${target.style === 'ogc' ? 'a collections object (collections, crs)' : 'an object with a crs array'}`], evidence: [evidenceOf(target.list, ['Content-Type'], undefined, true)] };
    }
    const lists = target.style === 'ogc' ? target.collections.map((collection) => ({ name: `collection ${collection.id}`, crs: collection.crs, storage: collection.storageCrs })) : [{ name: 'the list', crs: target.globalCrs, storage: undefined }];
    const problems: string[] = [];
    for (const list of lists) {
      const notUris = list.crs.filter((uri) => !isCrsUri(normalCrsUri(uri), false));
      if (notUris.length > 0) problems.push(`${list.name} lists ${notUris.map((uri) => JSON.stringify(uri)).join(', ')}, expected CRS URIs such as ${CRS84}`);
      if (list.crs.length === 0) problems.push(`${list.name} lists no CRS, expected at least ${CRS84}`);
      else if (!list.crs.some(isDefaultCrs)) problems.push(`${list.name} lacks ${CRS84}, the default CRS`);
      if (list.storage !== undefined && !list.crs.some((uri) => sameCrs(uri, list.storage as string))) problems.push(`${list.name} has storageCrs ${list.storage}, which its crs list lacks`);
    }
    if (problems.length > 0) return { code: this.code, verdict: 'fail', summary: `the CRS list of ${where} is not as the geospatial module requires`, details: problems, evidence: [evidenceOf(target.list, ['Content-Type'])] };
    const counted = target.style === 'ogc' ? `${target.collections.length} collection${target.collections.length === 1 ? '' : 's'}, ${target.globalCrs.length} CRSs` : `${target.globalCrs.length} CRSs`;
    return { code: this.code, verdict: 'pass', summary: `${where} lists CRS URIs (${counted}), CRS84 in every list${target.style === 'ogc' ? ', each storageCrs listed' : ''}`, details: [], evidence: [] };
  },
};

export function notGeospatial(code: string): CheckResult {
  return { code, verdict: 'skip', summary: 'not a geospatial API: no GeoJSON in the description, no /collections or /crss', details: [], evidence: [] };
}
