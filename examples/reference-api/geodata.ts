import type { Position, StoredGeometry } from './crs.js';

/**
 * The geodata of the register, stored in RD New (EPSG:28992, metres; x east, y north). The town
 * of Voorbeeldstad is fictional; it is laid over the area of Amersfoort, whose Onze Lieve
 * Vrouwetoren is the origin of the RD grid (155000, 463000). The Binnenstad lies around the
 * tower, Oosterpark about 1.3 km east of it, the Havenkwartier 900 m north-west, Spoorzijde by
 * the station 1 km south-west and the Dorp, an old village now part of the town, 3 km north.
 *
 * Two collections: the location of each monument of the seed data (a point; a monument registered
 * later has none and is no feature), and the cadastral parcels (percelen) of some of them
 * (polygons: closed rings, the exterior counter-clockwise and holes clockwise, as RFC 7946 asks).
 */

/** The location of each seeded monument, by monumentId. */
export const MONUMENT_LOCATIONS: Readonly<Record<string, Position>> = {
  // Binnenstad
  'GM-0101': [155062.4, 463121.75], // Stadhuis, Marktplein 2
  'GM-0102': [154968.2, 463004.1], // Grote Kerk, Kerkplein 1
  'GM-0106': [155120.0, 463420.5], // Stadsmuur Noord, Noorderwal
  'GM-0109': [154890.35, 463172.6], // Gasthuis, Gasthuisstraat 5 (the south wing)
  'GM-0112': [155210.8, 463240.15], // Synagoge, Nieuwstraat 12
  'GM-0114': [155148.9, 463065.3], // Pomp op de Vismarkt
  'GM-0119': [154812.45, 462905.2], // Oorlogsmonument, Vredesplein
  'GM-0121': [155290.1, 463395.8], // Kruittoren, Noorderwal 9
  'GM-0123': [155041.75, 463108.9], // Oude Waag, Marktplein 1
  // Oosterpark
  'GM-0103': [156480.3, 463355.7], // Molen De Hoop, Molenweg 14
  'GM-0104': [156105.6, 462880.4], // Watertoren, Torenlaan 3
  'GM-0110': [156310.25, 463040.9], // Villa Rozenhof, Parkweg 8
  'GM-0111': [156420.0, 463120.0], // Stadspark, Parkweg
  'GM-0120': [156850.5, 462760.25], // Lanen van Huize Berkenrode
  // Havenkwartier
  'GM-0107': [154420.15, 463780.6], // Pakhuis De Zeeuw, Havenkade 21
  'GM-0108': [154385.7, 463742.3], // Ophaalbrug Havenkade
  'GM-0118': [154150.4, 463905.85], // Sluiswachterswoning, Sluisweg 2
  'GM-0122': [154025.9, 463860.1], // Scheepswerfhelling, Werfstraat
  // Spoorzijde
  'GM-0113': [154080.5, 462660.35], // Stationsgebouw, Stationsplein 1
  'GM-0117': [153820.75, 462480.6], // Schoolgebouw, Schoolstraat 4
  'GM-0125': [153560.0, 462210.0], // Romeinse weg, Heerweg
  // Dorp
  'GM-0105': [154560.3, 465930.45], // Lindeboom op de Brink
  'GM-0115': [154890.6, 466210.2], // Boerderij De Kamp, Kampweg 30
  'GM-0116': [154210.8, 466120.75], // Terp Oudehuizen
  'GM-0124': [154640.25, 465810.9], // Begraafplaats Oud Kerkhof
};

/** The cadastral data of a parcel, what a client supplies when it records one (PerceelGegevens). */
export interface PerceelGegevens {
  kadastraleGemeentecode: string;
  sectie: string;
  perceelnummer: number;
  /** The monument that stands on the parcel. */
  monumentId: string;
  omschrijving?: string;
}

export interface PerceelRecord extends PerceelGegevens {
  /** Seeded parcels: the cadastral designation as an identifier (gemeentecode, sectie, perceelnummer); recorded ones: VP-0001 and on. */
  perceelId: string;
  /** The area in square metres, derived from the geometry. */
  kadastraleGrootte: number;
  geometry: Extract<StoredGeometry, { type: 'Polygon' }>;
}

type SeedPerceel = [gemeentecode: string, sectie: string, perceelnummer: number, monumentId: string, omschrijving: string, rings: Position[][]];

