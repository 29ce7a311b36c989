// The host's default page (examples/shop-page.html parsed by jsdom) and the checks
// openLivePage makes before it starts a browser.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentFromFile, exampleDocument, openLivePage, PageLoadError } from "../../drivers/host/pages.ts";
import { createIde } from "../../index.ts";
import { resolveInDocument } from "../../services/locators/index.ts";

describe("the example page", () => {
  it("resolves id=user to //input[@id='user']", () => {
    expect(resolveInDocument(exampleDocument(), "id=user")).toBe("//input[@id='user']");
  });

  it("answers GET /playback/location when given to createIde as its document", async () => {
    const ide = createIde({ document: exampleDocument() });
    const reply = await ide.handle({ uri: "/playback/location", verb: "get", location: "link=Help and support" }, { id: "p" });
    expect(reply).toBe("//a[contains(text(),'Help and support')]");
    ide.stop();
  });

  it("does not run the page's scripts", () => {
    const dir = mkdtempSync(join(tmpdir(), "ide-core-pages-"));
    try {
      const file = join(dir, "page.html");
      writeFileSync(file, `<body><p id="before"></p><script>document.body.innerHTML = '<p id="after"></p>'</script></body>`);
      const doc = documentFromFile(file);
      expect(resolveInDocument(doc, "id=before")).toBe("//p[@id='before']");
      expect(doc.getElementById("after")).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a page file that cannot be read, naming the path", () => {
    const missing = join(tmpdir(), "ide-core-no-such-page.html");
    expect(() => documentFromFile(missing)).toThrow(PageLoadError);
    expect(() => documentFromFile(missing)).toThrow(missing);
  });
});

describe("openLivePage before any browser starts", () => {
  it.each([
    ["not a URL", "nope", "is not a valid URL"],
    ["a host and port without a scheme", "localhost:3000", "is not an http, https or file URL"],
    ["a javascript: URL", "javascript:alert(1)", "is not an http, https or file URL"],
  ])("refuses %s, naming it", async (_, url, reason) => {
    const error = await openLivePage(url).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PageLoadError);
    expect((error as Error).message).toContain(JSON.stringify(url));
    expect((error as Error).message).toContain(reason);
  });
});
