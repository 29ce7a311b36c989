// GET /playback/location (CONTRACT section 6): the resolveLocator port and the built-in
// resolver over the fixture page.
import { describe, expect, it, vi } from "vitest";
import { createIde, expectError, fixtureDocument, FORMS, request } from "./support.ts";

const locate = (location: string, form: "flat" | "payload" = "flat") =>
  request("/playback/location", "get", { location }, form);

const rejectingWith = (errorCode: unknown, message: string) => async () => {
  throw Object.assign(new Error(message), { errorCode });
};

describe("the resolveLocator port", () => {
  it.each(FORMS)("returns the port's xpath as the reply (%s form)", async (form) => {
    const resolveLocator = vi.fn(async (_locator: string) => "//div[@id='from-port']");
    const ide = createIde({ resolveLocator });
    expect(await ide.handle(locate("css=#anything", form), { id: "p" })).toBe("//div[@id='from-port']");
    expect(resolveLocator).toHaveBeenCalledWith("css=#anything");
  });

  it("replaces the built-in resolver even when a document is given", async () => {
    const ide = createIde({ document: fixtureDocument(), resolveLocator: async () => "//from[@port='yes']" });
    expect(await ide.handle(locate("id=user"), { id: "p" })).toBe("//from[@port='yes']");
  });

  it.each(["InvalidLocator", "ElementNotFound", "NoPage"] as const)(
    "gives %s when the port rejects with that errorCode",
    async (code) => {
      const ide = createIde({ resolveLocator: rejectingWith(code, `port says ${code}`) });
      expectError(await ide.handle(locate("id=user"), { id: "p" }), code);
    },
  );

  it("gives ElementNotFound with the port's message for any other rejection", async () => {
    const ide = createIde({ resolveLocator: async () => Promise.reject(new Error("tab crashed while looking")) });
    expect(expectError(await ide.handle(locate("id=user"), { id: "p" }), "ElementNotFound")).toContain(
      "tab crashed while looking",
    );
  });

  it.each([
    ["an unrelated errorCode", rejectingWith("Busy", "the page is busy")],
    ["a non-string errorCode", rejectingWith(42, "odd code")],
    ["a rejection with a string", async () => Promise.reject("plain refusal")],
  ])("gives ElementNotFound for %s", async (_, resolveLocator) => {
    const ide = createIde({ resolveLocator });
    expectError(await ide.handle(locate("id=user"), { id: "p" }), "ElementNotFound");
  });

  it("keeps a rejection's errorCode from reaching the reply as anything but the contract's codes", async () => {
    const ide = createIde({ resolveLocator: rejectingWith("CannotAccessInControlMode", "spoofed") });
    expectError(await ide.handle(locate("id=user"), { id: "p" }), "ElementNotFound");
  });

  it("answers InvalidLocator for a locator that does not parse, whatever the port", async () => {
    const ide = createIde({ resolveLocator: async () => "//never" });
    expectError(await ide.handle(locate("bogus=thing"), { id: "p" }), "InvalidLocator");
  });
});

