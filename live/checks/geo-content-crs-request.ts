import { randomInt } from 'node:crypto';
import { asObject, isObject, type JsonObject } from '../../lib/json.js';
import { effectiveParameters, isJsonMediaType, mediaTypeName } from '../../lib/openapi.js';
import { demandsCredentials, followLocalReference, pathItemFor, pathKeyFor, type CheckContext, type LiveCheck } from '../context.js';
import type { Exchange } from '../http.js';
import { count, describeAnswer, evidenceOf, isSuccess, type CheckResult, type Evidence } from '../report.js';
import { CRS84, fromCrs84, isLatitudeFirst, isTransformable, sameCrs, toCrs84, worstDistance, type Position } from '../geo/crs.js';
import { geoTarget, getGeometry, sameOriginHref, sampleOf, type GeoCollection, type GeoSample, type GeoTarget } from '../geo/discover.js';
import { copyWithGeometry, geometryOf, hasIdentifier, linkHref, mapPositions, positionsOf, withIdentifiers, type IdentifierMode } from '../geo/geojson.js';
import { notGeospatial } from './geo-crs-list.js';
import { formatDistance, shortCrs, TOLERANCE_METRES, UNSUPPORTED_CRS } from './geo-crs-negotiation.js';
import { safeDecode } from '../../lib/uri.js';

/**
 * /geo/content-crs-request-header, live and only with --unsafe: a copy of a sample feature is
 * created with its geometry in another CRS and `Content-Crs` naming it, and once in CRS84 without
 * the header; each, read back in CRS84, must lie where the sample lies. An unsupported
 * Content-Crs must give 400. What adr-check created it deletes again where the description
 * declares DELETE.
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
    const pathKey = pathKeyFor(context.description, path);
    const pathItem = pathItemFor(context.description, path);
    const operation = asObject(pathItem.post);
    const mediaType = requestMediaType(context, operation, target.style);
    if (pathKey === undefined || mediaType === undefined || !allowsPath(context, pathKey, pathItem, operation, path)) continue;
    found.push({ collection, path, operation, mediaType });
  }
  return found;
}

function relativePath(context: CheckContext, url: string): string | undefined {
  const base = new URL(context.baseUrl);
  const parsed = new URL(url);
  return parsed.origin === base.origin && parsed.pathname.startsWith(base.pathname) ? parsed.pathname.slice(base.pathname.replace(/\/$/, '').length) : undefined;
}

/** The JSON media type the POST's request body declares: geo+json first for an OGC API. */
function requestMediaType(context: CheckContext, operation: JsonObject, style: GeoTarget['style']): string | undefined {
  const body = followLocalReference(context.description, asObject(operation.requestBody));
  const types = Object.keys(asObject(body.content)).filter(isJsonMediaType).map(mediaTypeName);
  return types.find((type) => style === 'ogc' && type === 'application/geo+json') ?? types[0];
}

