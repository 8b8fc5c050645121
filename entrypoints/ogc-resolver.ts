import { readFile } from 'node:fs/promises';
import { Resolver } from '@stoplight/spectral-ref-resolver';
import { readOgcSchema } from '../lib/ogc-schema-files.js';

/**
 * The `$ref` resolver for `spectral lint --resolver` (nlgov-adr-lint passes it): local files are
 * read as Spectral reads them; the OGC's published API schemas (schemas.opengis.net, and the same
 * files in the OGC's repositories on raw.githubusercontent.com) come from the copies in this package; any other http(s) URL is refused at once, so a lint gives the same
 * findings offline and in CI, and a host that never answers cannot stall it (Spectral's own reader
 * has no timeout). `nlgov-adr-lint --fetch-remote-refs` leaves Spectral's own resolver in place.
 * See docs/ogc-schemas.md.
 */
const remote = {
  resolve: async (ref: { href(): string }): Promise<string> => {
    const url = ref.href();
    const read = readOgcSchema(url);
    if (read.kind === 'packaged') return read.text;
    // The URL last: /core/doc-openapi shows the rest as the cause, and the URL as the file.
    if (read.kind === 'not-packaged') throw new Error(read.message);
    throw new Error(`not fetched, this resolver reads only local files and the OGC API schemas this package ships (nlgov-adr-lint --fetch-remote-refs, or spectral lint without --resolver, fetches remote $refs): ${url}`);
  },
};

const resolver = new Resolver({
  resolvers: {
    file: { resolve: async (ref: { href(): string }) => readFile(ref.href(), 'utf8') },
    http: remote,
    https: remote,
  },
});

export default resolver;
