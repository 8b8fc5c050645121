import type { JsonReport } from '../adr-check-process.js';

/**
 * The lab's expectations: per implementation, per check, the verdict that is right under SPEC.md,
 * the SPEC sentence it rests on and, where the implementation breaks a rule, which and why. The
 * tests assert them and docs/live/tested-implementations.md ("Core and geospatial") shows the same tables.
 */
/** A report's verdicts: 'error' is "not judged" (no answer, or a step that could not be taken). */
export type Verdict = 'pass' | 'fail' | 'warn' | 'skip' | 'error';

export interface Expectation {
  code: string;
  verdict: Verdict;
  /** The SPEC.md sentence the verdict rests on (quoted), or why nothing can be judged. */
  spec: string;
  /** Where the implementation breaks a rule: what it does and why that is the verdict. */
  why?: string;
  /** Details (or the summary) that must be in the result: the evidence a reader needs. */
  details?: readonly RegExp[];
  /** Lines (summary or details) that must not be there: a wrong reason or a misleading text given with a right verdict. */
  absent?: readonly RegExp[];
}

export type Result = JsonReport['results'][number];

/** A test title that reads as the table row: the check, the right verdict and, where a rule is broken, why. */
export function titled(expectations: readonly Expectation[], suffix = ''): Array<[string, Expectation]> {
  return expectations.map((expectation) => [`${expectation.code}: ${expectation.verdict}${suffix}${expectation.why === undefined ? '' : ` (${expectation.why})`}`, expectation]);
}

export function resultOf(report: JsonReport, code: string): Result | undefined {
  return report.results.find((entry) => entry.code === code);
}

/** One line a failing test prints: what adr-check said, so the wrong verdict reads at once. */
export function said(result: Result | undefined): string {
  if (result === undefined) return 'no result';
  return [`${result.verdict}: ${result.summary}`, ...result.details.map((detail) => `  - ${detail}`)].join('\n');
}

/** The verdict and every expected detail; a mismatch shows the whole result and why the expectation holds. */
export function expectVerdict(report: JsonReport, expectation: Expectation): void {
  const result = resultOf(report, expectation.code);
  const context = `${expectation.code}: expected ${expectation.verdict} (${expectation.why ?? expectation.spec})\nadr-check said ${said(result)}`;
  expect({ verdict: result?.verdict, context }).toEqual({ verdict: expectation.verdict, context });
  for (const detail of expectation.details ?? []) {
    const lines = [result?.summary ?? '', ...(result?.details ?? [])];
    expect({ found: lines.some((line) => detail.test(line)), detail: String(detail), context }).toEqual({ found: true, detail: String(detail), context });
  }
  for (const detail of expectation.absent ?? []) {
    const lines = [result?.summary ?? '', ...(result?.details ?? [])];
    expect({ wrongLines: lines.filter((line) => detail.test(line)), context }).toEqual({ wrongLines: [], context });
  }
}
