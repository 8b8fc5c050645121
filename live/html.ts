import type { Finding } from '../lib/lint.js';
import { documentationPath, liveCheckPath, repositoryPageUrl } from '../lib/documentation-url.js';
import { RULE_EXPLANATIONS } from '../lib/rule-explanations.js';
import type { CheckResult, Evidence, Report, ReportTable, Verdict } from './report.js';

/**
 * The conformance report as one self-contained HTML page (no external assets, no script): on top
 * the overall verdict with counts of the technical rules passed, failed and not judged; then a
 * summary of every rule with a verdict, failures first (technical rules, and every other check or
 * finding that failed); then per rule, in the same order, why it matters, how to fix it, a link to
 * its page in the repository at this version's tag, the live evidence, the TLS tables and the
 * static findings with their place. One colour per meaning. Every string is escaped; the report
 * was redacted before. Readable at 390 px, and printed (or saved as PDF) with every section open.
 */

interface RuleRow { code: string; title: string; static: boolean; live: boolean }

/** SPEC.md's technical rules (its table), then the module rules adr-check and the ruleset judge. */
const CORE_RULES: RuleRow[] = [
  { code: '/core/no-trailing-slash', title: 'No trailing slash', static: true, live: true },
  { code: '/core/http-methods', title: 'Standard HTTP methods', static: true, live: true },
  { code: '/core/doc-openapi', title: 'OpenAPI description', static: true, live: false },
  { code: '/core/doc-openapi-contact', title: 'Contact details', static: true, live: false },
  { code: '/core/publish-openapi', title: 'Published description', static: true, live: true },
  { code: '/core/uri-version', title: 'Major version in the URI', static: true, live: false },
  { code: '/core/semver', title: 'Semantic versioning', static: true, live: false },
  { code: '/core/version-header', title: 'API-Version header', static: true, live: true },
  { code: '/core/transport/tls', title: 'TLS', static: true, live: true },
  { code: '/core/transport/security-headers', title: 'Security headers', static: false, live: true },
  { code: '/core/transport/cors', title: 'CORS', static: false, live: true },
];

const MODULE_RULES: RuleRow[] = [
  { code: '/geo/crs-list', title: 'CRS discovery', static: true, live: true },
  { code: '/geo/crs-query-parameter', title: 'crs parameter', static: true, live: true },
  { code: '/geo/content-crs-response-header', title: 'Content-Crs in responses', static: true, live: true },
  { code: '/geo/content-crs-request-header', title: 'Content-Crs in requests', static: true, live: true },
  { code: '/geo/bbox-query-parameter', title: 'bbox parameter', static: true, live: true },
  { code: '/geo/bbox-crs-query-parameter', title: 'bbox-crs parameter', static: true, live: true },
  { code: '/geo/geojson-response', title: 'GeoJSON responses', static: true, live: true },
  { code: '/signing/payload', title: 'Payload signature', static: true, live: true },
  { code: '/signing/message', title: 'Message signature', static: true, live: true },
  { code: 'nlgov:oauth-flows', title: 'OAuth flows', static: true, live: true },
  { code: 'nlgov:oauth-no-token-in-query', title: 'No token in the query', static: true, live: true },
];

/** Checks of functional rules that adr-check still judges in part. */
const OTHER_TITLES: Record<string, string> = {
  '/core/http-response-code': 'Status codes and error responses',
  'adr-check/run': 'adr-check itself',
};

/** The title a report gives a rule of the standard or a module, when it has one. */
export function ruleTitle(code: string): string | undefined {
  return [...CORE_RULES, ...MODULE_RULES].find((row) => row.code === code)?.title ?? OTHER_TITLES[code];
}

/**
 * What a verdict means to a reader, one colour each: a MUST broken, not judged (nothing answered,
 * the lint did not finish, nothing applied), a SHOULD broken, a remark, passed, and not applicable.
 */
export type Meaning = 'fail' | 'unjudged' | 'warn' | 'note' | 'pass' | 'neutral';
const MEANING_ORDER: Meaning[] = ['fail', 'unjudged', 'warn', 'note', 'pass', 'neutral'];
const MEANING_LABEL: Record<Meaning, string> = { fail: 'fail', unjudged: 'not judged', warn: 'warn', note: 'info', pass: 'pass', neutral: '—' };

