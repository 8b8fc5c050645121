import { fileURLToPath } from 'node:url';
import type { RulesetDefinition } from '@stoplight/spectral-core';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One error raised while linting a document, unwrapped down to what the function threw. */
export interface Failure {
  /** True when a rule function threw (Spectral's "Function ... threw an exception"). */
  functionThrew: boolean;
  /** The JSONPath whose callback threw, as Nimma reports it: the `given` of the rule. */
  given?: string;
  /** Codes of our rules with that `given`. */
  rules: string[];
  functionName?: string;
  message: string;
  /** Top stack frame in this project's code (not node_modules). */
  frame?: string;
}

/** Errors form a tree: Nimma's AggregateError holds one RuntimeError per throwing callback. */
function leaves(error: unknown): unknown[] {
  const nested = typeof error === 'object' && error !== null ? (error as { errors?: unknown }).errors : undefined;
  return Array.isArray(nested) && nested.length > 0 ? nested.flatMap(leaves) : [error];
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && !chain.includes(current); current = (current as { cause?: unknown }).cause) {
    chain.push(current);
  }
  return chain;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function projectFrame(error: unknown): string | undefined {
  const stack = error instanceof Error ? error.stack ?? '' : '';
  return stack.split('\n')
    .map((line) => line.trim())
    .find((line) => line.startsWith('at ') && line.includes(PROJECT_ROOT) && !line.includes('node_modules'))
    ?.replace(PROJECT_ROOT, '');
}

/** Which of our rules listen on a `given`, so a throw can be traced to a rule code. */
export function rulesByGiven(definition: RulesetDefinition): Map<string, string[]> {
  const byGiven = new Map<string, string[]>();
  const rules = (definition as { rules?: Record<string, unknown> }).rules ?? {};
  for (const [code, rule] of Object.entries(rules)) {
    const given = typeof rule === 'object' && rule !== null ? (rule as { given?: unknown }).given : undefined;
    for (const path of typeof given === 'string' ? [given] : Array.isArray(given) ? given.filter((item): item is string => typeof item === 'string') : []) {
      byGiven.set(path, [...(byGiven.get(path) ?? []), code]);
    }
  }
  return byGiven;
}

export function describeFailures(error: unknown, byGiven: Map<string, string[]>): Failure[] {
  return leaves(error).map((leaf) => {
    const chain = causeChain(leaf);
    const messages = chain.map(messageOf);
    const origin = chain[chain.length - 1];
    const functionName = messages.map((message) => /Function "([^"]*)" threw an exception/.exec(message)?.[1]).find((name) => name !== undefined);
    // Nimma wraps the callback's error in an error whose message starts with the JSONPath.
    const wrapper = chain[0];
    const given = functionName !== undefined && chain.length > 2 && wrapper instanceof Error ? /^(.*) threw: /s.exec(wrapper.message)?.[1] : undefined;
    return {
      functionThrew: functionName !== undefined,
      given,
      rules: given === undefined ? [] : byGiven.get(given) ?? [],
      functionName,
      message: messageOf(origin),
      frame: projectFrame(origin),
    };
  });
}

