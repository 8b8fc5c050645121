import type { Finding } from '../lib/lint.js';
import type { CheckResult, Evidence, Report, ReportTable, Verdict } from './report.js';

/**
 * The conformance report as one self-contained HTML page (no external assets): on top, each
 * technical rule of the standard (and of the modules that apply) with its static and its live
 * verdict; below, per rule, the evidence, the TLS tables and the static findings with their place
 * and a link to the rule's page. Every string is escaped; the report was redacted before.
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

/** The title a report gives a rule of the standard or a module, when it has one. */
export function ruleTitle(code: string): string | undefined {
  return [...CORE_RULES, ...MODULE_RULES].find((row) => row.code === code)?.title;
}

const LABEL: Record<Verdict | 'none' | 'not-run', string> = { pass: 'pass', warn: 'warn', fail: 'fail', skip: 'skip', error: 'error', none: '—', 'not-run': 'not run' };

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The rule's page in the package: docs/rules for what the ruleset checks, docs/live for the live geospatial checks. */
function docsLink(code: string, result: CheckResult | undefined): string {
  if (result?.docs !== undefined) return result.docs;
  return `docs/rules/${code.replace(/^\//, '').replace(/[/:]/g, '-')}.md`;
}

function staticVerdict(report: Report, row: RuleRow): Verdict | 'none' | 'not-run' {
  if (!row.static) return 'none';
  if (report.lint.status !== 'done') return 'not-run';
  const severities = report.staticFindings.filter((finding) => finding.code === row.code).map((finding) => finding.severity);
  return severities.includes('error') ? 'fail' : severities.includes('warn') ? 'warn' : 'pass';
}

function liveVerdict(report: Report, row: RuleRow): Verdict | 'none' | 'not-run' {
  if (!row.live) return 'none';
  return report.results.find((result) => result.code === row.code)?.verdict ?? 'not-run';
}

/** Module rules appear when the module applies: a live result, or a static finding, names them. */
function rows(report: Report): RuleRow[] {
  const named = new Set([...report.results.map((result) => result.code), ...report.staticFindings.map((finding) => finding.code)]);
  return [...CORE_RULES, ...MODULE_RULES.filter((row) => named.has(row.code))];
}

function cell(verdict: Verdict | 'none' | 'not-run'): string {
  return `<td class="verdict ${verdict}" data-verdict="${verdict}">${LABEL[verdict]}</td>`;
}

function evidenceHtml(evidence: Evidence): string {
  const headers = Object.entries(evidence.headers).map(([name, value]) => `<div>${escapeHtml(name)}: ${escapeHtml(value.trim() === '' ? '(empty)' : value)}</div>`).join('');
  const body = evidence.bodyExcerpt === undefined ? '' : `<pre>${escapeHtml(evidence.bodyExcerpt)}</pre>`;
  return `<li><code>${escapeHtml(evidence.method)} ${escapeHtml(evidence.url)}</code> → ${escapeHtml(String(evidence.status ?? evidence.error ?? '?'))}${headers === '' ? '' : `<div class="headers">${headers}</div>`}${body}</li>`;
}