/** One side of a rule (the description's lint, or the live check) as the summary shows it. */
interface Side { meaning: Meaning; label: string; why?: string }

interface SummaryRow {
  code: string;
  title: string;
  technical: boolean;
  statics: Side;
  live: Side;
  verdict: Meaning;
  result?: CheckResult;
  findings: Finding[];
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const SPECTRAL_RULES_PAGE = 'https://docs.stoplight.io/docs/spectral/4dec24461f3af-open-api-rules';

/**
 * The repository file that explains a rule (its page with the "Why it matters" line, else the
 * page lib/documentation-url.ts names); undefined for a code that is not ours (Spectral's rules).
 */
export function rulePage(code: string): string | undefined {
  return RULE_EXPLANATIONS[code]?.page ?? documentationPath(code);
}

interface Link { label: string; href: string }

function ruleLinks(code: string, result: CheckResult | undefined, version: string): Link[] {
  const page = rulePage(code);
  const links: Link[] = [];
  if (page !== undefined) links.push({ label: `Rule page of ${code}`, href: repositoryPageUrl(page, version) });
  else links.push({ label: `Spectral's page of ${code}`, href: `${SPECTRAL_RULES_PAGE}#${encodeURIComponent(code)}` });
  const livePage = result === undefined ? undefined : result.docs ?? liveCheckPath(code);
  if (livePage !== undefined && livePage !== page) links.push({ label: `How adr-check checks ${code} live`, href: repositoryPageUrl(livePage, version) });
  return links;
}

const SEVERITY_MEANING: Record<string, Meaning> = { error: 'fail', warn: 'warn', info: 'note', hint: 'note' };
const LIVE_MEANING: Record<Verdict, Meaning> = { pass: 'pass', warn: 'warn', fail: 'fail', error: 'unjudged', skip: 'neutral' };

function worstMeaning(meanings: Meaning[]): Meaning {
  return meanings.reduce<Meaning>((current, next) => (MEANING_ORDER.indexOf(next) < MEANING_ORDER.indexOf(current) ? next : current), 'neutral');
}

/**
 * The static side: the worst severity among the rule's findings, none is a pass. Not judged when
 * the lint did not finish; not applicable for /core/publish-openapi when the description does not
 * describe /openapi.json (nlgov:openapi-json-documented says so): nothing was checked there.
 */
function staticSide(report: Report, code: string, applies: boolean, findings: Finding[]): Side {
  if (!applies) return { meaning: 'neutral', label: '—' };
  if (report.lint.status !== 'done') return { meaning: 'unjudged', label: 'not judged', why: `the static lint did not finish (${report.lint.status})` };
  if (findings.length > 0) {
    const meaning = worstMeaning(findings.map((finding) => SEVERITY_MEANING[finding.severity] ?? 'note'));
    return { meaning, label: MEANING_LABEL[meaning] };
  }
  if (code === '/core/publish-openapi' && report.staticFindings.some((finding) => finding.code === 'nlgov:openapi-json-documented')) {
    return { meaning: 'neutral', label: 'not described', why: 'the description does not describe /openapi.json, so there was nothing to check in it' };
  }
  return { meaning: 'pass', label: 'pass' };
}

function liveSide(result: CheckResult | undefined, applies: boolean): Side {
  if (!applies) return { meaning: 'neutral', label: '—' };
  if (result === undefined) return { meaning: 'neutral', label: 'not run' };
  const meaning = LIVE_MEANING[result.verdict];
  return { meaning, label: result.verdict === 'skip' ? 'skip' : MEANING_LABEL[meaning], ...(result.verdict === 'error' ? { why: 'the check could not observe what it needs' } : {}) };
}

/**
 * A rule fails when a side fails; it is not judged when a side could not judge, or when no side
 * judged anything (not applicable or not run on both); else its worst judged side.
 */
function ruleVerdict(sides: Side[]): Meaning {
  const worst = worstMeaning(sides.map((side) => side.meaning));
  return worst === 'neutral' ? 'unjudged' : worst;
}

function summaryRow(report: Report, row: RuleRow, technical: boolean): SummaryRow {
  const result = report.results.find((entry) => entry.code === row.code);
  const findings = report.staticFindings.filter((finding) => finding.code === row.code);
  const statics = staticSide(report, row.code, row.static, findings);
  const live = liveSide(result, row.live);
  return { code: row.code, title: row.title, technical, statics, live, verdict: ruleVerdict([statics, live]), result, findings };
}

/**
 * Every rule with a verdict, failures first: the technical rules (module rules when the module
 * applies: a live result or a static finding names them), then every other check and finding.
 */
export function summaryRows(report: Report): SummaryRow[] {
  const named = new Set([...report.results.map((result) => result.code), ...report.staticFindings.map((finding) => finding.code)]);
  const technical = [...CORE_RULES, ...MODULE_RULES.filter((row) => named.has(row.code))];
  const shown = new Set(technical.map((row) => row.code));
  const otherCodes = [...named].filter((code) => !shown.has(code));
  const others = otherCodes.map((code): RuleRow => ({
    code,
    title: OTHER_TITLES[code] ?? report.lint.descriptions?.[code] ?? '',
    static: report.staticFindings.some((finding) => finding.code === code),
    live: report.results.some((result) => result.code === code),
  }));
  const rows = [...technical.map((row) => summaryRow(report, row, true)), ...others.map((row) => summaryRow(report, row, false))];
  return rows.map((row, index) => ({ row, index }))
    .sort((a, b) => MEANING_ORDER.indexOf(a.row.verdict) - MEANING_ORDER.indexOf(b.row.verdict) || a.index - b.index)
    .map(({ row }) => row);
}

export interface Overall { verdict: 'conformant' | 'not-conformant' | 'not-fully-judged'; passed: number; warned: number; failed: number; unjudged: number; failedRules: string[]; unjudgedRules: string[]; otherFailed: string[]; internalErrors: number }

/** Conformant: every technical rule passed (warnings allowed), no other check failed and adr-check ran every step. */
export function overall(rows: SummaryRow[]): Overall {
  const technical = rows.filter((row) => row.technical);
  const passed = technical.filter((row) => row.verdict === 'pass' || row.verdict === 'note' || row.verdict === 'warn').length;
  const warned = technical.filter((row) => row.verdict === 'warn').length;
  const unjudgedRules = technical.filter((row) => row.verdict === 'unjudged').map((row) => row.code);
  const unjudged = unjudgedRules.length;
  const failedRules = technical.filter((row) => row.verdict === 'fail').map((row) => row.code);
  const otherFailed = rows.filter((row) => !row.technical && row.verdict === 'fail').map((row) => row.code);
  const failed = failedRules.length;
  // A step of adr-check that threw left something unchecked, whichever rule it was for.
  const internalErrors = rows.filter((row) => row.code.startsWith('adr-check/')).length;
  const verdict = failed > 0 || otherFailed.length > 0 ? 'not-conformant' : unjudged > 0 || internalErrors > 0 ? 'not-fully-judged' : 'conformant';
  return { verdict, passed, warned, failed, unjudged, failedRules, unjudgedRules, otherFailed, internalErrors };
}

const HEADLINE: Record<Overall['verdict'], { meaning: Meaning; text: string }> = {
  conformant: { meaning: 'pass', text: 'Conformant' },
  'not-conformant': { meaning: 'fail', text: 'Not conformant' },
  'not-fully-judged': { meaning: 'unjudged', text: 'Not fully judged' },
};

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A few codes are named in the sentence; a longer list is the summary's to show. */
function named(codes: string[], before: string, after: string): string {
  return codes.length > 0 && codes.length <= 4 ? `${before}${codes.join(', ')}${after}` : '';
}

function overallHtml(report: Report, rows: SummaryRow[]): string {
  const totals = overall(rows);
  const headline = HEADLINE[totals.verdict];
  const technical = totals.passed + totals.failed + totals.unjudged;
  const sentence = totals.verdict === 'conformant'
    ? `All ${technical} technical rules passed${totals.warned > 0 ? `, ${totals.warned} with warnings` : ''}.`
    : totals.verdict === 'not-fully-judged'
      ? `No rule failed, but ${[
        ...(totals.unjudged > 0 ? [`${plural(totals.unjudged, 'technical rule')} could not be judged${named(totals.unjudgedRules, ': ', '')}`] : []),
        ...(totals.internalErrors > 0 ? ['adr-check itself failed in a step (see adr-check/run below)'] : []),
      ].join(', and ')}.`
      : `${[
      ...(totals.failed > 0 ? [`${totals.failed} of ${technical} technical rules failed${named(totals.failedRules, ' (', ')')}`] : [`No technical rule failed`]),
      ...(totals.otherFailed.length > 0 ? [`${totals.failed > 0 ? 'and ' : 'but '}${plural(totals.otherFailed.length, 'other check')} failed${named(totals.otherFailed, ': ', '')}`] : []),
    ].join(', ')}.`;
  const staticOnly = report.results.length === 0 ? ' No live check ran: this verdict rests on the description alone.' : '';
  const box = (meaning: Meaning, count: number, label: string, extra = '') => `<li class="count" data-meaning="${meaning}"><span class="number">${count}</span> ${label}${extra}</li>`;
  return `<section id="overall" aria-labelledby="overall-title">
<h2 id="overall-title" class="visually-hidden">Overall verdict</h2>
<p class="headline" data-meaning="${headline.meaning}" data-verdict="${totals.verdict}">${headline.text}</p>
<p class="sentence">${escapeHtml(sentence + staticOnly)}</p>
<ul class="counts" aria-label="Technical rules">${box('pass', totals.passed, 'passed', totals.warned > 0 ? ` <span class="aside">(${totals.warned} with warnings)</span>` : '')}${box('fail', totals.failed, 'failed')}${box('unjudged', totals.unjudged, 'not judged')}${totals.otherFailed.length > 0 ? box('fail', totals.otherFailed.length, totals.otherFailed.length === 1 ? 'other check failed' : 'other checks failed') : ''}</ul>
</section>`;
}

function badge(side: Side, extraClass = ''): string {
  const title = side.why === undefined ? '' : ` title="${escapeHtml(side.why)}"`;
  return `<span class="badge${extraClass}" data-meaning="${side.meaning}"${title}>${escapeHtml(side.label)}</span>`;
}

function cell(side: Side): string {
  return `<td class="verdict" data-meaning="${side.meaning}"${side.why === undefined ? '' : ` title="${escapeHtml(side.why)}"`}>${escapeHtml(side.label)}</td>`;
}

function summaryHtml(rows: SummaryRow[]): string {
  const body = rows.map((row) => {
    const kind = row.technical ? '' : ' <span class="kind">not a technical rule</span>';
    const verdict: Side = { meaning: row.verdict, label: MEANING_LABEL[row.verdict] };
    return `<tr data-code="${escapeHtml(row.code)}"><th scope="row"><a href="#${escapeHtml(row.code)}"><code>${escapeHtml(row.code)}</code></a> <span class="title">${escapeHtml(row.title)}</span>${kind}</th>${cell(row.statics)}${cell(row.live)}${cell(verdict)}</tr>`;
  }).join('');
  return `<table id="summary"><caption>Every rule with a verdict, failures first. Static: the description, linted. Live: the running API.</caption><thead><tr><th scope="col">Rule</th><th scope="col" class="verdict">Static</th><th scope="col" class="verdict">Live</th><th scope="col" class="verdict">Verdict</th></tr></thead><tbody>${body}</tbody></table>`;
}

/** `code` spans of our own explanation lines become code; everything else is escaped text. */
function explanationHtml(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function evidenceHtml(evidence: Evidence): string {
  const headers = Object.entries(evidence.headers).map(([name, value]) => `<div>${escapeHtml(name)}: ${escapeHtml(value.trim() === '' ? '(empty)' : value)}</div>`).join('');
  const body = evidence.bodyExcerpt === undefined ? '' : `<pre>${escapeHtml(evidence.bodyExcerpt)}</pre>`;
  return `<li><code>${escapeHtml(evidence.method)} ${escapeHtml(evidence.url)}</code> → ${escapeHtml(String(evidence.status ?? evidence.error ?? '?'))}${headers === '' ? '' : `<div class="headers">${headers}</div>`}${body}</li>`;
}

function tableHtml(table: ReportTable): string {
  const head = table.columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('');
  const body = table.rows.map((row) => `<tr>${row.map((value) => `<td>${escapeHtml(value)}</td>`).join('')}</tr>`).join('');
  return `<div class="wide"><table class="tls"><caption>${escapeHtml(table.title)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

function findingHtml(finding: Finding): string {
  const place = `${finding.source === undefined ? '' : `${finding.source}:`}${finding.line}`;
  const meaning = SEVERITY_MEANING[finding.severity] ?? 'note';
  return `<li><span class="badge" data-meaning="${meaning}">${escapeHtml(finding.severity)}</span> <span class="place">${escapeHtml(place)}</span> <code>${escapeHtml(finding.path)}</code> <span class="message">${escapeHtml(finding.message)}</span></li>`;
}

/** Spectral's own rules, which the official ADR linter keeps on beside its own (docs/rules/core-doc-openapi.md). */
const SPECTRAL_RULE_EXPLANATION = {
  why: 'The official ADR linter runs Spectral\'s OpenAPI rules too: what they find makes the description wrong or unclear for the tools and people that read it.',
  fix: 'Change the description where the finding points, as its message says; Spectral\'s page of the rule explains it.',
};

/** The rule's one-line description is its title already (a Spectral rule's own); the explanation follows it. */
function explanationBlock(code: string): string {
  const explanation = RULE_EXPLANATIONS[code] ?? (rulePage(code) === undefined ? SPECTRAL_RULE_EXPLANATION : undefined);
  if (explanation === undefined) return '';
  return `<p class="why"><strong>Why it matters:</strong> ${explanationHtml(explanation.why)}</p><p class="fix"><strong>How to fix:</strong> ${explanationHtml(explanation.fix)}</p>`;
}

/** One line for a side without findings or a result: why it was not judged, or that it passed with nothing to show. */
function sideLine(name: string, side: Side, passed: string, notRun: string): string {
  if (side.label === '—') return '';
  const reason = side.why ?? (side.meaning === 'pass' ? passed : side.label === 'not run' ? notRun : '');
  return `<p>${name}: ${badge(side)}${reason === '' ? '' : ` ${escapeHtml(reason)}.`}</p>`;
}

function ruleSection(report: Report, row: SummaryRow): string {
  const { result, findings } = row;
  const notRun = report.results.length === 0 ? 'no live check ran' : 'the check did not run here (the notes above say why)';
  const live = result === undefined ? sideLine('Live', row.live, '', notRun) : `<h3>Live: ${badge(row.live)}</h3><p>${escapeHtml(result.summary)}</p>${result.details.length === 0 ? '' : `<ul>${result.details.map((detail) => `<li>${escapeHtml(detail)}</li>`).join('')}</ul>`}${result.evidence.length === 0 ? '' : `<h4>Evidence</h4><ul class="evidence">${result.evidence.map(evidenceHtml).join('')}</ul>`}${(result.tables ?? []).map(tableHtml).join('')}`;
  const statics = findings.length > 0 ? `<h3>Static findings: ${badge(row.statics)}</h3><ul class="findings">${findings.map(findingHtml).join('')}</ul>` : sideLine('Static', row.statics, 'no finding in the description', 'the static lint did not run');
  const links = ruleLinks(row.code, result, report.tool.version).map((link) => `<a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`).join(' · ');
  const open = row.verdict === 'pass' || row.verdict === 'neutral' || row.verdict === 'note' ? '' : ' open';
  return `<details id="${escapeHtml(row.code)}" class="rule" data-meaning="${row.verdict}"${open}><summary><span class="badge" data-meaning="${row.verdict}">${MEANING_LABEL[row.verdict]}</span> <code>${escapeHtml(row.code)}</code> ${escapeHtml(row.title)}</summary>
${explanationBlock(row.code)}${links === '' ? '' : `<p class="links">${links}</p>`}${live}${statics}</details>`;
}

/** Background and text of each meaning: text contrast at least 4.5:1 (WCAG AA) on its background. */
const MEANING_COLOURS: Record<Meaning, [string, string]> = {
  fail: ['#fde2e1', '#8a1c17'],
  unjudged: ['#efe3fa', '#5b1f86'],
  warn: ['#fff1c7', '#6b4a00'],
  note: ['#e2edfb', '#1c4a80'],
  pass: ['#dff2dc', '#1d5f1a'],
  neutral: ['#eeeeee', '#4a4a4a'],
};

const MEANING_STYLE = Object.entries(MEANING_COLOURS).map(([meaning, [background, text]]) => `[data-meaning="${meaning}"]{background:${background};color:${text};border-color:${text}}`).join('\n');

const STYLE = `*{box-sizing:border-box}
body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:70rem;color:#1a1a1a;padding:0 1rem;background:#fff}
h1{font-size:1.5rem;margin:0 0 .2rem}.meta{color:#4a4a4a;margin-top:0;overflow-wrap:anywhere}
code,pre,td,th{overflow-wrap:anywhere}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
#overall{margin:1rem 0 1.5rem}
.headline{font-size:1.6rem;font-weight:700;margin:0 0 .4rem;padding:.5rem .9rem;border-left:.4rem solid;border-radius:4px}
.sentence{margin:.2rem 0 .6rem}
.counts{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.5rem}
.count{padding:.35rem .8rem;border-radius:4px;border-left:.3rem solid}.count .number{font-size:1.3rem;font-weight:700}
.aside{font-size:.9em}
table{border-collapse:collapse;margin:1rem 0}
caption{text-align:left;padding:.2rem 0}
th,td{border:1px solid #bbb;padding:.3rem .5rem;text-align:left;vertical-align:top}
#summary{width:100%}#summary thead th{background:#f5f5f5}
#summary th[scope=row]{font-weight:400}
#summary .title{display:block;color:#333;font-size:.92em}
.kind{display:block;font-size:.8em;color:#4a4a4a;font-style:italic}
.verdict{font-weight:600;text-align:center;width:6.5rem;overflow-wrap:normal}
.badge{display:inline-block;font-weight:600;padding:0 .35rem;border-radius:3px;border:1px solid;font-size:.9em;white-space:nowrap}
details.rule{border:1px solid #ccc;border-left:.35rem solid;border-radius:4px;margin:.6rem 0;padding:.4rem .8rem;background:#fff;color:#1a1a1a}
details.rule>summary{cursor:pointer;padding:.2rem 0}
h3{margin:.8rem 0 .3rem;font-size:1rem}h4{margin:.6rem 0 .2rem;font-size:.95rem;color:#333}
pre{white-space:pre-wrap;background:#f5f5f5;padding:.4rem;overflow-wrap:anywhere}
.headers{font-family:monospace;color:#333;margin-left:1rem;overflow-wrap:anywhere}
.findings{padding-left:1.2rem}.findings li{margin:.25rem 0}.place{color:#4a4a4a}
.wide{overflow-x:auto}table.tls{font-size:13px}
a{color:#0b4fa3}
${MEANING_STYLE}
details.rule[data-meaning]{background:#fff;color:#1a1a1a}
@media (max-width:40rem){body{margin:.75rem auto;padding:0 .6rem;font-size:14px}
th,td{padding:.25rem .3rem}.verdict{width:auto;font-size:.85em}.headline{font-size:1.35rem}}
@page{size:A4;margin:14mm 12mm}
@media print{body{margin:0;padding:0;max-width:none;font-size:10.5pt}
details.rule::details-content{content-visibility:visible;display:block}
details.rule>summary{list-style:none}
tr,li,p,pre,.count,.headline,details.rule>summary{break-inside:avoid}h2,h3,h4,caption{break-after:avoid}
.wide{overflow:visible}table.tls{width:100%;font-size:8pt}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}`;

export function html(report: Report): string {
  const rows = summaryRows(report);
  const notices = report.notices.length === 0 ? '' : `<ul class="notices">${report.notices.map((notice) => `<li>${escapeHtml(notice)}</li>`).join('')}</ul>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API Design Rules conformance: ${escapeHtml(report.target)}</title><style>${STYLE}</style></head>
<body><header><h1>API Design Rules conformance</h1>
<p class="meta"><code>${escapeHtml(report.target)}</code>, ${escapeHtml(report.startedAt)}, nlgov-adr ${escapeHtml(report.tool.version)} (ruleset ${escapeHtml(report.tool.ruleset)}); ${report.requests} requests in ${report.durationMs} ms; static lint: ${escapeHtml(report.lint.status)}</p></header>
<main>
${overallHtml(report, rows)}
<h2>Summary</h2>
${summaryHtml(rows)}
${notices === '' ? '' : `<h2>Notes</h2>${notices}`}
<h2>Per rule</h2>
${rows.map((row) => ruleSection(report, row)).join('\n')}
</main>
</body></html>`;
}
