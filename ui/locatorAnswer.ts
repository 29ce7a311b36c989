// What the editor shows for "Find": the IDE's answer to GET /playback/location (CONTRACT
// section 6) as the page reads it. The reply is the xpath, or `{ error, errorCode }`; anything
// else (a transport that broke, a reply of another shape) is an error the user can read too.
export type LocatorAnswer = { ok: true; xpath: string } | { ok: false; code: string | null; message: string };

/** The reply of GET /playback/location, read for the page. */
export function readLocatorReply(reply: unknown): LocatorAnswer {
  if (typeof reply === "string" && reply !== "") return { ok: true, xpath: reply };
  if (typeof reply === "object" && reply !== null) {
    const { error, errorCode } = reply as { error?: unknown; errorCode?: unknown };
    if (typeof error === "string") return { ok: false, code: typeof errorCode === "string" ? errorCode : null, message: error };
  }
  return { ok: false, code: null, message: `The IDE gave no xpath (its answer was ${describeReply(reply)}).` };
}

/** What asking cost, when it failed before any answer: the transport's own error. */
export function failedAsking(error: unknown): LocatorAnswer {
  return { ok: false, code: null, message: `The locator could not be resolved: ${error instanceof Error ? error.message : String(error)}` };
}

function describeReply(reply: unknown): string {
  if (reply === undefined) return "nothing";
  try {
    const text = JSON.stringify(reply);
    return text.length > 80 ? `${text.slice(0, 80)}…` : text;
  } catch {
    return typeof reply;
  }
}
