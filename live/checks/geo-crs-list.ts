import type { CheckContext, LiveCheck } from '../context.js';
import { count, describeAnswer, evidenceOf, noAnswerResult, type CheckResult } from '../report.js';
import { CRS84, crsUriDefect, isDefaultCrs, normalCrsUri, quoted, sameCrs } from '../geo/crs.js';
import { geoTarget, type GeoTarget } from '../geo/discover.js';
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
    const problems = listProblems(target);
    const shown = problems.length > MAX_PROBLEMS ? [...problems.slice(0, MAX_PROBLEMS), `… and ${problems.length - MAX_PROBLEMS} more problems of the same kinds`] : problems;
    if (problems.length > 0) return { code: this.code, verdict: 'fail', summary: `the CRS list of ${where} is not as the geospatial module requires`, details: [...shown, ...target.leftOut], evidence: [evidenceOf(target.list, ['Content-Type'])] };
    const counted = target.style === 'ogc' ? `${count(target.collections.length, 'collection')}, ${target.globalCrs.length} CRSs` : `${target.globalCrs.length} CRSs`;
    return { code: this.code, verdict: 'pass', summary: `${where} lists CRS URIs (${counted}), CRS84 in every list${target.style === 'ogc' ? storageNote(target) : ''}`, details: target.leftOut, evidence: [] };
  },
};

/** What a pass says of storageCrs: only what the collections give (a collection without one has nothing to list). */
function storageNote(target: GeoTarget): string {
  const given = target.collections.filter((collection) => collection.storageCrs !== undefined).length;
  if (given === 0) return '; no collection gives a storageCrs';
  if (given === target.collections.length) return ', each storageCrs listed';
  return `, the storageCrs of the ${given} of ${target.collections.length} collections that give one listed`;
}

/** Problems named in the report; the rest is counted. */
const MAX_PROBLEMS = 20;
/** Values shown of one list that are no CRS URIs; the rest is counted. */
const MAX_SHOWN_VALUES = 3;

interface JudgedList {
  name: string;
  crs: string[];
}

/**
 * Each distinct list judged once: the shared list (`#/crs`, or /crss's) under its own name, not
 * once per collection that refers to it; a collection's storageCrs against the list it holds.
 */
function listProblems(target: GeoTarget): string[] {
  const problems: string[] = [];
  const sharers = target.collections.filter((collection) => collection.crs === target.sharedCrs);
  const lists: JudgedList[] = target.style === 'plain'
    ? [{ name: 'the list', crs: target.globalCrs }]
    : [
      ...(target.sharedCrs.length > 0 || sharers.length > 0 ? [{ name: `the crs list of /collections${sharers.length > 0 ? ` (#/crs, the list of ${count(sharers.length, 'collection')})` : ''}`, crs: target.sharedCrs }] : []),
      ...target.collections.filter((collection) => collection.crs !== target.sharedCrs).map((collection) => ({ name: `collection ${quoted(collection.id)}`, crs: collection.crs })),
    ];
  for (const list of lists) problems.push(...contentProblems(list));
  if (target.style === 'ogc') {
    for (const collection of target.collections) {
      const storage = collection.storageCrs;
      if (storage !== undefined && !collection.crs.some((uri) => sameCrs(uri, storage))) problems.push(`collection ${quoted(collection.id)} has storageCrs ${quoted(storage)}, which its crs list lacks`);
    }
  }
  return problems;
}

function contentProblems(list: JudgedList): string[] {
  const problems: string[] = [];
  const notUris = list.crs.filter((uri) => crsUriDefect(uri) !== undefined || !isCrsUri(normalCrsUri(uri), false));
  if (notUris.length > 0) {
    const shown = notUris.slice(0, MAX_SHOWN_VALUES).map((uri) => {
      const defect = crsUriDefect(uri);
      return defect === undefined ? quoted(uri) : `${quoted(uri)} (${defect}: adr-check does not send it)`;
    });
    const more = notUris.length > MAX_SHOWN_VALUES ? ` and ${notUris.length - MAX_SHOWN_VALUES} more` : '';
    problems.push(`${list.name} lists ${shown.join(', ')}${more}, expected CRS URIs such as ${CRS84}`);
  }
  if (list.crs.length === 0) problems.push(`${list.name} lists no CRS, expected at least ${CRS84}`);
  else if (!list.crs.some(isDefaultCrs)) problems.push(`${list.name} lacks ${CRS84}, the default CRS`);
  return problems;
}

export function notGeospatial(code: string): CheckResult {
  return { code, verdict: 'skip', summary: 'not a geospatial API: no GeoJSON in the description, no /collections or /crss', details: [], evidence: [] };
}
