import { RULE_EXPLANATIONS } from '../lib/rule-explanations.js';

/**
 * A rule's help for SARIF (`help.text`, `help.markdown`), which code scanning shows beside an
 * alert: the "Why it matters" and "How to fix" lines of the rule's page (docs/rules, docs/live;
 * lib/rule-explanations.ts holds them), and a link to the page. Bounded, though the pages keep
 * them to a sentence each.
 */

/** Characters of each part of the help. */
export const MAX_HELP_PART = 1000;

export interface RuleHelp { text: string; markdown: string }

export function ruleHelp(code: string, pageUrl: string): RuleHelp | undefined {
  const explanation = Object.hasOwn(RULE_EXPLANATIONS, code) ? RULE_EXPLANATIONS[code] : undefined;
  if (explanation === undefined) return undefined;
  const why = bounded(explanation.why);
  const fix = bounded(explanation.fix);
  return {
    text: `Why it matters: ${plainText(why)}\nHow to fix: ${plainText(fix)}\nMore: ${pageUrl}`,
    markdown: `**Why it matters:** ${why}\n\n**How to fix:** ${fix}\n\n[The rule's page](${pageUrl})`,
  };
}

function bounded(text: string): string {
  return text.length <= MAX_HELP_PART ? text : `${text.slice(0, MAX_HELP_PART - 1)}…`;
}

/** Markdown code spans as plain text. */
function plainText(markdown: string): string {
  return markdown.replace(/`/g, '');
}