const SEED_PERCELEN: SeedPerceel[] = [
  ['VBS01', 'K', 1187, 'GM-0102', 'Kerk met koor aan de oostzijde', [
    [[154934.5, 462992.8], [154991.3, 462989.6], [155006.8, 463003.7], [154992.9, 463018.9], [154936.1, 463021.4], [154934.5, 462992.8]],
  ]],
  ['VBS01', 'K', 1201, 'GM-0101', 'Stadhuis aan het Marktplein', [
    [[155048.1, 463108.35], [155079.6, 463104.9], [155083.25, 463137.4], [155051.7, 463140.85], [155048.1, 463108.35]],
  ]],
  ['VBS01', 'K', 1202, 'GM-0123', 'Waaggebouw, grenst aan het stadhuis', [
    [[155033.4, 463100.2], [155047.3, 463099.1], [155048.1, 463108.35], [155049.18, 463118.1], [155035.9, 463119.6], [155033.4, 463100.2]],
  ]],
  ['VBS01', 'K', 1310, 'GM-0109', 'Gasthuis rond een binnenhof (de binnenhof is een apart perceel)', [
    [[154868.2, 463168.4], [154912.6, 463166.9], [154914.1, 463208.7], [154869.5, 463210.3], [154868.2, 463168.4]],
    [[154880.0, 463180.0], [154880.4, 463198.0], [154902.0, 463197.4], [154901.6, 463179.5], [154880.0, 463180.0]],
  ]],
  ['VBS01', 'K', 1422, 'GM-0112', 'Synagoge met voorplein', [
    [[155199.6, 463228.3], [155222.4, 463229.1], [155221.7, 463252.8], [155198.9, 463251.9], [155199.6, 463228.3]],
  ]],
  ['VBS02', 'M', 845, 'GM-0110', 'Villa met tuin en koetshuis', [
    [[156284.7, 463012.3], [156331.9, 463009.8], [156343.6, 463041.2], [156338.2, 463071.5], [156289.4, 463073.9], [156281.1, 463044.6], [156284.7, 463012.3]],
  ]],
  ['VBS02', 'M', 871, 'GM-0103', 'Molenbelt met stellingmolen', [
    [[156495.3, 463355.7], [156490.91, 463366.31], [156480.3, 463370.7], [156469.69, 463366.31], [156465.3, 463355.7], [156469.69, 463345.09], [156480.3, 463340.7], [156490.91, 463345.09], [156495.3, 463355.7]],
  ]],
  ['VBS03', 'H', 412, 'GM-0107', 'Pakhuis aan de Havenkade', [
    [[154409.8, 463769.9], [154431.6, 463771.2], [154430.4, 463794.8], [154408.7, 463793.4], [154409.8, 463769.9]],
  ]],
  ['VBS03', 'H', 430, 'GM-0118', 'Sluiswachterswoning met erf', [
    [[154139.9, 463895.1], [154161.3, 463894.6], [154161.8, 463916.4], [154140.5, 463916.9], [154139.9, 463895.1]],
  ]],
  ['VBS04', 'S', 233, 'GM-0113', 'Stationsgebouw', [
    [[154039.2, 462651.8], [154121.6, 462643.5], [154124.3, 462669.2], [154041.9, 462677.6], [154039.2, 462651.8]],
  ]],
  ['VBS05', 'D', 118, 'GM-0115', 'Boerenerf van de voormalige boerderij', [
    [[154858.4, 466178.3], [154926.7, 466183.9], [154921.5, 466244.8], [154861.2, 466239.1], [154858.4, 466178.3]],
  ]],
];

function perceelId(gemeentecode: string, sectie: string, perceelnummer: number): string {
  return `${gemeentecode}-${sectie}-${String(perceelnummer).padStart(4, '0')}`;
}

/** A parcel with what is derived from its data: its area, from rings in RD New. */
export function perceelRecord(perceelId: string, gegevens: PerceelGegevens, rings: Position[][]): PerceelRecord {
  return { perceelId, ...gegevens, kadastraleGrootte: Math.round(areaOf(rings)), geometry: { type: 'Polygon', coordinates: rings } };
}

export const PERCELEN: readonly PerceelRecord[] = SEED_PERCELEN.map(([kadastraleGemeentecode, sectie, perceelnummer, monumentId, omschrijving, rings]) =>
  perceelRecord(perceelId(kadastraleGemeentecode, sectie, perceelnummer), { kadastraleGemeentecode, sectie, perceelnummer, monumentId, omschrijving }, rings));

/** Twice the signed area of a ring (shoelace): positive when counter-clockwise. */
export function signedArea(ring: readonly Position[]): number {
  let sum = 0;
  for (let index = 0; index + 1 < ring.length; index += 1) {
    const [x1, y1] = ring[index] as Position;
    const [x2, y2] = ring[index + 1] as Position;
    sum += x1 * y2 - x2 * y1;
  }
  return sum / 2;
}

/** The area of a polygon in square metres (RD New's scale error, at most 0.01 %, aside): the exterior minus its holes. */
export function areaOf(rings: readonly (readonly Position[])[]): number {
  return rings.reduce((total, ring, index) => total + (index === 0 ? Math.abs(signedArea(ring)) : -Math.abs(signedArea(ring))), 0);
}

/**
 * The rings in the order RFC 7946 (3.1.6) asks for: the exterior counter-clockwise, holes
 * clockwise. A parser should not refuse a polygon that does not follow it, so a recorded parcel
 * is turned round where needed instead, and every served polygon follows it. In RD New, whose
 * axes are east and north.
 */
export function rightHandRings(rings: readonly Position[][]): Position[][] {
  return rings.map((ring, index) => {
    const counterClockwise = signedArea(ring) > 0;
    return counterClockwise === (index === 0) ? ring : [...ring].reverse();
  });
}
