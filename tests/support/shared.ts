// Where ../shared lives, and its fixtures, for every test that reads them.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { JSDOM } from "jsdom";

export const SHARED_DIR = fileURLToPath(new URL("../../../shared/", import.meta.url));

export const readShared = (relative: string): string => readFileSync(SHARED_DIR + relative, "utf8");

export const sharedJson = (relative: string): unknown => JSON.parse(readShared(relative));

export const shopProject = () => sharedJson("fixtures/shop.side") as Record<string, unknown>;
export const otherProject = () => sharedJson("fixtures/other.side") as Record<string, unknown>;

export const fixtureDocument = (relative = "fixtures/page.html"): Document =>
  new JSDOM(readShared(relative)).window.document;
