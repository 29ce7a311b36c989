import { z } from "zod";
import { describeZodIssue, nonEmptyString, refuseDuplicateIds } from "../validation.ts";

// Loose objects: a registration keeps every field as the plugin sent it.
export const pluginCommandSchema = z.looseObject({
  id: nonEmptyString,
  name: z.string(),
  type: z.enum(["locator", "region"]).optional(),
  docs: z.unknown().optional(),
});

export const registrationSchema = z
  .looseObject({
    name: nonEmptyString,
    version: z.string(),
    commands: z.array(pluginCommandSchema).optional(),
    dependencies: z.record(z.string(), z.string()).optional(),
    jest: z.unknown().optional(),
    exports: z.unknown().optional(),
  })
  .superRefine((registration, ctx) => refuseDuplicateIds(registration.commands ?? [], "commands", ctx));

export type Registration = z.infer<typeof registrationSchema>;
export type PluginCommand = z.infer<typeof pluginCommandSchema>;

export type RegistrationParseResult = { ok: true; registration: Registration } | { ok: false; problem: string };

/** Never throws: a hostile getter or proxy in the message is a problem, not a crash. */
export function parseRegistration(input: unknown): RegistrationParseResult {
  try {
    const result = registrationSchema.safeParse(input, { reportInput: true });
    if (result.success) return { ok: true, registration: result.data };
    return { ok: false, problem: describeZodIssue(result.error, "registration") };
  } catch {
    return { ok: false, problem: "registration could not be read" };
  }
}
