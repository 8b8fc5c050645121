import { readFileSync } from 'node:fs';

/**
 * The version of nlgov-adr that runs, from its package.json: one level above both live/ (from
 * source) and dist/ (built). The ruleset is part of the package and shares its version.
 */
export function packageVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
