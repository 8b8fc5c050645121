import type { LiveCheck } from './context.js';
import { publishOpenapi } from './checks/publish-openapi.js';
import { tls } from './checks/tls.js';
import { noTrailingSlash } from './checks/no-trailing-slash.js';
import { httpMethods } from './checks/http-methods.js';
import { cors } from './checks/cors.js';
import { httpResponseCode } from './checks/http-response-code.js';
import { securityHeaders } from './checks/security-headers.js';
import { versionHeader } from './checks/version-header.js';

/**
 * The live checks, in the order they run. The last two judge every response the others caused,
 * so they come last. Later areas (TLS enumeration, CRS, signatures, OAuth) add their checks here.
 */
export const LIVE_CHECKS: LiveCheck[] = [publishOpenapi, tls, noTrailingSlash, httpMethods, cors, httpResponseCode, securityHeaders, versionHeader];
