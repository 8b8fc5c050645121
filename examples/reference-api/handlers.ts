import {
  besluitHref, besluitenVan, besluitResource, deleteMonument, hasRoomFor, mergePatch, monumentGegevens, monumentHref, monumentResource,
  pageLinks, pageOf, registerBesluit, registerMonument, replaceMonument, search, storeFullDetail, where,
  type BesluitGegevens, type MonumentGegevens, type MonumentRecord, type Store, type StoreLimits,
} from './data.js';
import { GEO_HANDLERS, landingPageLinks, type GeoFaults } from './features.js';
import { PROBLEMS, problem, type Reply } from './http.js';
import type { SchemaValidator } from './validation.js';

/**
 * One handler per operationId of the description. By the time a handler runs, the server has
 * matched the route, checked method and Accept, and validated the query parameters and the
 * request body against their schemas; a handler only does the work.
 */

export interface HandlerContext {
  store: Store;
  /** Absolute base URL, `https://127.0.0.1:8443/v1`, for links. */
  base: string;
  params: Record<string, string>;
  /** Declared query parameters, validated, with their schema defaults filled in. */
  query: Record<string, unknown>;
  /** Declared header parameters the request carries, validated, by their declared names (`Content-Crs`). */
  headers: Record<string, string>;
  /** The request body, already valid against the operation's schema. */
  body: unknown;
  /** The request path, for the `instance` of a problem. */
  instance: string;
  validate: SchemaValidator;
  documents: { json: string; yaml: string };
  /** The geospatial faults the server was started with (all off for a conformant server). */
  geo: GeoFaults;
  /** Names of query parameters in the request that the operation does not declare. */
  undeclaredQuery: string[];
}

export type Handler = (context: HandlerContext) => Reply;

const JSON_TYPE = 'application/json';

function numberParameter(context: HandlerContext, name: string, fallback: number): number {
  const value = context.query[name];
  return typeof value === 'number' ? value : fallback;
}

function stringParameter(context: HandlerContext, name: string): string | undefined {
  const value = context.query[name];
  return typeof value === 'string' ? value : undefined;
}

function ok(json: unknown, status = 200, headers?: Record<string, string>): Reply {
  return { status, json, mediaType: JSON_TYPE, ...(headers === undefined ? {} : { headers }) };
}

function monumentNotFound(context: HandlerContext): Reply {
  return problem(PROBLEMS.nietGevonden, 'Er is geen monument met deze identificatie.', context.instance);
}

function withMonument(context: HandlerContext, action: (monument: MonumentRecord) => Reply): Reply {
  const monument = context.store.monumenten.get(context.params.monumentId ?? '');
  return monument === undefined ? monumentNotFound(context) : action(monument);
}

/** 507 rather than 429: the store is full, which no waiting changes (README, "Choices where the standard leaves room"). */
function storeFull(context: HandlerContext, kind: keyof StoreLimits): Reply {
  return problem(PROBLEMS.registerVol, storeFullDetail(context.store, kind), context.instance);
}

function pageQuery(pagina: number, paginaGrootte: number, filters: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== undefined) query.set(name, value);
  query.set('pagina', String(pagina));
  query.set('paginaGrootte', String(paginaGrootte));
  return query.toString();
}

const raadpleegBeginpunt: Handler = (context) => ok({
  naam: 'Monumentenregister',
  omschrijving: 'Het register van de gemeentelijke monumenten van de gemeente Voorbeeldstad.',
  _links: {
    self: { href: context.base },
    monumenten: { href: `${context.base}/monumenten` },
    zoeken: { href: `${context.base}/_search` },
    openapi: { href: `${context.base}/openapi.json` },
  },
  links: landingPageLinks(context.base),
});

const raadpleegOpenapiJson: Handler = (context) => ({ status: 200, text: context.documents.json, mediaType: JSON_TYPE });

const raadpleegOpenapiYaml: Handler = (context) => ({ status: 200, text: context.documents.yaml, mediaType: 'application/yaml' });

const raadpleegMonumenten: Handler = (context) => {
  const monumentType = stringParameter(context, 'monumentType');
  const wijk = stringParameter(context, 'wijk');
  const selected = where(context.store.monumenten.values(), (record) =>
    (monumentType === undefined || record.monumentType === monumentType) && (wijk === undefined || record.wijk?.toLowerCase() === wijk.toLowerCase()));
  // The store is in id order, so the page is taken as it comes, without sorting.
  const page = pageOf(selected, numberParameter(context, 'pagina', 1), numberParameter(context, 'paginaGrootte', 20));
  return ok({
    _links: pageLinks(page, (pagina) => `${context.base}/monumenten?${pageQuery(pagina, page.paginaGrootte, { monumentType, wijk })}`),
    _embedded: { monumenten: page.items.map((record) => monumentResource(context.store, record, context.base)) },
  });
};

