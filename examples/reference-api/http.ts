import type { InvalidParam } from './validation.js';

/** What a handler answers; the server adds the headers every response carries. */
export interface Reply {
  status: number;
  /** JSON body, serialised by the server. */
  json?: unknown;
  /** Body already serialised (the OpenAPI documents), or plain text. */
  text?: string;
  mediaType?: string;
  headers?: Record<string, string>;
}

export const PROBLEM_JSON = 'application/problem+json';
const PROBLEM_BASE = 'https://developer.example-gemeente.nl/problemen';

export interface ProblemKind {
  status: number;
  slug: string;
  title: string;
}

export const PROBLEMS = {
  ongeldigVerzoek: { status: 400, slug: 'ongeldig-verzoek', title: 'Het verzoek is ongeldig.' },
  nietGeauthenticeerd: { status: 401, slug: 'niet-geauthenticeerd', title: 'Authenticatie is vereist.' },
  onvoldoendeRechten: { status: 403, slug: 'onvoldoende-rechten', title: 'Het access token geeft geen toegang tot deze bewerking.' },
  nietGevonden: { status: 404, slug: 'niet-gevonden', title: 'De resource bestaat niet.' },
  methodeNietToegestaan: { status: 405, slug: 'methode-niet-toegestaan', title: 'De methode is niet toegestaan op deze resource.' },
  nietAanvaardbaar: { status: 406, slug: 'niet-aanvaardbaar', title: 'Geen van de gevraagde media types is leverbaar.' },
  teTraag: { status: 408, slug: 'te-traag', title: 'Het verzoek kwam niet op tijd binnen.' },
  conflict: { status: 409, slug: 'conflict', title: 'Het verzoek is in strijd met de toestand van de resource.' },
  teGroot: { status: 413, slug: 'te-groot', title: 'De request body is te groot.' },
  mediaTypeNietOndersteund: { status: 415, slug: 'media-type-niet-ondersteund', title: 'Het media type van de request body wordt niet ondersteund.' },
  verwachtingNietMogelijk: { status: 417, slug: 'verwachting-niet-mogelijk', title: 'Aan de Expect-header kan niet worden voldaan.' },
  headersTeGroot: { status: 431, slug: 'headers-te-groot', title: 'De request headers zijn te groot.' },
  serverfout: { status: 500, slug: 'serverfout', title: 'Er ging iets mis bij de verwerking van het verzoek.' },
  registerVol: { status: 507, slug: 'register-vol', title: 'Het register is vol.' },
} satisfies Record<string, ProblemKind>;

/**
 * A problem details reply (RFC 9457). The detail is written for the client and never carries
 * internal state: no stack, no exception text, no file names. Without an instance when there is
 * no request path to name (a request the HTTP parser refused).
 */
export function problem(kind: ProblemKind, detail: string, instance: string | undefined, invalidParams?: InvalidParam[]): Reply {
  return {
    status: kind.status,
    mediaType: PROBLEM_JSON,
    json: {
      type: `${PROBLEM_BASE}/${kind.slug}`,
      title: kind.title,
      status: kind.status,
      detail,
      ...(instance === undefined ? {} : { instance }),
      ...(invalidParams === undefined || invalidParams.length === 0 ? {} : { invalidParams }),
    },
  };
}

/** `type/subtype` in lower case, parameters dropped; undefined when the value is no media type. */
export function essence(mediaType: string | undefined): string | undefined {
  const value = mediaType?.split(';')[0]?.trim().toLowerCase();
  return value !== undefined && /^[a-z0-9!#$&^_.+*-]+\/[a-z0-9!#$&^_.+*-]+$/.test(value) ? value : undefined;
}

interface MediaRange {
  range: string;
  q: number;
}

function parseRange(part: string): MediaRange | undefined {
  const [range, ...parameters] = part.split(';');
  const type = essence(range);
  if (type === undefined) return undefined;
  const qParameter = parameters.map((parameter) => parameter.trim().toLowerCase()).find((parameter) => parameter.startsWith('q='));
  const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
  return { range: type, q: Number.isFinite(q) ? q : 0 };
}

function matches(range: string, mediaType: string): boolean {
  if (range === '*/*' || range === mediaType) return true;
  return range.endsWith('/*') && mediaType.startsWith(range.slice(0, -1));
}

/**
 * Whether an Accept header lets the server send `mediaType`. No Accept header means anything
 * goes (RFC 9110 12.5.1); a header with no usable range matches nothing.
 */
export function accepts(accept: string | undefined, mediaType: string): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  const ranges = accept.split(',').map(parseRange).filter((range): range is MediaRange => range !== undefined);
  // The most specific matching range decides, so `application/json;q=0, */*` refuses JSON.
  const specificity = (range: string): number => (range === '*/*' ? 0 : range.endsWith('/*') ? 1 : 2);
  const best = ranges.filter((range) => matches(range.range, mediaType)).sort((a, b) => specificity(b.range) - specificity(a.range))[0];
  return best !== undefined && best.q > 0;
}
