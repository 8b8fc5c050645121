import type { Finding } from '../lib/lint.js';
import { BODY_EXCERPT, count, type CheckResult, type Evidence, type Report } from './report.js';
import { mapStrings, printable, redactAndCut } from './redaction.js';

/**
 * The one place every output format passes through: the report redacted and bounded before it is
 * escaped for where it goes. Whatever a server sends, each string is at most MAX_STRING characters
 * (a body excerpt at most BODY_EXCERPT), and the details, evidence and static findings together
 * stay within budgets of characters, so that a report is always written and can be read. What is
 * left out is counted, in the report itself.
 */

/** The longest string a report holds: a path, a message, a header value, a URL. */
export const MAX_STRING = 2000;

/** Characters of details and evidence over all checks; each check keeps its first few whatever the budget. */
export const LIVE_BUDGET = 1_000_000;

/** Characters of static findings. */
export const STATIC_BUDGET = 1_000_000;

/** More than this many of anything cannot fit the budgets with a useful share each. */
const MAX_ITEMS = 5000;

/** What each check keeps even when the budget is spent: the verdict needs its first reasons. */
const ALWAYS_KEPT = 3;

/** Each string's characters, keys included: what a list costs of a budget. */
function size(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + size(item), 0);
  if (typeof value === 'object' && value !== null) return Object.entries(value).reduce((sum, [key, item]) => sum + key.length + size(item), 0);
  return 0;
}

/**
 * Spends a budget of characters, item by item; the first `guaranteed` items are kept regardless.
 * Each item is bounded (redacted and cut) as it is taken: what the budget leaves out costs nothing.
 */
class Budget {
  left: number;
  dropped = 0;

  constructor(total: number) {
    this.left = total;
  }

  take<T>(items: T[], bound: (item: T) => T, guaranteed = 0): T[] {
    const kept: T[] = [];
    for (let index = 0; index < Math.min(items.length, MAX_ITEMS); index += 1) {
      const item = bound(items[index] as T);
      const cost = size(item);
      if (index >= guaranteed && cost > this.left) break;
      this.left = Math.max(0, this.left - cost);
      kept.push(item);
    }
    this.dropped += items.length - kept.length;
    return kept;
  }
}

/** A string of the report redacted, then cut to MAX_STRING. */
function boundString(forms: string[]): (text: string) => string {
  return (text) => redactAndCut(text, MAX_STRING, forms);
}

/** One line for stderr from what may hold a server's text: redacted, cut, every unsafe character made visible. */
export function boundedLine(text: string, forms: string[]): string {
  return printable(boundString(forms)(text));
}

function boundEvidence(evidence: Evidence, forms: string[]): Evidence {
  const { bodyExcerpt, ...rest } = evidence;
  const bounded = mapStrings(rest, boundString(forms));
  return bodyExcerpt === undefined ? bounded : { ...bounded, bodyExcerpt: redactAndCut(bodyExcerpt, BODY_EXCERPT, forms, true) };
}

/** A list cut to a count before any string of it is looked at. */
function firstOf<T>(items: T[], limit: number): T[] {
  return items.length > limit ? items.slice(0, limit) : items;
}

function boundResult(result: CheckResult, forms: string[], budget: Budget): CheckResult {
  const strings = boundString(forms);
  const { details, evidence, tables, ...head } = result;
  const keptDetails = budget.take(details, strings, ALWAYS_KEPT);
  const keptEvidence = budget.take(evidence, (item) => boundEvidence(item, forms), 1);
  const left = details.length - keptDetails.length;
  const evidenceOmitted = evidence.length - keptEvidence.length;
  return {
    ...mapStrings(head, strings),
    details: left > 0 ? [...keptDetails, `(${count(left, 'more detail')} left out: the report's size is bounded)`] : keptDetails,
    evidence: keptEvidence,
    ...(evidenceOmitted > 0 ? { evidenceOmitted } : {}),
    ...(tables === undefined ? {} : { tables: budget.take(tables, (table) => mapStrings(table, strings)) }),
  };
}

/**
 * The report with every string redacted and cut, and its lists within the budgets. `forms` are the
 * user's credentials in every form (redaction.ts secretForms).
 */
export function boundedReport(report: Report, forms: string[]): Report {
  const strings = boundString(forms);
  const live = new Budget(LIVE_BUDGET);
  const results = firstOf(report.results, MAX_ITEMS).map((result) => boundResult(result, forms, live));
  const statics = new Budget(STATIC_BUDGET);
  const findings = statics.take(report.staticFindings, (finding): Finding => mapStrings(finding, strings));
  const omittedFindings = report.staticFindings.length - findings.length;
  const notices = firstOf(report.notices, 100).map(strings);
  const leftOut = [
    ...(live.dropped > 0 ? [count(live.dropped, 'detail or piece of evidence', 'details and pieces of evidence')] : []),
    ...(omittedFindings > 0 ? [count(omittedFindings, 'static finding')] : []),
  ];
  const { results: _results, staticFindings: _findings, notices: _notices, lint: _lint, ...head } = report;
  return {
    ...mapStrings(head, strings),
    results,
    staticFindings: findings,
    lint: { ...mapStrings(report.lint, strings), omitted: report.lint.omitted + omittedFindings },
    notices: leftOut.length === 0 ? notices : [...notices, `the report's size is bounded: ${leftOut.join(' and ')} left out`],
  };
}
