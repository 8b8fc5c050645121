import type { Severity } from '../lib/lint.js';

/** One row of Spectral's `stylish` output, as the official ADR linter's test suite stores it. */
export interface OfficialFinding {
  line: number;
  column: number;
  severity: Severity;
  code: string;
  message: string;
  /** The finding's path in our dotted form (see {@link dotPathFromStylish}). */
  path: string;
}

const STYLISH_SEVERITIES: Readonly<Record<string, Severity>> = {
  error: 'error',
  warning: 'warn',
  information: 'info',
  hint: 'hint',
};

/**
 * Parses stylish output. text-table separates columns by two spaces and pads every column but the
 * last, so a run of two or more spaces is a column boundary; the path column is empty for
 * findings on the document root. "No results ... found!" has no rows, so it yields [].
 */
export function parseStylish(text: string): OfficialFinding[] {
  return text.split(/\r?\n/).flatMap((line) => {
    const finding = parseRow(line);
    return finding === undefined ? [] : [finding];
  });
}

function parseRow(line: string): OfficialFinding | undefined {
  const cells = line.trim().split(/\s{2,}/);
  const [range, severityName, code, message, ...rest] = cells;
  const position = /^(\d+):(\d+)$/.exec(range ?? '');
  const severity = STYLISH_SEVERITIES[severityName ?? ''];
  if (position === null || severity === undefined || code === undefined || message === undefined) return undefined;
  // Newer Spectral versions add the documentation URL as a last column; it is not a path.
  const path = rest.find((cell) => !/^https?:\/\//.test(cell)) ?? '';
  return { line: Number(position[1]), column: Number(position[2]), severity, code, message, path: dotPathFromStylish(path) };
}

/**
 * Stylish prints paths in Spectral's "dot" style: numeric segments as `[429]`, segments with
 * whitespace as `['a b']`. Our findings join the raw segments with dots, so both reduce to the
 * same string once brackets become dot segments. Keys holding dots (`/openapi.json`) are
 * printed raw in both, so the two strings stay comparable even though neither is reversible.
 */
export function dotPathFromStylish(printed: string): string {
  return printed
    .replace(/\['((?:[^']|'(?!\]))*)'\]/g, (_match, segment: string) => `.${segment}`)
    .replace(/\[([\d.eE+-]+)\]/g, (_match, segment: string) => `.${segment}`)
    .replace(/^\./, '');
}
