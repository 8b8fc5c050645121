import { readFile } from 'node:fs/promises';
import { Resolver } from '@stoplight/spectral-ref-resolver';

/**
 * A $ref resolver that reads local files and refuses http(s) at once. Corpus runs must not
 * depend on the network: results would change with it, and node-fetch (used by
 * httpAndFileResolver) has no timeout, so a host that never answers would stall the run. A
 * refused ref surfaces like any unresolvable one (Spectral's invalid-ref, our /core/doc-openapi).
 */
export function createOfflineResolver(): Resolver {
  const refuse = {
    resolve: async (ref: { href(): string }): Promise<never> => {
      throw new Error(`not fetched: offline run, ${ref.href()}`);
    },
  };
  return new Resolver({
    resolvers: {
      file: { resolve: async (ref: { href(): string }) => readFile(ref.href(), 'utf8') },
      http: refuse,
      https: refuse,
    },
  });
}
