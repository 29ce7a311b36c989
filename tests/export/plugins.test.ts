// ide.exportCode with plugins (CONTRACT section 15), case by case: a stand-in plugin that
// answers v3's export messages as a real one does, through createIde's `deliver`.
import { describe, expect, it } from "vitest";
import type { InspectionEvent } from "xstate";
import { createIde } from "../../index.ts";
import type { Ide } from "../../core/ide.ts";
import { directExport, linesOf, shopProject } from "./support.ts";

type Message = Record<string, unknown> & { action?: string; entity?: string };
type Answer = (message: Message) => unknown;

const EYES = { name: "Eyes", version: "1.0", commands: [{ id: "eyesCheckWindow", name: "check window" }, { id: "exampleCheck", name: "example check" }], exports: { languages: ["javascript-mocha", "python-pytest"] } };

/** An IDE with shop.side and the stand-in plugin "eyes" registered; `answer` decides its replies. */
async function ideWithPlugin(answer: Answer, options: { deliverTimeoutMs?: number; registration?: object; inspect?: (event: InspectionEvent) => void } = {}) {
  const asked: Message[] = [];
  let ide!: Ide;
  ide = createIde({
    project: shopProject(),
    limits: { deliverTimeoutMs: options.deliverTimeoutMs ?? 2_000 },
    inspect: options.inspect,
    deliver: async (_pluginId, message) => {
      const m = message as unknown as Message;
      if (m.action !== "export") return undefined;
      asked.push(m);
      return answer(m);
    },
  });
  expect(await ide.handle({ uri: "/register", verb: "post", ...(options.registration ?? EYES) }, { id: "eyes" })).toBe(true);
  return { ide, asked };
}

const never = () => new Promise(() => {});

function bodyOf(reply: Awaited<ReturnType<Ide["exportCode"]>>): string {
  if ("error" in reply) throw new Error(`export failed: ${reply.error}`);
  return reply.body;
}

