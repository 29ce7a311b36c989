// "New project" (CONTRACT section 20): what Selenium IDE starts a tester with, so the first
// recording has a test to go into and Play suite has a suite to play.
import type { SideProject } from "./schema.ts";

const newId = () => globalThis.crypto.randomUUID();

/** A project named "Untitled project", url "", one empty test "Untitled" in one suite "Default Suite"; every id new. */
export function newProject(): SideProject {
  const testId = newId();
  return {
    id: newId(),
    version: "2.0",
    name: "Untitled project",
    url: "",
    tests: [{ id: testId, name: "Untitled", commands: [] }],
    // The settings Selenium IDE gives a new suite (its timeout is in seconds).
    suites: [{ id: newId(), name: "Default Suite", persistSession: false, parallel: false, timeout: 300, tests: [testId] }],
    urls: [],
    plugins: [],
  };
}
