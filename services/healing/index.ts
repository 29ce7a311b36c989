// Healing (CONTRACT section 18): the fingerprint of a recorded element and relocation by
// similarity. DOM-only but for schema.ts (zod), which the page's bundle leaves out.
export { fingerprintOf, absoluteXPath, MAX_FINGERPRINT_JSON, TEST_ID_ATTRIBUTES, type Fingerprint, type Box } from "./fingerprint.ts";
export { relocate, locatorFor, describeCandidates, refusalMessage, DEFAULT_MARGIN, DEFAULT_THRESHOLD, type Relocation, type RelocateOptions, type NamedCandidate } from "./relocate.ts";
export { heal, SURE_SCORE, type HealRequest, type HealResult } from "./heal.ts";
export { similarity, WEIGHTS, type Weights } from "./score.ts";