describe("ide.exportCode with a plugin that exports the language", () => {
  it("asks for each of its commands in the exported test and puts the answer in that command's place", async () => {
    const { ide, asked } = await ideWithPlugin((m) => (m.entity === "command" ? "await eyes.check()" : undefined));
    const body = bodyOf(await ide.exportCode({ language: "javascript-mocha", testId: "t-login" }));
    expect(asked.filter((m) => m.entity === "command")).toEqual([
      { action: "export", entity: "command", language: "javascript-mocha", command: { command: "eyesCheckWindow", target: "", value: "" } },
    ]);
    const lines = linesOf(body);
    expect(lines[lines.indexOf("await eyes.check()") - 1]).toBe('await driver.findElement(By.css("button[type=submit]")).click()');
    expect(body).toContain('\n    await driver.findElement(By.css("button[type=submit]")).click()\n    await eyes.check()\n');
  });

  it("takes { message } as the code too", async () => {
    const { ide } = await ideWithPlugin((m) => (m.entity === "command" ? { message: "eyes.check()" } : undefined));
    expect(bodyOf(await ide.exportCode({ language: "javascript-mocha", testId: "t-login" }))).toContain("\n    eyes.check()\n");
  });

  it.each([false, "", null, undefined])("writes no code for a command answered %j, and the rest is the packages' own", async (answer) => {
    const { ide } = await ideWithPlugin((m) => (m.entity === "command" ? answer : undefined));
    const body = bodyOf(await ide.exportCode({ language: "javascript-mocha", testId: "t-login" }));
    const withoutIt = shopProject();
    const login = withoutIt.tests.find((t) => t.id === "t-login")!;
    login.commands = login.commands.filter((c) => c.command !== "eyesCheckWindow");
    expect(linesOf(body)).toEqual(linesOf((await directExport("javascript-mocha", withoutIt, { testId: "t-login" })).body));
  });

  it("fails the export with v3's sentence and the plugin's name when it answers a command with { error }", async () => {
    const { ide } = await ideWithPlugin((m) => (m.entity === "command" ? { error: "no API key" } : undefined));
    const reply = await ide.exportCode({ language: "javascript-mocha", suiteId: "s-plugins" });
    expect(reply).toMatchObject({ errorCode: "ExportFailed" });
    const { error } = reply as { error: string };
    expect(error.startsWith("Test 'logs in' has a problem: no API key")).toBe(true);
    expect(error).toContain("Eyes");
  });

  it("fails the export naming the plugin and its command when it does not answer a command in time", async () => {
    const { ide } = await ideWithPlugin((m) => (m.entity === "command" ? never() : undefined), { deliverTimeoutMs: 150 });
    const reply = await ide.exportCode({ language: "python-pytest", testId: "t-login" });
    expect(reply).toMatchObject({ errorCode: "ExportFailed" });
    expect((reply as { error: string }).error).toMatch(/^Test 'logs in' has a problem: the plugin Eyes did not answer the export of its command 'eyesCheckWindow'/);
  });

  it("asks each hook with the exported name, tests and project, and puts the answers after Selenium's own lines", async () => {
    const hookCode: Record<string, string> = {
      dependency: "const eyes = require('eyes')",
      variable: "let eyesRunner",
      beforeAll: "eyesRunner = eyes.runner()",
      beforeEach: "await eyes.open(driver)",
      inEachBegin: "eyes.begin()",
      inEachEnd: "eyes.end()",
      afterEach: "await eyes.close()",
      afterAll: "await eyesRunner.summary()",
    };
    const { ide, asked } = await ideWithPlugin((m) => (m.entity === "command" ? "await eyes.check()" : hookCode[m.entity!]));
    const body = bodyOf(await ide.exportCode({ language: "javascript-mocha", suiteId: "s-plugins" }));
    const hooks = asked.filter((m) => m.entity !== "command");
    expect(hooks.map((m) => m.entity)).toEqual(Object.keys(hookCode));
    const project = ide.getProject();
    for (const message of hooks) {
      expect(message).toEqual({ action: "export", entity: message.entity, language: "javascript-mocha", options: { name: "Needs plugins", tests: project.tests.filter((t) => t.id !== "t-cart"), project } });
    }
    expect(body).toContain("const assert = require('assert')\n\nconst eyes = require('eyes')\n");
    expect(body).toContain("  let vars\n  let eyesRunner\n");
    expect(body).toContain("  beforeAll(async function() {\n    eyesRunner = eyes.runner()\n  })");
    expect(body).toContain("    vars = {}\n    await eyes.open(driver)\n  })");
    expect(body).toMatch(/\n  it\('logs in', async function\(\) \{\n    eyes\.begin\(\)\n\s*await driver\.get\(/);
    expect(body).toContain("    await eyes.close()\n  })");
    expect(body).toContain("  afterAll(async function() {\n    await eyesRunner.summary()\n  })");
    expect(body.match(/eyes\.end\(\)/g)).toHaveLength(2); // once per test of the suite
    expect(asked.filter((m) => m.entity === "command").map((m) => (m.command as { command: string }).command)).toEqual(["eyesCheckWindow", "exampleCheck", "exampleCheck"]);
  });

  it("adds nothing for a hook it does not answer in time, with a warn log, and still writes the file", async () => {
    const { ide } = await ideWithPlugin((m) => (m.entity === "command" ? "eyes()" : m.entity === "afterAll" ? never() : undefined), { deliverTimeoutMs: 150 });
    const body = bodyOf(await ide.exportCode({ language: "javascript-mocha", testId: "t-login" }));
    expect(body).not.toContain("afterAll");
    const warnings = ide.getSnapshot().logs.filter((entry) => entry.level === "warn");
    expect(warnings.map((entry) => entry.message).join("\n")).toMatch(/Eyes did not answer the export's afterAll hook/);
  });

  it("lets the plugin ask GET /export/location in the language while its command is exported", async () => {
    let ide!: Ide;
    const setup = await ideWithPlugin(async (m) => {
      if (m.entity !== "command") return undefined;
      const by = await ide.handle({ uri: "/export/location", verb: "get", location: "id=user", language: m.language }, { id: "eyes" });
      return `await eyes.checkRegion(${by as string})`;
    });
    ide = setup.ide;
    expect(bodyOf(await ide.exportCode({ language: "python-pytest", testId: "t-login" }))).toContain("await eyes.checkRegion(By.ID, \"user\")");
  });

  it("does not ask a plugin that did not list the language, and its command is then an invalid command", async () => {
    const { ide, asked } = await ideWithPlugin(() => "code", { registration: { ...EYES, exports: { languages: ["java-junit"] } } });
    expect(await ide.exportCode({ language: "javascript-mocha", testId: "t-login" })).toEqual({
      errorCode: "ExportFailed",
      error: "Test 'logs in' has a problem: Invalid command 'eyesCheckWindow'",
    });
    expect(asked).toEqual([]);
  });

  it("leaves no plugin code behind for the next export", async () => {
    const { ide } = await ideWithPlugin((m) => (m.entity === "command" ? "eyes()" : m.entity === "beforeEach" ? "eyesHook()" : undefined));
    expect(bodyOf(await ide.exportCode({ language: "javascript-mocha", testId: "t-login" }))).toContain("eyesHook()");
    const plain = createIde({ project: shopProject() });
    const body = bodyOf(await plain.exportCode({ language: "javascript-mocha", testId: "t-cart" }));
    expect(body).not.toContain("eyes");
  });

  it("shows the export in the inspector, waiting in askingPlugins while the plugin answers", async () => {
    const states = new Set<string>();
    const { ide } = await ideWithPlugin((m) => (m.entity === "command" ? "eyes()" : undefined), {
      inspect: (event) => {
        if (event.type === "@xstate.snapshot" && (event.snapshot as { machine?: { id?: string } }).machine?.id === "export") {
          states.add(JSON.stringify((event.snapshot as { value?: unknown }).value));
        }
      },
    });
    bodyOf(await ide.exportCode({ language: "javascript-mocha", testId: "t-login" }));
    expect([...states]).toEqual(expect.arrayContaining(['"askingPlugins"', '"writing"', '"done"']));
  });
});

describe("ide.exportCode's answers", () => {
  it("answers InvalidRequest for an unknown language or a malformed request, and UnknownTest for an unknown test or suite", async () => {
    const ide = createIde({ project: shopProject() });
    expect(await ide.exportCode({ language: "cobol", testId: "t-cart" })).toMatchObject({ errorCode: "InvalidRequest" });
    expect(await ide.exportCode({ testId: "t-cart" } as never)).toMatchObject({ errorCode: "InvalidRequest" });
    expect(await ide.exportCode(null as never)).toMatchObject({ errorCode: "InvalidRequest" });
    expect(await ide.exportCode({ language: "ruby-rspec", testId: "nope" })).toMatchObject({ errorCode: "UnknownTest" });
    expect(await ide.exportCode({ language: "ruby-rspec", suiteId: "nope" })).toMatchObject({ errorCode: "UnknownTest" });
  });

  it("exports the project as it is now, unsaved edits included, under the package's filename", async () => {
    const ide = createIde({ project: shopProject() });
    const reply = await ide.exportCode({ language: "java-junit", testId: "t-cart" });
    expect(reply).toMatchObject({ filename: "AddstocartTest.java" });
    expect(bodyOf(reply)).toContain('driver.findElement(By.linkText("Add to cart")).click();');
  });
});
