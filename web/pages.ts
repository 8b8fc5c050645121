import { escapeHtml } from '../live/html.js';
import { render } from '../live/formats.js';
import type { Report } from '../live/report.js';
import { word, type Lang, type WordKey } from './i18n.js';
import type { Progress } from './runner.js';
import type { CheckRecord, CheckSummary } from './store.js';

/** Where the page lives, for the language switch (the same page in the other language). */
interface PageFrame { lang: Lang; title: string; path: string; refreshSeconds?: number; status?: 'error' }

function languageSwitch(lang: Lang, path: string): string {
  const other = word(lang, 'languageCode');
  const separator = path.includes('?') ? '&' : '?';
  return `<a class="lang" href="${escapeHtml(`${path}${separator}lang=${other}`)}" hreflang="${other}" lang="${other}">${escapeHtml(word(lang, 'language'))}</a>`;
}

function header(lang: Lang, path: string): string {
  return `<header class="web-bar"><a class="home" href="/">${escapeHtml(word(lang, 'title'))}</a>${languageSwitch(lang, path)}</header>`;
}

/** A whole page of the web checker: its own stylesheet and script, nothing inline, nothing from elsewhere. */
export function page(frame: PageFrame, body: string): string {
  // Without JavaScript the progress page reloads itself; with it, app.js follows the check and reloads when it ends.
  const refresh = frame.refreshSeconds === undefined ? '' : `<noscript><meta http-equiv="refresh" content="${frame.refreshSeconds}"></noscript>`;
  return `<!DOCTYPE html>
<html lang="${frame.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(frame.title)}</title>${refresh}
<link rel="stylesheet" href="/static/web.css"><link rel="service-desc" href="/openapi.json" type="application/vnd.oai.openapi+json">
<script src="/static/app.js" defer></script></head>
<body class="web">${header(frame.lang, frame.path)}<main>${body}</main></body></html>`;
}

export interface FormValues { url?: string; paste?: string }

export function formPage(lang: Lang, retentionDays: number, message?: { title: WordKey; text: string }, values: FormValues = {}): string {
  const alert = message === undefined ? '' : `<div class="alert" role="alert"><h2>${escapeHtml(word(lang, message.title))}</h2><p>${escapeHtml(message.text)}</p></div>`;
  const body = `<h1>${escapeHtml(word(lang, 'title'))}</h1><p class="intro">${escapeHtml(word(lang, 'intro'))}</p>${alert}
<form method="post" action="/checks" class="check">
<fieldset><legend>${escapeHtml(word(lang, 'liveLegend'))}</legend>
<label for="url">${escapeHtml(word(lang, 'baseUrl'))}</label>
<input id="url" name="url" type="url" inputmode="url" autocomplete="url" placeholder="https://api.example.nl/v1" value="${escapeHtml(values.url ?? '')}" aria-describedby="url-hint">
<p id="url-hint" class="hint">${escapeHtml(word(lang, 'baseUrlHint'))}</p>
<label for="token">${escapeHtml(word(lang, 'token'))}</label>
<input id="token" name="token" type="password" autocomplete="off" aria-describedby="token-hint">
<p id="token-hint" class="hint">${escapeHtml(word(lang, 'tokenHint'))}</p>
<button type="submit">${escapeHtml(word(lang, 'checkLive'))}</button></fieldset>
</form>
<form method="post" action="/checks" enctype="multipart/form-data" class="check">
<fieldset><legend>${escapeHtml(word(lang, 'staticLegend'))}</legend>
<label for="file">${escapeHtml(word(lang, 'upload'))}</label>
<input id="file" name="file" type="file" accept=".json,.yaml,.yml,application/json,application/yaml">
<label for="paste">${escapeHtml(word(lang, 'paste'))}</label>
<textarea id="paste" name="paste" rows="8" spellcheck="false" aria-describedby="upload-hint">${escapeHtml(values.paste ?? '')}</textarea>
<p id="upload-hint" class="hint">${escapeHtml(word(lang, 'uploadHint', { days: retentionDays }))}</p>
<button type="submit">${escapeHtml(word(lang, 'checkStatic'))}</button></fieldset>
</form>`;
  return page({ lang, title: word(lang, 'title'), path: '/' }, body);
}

export function progressText(lang: Lang, position: number | undefined, progress: Progress | undefined): string {
  if (position !== undefined && position > 0) return word(lang, 'queued', { position });
  if (progress === undefined) return word(lang, 'starting');
  return word(lang, 'running', { done: progress.index, total: progress.total, current: `; ${progress.check}` });
}