/** A path variable whose schema has an enum (the collections that take features) must allow the collection's segment. */
function allowsPath(context: CheckContext, pathKey: string, pathItem: JsonObject, operation: JsonObject, path: string): boolean {
  const templateSegments = pathKey.split('/');
  const segments = path.split('/');
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
  private readonly created: string[] = [];
  /** How copies carry the sample's identifier: as it is, until the API answers 409 to that. */
  private identifiers: IdentifierMode = 'kept';

  /** Where the sample itself lives (its URL, its self link): no Location of a copy may name it. */
  private readonly sampleUrls: string[];

  constructor(private readonly context: CheckContext, private readonly target: GeoTarget, private readonly write: WriteTarget, private readonly sample: GeoSample) {
    const self = sameOriginHref(context, linkHref(sample.item, 'self'), sample.url);
    this.sampleUrls = [sample.url, ...(self === undefined ? [] : [self])];
  }

  async judge(code: string): Promise<CheckResult> {
    const size = Buffer.byteLength(JSON.stringify(this.sample.item));
    if (size > MAX_COPY_BYTES) return this.finish(code, { verdict: 'skip', summary: `nothing to copy: ${this.sample.identity} is ${size.toLocaleString('en')} bytes of JSON; adr-check POSTs copies of at most ${MAX_COPY_BYTES.toLocaleString('en')}` });
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
    const post = (sent: Record<string, string>) => this.context.send({ method: 'POST', url: `${this.context.baseUrl}${this.write.path}`, headers: sent, body: JSON.stringify(withIdentifiers(copy, this.identifiers, freshIdentifier)) });
    let exchange = await post(headers);
    // A server that takes the client's identifier refuses the sample's own (409): the copy is sent without it, or with a new one.
    if (exchange.status === 409 && this.identifiers === 'kept' && hasIdentifier(copy)) {
      for (const mode of ['left-out', 'fresh'] as const) {
        this.identifiers = mode;
        const retried = await post(headers);
        if (isSuccess(retried.status)) {
          this.notes.push(`a copy with ${this.sample.identity}'s own identifier gives 409: the copies were sent with ${mode === 'left-out' ? 'the identifier left out' : 'a new identifier'}`);
          exchange = retried;
          break;
        }
        if (mode === 'fresh') this.identifiers = 'kept';
      }
    }
    // OGC API Features part 2 writes the URI in angle brackets; a server that takes it only bare is told so, not failed.
    if (header !== undefined && retryBare && exchange.status === 400) {
      const bare = await post({ ...headers, 'content-crs': crs });
      if (isSuccess(bare.status)) {
        this.notes.push(`Content-Crs: ${header} gives 400, the bare URI is accepted: OGC API Features part 2 writes it in angle brackets`);
        exchange = bare;
      }
    }
    const location = isSuccess(exchange.status) ? sameOriginHref(this.context, exchange.headers.location, exchange.url) : undefined;
    if (location !== undefined) this.created.push(location);
    return { exchange, ...(location === undefined ? {} : { location }) };
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
    if (!this.isNew(attempt.location)) {
      this.problems.push(`a copy of ${this.sample.identity} ${how}: ${exchange.status} with Location ${attempt.location}, which names ${this.sampleUrls.includes(attempt.location) ? `${this.sample.identity} itself` : 'another copy too'}, expected the new resource's URI`);
      this.evidence.push(evidenceOf(exchange, ['Location']));
      return;
    }
    const { exchange: read, body } = await getGeometry(this.context, this.target.style, attempt.location, this.target.style === 'ogc' ? 'feature' : 'plain');
    if (read.status === undefined) {
      this.unjudged.push(`GET ${new URL(attempt.location).pathname} of the copy ${how} got no answer (${read.error ?? 'unknown'})`);
      return;
    }
    if (read.status !== 200) {
      this.problems.push(`a copy of ${this.sample.identity} ${how}: created, but GET ${new URL(attempt.location).pathname} answered ${describeAnswer(read)}, expected 200`);
      this.evidence.push(evidenceOf(read, ['Content-Type']));
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

  /** Delete what was created, where the description declares DELETE; say what remains. */
  private async cleanUp(): Promise<void> {
    const remaining: string[] = [];
    // A Location that is not new names no copy of adr-check's: its readBack said so, nothing is deleted.
    for (const location of this.created.filter((candidate) => this.isNew(candidate))) {
      const kept = this.whyNotDeleted(location);
      if (kept !== undefined) { remaining.push(`${location} (${kept})`); continue; }
      const deleted = await this.context.send({ method: 'DELETE', url: location });
      if (!isSuccess(deleted.status)) remaining.push(`${location} (DELETE answered ${describeAnswer(deleted)})`);
    }
    if (remaining.length > 0) this.notes.push(`${count(remaining.length, 'feature')} adr-check created ${remaining.length === 1 ? 'remains' : 'remain'}: ${remaining.join(', ')}`);
  }

  /**
   * A Location is deleted only where it can be nothing but the copy: a resource under the
   * collection the copy was POSTed to, that the description lets be deleted, not the sample, and
   * named by one POST only. A server that points Location at data of its own loses nothing.
   */
  private whyNotDeleted(location: string): string | undefined {
    const path = relativePath(this.context, location);
    if (path === undefined || !path.startsWith(`${this.write.path}/`)) return `not deleted: not under ${this.write.path}`;
    return isObject(pathItemFor(this.context.description, path).delete) ? undefined : 'not deleted: the description declares no DELETE there';
  }

  /** Not the sample's own URL (or self link), and named by one POST only. */
  private isNew(location: string): boolean {
    return !this.sampleUrls.includes(location) && this.created.filter((other) => other === location).length === 1;
  }

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
