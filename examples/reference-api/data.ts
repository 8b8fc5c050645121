import { perceelRecord, type PerceelGegevens, type PerceelRecord } from './geodata.js';
import type { Position } from './crs.js';

/**
 * The register itself: an in-memory store of monuments and their protection decisions
 * (beschermingsbesluiten), seeded anew for every server, and of the parcels clients record (the
 * seeded parcels are geodata.ts's), and the functions that turn records into
 * the representations the description defines. The ids in the description's examples (GM-0123,
 * BB-0042) exist here, so a checker that fills path templates from examples finds real resources.
 */

export type MonumentType = 'bouwwerk' | 'object' | 'groenobject' | 'archeologisch';
export type SoortBesluit = 'voorbescherming' | 'aanwijzing' | 'wijziging' | 'intrekking';
export type MonumentStatus = 'voorbescherming' | 'beschermd' | 'ingetrokken';

export interface Adres {
  straatnaam: string;
  huisnummer?: number;
  huisletter?: string;
  huisnummertoevoeging?: string;
  postcode?: string;
  woonplaats: string;
}

/** What a client supplies for a monument (MonumentInvoer). */
export interface MonumentGegevens {
  naam: string;
  monumentType: MonumentType;
  omschrijving?: string;
  bouwjaar?: number;
  adres: Adres;
  wijk?: string;
}

export interface MonumentRecord extends MonumentGegevens {
  monumentId: string;
}

/** What a client supplies for a decision (BeschermingsbesluitInvoer). */
export interface BesluitGegevens {
  besluitnummer: string;
  soortBesluit: SoortBesluit;
  datumBesluit: string;
  omschrijving?: string;
}

export interface BesluitRecord extends BesluitGegevens {
  besluitId: string;
  monumentId: string;
}

/**
 * The bound of the store: a create beyond it is refused, so no client can make the store, and with
 * it every list and every search, grow without end.
 */
export const MAX_MONUMENTEN = 1000;
export const MAX_BESLUITEN = 5000;
/** Parcels recorded by clients; the seeded ones do not count. */
export const MAX_PERCELEN = 1000;

export interface StoreLimits {
  monumenten: number;
  besluiten: number;
  percelen: number;
}

export interface Store {
  /** In id order: ids are handed out ascending and a replace keeps a Map entry in its place. */
  monumenten: Map<string, MonumentRecord>;
  /** In id order, for the same reason; decisions are never replaced. */
  besluiten: Map<string, BesluitRecord>;
  /** Per monument its decisions, newest first, so neither a page nor a status scans all decisions. */
  besluitenPerMonument: Map<string, BesluitRecord[]>;
  /** The parcels clients recorded, in id order (VP-0001 and on); the seeded ones are PERCELEN in geodata.ts. */
  percelen: Map<string, PerceelRecord>;
  limits: StoreLimits;
  volgendMonument: number;
  volgendBesluit: number;
  volgendPerceel: number;
}

type SeedMonument = [id: string, naam: string, type: MonumentType, omschrijving: string, bouwjaar: number | undefined, straat: string, huisnummer: number | undefined, postcode: string, wijk: string];

