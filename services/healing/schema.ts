// The fingerprint at the door (CONTRACT section 18): a `.side` file's `fingerprint` checked
// before it is used. Kept apart from fingerprint.ts so the page's bundle does not carry zod.
import { z } from "zod";
import { MAX_FINGERPRINT_JSON } from "./fingerprint.ts";
import type { Fingerprint } from "./fingerprint.ts";

const text = z.string().max(MAX_FINGERPRINT_JSON);
const byName = z.record(z.string().max(64), text);
const px = z.number().finite();

export const FingerprintSchema = z
  .object({
    tag: z.string().min(1).max(64),
    id: text.optional(),
    name: text.optional(),
    classes: z.array(text).max(64),
    type: text.optional(),
    text: text.optional(),
    testIds: byName.optional(),
    aria: byName.optional(),
    label: text.optional(),
    href: text.optional(),
    src: text.optional(),
    alt: text.optional(),
    title: text.optional(),
    placeholder: text.optional(),
    value: text.optional(),
    role: text.optional(),
    accessibleName: text.optional(),
    xpath: text,
    index: z.number().int().min(0),
    box: z.object({ x: px, y: px, width: px.min(0), height: px.min(0) }),
    neighbourText: text.optional(),
    contextText: text.optional(),
  })
  .refine((fingerprint) => JSON.stringify(fingerprint).length <= MAX_FINGERPRINT_JSON * 2, {
    message: `a fingerprint's JSON takes at most ${MAX_FINGERPRINT_JSON * 2} characters`,
  });

// The schema and the type the page code builds must not drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same: Same<z.infer<typeof FingerprintSchema>, Fingerprint> = true;
void same;

/** The fingerprint in `value`, or a clear error naming what is wrong with it. */
export function parseFingerprint(value: unknown): Fingerprint {
  const result = FingerprintSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  throw new TypeError(`Not a fingerprint${where}: ${issue.message}.`);
}
