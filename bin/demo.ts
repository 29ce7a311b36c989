// npm run demo: a plugin conversation with an in-process IDE, printed step by step, to show
// plugin authors and UI builders the flows (health, register, log, control with consent,
// a load over unsaved changes, command states, and the displayed test edited by a plugin that
// asks the user first) without a host.
import { readFileSync } from "node:fs";
import { createIde } from "../index.ts";
import type { UserEvent } from "../index.ts";

const shopFile = new URL("../examples/shop.side", import.meta.url);
const ide = createIde({
  project: JSON.parse(readFileSync(shopFile, "utf8")),
  deliver: async (to, message) => {
    console.log(`  ⇠ to ${to}: ${JSON.stringify(message).slice(0, 100)}`);
    return true;
  },
});

const show = (value: unknown) => JSON.stringify(value);
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

async function ask(from: string, message: Record<string, unknown>) {
  console.log(`${from} → ${show(message)}`);
  const reply = await ide.handle(message, { id: from });
  console.log(`  ← ${show(reply)}`);
}

async function askThenUser(from: string, message: Record<string, unknown>, event: UserEvent) {
  console.log(`${from} → ${show(message)}`);
  const reply = ide.handle(message, { id: from });
  await settle();
  const dialog = ide.getSnapshot().dialog;
  console.log(`  dialog: ${dialog ? `${dialog.title} — ${dialog.text}` : "none"}`);
  console.log(`  user: ${event.type}`);
  ide.send(event);
  console.log(`  ← ${show(await reply)}`);
}

await ask("visual-checks", { uri: "/health", verb: "get" });
await ask("visual-checks", { uri: "/register", verb: "post", payload: { name: "Visual checks", version: "1.0.0" } });
await ask("visual-checks", { uri: "/health", verb: "get" });
await ask("visual-checks", { uri: "/log", verb: "post", type: "warn", message: "quota low, see https://example.org" });
await ask("visual-checks", { uri: "/project", verb: "get" });
await ask("visual-checks", { uri: "/nothing", verb: "get" });
await askThenUser("test-cloud", { uri: "/control", verb: "post", name: "Test cloud", version: "3.1.0" }, { type: "user.accept" });
await ask("visual-checks", { uri: "/log", verb: "post", message: "still here?" });
ide.send({ type: "user.editProject" });
console.log("user: user.editProject");
await askThenUser(
  "test-cloud",
  { uri: "/project", verb: "post", project: { id: "p2", name: "Other", tests: [] } },
  { type: "user.decline" },
);
// No page under test here: a breakpoint before `open` keeps the run paused there while the
// plugins report states (with no executor, `open` would fail at once).
ide.send({ type: "user.toggleBreakpoint", commandId: "c-open" });
console.log("user: user.toggleBreakpoint c-open");
ide.send({ type: "user.startPlayback", testId: "t-login" });
console.log("user: user.startPlayback t-login");
await settle();
await ask("visual-checks", { uri: "/playback/command", verb: "post", commandId: "c-user", state: "passed" });
await ask("visual-checks", { uri: "/playback/command", verb: "post", commandId: "c-submit", state: "fatal", message: "session expired" });
await settle();
// CONTRACT section 13: the test the user is looking at, edited by the plugin in control once the
// user said yes in its dialog, and a locator as code.
ide.send({ type: "user.selectTest", testId: "t-login" });
console.log("user: user.selectTest t-login");
await ask("test-cloud", { uri: "/record/command", verb: "get" });
await askThenUser("test-cloud", { uri: "/popup/alert", verb: "post", message: "Add a visual check after the login?", confirm: "Add it", cancel: "No" }, { type: "user.accept" });
await ask("test-cloud", { uri: "/record/command", verb: "post", payload: { command: "eyesCheckWindow", target: "after login", index: 4, select: true } });
await ask("test-cloud", { uri: "/record/command", verb: "delete", payload: { id: "nope" } });
await ask("test-cloud", { uri: "/export/location", verb: "get", location: "css=#user" });
await ask("test-cloud", { uri: "/record/tab", verb: "get" });

const view = ide.getSnapshot();
console.log("\nThe IDE now:");
console.log(`  window ${view.window}, control ${view.control.mode} by ${view.control.controller}`);
console.log(`  project "${view.project.name}" (${view.project.id})${view.project.unsaved ? ", unsaved changes" : ""}`);
console.log(`  displayed test ${view.displayedTestId}, selected command ${view.selectedCommandId}`);
console.log(`  plugins: ${view.plugins.map((p) => `${p.name} ${p.version} (${p.id})`).join(", ")}`);
for (const entry of view.logs) console.log(`  log [${entry.group}/${entry.level}] ${entry.source}: ${entry.message}`);
const run = view.playback!;
console.log(`  test case "${run.testName}" ${run.running ? "running" : "ended"}:`);
for (const c of run.commands) console.log(`    ${c.id.padEnd(9)} ${c.command.padEnd(16)} ${c.state ?? "-"} ${c.message ?? ""}`);
ide.stop();