export function progressPage(lang: Lang, record: CheckRecord, position: number | undefined, progress: Progress | undefined): string {
  const body = `<h1>${escapeHtml(word(lang, 'progressTitle', { target: record.target }))}</h1>
<p id="progress" class="progress" role="status" aria-live="polite" data-check="${escapeHtml(record.id)}" data-queued="${escapeHtml(word(lang, 'queued'))}" data-running="${escapeHtml(word(lang, 'running'))}" data-starting="${escapeHtml(word(lang, 'starting'))}">${escapeHtml(progressText(lang, position, progress))}</p>
<progress id="progress-bar" ${progress === undefined ? '' : `value="${progress.index}" max="${progress.total}"`} aria-label="${escapeHtml(word(lang, 'running', { done: progress?.index ?? 0, total: progress?.total ?? '?', current: '' }))}"></progress>
<p class="hint">${escapeHtml(word(lang, 'reloadHint'))}</p>`;
  return page({ lang, title: word(lang, 'progressTitle', { target: record.target }), path: `/checks/${record.id}`, refreshSeconds: 3 }, body);
}

export function failedPage(lang: Lang, record: CheckRecord): string {
  const body = `<h1>${escapeHtml(word(lang, 'failedTitle'))}: ${escapeHtml(record.target)}</h1><div class="alert" role="alert"><p>${escapeHtml(record.error ?? '')}</p></div>${againForm(lang, record)}`;
  return page({ lang, title: `${word(lang, 'failedTitle')}: ${record.target}`, path: `/checks/${record.id}` }, body);
}

export function messagePage(lang: Lang, path: string, title: WordKey, text: string): string {
  return page({ lang, title: word(lang, title), path }, `<h1>${escapeHtml(word(lang, title))}</h1><div class="alert" role="alert"><p>${escapeHtml(text)}</p></div><p><a href="/">${escapeHtml(word(lang, 'newCheck'))}</a></p>`);
}

/** Failing rules first (they fail whatever was not judged), then incomplete, then conformant: as adr-check's exit codes 1, 2 and 0. */
export function outcomeOf(summary: CheckSummary | undefined): 'failing' | 'incomplete' | 'conformant' {
  if ((summary?.failing.length ?? 0) > 0) return 'failing';
  return summary === undefined || summary.incomplete !== undefined ? 'incomplete' : 'conformant';
}

export function verdictWords(lang: Lang, summary: CheckSummary | undefined): string {
  const failing = summary?.failing.length ?? 0;
  const outcome = outcomeOf(summary);
  if (outcome === 'conformant') return word(lang, 'conformant');
  if (outcome === 'incomplete') return word(lang, 'incomplete');
  return failing === 1 ? word(lang, 'failingRule') : word(lang, 'failingRules', { count: failing });
}

function againForm(lang: Lang, record: CheckRecord): string {
  const token = record.kind === 'live' ? `<label for="again-token">${escapeHtml(word(lang, 'tokenAgain'))}</label><input id="again-token" name="token" type="password" autocomplete="off">` : '';
  return `<form method="post" action="/checks/${escapeHtml(record.id)}/again" class="again">${token}<button type="submit">${escapeHtml(word(lang, 'checkAgain'))}</button></form>`;
}

/** The bar above the report: verdict, check again, downloads, history, permalink. */
function resultBar(lang: Lang, record: CheckRecord): string {
  const outcome = outcomeOf(record.summary);
  const why = record.summary?.incomplete === undefined ? '' : ` <span class="why">(${escapeHtml(record.summary.incomplete)})</span>`;
  const downloads = [['json', 'JSON'], ['sarif', 'SARIF'], ['junit', 'JUnit'], ['html', 'HTML']]
    .map(([format, label]) => `<a href="/checks/${escapeHtml(record.id)}/report.${format}" download>${label}</a>`).join(' ');
  const history = record.kind === 'live' ? `<a href="/history?url=${encodeURIComponent(record.target)}">${escapeHtml(word(lang, 'history'))}</a>` : '';
  return `<nav class="web-bar" aria-label="${escapeHtml(word(lang, 'title'))}"><a class="home" href="/">${escapeHtml(word(lang, 'newCheck'))}</a>${languageSwitch(lang, `/checks/${record.id}`)}</nav>
<section class="web-result"><p class="verdict-line"><strong id="verdict" class="${outcome}">${escapeHtml(verdictWords(lang, record.summary))}</strong>${why} <span class="permalink">${escapeHtml(word(lang, 'permalink'))}: <a href="/checks/${escapeHtml(record.id)}">/checks/${escapeHtml(record.id)}</a></span></p>
<p class="actions">${escapeHtml(word(lang, 'download'))}: ${downloads} ${history}</p>${againForm(lang, record)}</section>`;
}