const SEED_MONUMENTEN: SeedMonument[] = [
  ['GM-0101', 'Stadhuis', 'bouwwerk', 'Classicistisch stadhuis met belfort.', 1782, 'Marktplein', 2, '1234 AB', 'Binnenstad'],
  ['GM-0102', 'Grote Kerk', 'bouwwerk', 'Gotische kruiskerk met houten tongewelf.', 1468, 'Kerkplein', 1, '1234 AC', 'Binnenstad'],
  ['GM-0103', 'Molen De Hoop', 'bouwwerk', 'Stellingmolen, nog maalvaardig.', 1859, 'Molenweg', 14, '1235 CD', 'Oosterpark'],
  ['GM-0104', 'Watertoren', 'bouwwerk', 'Watertoren in baksteen met art-decodetails.', 1927, 'Torenlaan', 3, '1235 CE', 'Oosterpark'],
  ['GM-0105', 'Lindeboom op de Brink', 'groenobject', 'Leilinde, geplant bij de kroning van 1898.', 1898, 'Brink', undefined, '1236 EF', 'Dorp'],
  ['GM-0106', 'Stadsmuur Noord', 'archeologisch', 'Fundamenten van de middeleeuwse stadsmuur.', undefined, 'Noorderwal', undefined, '1234 AD', 'Binnenstad'],
  ['GM-0107', 'Pakhuis De Zeeuw', 'bouwwerk', 'Graanpakhuis met hijsbalk en luiken.', 1742, 'Havenkade', 21, '1237 GH', 'Havenkwartier'],
  ['GM-0108', 'Ophaalbrug Havenkade', 'object', 'Houten ophaalbrug over de binnenhaven.', 1911, 'Havenkade', undefined, '1237 GJ', 'Havenkwartier'],
  ['GM-0109', 'Gasthuis', 'bouwwerk', 'Voormalig gasthuis rond een binnenhof.', 1613, 'Gasthuisstraat', 5, '1234 AE', 'Binnenstad'],
  ['GM-0110', 'Villa Rozenhof', 'bouwwerk', 'Jugendstilvilla met koetshuis.', 1904, 'Parkweg', 8, '1238 KL', 'Oosterpark'],
  ['GM-0111', 'Stadspark', 'groenobject', 'Landschapspark in Engelse stijl met vijver.', 1872, 'Parkweg', undefined, '1238 KM', 'Oosterpark'],
  ['GM-0112', 'Synagoge', 'bouwwerk', 'Synagoge met Moorse details.', 1866, 'Nieuwstraat', 12, '1234 AF', 'Binnenstad'],
  ['GM-0113', 'Stationsgebouw', 'bouwwerk', 'Station van het derde klasse type.', 1885, 'Stationsplein', 1, '1239 MN', 'Spoorzijde'],
  ['GM-0114', 'Pomp op de Vismarkt', 'object', 'Gietijzeren straatpomp.', 1850, 'Vismarkt', undefined, '1234 AG', 'Binnenstad'],
  ['GM-0115', 'Boerderij De Kamp', 'bouwwerk', 'Hallehuisboerderij met rieten kap.', 1790, 'Kampweg', 30, '1236 EG', 'Dorp'],
  ['GM-0116', 'Terp Oudehuizen', 'archeologisch', 'Woonheuvel uit de vroege middeleeuwen.', undefined, 'Oudehuizen', undefined, '1236 EH', 'Dorp'],
  ['GM-0117', 'Schoolgebouw Openbare Lagere School', 'bouwwerk', 'Schoolgebouw van de Amsterdamse School.', 1923, 'Schoolstraat', 4, '1239 MP', 'Spoorzijde'],
  ['GM-0118', 'Sluiswachterswoning', 'bouwwerk', 'Woning bij de schutsluis.', 1826, 'Sluisweg', 2, '1237 GK', 'Havenkwartier'],
  ['GM-0119', 'Oorlogsmonument', 'object', 'Beeld ter herdenking van de gevallenen 1940-1945.', 1950, 'Vredesplein', undefined, '1234 AH', 'Binnenstad'],
  ['GM-0120', 'Lanen van Huize Berkenrode', 'groenobject', 'Beukenlanen van een buitenplaats.', 1760, 'Berkenrodelaan', undefined, '1238 KN', 'Oosterpark'],
  ['GM-0121', 'Kruittoren', 'bouwwerk', 'Ronde verdedigingstoren, later kruitmagazijn.', 1520, 'Noorderwal', 9, '1234 AJ', 'Binnenstad'],
  ['GM-0122', 'Scheepswerfhelling', 'object', 'Helling van de voormalige scheepswerf.', 1898, 'Werfstraat', undefined, '1237 GL', 'Havenkwartier'],
  ['GM-0123', 'Oude Waag', 'bouwwerk', 'Waaggebouw uit 1651 met trapgevel.', 1651, 'Marktplein', 1, '1234 AB', 'Binnenstad'],
  ['GM-0124', 'Begraafplaats Oud Kerkhof', 'groenobject', 'Begraafplaats met grafmonumenten en treurbeuken.', 1829, 'Kerkhoflaan', undefined, '1236 EJ', 'Dorp'],
  ['GM-0125', 'Romeinse weg', 'archeologisch', 'Tracé van een Romeinse heerweg.', undefined, 'Heerweg', undefined, '1239 MR', 'Spoorzijde'],
];

