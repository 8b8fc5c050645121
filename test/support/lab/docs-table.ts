import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PAGE = fileURLToPath(new URL('../../../docs/live/tested-implementations.md', import.meta.url));

/**
 * The rows `| check | verdict | ...` of one section of docs/live/tested-implementations.md (from
 * its `### heading` to the next heading), as `check: verdict`: what the page tells users, for the
 * tests to hold against their own expectations.
 */
export function documentedVerdicts(heading: string): string[] {
  const lines = readFileSync(PAGE, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === `### ${heading}`);
  if (start < 0) throw new Error(`docs/live/tested-implementations.md has no section "### ${heading}"`);
  const end = lines.findIndex((line, index) => index > start && /^#{2,3} /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).flatMap((line) => {
    const row = /^\| (\/[a-z0-9/-]+) \| (pass|fail|warn|skip|error) \|/.exec(line);
    return row === null ? [] : [`${row[1]}: ${row[2]}`];
  });
}
