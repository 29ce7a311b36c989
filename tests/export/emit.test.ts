// Saving with plugins (CONTRACT section 15, v3's `emit`): a stand-in plugin that can emit
// gets v3's messages, and the saved .side carries v3's snapshot, its dependencies and
// jest.extraGlobals; a plugin that cannot, or does not answer in time, is left out.
import { describe, expect, it } from "vitest";
import { createIde } from "../../index.ts";
import type { SideProject } from "../../index.ts";
import { shopProject } from "./support.ts";

type Message = { action?: string; entity?: string; [field: string]: unknown };

const EYES = {
  name: "Eyes",
  version: "1.0",
  commands: [{ id: "eyesCheckWindow", name: "check window" }, { id: "exampleCheck", name: "example check" }],
  dependencies: { "@applitools/eyes-selenium": "4.0.0" },
  jest: { extraGlobals: ["Eyes", "Target"] },
};

const never = () => new Promise(() => {});

async function saveWith(answer: (message: Message) => unknown, options: { registration?: object; deliverTimeoutMs?: number } = {}) {
  const saved: SideProject[] = [];
  const asked: Message[] = [];
  const ide = createIde({
    project: shopProject(),
    limits: { deliverTimeoutMs: options.deliverTimeoutMs ?? 2_000 },
    save: async (project) => void saved.push(project),
    deliver: async (_to, message) => {
      const m = message as unknown as Message;
      if (m.action !== "emit") return true;
      asked.push(m);
      return answer(m);
    },
  });
  expect(await ide.handle({ uri: "/register", verb: "post", ...(options.registration ?? EYES) }, { id: "eyes" })).toBe(true);
  ide.send({ type: "user.editProject" });
  ide.send({ type: "user.saveProject" });
  await expect.poll(() => saved.length, { timeout: 10_000 }).toBe(1);
  return { ide, saved: saved[0] as SideProject & Record<string, unknown>, asked };
}

function eyes(message: Message): unknown {
  switch (message.entity) {
    case "project":
      return { canEmit: true };
    case "config":
      return { message: "const eyes = new Eyes();" };
    case "suite":
      return { beforeAll: "await eyes.open()", afterAll: "await eyes.close()" };
    case "test":
      return { setup: "eyes.setup();", teardown: "eyes.teardown();" };
    case "command":
      return { message: `await eyes.check(${JSON.stringify((message.command as { target: string }).target)});` };
    default:
      return undefined;
  }
}

describe("saving with a plugin that can emit", () => {
  it("asks v3's emit messages: the project, then config, each suite, each test and each of its commands", async () => {
    const { asked, ide } = await saveWith(eyes);
    const project = ide.getProject();
    const testsOf = (ids: string[]) => ids.map((id) => project.tests.find((t) => t.id === id));
    expect(asked[0]).toEqual({ action: "emit", entity: "project", project });
    expect(asked.filter((m) => m.entity === "config")).toEqual([{ action: "emit", entity: "config", project }]);
    expect(asked.filter((m) => m.entity === "suite")).toEqual([
      { action: "emit", entity: "suite", suite: { id: "s-default", name: "Default Suite", tests: testsOf(["t-cart"]) } },
      { action: "emit", entity: "suite", suite: { id: "s-plugins", name: "Needs plugins", tests: testsOf(["t-login", "t-example"]) } },
    ]);
    expect(asked.filter((m) => m.entity === "test").map((m) => m.test)).toEqual(project.tests);
    expect(asked.filter((m) => m.entity === "command").map((m) => m.command)).toEqual([
      { command: "eyesCheckWindow", target: "", value: "" },
      { command: "exampleCheck", target: "${title}", value: "checkout" },
      { command: "exampleCheck", target: "${examplePlugin}", value: "Example plugin" },
    ]);
  });

  it("saves v3's snapshot with the plugin's dependencies and jest.extraGlobals", async () => {
    const { saved } = await saveWith(eyes);
    const hook = "beforeAll(async () => {await eyes.open()});afterAll(async () => {await eyes.close()});";
    const testSnapshot = (commands: Record<string, string>) => ({ commands, setupHooks: ["eyes.setup();"], teardownHooks: ["eyes.teardown();"] });
    expect(saved.snapshot).toEqual({
      globalConfig: { snapshot: "const eyes = new Eyes();" },
      suites: [
        { name: "Default Suite", persistSession: false, snapshot: { hook } },
        { name: "Needs plugins", persistSession: false, snapshot: { hook } },
      ],
      tests: [
        { id: "t-cart", snapshot: testSnapshot({}) },
        { id: "t-login", snapshot: testSnapshot({ "c-check": 'await eyes.check("");' }) },
        { id: "t-example", snapshot: testSnapshot({ "c3-title": 'await eyes.check("${title}");', "c3-plugin": 'await eyes.check("${examplePlugin}");' }) },
      ],
    });
    expect(saved.dependencies).toEqual({ "@applitools/eyes-selenium": "4.0.0" });
    expect(saved.jest).toEqual({ extraGlobals: ["Eyes", "Target"] });
    // The rest of the file is the project as it was.
    const { snapshot: _, dependencies: __, jest: ___, ...rest } = saved;
    expect(rest).toEqual(shopProject());
  });

  it.each([
    ["answers { canEmit: false }", () => ({ canEmit: false })],
    ["answers nothing useful", () => true],
  ])("saves the project unchanged when the only plugin %s", async (_, answer) => {
    const { saved, asked } = await saveWith((m) => (m.entity === "project" ? answer() : eyes(m)));
    expect(saved).toEqual(shopProject());
    expect(asked.map((m) => m.entity)).toEqual(["project"]);
  });

  it("leaves out a plugin that does not answer in time, with a warn log, and saves all the same", async () => {
    const { saved, ide } = await saveWith((m) => (m.entity === "project" ? never() : eyes(m)), { deliverTimeoutMs: 150 });
    expect(saved).toEqual(shopProject());
    expect(ide.getSnapshot().logs.map((entry) => entry.message).join("\n")).toMatch(/Eyes did not answer whether it can emit the project/);
  });

  it("leaves out the parts a plugin that can emit does not answer in time", async () => {
    const { saved, ide } = await saveWith((m) => (m.entity === "suite" ? never() : eyes(m)), { deliverTimeoutMs: 150 });
    expect(saved.snapshot).not.toHaveProperty("suites");
    expect(saved.snapshot).toHaveProperty("globalConfig");
    expect(ide.getSnapshot().logs.map((entry) => entry.message).join("\n")).toMatch(/Eyes did not answer the save's suite message/);
  });
});
