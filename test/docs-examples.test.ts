import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { nlgovRules } from '../rulesets/modules.js';
import { ruleSlug } from '../rulesets/documentation.js';
import { findingsOf } from './harness.js';

/**
 * The failing and passing examples of every rule page are linted as documents of their own, so
 * a page cannot drift from what the rule does. An example may leave out the top-level fields it
 * is not about; those get a minimal value.
 */
const MINIMAL = { openapi: '3.0.3', info: { title: 'Voorbeeld', version: '1.0.0' }, paths: {} };

interface Example {
  document: Record<string, unknown>;
  /** The messages the page says the example gives, in the page's order. */
  findings: string[];
}

function section(page: string, heading: string): string {
  const start = page.indexOf(`\n${heading}\n`);
  const rest = page.slice(start + heading.length + 2);
  const end = rest.indexOf('\n## ');
  return end < 0 ? rest : rest.slice(0, end);
}

function example(page: string, heading: string): Example {
  const text = section(page, heading);
  const yaml = /```ya?ml\n([\s\S]*?)```/.exec(text)?.[1] ?? '';
  const single = [...text.matchAll(/^The finding: `(.*)`$/gm)].map((match) => match[1] as string);
  const listed = text.includes('\nThe findings:\n') ? [...text.split('\nThe findings:\n')[1]!.matchAll(/^- `(.*)`$/gm)].map((match) => match[1] as string) : [];
  return { document: { ...MINIMAL, ...(parse(yaml) as Record<string, unknown>) }, findings: [...single, ...listed] };
}

const pages = Object.keys(nlgovRules).map((code) => [code, readFileSync(join(process.cwd(), 'docs', 'rules', `${ruleSlug(code)}.md`), 'utf8')] as const);

describe.each(pages)('%s', (code, page) => {
  test('the failing example gives exactly the findings its page names', async () => {
    const failing = example(page, '## Failing example');
    expect(failing.findings.length).toBeGreaterThan(0);
    const messages = (await findingsOf(code, failing.document)).map((finding) => finding.message);
    expect([...messages].sort()).toEqual([...failing.findings].sort());
  });

  test('the passing example gives no finding', async () => {
    expect(await findingsOf(code, example(page, '## Passing example').document)).toEqual([]);
  });
});