function tableHtml(table: ReportTable): string {
  const head = table.columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('');
  const body = table.rows.map((row) => `<tr>${row.map((value) => `<td>${escapeHtml(value)}</td>`).join('')}</tr>`).join('');
  return `<table class="tls"><caption>${escapeHtml(table.title)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function findingHtml(finding: Finding): string {
  const place = `${finding.source === undefined ? '' : `${finding.source}:`}${finding.line}`;
  return `<li class="${finding.severity}"><span class="severity">${finding.severity}</span> <code>${escapeHtml(finding.path)}</code> <span class="place">${escapeHtml(place)}</span> ${escapeHtml(finding.message)}</li>`;
}

function ruleSection(report: Report, row: RuleRow): string {
  const result = report.results.find((entry) => entry.code === row.code);
  const findings = report.staticFindings.filter((finding) => finding.code === row.code);
  const live = result === undefined ? '' : `<h4>Live: ${escapeHtml(result.verdict)}</h4><p>${escapeHtml(result.summary)}</p>${result.details.length === 0 ? '' : `<ul>${result.details.map((detail) => `<li>${escapeHtml(detail)}</li>`).join('')}</ul>`}${result.evidence.length === 0 ? '' : `<ul class="evidence">${result.evidence.map(evidenceHtml).join('')}</ul>`}${(result.tables ?? []).map(tableHtml).join('')}`;
  const statics = findings.length === 0 ? '' : `<h4>Static findings</h4><ul class="findings">${findings.map(findingHtml).join('')}</ul>`;
  const open = [staticVerdict(report, row), liveVerdict(report, row)].some((verdict) => verdict === 'fail' || verdict === 'error') ? ' open' : '';
  return `<details id="${escapeHtml(row.code)}"${open}><summary><code>${escapeHtml(row.code)}</code> ${escapeHtml(row.title)} <a href="${escapeHtml(docsLink(row.code, result))}">rule page</a></summary>${live}${statics}${live === '' && statics === '' ? '<p>Nothing to show: no finding, no live check.</p>' : ''}</details>`;
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;color:#1a1a1a;padding:0 1rem}
h1{font-size:1.5rem;margin-bottom:.2rem}.meta{color:#555;margin-top:0}table{border-collapse:collapse;margin:1rem 0}
th,td{border:1px solid #ccc;padding:.3rem .6rem;text-align:left;vertical-align:top}.verdict{font-weight:600;text-align:center;min-width:5rem}
.pass{background:#e3f4e1;color:#1d5f1a}.warn{background:#fff4d6;color:#7a5700}.fail{background:#fde2e1;color:#8a1c17}
.error{background:#f1e4fb;color:#5b1f86}.skip,.none,.not-run{background:#f1f1f1;color:#555}details{border:1px solid #ddd;border-radius:4px;margin:.5rem 0;padding:.4rem .8rem}
summary{cursor:pointer}pre{white-space:pre-wrap;background:#f7f7f7;padding:.4rem}.headers{font-family:monospace;color:#333;margin-left:1rem}
.findings .severity{display:inline-block;min-width:3rem;font-weight:600}table.tls{font-size:13px}`;

export function html(report: Report): string {
  const ruleRows = rows(report);
  const summary = ruleRows.map((row) => `<tr><th scope="row"><a href="#${escapeHtml(row.code)}"><code>${escapeHtml(row.code)}</code></a> ${escapeHtml(row.title)}</th>${cell(staticVerdict(report, row))}${cell(liveVerdict(report, row))}</tr>`).join('');
  const shown = new Set(ruleRows.map((row) => row.code));
  const otherLive = report.results.filter((result) => !shown.has(result.code));
  const otherFindings = report.staticFindings.filter((finding) => !shown.has(finding.code));
  const others = [
    ...otherLive.map((result) => ruleSection(report, { code: result.code, title: '', static: false, live: true })),
    ...[...new Set(otherFindings.map((finding) => finding.code))].map((code) => ruleSection(report, { code, title: '', static: true, live: false })),
  ].join('');
  const notices = report.notices.length === 0 ? '' : `<ul class="notices">${report.notices.map((notice) => `<li>${escapeHtml(notice)}</li>`).join('')}</ul>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API Design Rules conformance: ${escapeHtml(report.target)}</title><style>${STYLE}</style></head>
<body><h1>API Design Rules conformance</h1>
<p class="meta"><code>${escapeHtml(report.target)}</code>, ${escapeHtml(report.startedAt)}, nlgov-adr ${escapeHtml(report.tool.version)} (ruleset ${escapeHtml(report.tool.ruleset)}); ${report.requests} requests in ${report.durationMs} ms; static lint: ${escapeHtml(report.lint.status)}</p>
${notices}
<table id="summary"><thead><tr><th>Rule</th><th>Static</th><th>Live</th></tr></thead><tbody>${summary}</tbody></table>
<h2>Per rule</h2>${ruleRows.map((row) => ruleSection(report, row)).join('')}
${others === '' ? '' : `<h2>Other rules</h2>${others}`}
</body></html>`;
}