describe("the built-in resolver over a document", () => {
  const doc = fixtureDocument();
  const ide = createIde({ document: doc });

  /** The nodes an xpath selects in the fixture document. */
  function select(xpath: string): Node[] {
    const result = doc.evaluate(xpath, doc, null, 7 /* ORDERED_NODE_SNAPSHOT_TYPE */, null);
    return Array.from({ length: result.snapshotLength }, (_, i) => result.snapshotItem(i)!);
  }

  async function resolves(location: string, expected: Element | null) {
    const reply = await ide.handle(locate(location), { id: "p" });
    expect(typeof reply, JSON.stringify(reply)).toBe("string");
    expect(reply as string).not.toMatch(/^xpath=/);
    const nodes = select(reply as string);
    expect(nodes, `${location} → ${reply}`).toHaveLength(1);
    expect(nodes[0] === expected, `${location} → ${reply} selects another node`).toBe(true);
    return reply as string;
  }

  it("resolves id= to the xpath by the unique id", async () => {
    expect(await resolves("id=user", doc.getElementById("user"))).toBe("//input[@id='user']");
  });

  it("resolves name= to the xpath by the unique name attribute", async () => {
    expect(await resolves("name=password", doc.querySelector("input[name=password]"))).toBe("//input[@name='password']");
  });

  it("resolves css= to an xpath of the first match", async () => {
    expect(await resolves("css=button[type=submit]", doc.querySelector("button[type=submit]"))).toBe("//button[@type='submit']");
    await resolves("css=.product a", doc.querySelector(".product a"));
    await resolves("css=[data-sku]", doc.querySelector("[data-sku]"));
  });

  it("resolves a position from the nearest ancestor with a unique id", async () => {
    expect(await resolves("css=.product:nth-child(2) a", doc.querySelector(".product:nth-child(2) a"))).toBe(
      "//main[@id='main']/section/div[2]/a",
    );
  });

  it("resolves an element with no unique attribute and no id above it by absolute position", async () => {
    const reply = await resolves("css=footer p", doc.querySelector("footer p"));
    expect(reply.startsWith("/")).toBe(true);
  });

  it("resolves xpath= and a bare xpath to the matched element", async () => {
    const green = doc.querySelectorAll(".title")[2];
    await resolves("xpath=//span[text()='Green hat']", green);
    await resolves("//span[text()='Blue shoes']", doc.querySelectorAll(".title")[1]);
    await resolves("(//a)[2]", doc.querySelectorAll("a")[1]);
  });

  it("resolves linkText= and its alias link= by link text", async () => {
    const help = Array.from(doc.querySelectorAll("a")).find((a) => a.textContent === "Help and support")!;
    expect(await resolves("linkText=Help and support", help)).toBe("//a[contains(text(),'Help and support')]");
    expect(await resolves("link=Help and support", help)).toBe("//a[contains(text(),'Help and support')]");
  });

  it("resolves the first match of linkText= when several links share it", async () => {
    await resolves("linkText=Add to cart", doc.querySelector(".product a"));
  });

  it("resolves partialLinkText= to the link holding the text", async () => {
    const help = Array.from(doc.querySelectorAll("a")).find((a) => a.textContent === "Help and support")!;
    expect(await resolves("partialLinkText=support", help)).toBe("//a[contains(text(),'Help and support')]");
  });

  it.each(["id=nope", "name=nope", "css=.nothing-here", "xpath=//table", "linkText=Nowhere", "partialLinkText=zzz"])(
    "answers ElementNotFound for %s",
    async (location) => {
      expectError(await ide.handle(locate(location), { id: "p" }), "ElementNotFound");
    },
  );

  // README decision: strategy names are case-sensitive, so "ID=user" is an unknown strategy.
  it.each(["bogus=thing", "css=div[[", "xpath=//a[", "ID=user", "=user", "user"])(
    "answers InvalidLocator for %j",
    async (location) => {
      expectError(await ide.handle(locate(location), { id: "p" }), "InvalidLocator");
    },
  );

  it("quotes a value holding a single quote with concat()", async () => {
    const page = fixtureDocument();
    page.getElementById("user")!.setAttribute("id", "it's");
    const quoted = createIde({ document: page });
    const reply = (await quoted.handle(locate("name=user"), { id: "p" })) as string;
    expect(reply).toContain("concat(");
    const result = page.evaluate(reply, page, null, 7, null);
    expect(result.snapshotLength).toBe(1);
    expect(result.snapshotItem(0)).toBe(page.querySelector("input[name=user]"));
  });
});

describe("with no page", () => {
  it("answers NoPage for a valid locator with no document and no resolver", async () => {
    const ide = createIde();
    expectError(await ide.handle(locate("id=user"), { id: "p" }), "NoPage");
    expectError(await ide.handle(locate("//a"), { id: "p" }), "NoPage");
  });

  it("answers InvalidLocator rather than NoPage for a locator that does not parse", async () => {
    const ide = createIde();
    expectError(await ide.handle(locate("bogus=thing"), { id: "p" }), "InvalidLocator");
    expectError(await ide.handle(locate("css=a[[["), { id: "p" }), "InvalidLocator");
  });
});