const registreerMonument: Handler = (context) => {
  if (!hasRoomFor(context.store, 'monumenten')) return storeFull(context, 'monumenten');
  const record = registerMonument(context.store, context.body as MonumentGegevens);
  return ok(monumentResource(context.store, record, context.base), 201, { Location: monumentHref(context.base, record.monumentId) });
};

const raadpleegMonument: Handler = (context) => withMonument(context, (monument) => ok(monumentResource(context.store, monument, context.base)));

const vervangMonument: Handler = (context) => withMonument(context, ({ monumentId }) => {
  const record = replaceMonument(context.store, monumentId, context.body as MonumentGegevens);
  return ok(monumentResource(context.store, record, context.base));
});

const wijzigMonument: Handler = (context) => withMonument(context, (monument) => {
  const merged = mergePatch(monumentGegevens(monument), context.body);
  // The patch alone was valid; the monument it produces must be a complete one too.
  const invalid = context.validate('/components/schemas/MonumentInvoer', merged);
  if (invalid.length > 0) return problem(PROBLEMS.ongeldigVerzoek, 'Na deze wijziging is het monument niet meer volledig.', context.instance, invalid);
  const record = replaceMonument(context.store, monument.monumentId, merged as MonumentGegevens);
  return ok(monumentResource(context.store, record, context.base));
});

const verwijderMonument: Handler = (context) => withMonument(context, ({ monumentId }) => {
  deleteMonument(context.store, monumentId);
  return { status: 204 };
});

const raadpleegBeschermingsbesluiten: Handler = (context) => withMonument(context, ({ monumentId }) => {
  const page = pageOf(besluitenVan(context.store, monumentId), numberParameter(context, 'pagina', 1), numberParameter(context, 'paginaGrootte', 20));
  const collection = `${monumentHref(context.base, monumentId)}/beschermingsbesluiten`;
  return ok({
    _links: pageLinks(page, (pagina) => `${collection}?${pageQuery(pagina, page.paginaGrootte)}`),
    _embedded: { beschermingsbesluiten: page.items.map((record) => besluitResource(record, context.base)) },
  });
});

const registreerBeschermingsbesluit: Handler = (context) => withMonument(context, ({ monumentId }) => {
  if (!hasRoomFor(context.store, 'besluiten')) return storeFull(context, 'besluiten');
  const record = registerBesluit(context.store, monumentId, context.body as BesluitGegevens);
  return ok(besluitResource(record, context.base), 201, { Location: besluitHref(context.base, record) });
});

const raadpleegBeschermingsbesluit: Handler = (context) => withMonument(context, ({ monumentId }) => {
  const record = context.store.besluiten.get(context.params.besluitId ?? '');
  if (record === undefined || record.monumentId !== monumentId) {
    return problem(PROBLEMS.nietGevonden, 'Dit monument heeft geen beschermingsbesluit met deze identificatie.', context.instance);
  }
  return ok(besluitResource(record, context.base));
});

const zoek: Handler = (context) => {
  const { zoekterm, typen } = context.body as { zoekterm: string; typen?: string[] };
  const page = pageOf(search(context.store, zoekterm, typen, context.base), numberParameter(context, 'pagina', 1), numberParameter(context, 'paginaGrootte', 20));
  return ok({
    currentPage: page.pagina,
    ...(page.pagina < page.laatste ? { nextPage: page.pagina + 1 } : {}),
    pageSize: page.paginaGrootte,
    _embedded: { items: page.items.map((hit) => ({ type: hit.type, naam: hit.naam, _links: { self: { href: hit.href } } })) },
  });
};

export const HANDLERS: Record<string, Handler> = {
  raadpleegBeginpunt,
  raadpleegOpenapiJson,
  raadpleegOpenapiYaml,
  raadpleegMonumenten,
  registreerMonument,
  raadpleegMonument,
  vervangMonument,
  wijzigMonument,
  verwijderMonument,
  raadpleegBeschermingsbesluiten,
  registreerBeschermingsbesluit,
  raadpleegBeschermingsbesluit,
  zoek,
  ...GEO_HANDLERS,
};
