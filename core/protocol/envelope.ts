// The door: the message's shape, before anything else is looked at (CONTRACT section 2).
// A request's fields come from the object itself or from `payload`; both forms are one.
import equal from "fast-deep-equal";
import { fail } from "../../machines/replies.ts";
import type { Reply } from "../../machines/shared.types.ts";

export const VERBS = ["get", "post", "put", "delete"] as const;
export type Verb = (typeof VERBS)[number];

const ENVELOPE_KEYS = new Set(["uri", "verb", "payload"]);
const OPEN_FLAGS = ["openIDEIfClosed", "openSeleniumIDEIfClosed"] as const;

export interface Envelope {
  /** Absent only for a bare open request. */
  uri: string | null;
  verb: Verb | null;
  /** The request's fields, flat and `payload` merged; own properties only. */
  fields: Record<string, unknown>;
  /** The open request flag, exactly `true` at the top level or under `payload`. */
  open: boolean;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

// `__proto__` is defined rather than assigned, so it stays a plain field.
function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

export function readEnvelope(message: unknown): { ok: true; envelope: Envelope } | { ok: false; reply: Reply } {
  if (!isPlainObject(message)) {
    return { ok: false, reply: fail("InvalidRequest", "The request must be a JSON object with `uri` and `verb`.") };
  }
  // `payload: null` is how real plugins say "no payload" (CONTRACT section 2, round 2).
  const given = Object.hasOwn(message, "payload") ? message.payload : undefined;
  const payload = given === null ? undefined : given;
  if (payload !== undefined && !isPlainObject(payload)) {
    return { ok: false, reply: fail("InvalidRequest", "`payload` must be an object, null or absent.") };
  }
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(message)) {
    if (!ENVELOPE_KEYS.has(key)) setField(fields, key, message[key]);
  }
  if (payload) {
    for (const key of Object.keys(payload)) {
      if (Object.hasOwn(fields, key) && !equal(fields[key], payload[key])) {
        return {
          ok: false,
          reply: fail("InvalidRequest", `\`${key}\` is given both flat and under \`payload\` with different values.`),
        };
      }
      setField(fields, key, payload[key]);
    }
  }
  const open = OPEN_FLAGS.some((flag) => fields[flag] === true);
  const uri = Object.hasOwn(message, "uri") ? message.uri : undefined;
  const verb = Object.hasOwn(message, "verb") ? message.verb : undefined;
  if (uri === undefined && open) {
    return { ok: true, envelope: { uri: null, verb: null, fields, open } };
  }
  if (typeof uri !== "string") {
    return { ok: false, reply: fail("InvalidRequest", "`uri` must be a string, such as \"/health\".") };
  }
  const lowerVerb = typeof verb === "string" ? verb.toLowerCase() : undefined;
  if (!VERBS.includes(lowerVerb as Verb)) {
    return { ok: false, reply: fail("InvalidRequest", "`verb` must be one of get, post, put, delete (any case).") };
  }
  return { ok: true, envelope: { uri, verb: lowerVerb as Verb, fields, open } };
}
