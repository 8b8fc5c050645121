import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RULE_EXPLANATIONS } from '../lib/rule-explanations.js';
import { collectExplanations, GENERATED_FILE, pageExplanation, renderExplanations } from '../tools/rule-explanations.js';

/**
 * The "Why it matters" and "How to fix" lines the HTML report shows per rule come from the docs
 * pages through a generated file (npm run docs:explanations): it must be current, and every rule
 * page must have both lines.
 */
const root = resolve('.');

test('lib/rule-explanations.ts is what tools/rule-explanations.ts makes of the docs pages today', () => {
  expect(readFileSync(join(root, GENERATED_FILE), 'utf8')).toBe(renderExplanations(collectExplanations(root)));
});

test('every page of docs/rules, and the pages of the live-only checks, explain their rule in both lines', () => {
  const pages = readdirSync(join(root, 'docs/rules')).filter((name) => name.endsWith('.md') && name !== 'README.md').map((name) => `docs/rules/${name}`);
  const explained = new Set(Object.values(RULE_EXPLANATIONS).map((explanation) => explanation.page));
  expect(pages.filter((page) => !explained.has(page))).toEqual([]);
  for (const code of ['/core/transport/security-headers', '/core/transport/cors', '/core/http-response-code']) {
    expect([code, RULE_EXPLANATIONS[code]?.page.startsWith('docs/live/')]).toEqual([code, true]);
  }
  for (const [code, { why, fix }] of Object.entries(RULE_EXPLANATIONS)) {
    // One sentence each: a line a summary can show.
    expect([code, why.length < 260 && fix.length < 260, /\.$/.test(why) && /\.$/.test(fix)]).toEqual([code, true, true]);
  }
});

test('a page with one of the two lines alone, or with no rule in its title, is refused with what to do', () => {
  expect(() => pageExplanation('docs/rules/x.md', '# /core/x\n\n**Why it matters:** because.\n')).toThrow('docs/rules/x.md has only one of "Why it matters" and "How to fix"');
  expect(() => pageExplanation('docs/live/x.md', '# Several checks\n\n**Why it matters:** a.\n\n**How to fix:** b.\n')).toThrow('Start the page with "# <rule code>"');
  expect(pageExplanation('docs/live/x.md', '# /geo/crs-list (live)\n\n**Why it matters:** a.\n\n**How to fix:** b.\n')).toEqual({ code: '/geo/crs-list', page: 'docs/live/x.md', why: 'a.', fix: 'b.' });
});
