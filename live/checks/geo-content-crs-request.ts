import { randomInt } from 'node:crypto';
import { asObject, isObject, type JsonObject } from '../../lib/json.js';
import { effectiveParameters, isJsonMediaType, mediaTypeName } from '../../lib/openapi.js';
import { demandsCredentials, followLocalReference, pathItemFor, pathKeyFor, type CheckContext, type LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { count, describeAnswer, evidenceOf, isSuccess, type CheckResult, type Evidence } from '../report.js';
import { CRS84, fromCrs84, isLatitudeFirst, isTransformable, sameCrs, toCrs84, worstDistance, type Position } from '../geo/crs.js';
import { geoTarget, getGeometry, sameOriginHref, sampleOf, withQuery, type GeoCollection, type GeoSample, type GeoTarget } from '../geo/discover.js';
import { copyWithGeometry, geometryOf, hasIdentifier, identityOf, itemsOf, linkHref, mapPositions, parseJson, positionsOf, withIdentifiers } from '../geo/geojson.js';
import { notGeospatial } from './geo-crs-list.js';
import { formatDistance, shortCrs, TOLERANCE_METRES, UNSUPPORTED_CRS } from './geo-crs-negotiation.js';
import { safeDecode } from '../../lib/uri.js';
import { shapeOf } from '../lint/depth.js';
import { isUnderBase } from '../../lib/url-scope.js';

/**
 * /geo/content-crs-request-header, live and only with --unsafe: a copy of a sample feature is
 * created with its geometry in another CRS and `Content-Crs` naming it, and once in CRS84 without
 * the header; each, read back in CRS84, must lie where the sample lies. An unsupported
 * Content-Crs must give 400. A copy never carries the sample's own identifiers (an upsert would
 * overwrite the sample): new ones adr-check made up, or none. What adr-check can prove it created
 * it deletes again where the description declares DELETE; anything else it leaves and names
 * (docs/live/unsafe.md).
 */

/** Collections tried for one with a feature to copy: enough to pass over an empty first one, bounded in requests. */
const MAX_WRITE_CANDIDATES = 5;

/** Where a POST of features goes: a collection whose items path the description declares a POST on. */
interface WriteTarget {
  collection: GeoCollection;
  path: string;
  operation: JsonObject;
  mediaType: string;
}

interface Created {
  exchange: Exchange;
  /** Same-origin URL of the new resource, from Location. */
  location?: string;
  /** The identifier values adr-check made up for this copy. */
  sent: string[];
  /** The copy's other scalar members (a Feature's properties), to know it again when it is read back. */
  members: Map<string, unknown>;
  /** Keys (resourceKey) of URLs named by those identifiers that answered 404 or 410 just before the POST. */
  absentBefore: Set<string>;
  /** The GET of the Location, once made. */
  read?: { status?: number; body: unknown };
}

/** What adr-check knew to exist before its first POST: the sample and the collection as listed (FeatureWriter.survey). */
interface Existing {
  /** resourceKey of every URL that names an existing feature, with the feature's identity. */
  urls: Map<string, string>;
  /** Every identifier value of those features, lower case, with the feature's identity. */
  identifiers: Map<string, string>;
  /** The letters and digits of each identifier and of each URL's last segment, with the feature's identity: what a lenient router may still match. */
  skeletons: Map<string, string>;
  /** The listing reached its end and named each feature: a URL not among them named nothing before the POST. */
  complete: boolean;
}

export const geoContentCrsRequestHeader: LiveCheck = {
  code: '/geo/content-crs-request-header',
  async run(context: CheckContext): Promise<CheckResult> {
    const target = await geoTarget(context);
    if (target === undefined) return notGeospatial(this.code);
    const skip = (summary: string, details: string[] = []): CheckResult => ({ code: this.code, verdict: 'skip', summary, details, evidence: [] });
    const writes = writeTargets(context, target);
    if (writes.length === 0) return skip('not tested: the description declares no POST on a collection with geometry');
    if (!context.options.unsafe) return skip('not tested: creating a feature changes data; --unsafe lets adr-check POST one (and delete it again where the API allows)');
    // The first collection that takes features and has one to copy: an empty first collection is passed over.
    let write: WriteTarget | undefined;
    let sample: GeoSample | undefined;
    for (const candidate of writes.slice(0, MAX_WRITE_CANDIDATES)) {
      sample = target.samples.find((found) => found.collection.id === candidate.collection.id) ?? (await sampleOf(context, candidate.collection, target.style));
      if (sample !== undefined) { write = candidate; break; }
    }
    if (write === undefined || sample === undefined) return skip(`nothing to copy: no feature with geometry in ${writes.map((candidate) => candidate.collection.id).join(', ')}`);
    if (!context.hasCredentials && demandsCredentials(write.operation.security ?? context.description?.security)) {
      return skip(`not tested: POST ${write.path} needs credentials; give --header "Authorization: ..." to test it`);
    }
    return new FeatureWriter(context, target, write, sample).judge(this.code);
  },
};

/** The POSTs of the description on a collection's items path, in the order of the collections. */
function writeTargets(context: CheckContext, target: GeoTarget): WriteTarget[] {
  const found: WriteTarget[] = [];
  for (const collection of target.collections) {
    const path = relativePath(context, collection.itemsUrl);
    if (path === undefined) continue;
    const pathKey = pathKeyFor(context.description, path, context.pathKeyPrefix);
    const pathItem = pathItemFor(context.description, path, context.pathKeyPrefix);
    if (!isObject(pathItem.post)) continue;
    const operation = pathItem.post;
    const mediaType = requestMediaType(context, operation, target.style);
    if (pathKey === undefined || mediaType === undefined || !allowsPath(context, pathKey, pathItem, operation, path)) continue;
    found.push({ collection, path, operation, mediaType });
  }
  return found;
}

/** The path under the base URL, for a URL that stays under it as a server would read it. */
function relativePath(context: CheckContext, url: string): string | undefined {
  if (!isUnderBase(context.baseUrl, url)) return undefined;
  return new URL(url).pathname.slice(new URL(context.baseUrl).pathname.replace(/\/+$/, '').length);
}

/**
 * The JSON media type the POST's request body declares: geo+json first for an OGC API. A POST
 * declared without any request body content (QGIS Server's description) takes the style's own:
 * GeoJSON for an OGC API (Features part 4), JSON otherwise.
 */
function requestMediaType(context: CheckContext, operation: JsonObject, style: GeoTarget['style']): string | undefined {
  const body = followLocalReference(context.description, asObject(operation.requestBody));
  const declared = Object.keys(asObject(body.content));
  if (declared.length === 0) return style === 'ogc' ? 'application/geo+json' : 'application/json';
  const types = declared.filter(isJsonMediaType).map(mediaTypeName);
  return types.find((type) => style === 'ogc' && type === 'application/geo+json') ?? types[0];
}

/** A path variable whose schema has an enum (the collections that take features) must allow the collection's segment. */
function allowsPath(context: CheckContext, pathKey: string, pathItem: JsonObject, operation: JsonObject, path: string): boolean {
  const templateSegments = pathKey.split('/');
  // A key that repeats the base URL's path matched the path with that prefix in front.
  const segments = (pathKeyFor(context.description, path) === pathKey ? path : `${context.pathKeyPrefix}${path}`).split('/');
  return effectiveParameters(pathItem, operation).map((parameter) => followLocalReference(context.description, parameter)).every((parameter) => {
    const allowed = asObject(parameter.schema).enum;
    if (parameter.in !== 'path' || !Array.isArray(allowed)) return true;
    const index = templateSegments.indexOf(`{${String(parameter.name)}}`);
    if (index < 0) return true;
    const segment = segments[index] ?? '';
    return allowed.some((value) => String(value) === safeDecode(segment));
  });
}

/**
 * The CRS the copy is written in: not CRS84 and not the storage CRS, so that a server that falls
 * back on either cannot pass; latitude first where there is one, so that coordinates read as
 * CRS84 instead still lie on the globe and show where they went.
 */
function writingCrs(collection: GeoCollection): string | undefined {
  const candidates = collection.crs.filter((uri) => isTransformable(uri) && !sameCrs(uri, CRS84));
  const notStorage = candidates.filter((uri) => collection.storageCrs === undefined || !sameCrs(uri, collection.storageCrs));
  return notStorage.find(isLatitudeFirst) ?? notStorage[0] ?? candidates[0];
}

/** A copy is made of what the server sent: it does not get to make adr-check send megabytes three times. */
const MAX_COPY_BYTES = 1_000_000;

class FeatureWriter {
  private readonly problems: string[] = [];
  private readonly notes: string[] = [];
  /** What could not be observed: with no problem found, the verdict is `error`, not `pass`. */
  private readonly unjudged: string[] = [];
  private readonly evidence: Evidence[] = [];
  private readonly attempts: Created[] = [];
  /** Copies carry identifiers adr-check made up, or (where the API refuses those) none; never the sample's own. */
  private identifiers: 'fresh' | 'left-out' = 'fresh';
  private readonly existing: Existing;

  constructor(private readonly context: CheckContext, private readonly target: GeoTarget, private readonly write: WriteTarget, private readonly sample: GeoSample) {
    this.existing = { urls: new Map(), identifiers: new Map(), skeletons: new Map(), complete: false };
    this.remember(sample.item, sample.identity, sample.url);
    // A plain sample's URL is its collection's: that names the collection, not the sample.
    const sampleKey = resourceKey(sample.url);
    if (sampleKey !== undefined && sampleKey !== resourceKey(write.collection.itemsUrl)) this.existing.urls.set(sampleKey, sample.identity);
  }

  async judge(code: string): Promise<CheckResult> {
    // Measured without recursion first: JSON.stringify of a feature nested 20,000 deep overflows the stack.
    const depth = shapeOf(this.sample.item, MAX_COPY_DEPTH + 1).depth;
    if (depth > MAX_COPY_DEPTH) return this.finish(code, { verdict: 'skip', summary: `nothing to copy: ${this.sample.identity} nests deeper than ${MAX_COPY_DEPTH} levels of JSON; adr-check POSTs no such copy` });
    const size = Buffer.byteLength(JSON.stringify(this.sample.item));
    if (size > MAX_COPY_BYTES) return this.finish(code, { verdict: 'skip', summary: `nothing to copy: ${this.sample.identity} is ${size.toLocaleString('en')} bytes of JSON; adr-check POSTs copies of at most ${MAX_COPY_BYTES.toLocaleString('en')}` });
    await this.survey();
    const crs = writingCrs(this.write.collection);
    const inCrs84 = await this.create(CRS84, undefined);
    if (inCrs84 === undefined) return this.finish(code, { verdict: 'skip', summary: `nothing to copy: the geometry of ${this.sample.identity} could not be transformed` });
    const inOther = crs === undefined ? undefined : await this.create(crs, `<${crs}>`);
    if (crs === undefined) this.notes.push(`${this.write.collection.id} lists no CRS besides CRS84 that adr-check can transform: only the default was tested`);
    else if (inOther === undefined) this.notes.push(`the geometry of ${this.sample.identity} has no position in ${crs}: only the default was tested`);
    const refusedBoth = !isSuccess(inCrs84.exchange.status) && (inOther === undefined || !isSuccess(inOther.exchange.status));
    const unanswered = [inCrs84, inOther].find((attempt) => attempt !== undefined && attempt.exchange.status === undefined);
    if (unanswered !== undefined) return this.finish(code, { verdict: 'error', summary: `not judged: POST ${this.write.path} got no answer (${unanswered.exchange.error ?? 'unknown'})` });
    const credentialsRefused = [inCrs84, inOther].find((attempt) => attempt !== undefined && (attempt.exchange.status === 401 || attempt.exchange.status === 403));
    if (credentialsRefused !== undefined) {
      const given = this.context.hasCredentials ? 'to the credentials given' : 'without credentials (the description declares none needed; give --header "Authorization: ..." to test it)';
      return this.finish(code, { verdict: 'error', summary: `not judged: POST ${this.write.path} answered ${describeAnswer(credentialsRefused.exchange)} ${given}` });
    }
    if (refusedBoth) return this.finish(code, { verdict: 'error', summary: `not judged: the API created no copy of ${this.sample.identity} (POST ${this.write.path} answered ${describeAnswer(inCrs84.exchange)}), so Content-Crs could not be tested` });
    await this.readBack(inCrs84, CRS84, 'in CRS84 without Content-Crs');
    if (crs !== undefined && inOther !== undefined) await this.readBack(inOther, crs, `in ${shortCrs(crs)} with Content-Crs: <${crs}>`);
    await this.unsupported();
    await this.cleanUp();
    if (this.problems.length > 0) return this.finish(code, { verdict: 'fail', summary: 'features POSTed with and without Content-Crs are not created as the geospatial module requires' });
    if (this.unjudged.length > 0) return this.finish(code, { verdict: 'error', summary: `not judged: ${this.unjudged.join('; ')}` });
    const written = crs === undefined ? 'in CRS84 without Content-Crs' : `in ${shortCrs(crs)} with Content-Crs and in CRS84 without it`;
    return this.finish(code, { verdict: 'pass', summary: `copies of ${this.sample.identity} POSTed ${written} read back within ${TOLERANCE_METRES} m of it; an unsupported Content-Crs gives 400` }, false);
  }

  private finish(code: string, outcome: Pick<CheckResult, 'verdict' | 'summary'>, withEvidence = true): CheckResult {
    return { code, ...outcome, details: [...this.problems, ...this.notes], evidence: withEvidence ? this.evidence : [] };
  }

  /** A feature known to exist: its URLs (the one it was fetched at, its self link, `{items}/{id}`) and identifiers. */
  private remember(item: JsonObject, identity: string, fetchedAt: string): void {
    const self = sameOriginHref(this.context, linkHref(item, 'self'), fetchedAt);
    const id = typeof item.id === 'string' || typeof item.id === 'number' ? itemUrl(this.write.collection.itemsUrl, String(item.id)) : undefined;
    for (const url of [self, id]) {
      const key = url === undefined ? undefined : resourceKey(url);
      if (key !== undefined) this.existing.urls.set(key, identity);
      if (key !== undefined) this.existing.skeletons.set(skeletonOf(key.slice(key.lastIndexOf('/') + 1)), identity);
    }
    for (const value of identifiersOf(item)) {
      this.existing.identifiers.set(canonicalSegment(value), identity);
      this.existing.skeletons.set(skeletonOf(value), identity);
      const number = leadingNumber(canonicalSegment(value));
      if (number !== undefined && number === canonicalSegment(value).replace(/^0+(?=\d)/, '')) this.existing.identifiers.set(number, identity);
    }
  }

  /**
   * Before the first POST: the collection, listed along its next links (at most SURVEY_PAGES
   * pages). Every feature on it exists; when the listing reached the end and named each feature, a
   * URL that is none of them named nothing before the POST.
   */
  private async survey(): Promise<void> {
    const accept = this.target.style === 'ogc' ? 'application/geo+json' : 'application/json';
    const visited = new Set<string>();
    let url: string | undefined = this.target.style === 'ogc' ? withQuery(this.write.collection.itemsUrl, { limit: String(SURVEY_LIMIT) }) : this.write.collection.itemsUrl;
    let listed = 0;
    let named = true;
    for (let page = 0; page < SURVEY_PAGES && url !== undefined; page += 1) {
      visited.add(url);
      const list = await this.context.send({ method: 'GET', url, headers: { accept }, keepBody: true });
      const body = list.status === 200 ? parseJson(list.body) : undefined;
      if (body === undefined) return;
      const items = itemsOf(body);
      for (const item of items) this.remember(item, identityOf(item), list.url);
      listed += items.length;
      named &&= items.every((item) => identifiersOf(item).length > 0 || linkHref(item, 'self') !== undefined);
      const next = sameOriginHref(this.context, linkHref(body, 'next') ?? linkHeaderNext(list.headers.link), list.url);
      if (next === undefined && (linkHref(body, 'next') !== undefined || linkHeaderNext(list.headers.link) !== undefined)) return;
      if (next === undefined) {
        const matched = asObject(body).numberMatched;
        // A full OGC page without a next link may still have more behind it.
        const whole = (typeof matched !== 'number' || matched <= listed) && (this.target.style !== 'ogc' || items.length < SURVEY_LIMIT);
        this.existing.complete = listed > 0 && named && whole;
        return;
      }
      url = isUnderBase(this.context.baseUrl, next) && !visited.has(next) ? next : undefined;
    }
  }

  /**
   * POST a copy of the sample with its geometry in `crs`; `header` is the Content-Crs to send, if
   * any. Undefined when the geometry has no positions in `crs`.
   */
  private async create(crs: string, header: string | undefined, retryBare = true): Promise<Created | undefined> {
    const geometry = mapPositions(asObject(geometryOf(this.sample.item)), (position) => fromCrs84(crs, toCrs84(CRS84, position) as Position));
    if (geometry === undefined) return undefined;
    const copy = copyWithGeometry(this.sample.item, geometry);
    const headers: Record<string, string> = { 'content-type': this.write.mediaType, accept: `${this.write.mediaType}, application/json;q=0.9, application/problem+json;q=0.8` };
    if (header !== undefined) headers['content-crs'] = header;
    const post = async (sent: Record<string, string>): Promise<Created> => {
      const identified = await this.identified(copy);
      const exchange = await this.context.send({ method: 'POST', url: `${this.context.baseUrl}${this.write.path}`, headers: sent, body: JSON.stringify(identified.body) });
      const members = new Map([...scalarMembers(identified.body)].filter(([, value]) => !identified.sent.includes(String(value))));
      return { exchange, sent: identified.sent, members, absentBefore: identified.absentBefore };
    };
    let attempt = await post(headers);
    // An API that refuses identifiers from the client: the copies go without one (never with the sample's own).
    if (REFUSED_IDENTIFIER.includes(attempt.exchange.status ?? 0) && this.identifiers === 'fresh' && hasIdentifier(copy) && !this.attempts.some((earlier) => isSuccess(earlier.exchange.status))) {
      this.identifiers = 'left-out';
      const retried = await post(headers);
      if (isSuccess(retried.exchange.status)) {
        this.notes.push(`a copy with a new identifier gives ${attempt.exchange.status ?? 0}: the copies were sent without identifier`);
        attempt = retried;
      } else this.identifiers = 'fresh';
    }
    // OGC API Features part 2 writes the URI in angle brackets; a server that takes it only bare is told so, not failed.
    if (header !== undefined && retryBare && attempt.exchange.status === 400) {
      const bare = await post({ ...headers, 'content-crs': crs });
      if (isSuccess(bare.exchange.status)) {
        this.notes.push(`Content-Crs: ${header} gives 400, the bare URI is accepted: OGC API Features part 2 writes it in angle brackets`);
        attempt = bare;
      }
    }
    const location = isSuccess(attempt.exchange.status) ? sameOriginHref(this.context, attempt.exchange.headers.location, attempt.exchange.url) : undefined;
    const created = { ...attempt, ...(location === undefined ? {} : { location }) };
    this.attempts.push(created);
    return created;
  }

  /**
   * The copy with its identifier members replaced by values adr-check makes up now: none that a
   * feature seen so far has, and, where `{items}/{value}` can be asked, one that answers 404 there
   * (a value that answers 2xx is taken: another is made up). Without identifier members, or where
   * the API refuses them, the copy goes without.
   */
  private async identified(copy: JsonObject): Promise<{ body: JsonObject; sent: string[]; absentBefore: Set<string> }> {
    const absentBefore = new Set<string>();
    if (this.identifiers === 'left-out' || !hasIdentifier(copy)) return { body: withIdentifiers(copy, 'left-out', () => undefined), sent: [], absentBefore };
    const originals: unknown[] = [];
    withIdentifiers(copy, 'fresh', (value) => { originals.push(value); return value; });
    const chosen = new Map<unknown, unknown>();
    for (const original of originals.slice(0, MAX_IDENTIFIERS)) {
      if (chosen.has(original)) continue;
      const unused = await this.unusedIdentifier(original, absentBefore);
      // Every value made up answered 2xx: the API claims them all, so the copy goes without.
      if (unused === undefined) return { body: withIdentifiers(copy, 'left-out', () => undefined), sent: [], absentBefore: new Set() };
      chosen.set(original, unused);
    }
    const body = withIdentifiers(copy, 'fresh', (value) => (chosen.has(value) ? chosen.get(value) : freshIdentifier(value)));
    return { body, sent: identifiersOf(body), absentBefore };
  }

  /** A value in the shape of `original` that no feature is known to have; undefined when each one made up answered 2xx. */
  private async unusedIdentifier(original: unknown, absentBefore: Set<string>): Promise<unknown> {
    for (let round = 0; round < MAX_IDENTIFIER_TRIES; round += 1) {
      const candidate = freshIdentifier(original);
      if (this.existing.identifiers.has(canonicalSegment(String(candidate)))) continue;
      const url = itemUrl(this.write.collection.itemsUrl, String(candidate));
      if (!isUnderBase(this.context.baseUrl, url)) return candidate;
      const before = await this.context.send({ method: 'GET', url, headers: { accept: 'application/json' } });
      if (before.status === 404 || before.status === 410) {
        absentBefore.add(resourceKey(url) ?? url);
        return candidate;
      }
      if (!isSuccess(before.status)) return candidate;
    }
    return undefined;
  }

  /** The created copy, fetched in CRS84, must lie where the sample lies. */
  private async readBack(attempt: Created, crs: string, how: string): Promise<void> {
    const { exchange } = attempt;
    if (!isSuccess(exchange.status)) {
      this.problems.push(`a copy of ${this.sample.identity} ${how}: POST ${this.write.path} answered ${describeAnswer(exchange)}, expected 201${exchange.status === 400 ? ': the API refused coordinates that lie where its own feature lies' : ''}`);
      this.evidence.push(evidenceOf(exchange, ['Content-Type'], undefined, true));
      return;
    }
    if (attempt.location === undefined) {
      this.problems.push(`a copy of ${this.sample.identity} ${how}: ${exchange.status} ${exchange.headers.location === undefined ? 'without Location' : `with Location ${exchange.headers.location}, not on the API's origin (not followed)`}, expected 201 with the new resource's URI`);
      this.evidence.push(evidenceOf(exchange, ['Location']));
      return;
    }
    if (!isUnderBase(this.context.baseUrl, attempt.location)) {
      this.problems.push(`a copy of ${this.sample.identity} ${how}: ${exchange.status} with Location ${attempt.location}, outside the API's base URL ${this.context.baseUrl} (not followed), expected the new resource's URI`);
      this.evidence.push(evidenceOf(exchange, ['Location']));
      return;
    }
    const named = this.namedExisting(attempt);
    if (named !== undefined) {
      this.problems.push(`a copy of ${this.sample.identity} ${how}: ${exchange.status} with Location ${attempt.location}, which names ${named}, expected the new resource's URI`);
      this.evidence.push(evidenceOf(exchange, ['Location']));
      return;
    }
    const { exchange: read, body } = await getGeometry(this.context, this.target.style, attempt.location, this.target.style === 'ogc' ? 'feature' : 'plain');
    attempt.read = { ...(read.status === undefined ? {} : { status: read.status }), body };
    if (read.status === undefined) {
      this.unjudged.push(`GET ${new URL(attempt.location).pathname} of the copy ${how} got no answer (${read.error ?? 'unknown'})`);
      return;
    }
    if (read.status !== 200) {
      this.problems.push(`a copy of ${this.sample.identity} ${how}: created, but GET ${new URL(attempt.location).pathname} answered ${describeAnswer(read)}, expected 200`);
      this.evidence.push(evidenceOf(read, ['Content-Type']));
      return;
    }
    const foreign = this.foreignIdentifier(attempt);
    if (foreign !== undefined) {
      this.problems.push(`a copy of ${this.sample.identity} ${how}: ${exchange.status} with Location ${attempt.location}, which reads back as ${foreign}, a feature that existed before the POST (an upsert?), expected the new resource`);
      this.evidence.push(evidenceOf(exchange, ['Location']), evidenceOf(read, ['Content-Type']));
      return;
    }
    const stored = positionsOf(geometryOf(body)).map((position) => toCrs84(CRS84, position) as Position);
    const problem = misplacement(stored, this.sample.positions, crs, this.write.collection.crs, !sameCrs(crs, CRS84));
    if (problem !== undefined) {
      this.problems.push(`a copy of ${this.sample.identity} ${how} ${problem}`);
      this.evidence.push(evidenceOf(exchange, ['Location']), evidenceOf(read, ['Content-Type', 'Content-Crs']));
    }
  }

  /** A CRS no server supports must be refused with 400, not stored in some guessed CRS. */
  private async unsupported(): Promise<void> {
    const attempt = await this.create(CRS84, `<${UNSUPPORTED_CRS}>`, false);
    if (attempt === undefined) return;
    if (attempt.exchange.status === undefined) {
      this.unjudged.push(`POST with an unsupported Content-Crs got no answer (${attempt.exchange.error ?? 'unknown'})`);
      return;
    }
    if (attempt.exchange.status === 400) return;
    this.problems.push(`a feature with Content-Crs: <${UNSUPPORTED_CRS}> (no such CRS) gives ${describeAnswer(attempt.exchange)}, expected 400`);
    this.evidence.push(evidenceOf(attempt.exchange, ['Location', 'Content-Type']));
  }

  /**
   * Delete what adr-check can prove it created, where the description declares DELETE; name every
   * Location left, and why. A Location that names an existing feature was failed in readBack and
   * is only named here.
   */
  private async cleanUp(): Promise<void> {
    const remaining: string[] = [];
    const unproven: string[] = [];
    for (const attempt of this.attempts) {
      if (attempt.location === undefined) continue;
      const doubt = await this.doubt(attempt);
      if (doubt !== undefined) { unproven.push(`${attempt.location} (${doubt})`); continue; }
      const kept = this.whyNotDeleted(attempt.location);
      if (kept !== undefined) { remaining.push(`${attempt.location} (${kept})`); continue; }
      const deleted = await this.context.send({ method: 'DELETE', url: attempt.location });
      if (!isSuccess(deleted.status)) remaining.push(`${attempt.location} (DELETE answered ${describeAnswer(deleted)})`);
    }
    if (remaining.length > 0) this.notes.push(`${count(remaining.length, 'feature')} adr-check created ${remaining.length === 1 ? 'remains' : 'remain'}: ${remaining.join(', ')}`);
    if (unproven.length > 0) this.notes.push(`${count(unproven.length, 'Location')} not deleted, as adr-check cannot prove it created what ${unproven.length === 1 ? 'it names' : 'they name'}: ${unproven.join(', ')}`);
  }

  /**
   * Why the resource at a Location may not be adr-check's own copy, or undefined when it is proven
   * to be: a direct child of the collection, named by no other POST, no feature known before,
   * shown not to have existed before the POST (its URL answered 404 just before, or the whole
   * collection was listed without it), and read back without any identifier known before.
   */
  private async doubt(attempt: Created): Promise<string | undefined> {
    const location = attempt.location ?? '';
    const key = resourceKey(location);
    const itemsKey = resourceKey(this.write.collection.itemsUrl);
    if (key === undefined || itemsKey === undefined || !isUnderBase(this.context.baseUrl, location)) return 'outside the base URL';
    const named = this.namedExisting(attempt);
    if (named !== undefined) return `names ${named}`;
    if (new URL(location).search !== '') return 'its query may select another resource';
    if (!key.startsWith(`${itemsKey}/`) || key.slice(itemsKey.length + 1).includes('/')) return `not a feature of ${this.write.path}`;
    if (!attempt.absentBefore.has(key) && !this.existing.complete) return `it may have existed before the POST: adr-check could not list the whole collection before it (${SURVEY_PAGES} pages at most, each feature named), and no URL adr-check made up answered 404 there`;
    if (attempt.read === undefined) {
      const { exchange, body } = await getGeometry(this.context, this.target.style, location, this.target.style === 'ogc' ? 'feature' : 'plain');
      attempt.read = { ...(exchange.status === undefined ? {} : { status: exchange.status }), body };
    }
    if (attempt.read.status !== 200) return `GET answered ${attempt.read.status ?? 'nothing'}`;
    const foreign = this.foreignIdentifier(attempt);
    if (foreign !== undefined) return `reads back as ${foreign}`;
    return resembles(attempt.members, scalarMembers(attempt.read.body)) ? undefined : 'it reads back unlike the copy: most of the members adr-check sent have other values there, or none is there';
  }

  /** What an existing feature the Location names: the sample, a listed feature (by URL or by identifier), or the Location of another POST. */
  private namedExisting(attempt: Created): string | undefined {
    const key = resourceKey(attempt.location ?? '');
    if (key === undefined) return undefined;
    // `f1.json` may be f1 in another format.
    const bare = key.replace(/\.[a-z0-9]{1,10}$/, '');
    const last = (candidate: string) => candidate.slice(candidate.lastIndexOf('/') + 1);
    const number = leadingNumber(last(key));
    const owner = this.existing.urls.get(key) ?? this.existing.urls.get(bare) ?? this.existing.identifiers.get(last(key)) ?? this.existing.identifiers.get(last(bare))
      // A router that reads the number at the start of the segment finds feature 1 for `01` or `1abc`.
      ?? (number === undefined ? undefined : this.existing.identifiers.get(number) ?? this.existing.urls.get(`${key.slice(0, key.lastIndexOf('/') + 1)}${number}`))
      // What is left of a name without its punctuation (`f1.`, `f1~`, `f-1`): a router that trims or folds may still find f1.
      ?? this.existing.skeletons.get(skeletonOf(last(bare))) ?? this.existing.skeletons.get(skeletonOf(last(key)));
    if (owner !== undefined) return owner === this.sample.identity ? `${owner} itself` : `${owner}, listed before the POST`;
    const others = this.attempts.filter((other) => other !== attempt && other.location !== undefined && resourceKey(other.location) === key);
    return others.length > 0 ? 'another copy too' : undefined;
  }

  /** An identifier of a feature known before the POST in what the Location reads back, which the copy did not carry. */
  private foreignIdentifier(attempt: Created): string | undefined {
    const sent = new Set(attempt.sent.map(canonicalSegment));
    const found = identifiersOf(attempt.read?.body).map(canonicalSegment).find((value) => !sent.has(value) && this.existing.identifiers.has(value));
    return found === undefined ? undefined : `${this.existing.identifiers.get(found) ?? found} (identifier ${found})`;
  }

  /**
   * Where the copy lies is proven adr-check's own: under the collection the copy was POSTed to,
   * with DELETE declared on its path.
   */
  private whyNotDeleted(location: string): string | undefined {
    const path = relativePath(this.context, location);
    if (path === undefined || !path.startsWith(`${this.write.path}/`)) return `not deleted: not under ${this.write.path}`;
    return isObject(pathItemFor(this.context.description, path, this.context.pathKeyPrefix).delete) ? undefined : 'not deleted: the description declares no DELETE there';
  }
}

/** A feature nested deeper than this is not copied (a GeoJSON feature needs a handful of levels). */
const MAX_COPY_DEPTH = 100;

/** Statuses of an API that will not take an identifier from the client. */
const REFUSED_IDENTIFIER = [400, 409, 422];
/** What adr-check lists of a collection to know what exists before it POSTs: pages of this many (OGC `limit`), this many pages at most. */
const SURVEY_LIMIT = 100;
const SURVEY_PAGES = 5;
/** Identifier members replaced per copy, and values made up for each before giving up on proving one unused. */
const MAX_IDENTIFIERS = 4;
const MAX_IDENTIFIER_TRIES = 3;

/** Every identifier value an item carries: `id`, and its identifier members at the top and in a Feature's properties. */
function identifiersOf(item: unknown): string[] {
  const object = asObject(item);
  const values: string[] = [];
  const collect = (value: unknown): unknown => {
    if (typeof value === 'string' || typeof value === 'number') values.push(String(value));
    return value;
  };
  withIdentifiers(object, 'fresh', collect);
  collect(object.id);
  return values;
}

/** A Feature's scalar properties, or a plain resource's scalar members: what a copy says besides its geometry. */
function scalarMembers(item: unknown): Map<string, unknown> {
  const object = asObject(item);
  const level = isObject(object.properties) ? object.properties : object;
  return new Map(Object.entries(level).filter(([name, value]) => name !== 'id' && ['string', 'number', 'boolean'].includes(typeof value)));
}

/**
 * Whether what was read back is the copy sent: of the members both have, at least one and at
 * least half have the value sent (a server may add, drop or recompute a few). A copy that sent
 * no such member is not compared.
 */
function resembles(sent: Map<string, unknown>, read: Map<string, unknown>): boolean {
  if (sent.size === 0) return true;
  const shared = [...sent.keys()].filter((name) => read.has(name));
  const same = shared.filter((name) => sameValue(sent.get(name), read.get(name))).length;
  return same > 0 && same * 2 >= shared.length;
}

function sameValue(sent: unknown, read: unknown): boolean {
  if (typeof sent === 'number' && typeof read === 'number') return Math.abs(sent - read) <= 1e-9 * Math.max(1, Math.abs(sent));
  return sent === read;
}

/** The target of a `Link: <...>; rel="next"` header. */
function linkHeaderNext(header: string | undefined): string | undefined {
  return /<([^>]*)>[^,]*;\s*rel="?next"?/i.exec(header ?? '')?.[1];
}

/** `{itemsUrl}/{id}`, without the items link's query. */
function itemUrl(itemsUrl: string, id: string): string {
  const url = new URL(itemsUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${encodeURIComponent(id)}`;
  url.search = '';
  return url.href;
}

/**
 * What a URL names as a server may read it, for comparing: origin and path with every segment
 * percent-decoded (as often as it decodes, bounded), in lower case and without matrix parameters,
 * empty segments and dot segments resolved, no trailing slash, no query, no fragment. Two URLs with one key may name one
 * resource: comparing keys errs towards "the same", so towards leaving a resource alone.
 */
function resourceKey(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const segments: string[] = [];
  for (const raw of parsed.pathname.split(/[/\\]/)) {
    // Matrix parameters (`f1;v=2`), which many servers strip, are left out like the query.
    const segment = canonicalSegment(raw);
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `${parsed.origin}/${segments.join('/')}`;
}

/**
 * A path segment or identifier as the most lenient server would compare it: decoded (up to three
 * times), its matrix parameters dropped, in compatibility form (fullwidth letters), without blanks,
 * controls or invisible characters (a database that ignores trailing blanks finds `f1` for `f1%20`),
 * lower-cased.
 */
function canonicalSegment(raw: string): string {
  let segment = raw;
  for (let round = 0; round < 3; round += 1) segment = safeDecode(segment);
  return (segment.split(';')[0] ?? '').normalize('NFKC').replace(/[\p{White_Space}\p{Cc}\p{Cf}]/gu, '').toLowerCase();
}

/** A name's letters and digits alone, canonical: `f1.`, `F1~` and `f-1` all come to `f1`. */
function skeletonOf(name: string): string {
  const skeleton = canonicalSegment(name).replace(/[^\p{L}\p{N}]/gu, '');
  return skeleton === '' ? `(${canonicalSegment(name)})` : skeleton;
}

/** The number a `parseInt` router reads from a segment (`01`, `1abc` are 1), when it starts with digits. */
function leadingNumber(segment: string): string | undefined {
  const digits = /^\d+/.exec(segment)?.[0];
  return digits === undefined ? undefined : String(Number.parseInt(digits, 10));
}

/** An identifier no resource has yet, in the shape of the sample's: its last digits replaced (a BAG number stays 16 digits), else a suffix. */
function freshIdentifier(value: unknown): unknown {
  if (typeof value === 'number') return value + 900_000 + randomInt(100_000);
  if (typeof value !== 'string') return value;
  const digits = /\d{6}$/.exec(value);
  return digits === null ? `${value}-adr-check-${randomInt(10_000)}` : `${value.slice(0, -6)}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

/**
 * Where the stored copy lies against the sample, and which CRS the API read the coordinates in
 * instead (one of those it lists); undefined when within the tolerance.
 */
function misplacement(stored: Position[], expected: Position[], sentIn: string, listed: string[], withHeader: boolean): string | undefined {
  if (stored.length === 0) return 'reads back without geometry';
  if (stored.length !== expected.length) return `reads back with ${stored.length} positions, expected ${expected.length}`;
  const worst = worstDistance(stored, expected);
  if (worst <= TOLERANCE_METRES) return undefined;
  const sent = expected.map((position) => fromCrs84(sentIn, position) as Position);
  // Which listed CRS, had the API read the coordinates sent in it, puts them where they were stored.
  const readAs = [CRS84, ...listed].find((uri) => !sameCrs(uri, sentIn) && isTransformable(uri) && worstDistance(sent.map((position) => toCrs84(uri, position) as Position), stored) <= TOLERANCE_METRES);
  const cause = readAs === undefined ? '' : `: its coordinates were read as ${shortCrs(readAs)}, ${withHeader ? 'not as Content-Crs says' : 'not as CRS84, the default without Content-Crs'}`;
  return `reads back ${formatDistance(worst)} from where it was placed (tolerance ${TOLERANCE_METRES} m)${cause}; first position ${JSON.stringify(stored[0])}`;
}
