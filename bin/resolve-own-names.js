// Preloaded (node --import) into the Spectral CLI that nlgov-adr-lint starts: a ruleset's
// `extends: nlgov-adr` (or nlgov-adr/core, ...) is this package, see ruleset-choice.js.
import { resolveOwnNames } from './ruleset-choice.js';

resolveOwnNames();
