import { readFile } from 'node:fs/promises';
import { Resolver } from '@stoplight/spectral-ref-resolver';

/**
 * A $ref resolver that reads local files and refuses http(s) at once. Corpus runs must not
 * depend on the network: results would change with it, and node-fetch (used by
 * httpAndFileResolver) has no timeout, so a host that never answers would stall the run. A
 * refused file surfaces like any file that cannot be fetched: Spectral's invalid-ref with this
 * error, /core/doc-openapi once per file with the part before the URL as the cause.
 */
export function createOfflineResolver(): Resolver {
  const refuse = {
    resolve: async (ref: { href(): string }): Promise<never> => {
      throw new Error(`offline run: http(s) $refs are not fetched, --network fetches them: ${ref.href()}`);
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
