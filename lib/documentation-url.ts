/**
 * Where a finding is explained: a page of this repository at the release tag of the version that
 * produced it, on GitHub, where markdown renders and every released version stays readable. The
 * ruleset runs inside Spectral's bundler (and the VS Code extension), where package.json cannot be
 * read, so the version and the repository are constants: test/meta.test.ts and
 * test/release.test.ts keep them equal to package.json's `version` and `repository.url`.
 */
export const PACKAGE_VERSION = '0.1.0';
export const REPOSITORY_URL = 'https://github.com/nlgov-adr/nlgov-adr';

/** `/core/transport/tls` -> `core-transport-tls`, `nlgov:global-search` -> `nlgov-global-search`. */
export function ruleSlug(code: string): string {
  return code.replace(/^\//, '').replace(/[/:]/g, '-');
}

/** The README's section on the live checker: what adr-check's own codes (`adr-check/...`) are about. */
const LIVE_CHECKER_SECTION = 'README.md#live-checker-adr-check';

/** Live checks of the standard with no rule in the ruleset: their page is in docs/live/, not docs/rules/. */
const LIVE_ONLY_CODES = new Set(['/core/http-response-code', '/core/transport/cors', '/core/transport/security-headers']);

/**
 * The repository file (with a `#section` where the page is shared) that explains a code of this
 * package: a rule of the standard or a module (`/core/...`, `/geo/...`, `nlgov:...`) or adr-check's
 * own (`adr-check/...`). Undefined for a code that is not ours (Spectral's own rules).
 */
export function documentationPath(code: string): string | undefined {
  if (LIVE_ONLY_CODES.has(code)) return `docs/live/${ruleSlug(code)}.md`;
  if (code.startsWith('adr-check/')) return LIVE_CHECKER_SECTION;
  if (/^(\/|nlgov:)/.test(code)) return `docs/rules/${ruleSlug(code)}.md`;
  return undefined;
}

/**
 * The page of a live check that has one of its own, besides its rule's page: what it requests and
 * compares (the geospatial checks one page each, signing and OAuth one page per module).
 */
export function liveCheckPath(code: string): string | undefined {
  if (code.startsWith('/geo/')) return `docs/live/${ruleSlug(code)}.md`;
  if (code.startsWith('/signing/')) return 'docs/live/signing.md';
  if (code.startsWith('nlgov:oauth-')) return 'docs/live/oauth.md';
  return undefined;
}

/**
 * A repository path (`docs/rules/core-semver.md`, `README.md#section`) as its rendered page at the
 * tag `v<version>`; a version that names no tag (adr-check's `unknown` when its package.json cannot
 * be read) links to the tag of the version this was built as.
 */
export function repositoryPageUrl(path: string, version: string = PACKAGE_VERSION): string {
  const tag = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version) ? version : PACKAGE_VERSION;
  return `${REPOSITORY_URL}/blob/v${tag}/${path}`;
}

/** The rendered page for a rule of this package, at the tag of `version`. */
export function documentationUrl(code: string, version: string = PACKAGE_VERSION): string | undefined {
  const path = documentationPath(code);
  return path === undefined ? undefined : repositoryPageUrl(path, version);
}
