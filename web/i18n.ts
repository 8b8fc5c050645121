/** The page's own words in English and Dutch; findings stay as the ruleset writes them. */
export type Lang = 'en' | 'nl';
export const LANGS: readonly Lang[] = ['en', 'nl'];

const EN = {
  title: 'API Design Rules checker',
  intro: 'Checks an API against the Dutch API Design Rules (ADR) with the same checks and report as adr-check: give its base URL for a live check (its OpenAPI description is linted too), or a description for a static check.',
  liveLegend: 'Check a running API',
  baseUrl: 'Base URL (with /v<major>)',
  baseUrlHint: 'For example https://api.example.nl/v1. Only APIs on the public internet.',
  token: 'Bearer token (optional)',
  tokenHint: 'For protected paths: used for this check only, never stored, logged or shown.',
  checkLive: 'Check the API',
  staticLegend: 'Check a description (static)',
  upload: 'Upload an OpenAPI description (JSON or YAML)',
  paste: 'or paste it here',
  checkStatic: 'Check the description',
  uploadHint: 'An uploaded description is visible only through its permalink and kept for {days} days.',
  queued: 'Waiting in the queue: position {position}.',
  running: 'Running: {done} of {total} checks done{current}.',
  starting: 'Starting: fetching the description and choosing the checks.',
  progressTitle: 'Checking {target}',
  reloadHint: 'This page refreshes by itself. Its address is the permalink of this check.',
  failedTitle: 'Not checked',
  conformant: 'conformant',
  failingRules: '{count} failing rules',
  failingRule: '1 failing rule',
  incomplete: 'not completely checked',
  checkAgain: 'Check again',
  download: 'Download',
  history: 'History',
  newCheck: 'New check',
  permalink: 'Permalink',
  historyTitle: 'History of {target}',
  historyWhen: 'When',
  historyWithToken: 'checked with a token: its report only through its permalink',
  historyResult: 'Result',
  historyChanged: 'Changed since the check before',
  noChange: 'no change',
  badge: 'Badge for a README',
  notFound: 'There is no check with this address (or its description was removed after the retention period).',
  refusedTitle: 'Target refused',
  queueFullTitle: 'Queue full',
  errorTitle: 'Something is wrong',
  queueFull: 'The queue is full. Try again in {seconds} seconds.',
  tooMany: 'Too many checks from your address. Try again in a minute.',
  giveSomething: 'Give a base URL, or upload or paste a description.',
  tooLarge: 'The description is larger than {bytes} bytes, the limit of this web checker.',
  language: 'Taal: Nederlands',
  languageCode: 'nl',
  descriptionGone: 'The description of this check was removed after the retention period: upload it again.',
  tokenAgain: 'Bearer token for this check (optional; not kept from the last one)',
};

type Words = typeof EN;

const NL: Words = {
  title: 'API Design Rules-checker',
  intro: 'Toetst een API aan de API Design Rules (ADR) met dezelfde controles en hetzelfde rapport als adr-check: geef de basis-URL voor een live toets (de OpenAPI-beschrijving wordt ook gecontroleerd), of een beschrijving voor een statische toets.',
  liveLegend: 'Toets een draaiende API',
  baseUrl: 'Basis-URL (met /v<major>)',
  baseUrlHint: 'Bijvoorbeeld https://api.example.nl/v1. Alleen API\'s op het openbare internet.',
  token: 'Bearer-token (optioneel)',
  tokenHint: 'Voor beveiligde paden: alleen voor deze toets gebruikt, nooit bewaard, gelogd of getoond.',
  checkLive: 'Toets de API',
  staticLegend: 'Toets een beschrijving (statisch)',
  upload: 'Upload een OpenAPI-beschrijving (JSON of YAML)',
  paste: 'of plak hem hier',
  checkStatic: 'Toets de beschrijving',
  uploadHint: 'Een geüploade beschrijving is alleen via de permalink te zien en wordt {days} dagen bewaard.',
  queued: 'In de wachtrij: plaats {position}.',
  running: 'Bezig: {done} van {total} controles klaar{current}.',
  starting: 'Bezig met starten: de beschrijving ophalen en de controles kiezen.',
  progressTitle: '{target} wordt getoetst',
  reloadHint: 'Deze pagina ververst vanzelf. Het adres is de permalink van deze toets.',
  failedTitle: 'Niet getoetst',
  conformant: 'conform',
  failingRules: '{count} regels niet nageleefd',
  failingRule: '1 regel niet nageleefd',
  incomplete: 'niet volledig getoetst',
  checkAgain: 'Opnieuw toetsen',
  download: 'Downloaden',
  history: 'Geschiedenis',
  newCheck: 'Nieuwe toets',
  permalink: 'Permalink',
  historyTitle: 'Geschiedenis van {target}',
  historyWhen: 'Wanneer',
  historyWithToken: 'getoetst met een token: het rapport alleen via zijn permalink',
  historyResult: 'Uitkomst',
  historyChanged: 'Veranderd sinds de toets ervoor',
  noChange: 'geen verandering',
  badge: 'Badge voor een README',
  notFound: 'Er is geen toets met dit adres (of de beschrijving is na de bewaartermijn verwijderd).',
  refusedTitle: 'Doel geweigerd',
  queueFullTitle: 'Wachtrij vol',
  errorTitle: 'Er is iets mis',
  queueFull: 'De wachtrij is vol. Probeer het over {seconds} seconden opnieuw.',
  tooMany: 'Te veel toetsen vanaf uw adres. Probeer het over een minuut opnieuw.',
  giveSomething: 'Geef een basis-URL, of upload of plak een beschrijving.',
  tooLarge: 'De beschrijving is groter dan {bytes} bytes, de grens van deze checker.',
  language: 'Language: English',
  languageCode: 'en',
  descriptionGone: 'De beschrijving van deze toets is na de bewaartermijn verwijderd: upload hem opnieuw.',
  tokenAgain: 'Bearer-token voor deze toets (optioneel; niet bewaard van de vorige)',
};

export type WordKey = keyof Words;

const WORDS: Record<Lang, Words> = { en: EN, nl: NL };

/** A word in the language, with {name} filled in (the values are escaped by the page, not here). */
export function word(lang: Lang, key: WordKey, values: Record<string, string | number> = {}): string {
  return WORDS[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * The page's language: ?lang= first (the switch), then the cookie the switch set, then the
 * browser's Accept-Language by its weights; English when none names Dutch or English.
 */
export function chooseLang(query: string | undefined, cookie: string | undefined, acceptLanguage: string | undefined): Lang {
  for (const candidate of [query, cookie]) if (candidate === 'en' || candidate === 'nl') return candidate;
  const ranked = (acceptLanguage ?? '').split(',').map((part, index) => {
    const [tag = '', ...parameters] = part.trim().toLowerCase().split(';');
    const q = Number(parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined) ?? '1');
    return { primary: tag.split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0, index };
  }).filter((entry) => entry.q > 0).sort((a, b) => b.q - a.q || a.index - b.index);
  const found = ranked.find((entry) => entry.primary === 'nl' || entry.primary === 'en');
  return found?.primary === 'nl' ? 'nl' : 'en';
}