/**
 * The result: the HTML report adr-check --format html writes, with the web checker's bar on top
 * and its stylesheet beside the report's own. Returns the page and the report's inline styles,
 * which the Content-Security-Policy allows by their hashes.
 */
export function resultPage(lang: Lang, record: CheckRecord, report: Report): { html: string; inlineStyles: string[] } {
  const report_ = render(report, 'html', { colour: false, verbose: false, secrets: [] });
  const inlineStyles = [...report_.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');
  const withHead = report_.replace(/<\/head>/, '<link rel="stylesheet" href="/static/web.css"><link rel="service-desc" href="/openapi.json" type="application/vnd.oai.openapi+json"><script src="/static/app.js" defer></script></head>');
  const withBar = withHead.replace(/<body([^>]*)>/, (tag) => `${tag}${resultBar(lang, record)}`);
  return { html: withBar, inlineStyles };
}

/** Rule by rule, what changed from one check to the next. */
export function changes(before: CheckSummary | undefined, after: CheckSummary | undefined): string[] {
  if (before === undefined || after === undefined) return [];
  const codes = [...new Set([...Object.keys(before.rules), ...Object.keys(after.rules)])].sort();
  return codes.filter((code) => (before.rules[code] ?? 'none') !== (after.rules[code] ?? 'none')).map((code) => `${code}: ${before.rules[code] ?? 'none'} → ${after.rules[code] ?? 'none'}`);
}

export function historyPage(lang: Lang, target: string, records: CheckRecord[], badgePath: string, origin: string): string {
  const done = records.filter((record) => record.state === 'done');
  const rows = records.map((record) => {
    const previous = done.find((candidate) => candidate.createdAt < record.createdAt);
    const changed = record.state === 'done' ? changes(previous?.summary, record.summary) : [];
    const result = record.state === 'done' ? verdictWords(lang, record.summary) : record.state === 'failed' ? `${word(lang, 'failedTitle')}: ${record.error ?? ''}` : record.state;
    const changedCell = previous === undefined || record.state !== 'done' ? '—' : changed.length === 0 ? word(lang, 'noChange') : `<ul>${changed.map((line) => `<li><code>${escapeHtml(line)}</code></li>`).join('')}</ul>`;
    // A check made with a token is not linked: its report is for whoever holds its permalink.
    const when = record.withToken === true ? `${escapeHtml(record.createdAt)} <span class="why">(${escapeHtml(word(lang, 'historyWithToken'))})</span>` : `<a href="/checks/${escapeHtml(record.id)}">${escapeHtml(record.createdAt)}</a>`;
    return `<tr><td>${when}</td><td>${escapeHtml(result)}</td><td>${changedCell === '—' || changed.length === 0 ? escapeHtml(changedCell) : changedCell}</td></tr>`;
  }).join('');
  const badgeUrl = `${origin}${badgePath}`;
  const body = `<h1>${escapeHtml(word(lang, 'historyTitle', { target }))}</h1>
<table class="history"><thead><tr><th scope="col">${escapeHtml(word(lang, 'historyWhen'))}</th><th scope="col">${escapeHtml(word(lang, 'historyResult'))}</th><th scope="col">${escapeHtml(word(lang, 'historyChanged'))}</th></tr></thead><tbody>${rows}</tbody></table>
<h2>${escapeHtml(word(lang, 'badge'))}</h2><p><img src="${escapeHtml(badgePath)}" alt="ADR: ${escapeHtml(verdictWords(lang, done[0]?.summary))}"></p>
<pre class="snippet">${escapeHtml(`![ADR](${badgeUrl})`)}</pre>`;
  return page({ lang, title: word(lang, 'historyTitle', { target }), path: `/history?url=${encodeURIComponent(target)}` }, body);
}

/** A flat badge, shields-style: "ADR | conformant" in green, "ADR | 3 failing rules" in red, "ADR | not checked" in grey. */
export function badgeSvg(value: string, colour: 'green' | 'red' | 'grey'): string {
  const fill = { green: '#2e7d32', red: '#c62828', grey: '#616161' }[colour];
  const labelWidth = 38;
  const valueWidth = 12 + value.length * 7;
  const width = labelWidth + valueWidth;
  const text = escapeHtml(value);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="ADR: ${text}"><title>ADR: ${text}</title><rect width="${labelWidth}" height="20" fill="#444"/><rect x="${labelWidth}" width="${valueWidth}" height="20" fill="${fill}"/><g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11"><text x="8" y="14">ADR</text><text x="${labelWidth + 6}" y="14">${text}</text></g></svg>`;
}