type SeedBesluit = [id: string, monumentId: string, nummer: string, soort: SoortBesluit, datum: string, omschrijving: string];

const SEED_BESLUITEN: SeedBesluit[] = [
  ['BB-0001', 'GM-0101', '1996-ERF-0001', 'aanwijzing', '1996-04-02', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0002', 'GM-0102', '1996-ERF-0002', 'aanwijzing', '1996-04-02', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0003', 'GM-0103', '1997-ERF-0003', 'aanwijzing', '1997-02-18', 'Aanwijzing vanwege de molenbiografie.'],
  ['BB-0004', 'GM-0104', '1999-ERF-0004', 'aanwijzing', '1999-09-07', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0005', 'GM-0105', '2001-ERF-0005', 'aanwijzing', '2001-05-15', 'Aanwijzing als groenmonument.'],
  ['BB-0006', 'GM-0106', '2003-ERF-0006', 'aanwijzing', '2003-10-21', 'Aanwijzing als archeologisch monument.'],
  ['BB-0007', 'GM-0107', '2004-ERF-0007', 'aanwijzing', '2004-03-09', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0008', 'GM-0108', '2004-ERF-0008', 'aanwijzing', '2004-03-09', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0009', 'GM-0109', '2005-ERF-0009', 'aanwijzing', '2005-06-28', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0010', 'GM-0110', '2006-ERF-0010', 'aanwijzing', '2006-01-17', 'Aanwijzing inclusief het koetshuis.'],
  ['BB-0011', 'GM-0110', '2015-ERF-0011', 'wijziging', '2015-11-03', 'Het koetshuis valt niet langer onder de bescherming.'],
  ['BB-0012', 'GM-0111', '2007-ERF-0012', 'aanwijzing', '2007-04-24', 'Aanwijzing als groenmonument.'],
  ['BB-0013', 'GM-0112', '2008-ERF-0013', 'aanwijzing', '2008-08-12', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0014', 'GM-0113', '2009-ERF-0014', 'aanwijzing', '2009-02-10', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0015', 'GM-0114', '2010-ERF-0015', 'aanwijzing', '2010-05-04', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0016', 'GM-0115', '2011-ERF-0016', 'aanwijzing', '2011-09-20', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0017', 'GM-0115', '2022-ERF-0017', 'intrekking', '2022-06-14', 'Intrekking na brand; de boerderij is niet herbouwd.'],
  ['BB-0018', 'GM-0116', '2012-ERF-0018', 'aanwijzing', '2012-03-27', 'Aanwijzing als archeologisch monument.'],
  ['BB-0019', 'GM-0117', '2013-ERF-0019', 'aanwijzing', '2013-10-08', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0020', 'GM-0118', '2014-ERF-0020', 'aanwijzing', '2014-07-01', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0021', 'GM-0119', '2016-ERF-0021', 'aanwijzing', '2016-05-03', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0022', 'GM-0120', '2017-ERF-0022', 'aanwijzing', '2017-12-12', 'Aanwijzing als groenmonument.'],
  ['BB-0023', 'GM-0121', '2018-ERF-0023', 'aanwijzing', '2018-04-17', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0024', 'GM-0122', '2019-ERF-0024', 'aanwijzing', '2019-09-24', 'Aanwijzing als gemeentelijk monument.'],
  ['BB-0041', 'GM-0123', '1997-ERF-0041', 'voorbescherming', '1997-11-03', 'Voorbescherming in afwachting van de aanwijzing.'],
  ['BB-0042', 'GM-0123', '1998-ERF-0042', 'aanwijzing', '1998-06-12', 'Aanwijzing als gemeentelijk monument vanwege de architectuurhistorische waarde.'],
  ['BB-0043', 'GM-0124', '2020-ERF-0043', 'aanwijzing', '2020-02-11', 'Aanwijzing als groenmonument.'],
  ['BB-0044', 'GM-0125', '2024-ERF-0044', 'voorbescherming', '2024-03-14', 'Voorbescherming tijdens het archeologisch onderzoek.'],
];

function seedMonument([monumentId, naam, monumentType, omschrijving, bouwjaar, straatnaam, huisnummer, postcode, wijk]: SeedMonument): MonumentRecord {
  const adres: Adres = { straatnaam, ...(huisnummer === undefined ? {} : { huisnummer }), postcode, woonplaats: 'Voorbeeldstad' };
  return { monumentId, naam, monumentType, omschrijving, ...(bouwjaar === undefined ? {} : { bouwjaar }), adres, wijk };
}

function seedBesluit([besluitId, monumentId, besluitnummer, soortBesluit, datumBesluit, omschrijving]: SeedBesluit): BesluitRecord {
  return { besluitId, monumentId, besluitnummer, soortBesluit, datumBesluit, omschrijving };
}

/** A limit may only be set lower than the bound (for tests), never higher. */
function limitOf(value: number | undefined, maximum: number, name: string): number {
  if (value === undefined) return maximum;
  if (!Number.isInteger(value) || value < 0 || value > maximum) throw new RangeError(`the limit for ${name} must be an integer from 0 to ${maximum}, not ${value}`);
  return value;
}

export function createStore(limits: Partial<StoreLimits> = {}): Store {
  const store: Store = {
    monumenten: new Map(SEED_MONUMENTEN.map(seedMonument).map((record) => [record.monumentId, record])),
    besluiten: new Map(),
    besluitenPerMonument: new Map(),
    percelen: new Map(),
    limits: {
      monumenten: limitOf(limits.monumenten, MAX_MONUMENTEN, 'monumenten'),
      besluiten: limitOf(limits.besluiten, MAX_BESLUITEN, 'besluiten'),
      percelen: limitOf(limits.percelen, MAX_PERCELEN, 'percelen'),
    },
    volgendMonument: 126,
    volgendBesluit: 45,
    volgendPerceel: 1,
  };
  for (const record of SEED_BESLUITEN.map(seedBesluit)) addBesluit(store, record);
  return store;
}

/** Whether one more record of this kind fits within the store's limit. */
export function hasRoomFor(store: Store, kind: keyof StoreLimits): boolean {
  return store[kind].size < store.limits[kind];
}

const NAMES: Record<keyof StoreLimits, string> = { monumenten: 'monumenten', besluiten: 'beschermingsbesluiten', percelen: 'vastgelegde percelen' };

/** The detail of the 507 for a create beyond the store's limit. */
export function storeFullDetail(store: Store, kind: keyof StoreLimits): string {
  return `Het register bevat het maximum van ${store.limits[kind]} ${NAMES[kind]}; er kan er geen meer bij.`;
}

function padded(prefix: string, number: number): string {
  return `${prefix}-${String(number).padStart(4, '0')}`;
}

/** Keeps only the fields a client may set, so unknown request properties are not stored. */
export function monumentGegevens(input: MonumentGegevens): MonumentGegevens {
  const { naam, monumentType, omschrijving, bouwjaar, adres, wijk } = input;
  const { straatnaam, huisnummer, huisletter, huisnummertoevoeging, postcode, woonplaats } = adres;
  return withoutUndefined({
    naam, monumentType, omschrijving, bouwjaar, wijk,
    adres: withoutUndefined({ straatnaam, huisnummer, huisletter, huisnummertoevoeging, postcode, woonplaats }),
  });
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

export function registerMonument(store: Store, gegevens: MonumentGegevens): MonumentRecord {
  const record = { monumentId: padded('GM', store.volgendMonument), ...monumentGegevens(gegevens) };
  store.volgendMonument += 1;
  store.monumenten.set(record.monumentId, record);
  return record;
}

export function replaceMonument(store: Store, monumentId: string, gegevens: MonumentGegevens): MonumentRecord {
  const record = { monumentId, ...monumentGegevens(gegevens) };
  // Map.set on a key it holds keeps the entry in its place, so the store stays in id order.
  store.monumenten.set(monumentId, record);
  return record;
}

export function deleteMonument(store: Store, monumentId: string): void {
  store.monumenten.delete(monumentId);
  for (const besluit of besluitenVan(store, monumentId)) store.besluiten.delete(besluit.besluitId);
  store.besluitenPerMonument.delete(monumentId);
}

/** Keeps only the fields a client may set: id, links and derived properties of a copied feature are not stored. */
export function perceelGegevens(input: PerceelGegevens): PerceelGegevens {
  const { kadastraleGemeentecode, sectie, perceelnummer, monumentId, omschrijving } = input;
  return withoutUndefined({ kadastraleGemeentecode, sectie, perceelnummer, monumentId, omschrijving });
}

/**
 * Records a parcel, rings in RD New. The register hands out the id (VP-0001, VP-0002, ...), not
 * the cadastral designation as for the seeded parcels: a recorded parcel's designation need not
 * be unique yet (a parcel being split, a record that a later one corrects), and an id must be.
 */
export function recordPerceel(store: Store, gegevens: PerceelGegevens, rings: Position[][]): PerceelRecord {
  const record = perceelRecord(padded('VP', store.volgendPerceel), perceelGegevens(gegevens), rings);
  store.volgendPerceel += 1;
  store.percelen.set(record.perceelId, record);
  return record;
}

/** Whether there was a recorded parcel with this id to delete. */
export function deletePerceel(store: Store, perceelId: string): boolean {
  return store.percelen.delete(perceelId);
}

/** Ids compare as the numbers they hold: GM-10000 comes after GM-9999. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || a.localeCompare(b);
}

/** Newest first: by decision date, then the later registered for decisions of the same day. */
function newestFirst(a: BesluitRecord, b: BesluitRecord): number {
  return b.datumBesluit.localeCompare(a.datumBesluit) || compareIds(b.besluitId, a.besluitId);
}

/** Where `record` goes in a newest-first list: after every decision that comes before it (binary search). */
function newestFirstPosition(list: readonly BesluitRecord[], record: BesluitRecord): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = list[middle];
    if (at !== undefined && newestFirst(at, record) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function addBesluit(store: Store, record: BesluitRecord): void {
  store.besluiten.set(record.besluitId, record);
  const list = store.besluitenPerMonument.get(record.monumentId) ?? [];
  list.splice(newestFirstPosition(list, record), 0, record);
  store.besluitenPerMonument.set(record.monumentId, list);
}

export function registerBesluit(store: Store, monumentId: string, gegevens: BesluitGegevens): BesluitRecord {
  const { besluitnummer, soortBesluit, datumBesluit, omschrijving } = gegevens;
  const record = withoutUndefined({ besluitId: padded('BB', store.volgendBesluit), monumentId, besluitnummer, soortBesluit, datumBesluit, omschrijving });
  store.volgendBesluit += 1;
  addBesluit(store, record);
  return record;
}

/** The decisions of a monument, newest first, from the index kept in that order. */
export function besluitenVan(store: Store, monumentId: string): readonly BesluitRecord[] {
  return store.besluitenPerMonument.get(monumentId) ?? [];
}

const STATUS_NA: Record<SoortBesluit, MonumentStatus> = {
  voorbescherming: 'voorbescherming',
  aanwijzing: 'beschermd',
  wijziging: 'beschermd',
  intrekking: 'ingetrokken',
};

export function statusOf(besluiten: readonly BesluitRecord[]): MonumentStatus {
  const laatste = besluiten[0];
  return laatste === undefined ? 'voorbescherming' : STATUS_NA[laatste.soortBesluit];
}

export interface Page<T> {
  items: T[];
  pagina: number;
  paginaGrootte: number;
  laatste: number;
}

/**
 * One page, in one walk over the items: only the page's own items are kept, the rest is only
 * counted (for the last page). Nothing is sorted or copied; the store keeps its order.
 */
export function pageOf<T>(items: Iterable<T>, pagina: number, paginaGrootte: number): Page<T> {
  const start = (pagina - 1) * paginaGrootte;
  const window: T[] = [];
  let count = 0;
  for (const item of items) {
    if (count >= start && count < start + paginaGrootte) window.push(item);
    count += 1;
  }
  return { items: window, pagina, paginaGrootte, laatste: Math.max(1, Math.ceil(count / paginaGrootte)) };
}

/** The items that pass `keep`, lazily, so a page of them is taken without a filtered copy. */
export function* where<T>(items: Iterable<T>, keep: (item: T) => boolean): Generator<T> {
  for (const item of items) if (keep(item)) yield item;
}

type Link = { href: string };

/** HAL navigation links; prev and next only where such a page exists. */
export function pageLinks(page: Page<unknown>, hrefFor: (pagina: number) => string): Record<string, Link> {
  const links: Record<string, Link> = { self: { href: hrefFor(page.pagina) }, first: { href: hrefFor(1) } };
  if (page.pagina > 1) links.prev = { href: hrefFor(Math.min(page.pagina - 1, page.laatste)) };
  if (page.pagina < page.laatste) links.next = { href: hrefFor(page.pagina + 1) };
  links.last = { href: hrefFor(page.laatste) };
  return links;
}

export function monumentHref(base: string, monumentId: string): string {
  return `${base}/monumenten/${encodeURIComponent(monumentId)}`;
}

export function besluitHref(base: string, besluit: BesluitRecord): string {
  return `${monumentHref(base, besluit.monumentId)}/beschermingsbesluiten/${encodeURIComponent(besluit.besluitId)}`;
}

export function monumentResource(store: Store, record: MonumentRecord, base: string): Record<string, unknown> {
  const besluiten = besluitenVan(store, record.monumentId);
  const aanwijzing = besluiten.find((besluit) => besluit.soortBesluit === 'aanwijzing');
  const self = monumentHref(base, record.monumentId);
  return {
    ...record,
    status: statusOf(besluiten),
    ...(aanwijzing === undefined ? {} : { datumAanwijzing: aanwijzing.datumBesluit }),
    _links: { self: { href: self }, beschermingsbesluiten: { href: `${self}/beschermingsbesluiten` } },
  };
}

export function besluitResource(record: BesluitRecord, base: string): Record<string, unknown> {
  const { monumentId, ...fields } = record;
  return { ...fields, _links: { self: { href: besluitHref(base, record) }, monument: { href: monumentHref(base, monumentId) } } };
}

export interface SearchHit {
  type: 'monument' | 'beschermingsbesluit';
  naam: string;
  href: string;
}

function contains(term: string, ...fields: Array<string | undefined>): boolean {
  return fields.some((field) => field !== undefined && field.toLowerCase().includes(term));
}

/**
 * Global search: monuments first, then decisions, each in id order, which is the order the store
 * keeps them in. Lazy, so a page of hits is taken in one walk without sorting or copying.
 */
export function* search(store: Store, zoekterm: string, typen: string[] | undefined, base: string): Generator<SearchHit> {
  const term = zoekterm.toLowerCase();
  const wanted = (type: SearchHit['type']): boolean => typen === undefined || typen.length === 0 || typen.includes(type);
  if (wanted('monument')) {
    for (const m of store.monumenten.values()) {
      if (contains(term, m.naam, m.omschrijving, m.wijk, m.adres.straatnaam)) yield { type: 'monument', naam: m.naam, href: monumentHref(base, m.monumentId) };
    }
  }
  if (wanted('beschermingsbesluit')) {
    for (const b of store.besluiten.values()) {
      if (contains(term, b.besluitnummer, b.omschrijving)) yield { type: 'beschermingsbesluit', naam: b.besluitnummer, href: besluitHref(base, b) };
    }
  }
}

/** JSON Merge Patch (RFC 7396): null removes a member, objects merge, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
