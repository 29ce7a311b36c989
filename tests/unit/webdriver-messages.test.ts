// What a failed page command says in the host: WebDriver's own sentence, without the
// "(Session info: chrome=…)" line chromedriver adds to every error.
import { error as webdriverErrors } from "selenium-webdriver";
import { describe, expect, it } from "vitest";
import { commandMessage, isGone } from "../../drivers/host/pageGone.ts";

describe("a failed command's message in the host", () => {
  it("drops chromedriver's session info line and keeps the rest of WebDriver's sentence", () => {
    const refused = new webdriverErrors.WebDriverError("unknown error: net::ERR_CONNECTION_REFUSED\n  (Session info: chrome=156.0.8078.108)");
    expect(commandMessage(refused)).toBe("unknown error: net::ERR_CONNECTION_REFUSED");
  });

  it("keeps a message with no session info, and one whose several lines are all the command's, as they are", () => {
    expect(commandMessage(new Error("Actual value '0' did not match '1'"))).toBe("Actual value '0' did not match '1'");
    expect(commandMessage(new Error("first line\nsecond line"))).toBe("first line\nsecond line");
  });

  it("tells a session that is gone from a command that failed", () => {
    expect(isGone(new webdriverErrors.NoSuchSessionError("invalid session id"))).toBe(true);
    expect(isGone(new webdriverErrors.NoSuchElementError("no such element"))).toBe(false);
  });
});
