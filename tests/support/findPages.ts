// The project the "Find target in page" and "Alternative locators" tests play (host and
// extension): it opens the example site's page, whose two "Add to cart" links make a target
// that matches twice, and clicks one by a target with recorded alternatives.

/** The click's recorded alternatives, in order: the first is its target. */
export const FIND_TARGETS = ["linkText=Add to cart", "css=.product a", "xpath=//a[@href='/cart/add/2']", "css=.missing"];

export function findProject(url = "http://127.0.0.1/") {
  return {
    id: "find-project",
    version: "2.0",
    name: "find",
    url,
    tests: [
      {
        id: "t-find",
        name: "finds",
        commands: [
          { id: "c-open", command: "open", target: "/shop", targets: [], value: "" },
          {
            id: "c-click",
            command: "mouseOver",
            target: FIND_TARGETS[0],
            targets: FIND_TARGETS.map((t) => [t, t.startsWith("xpath") ? "xpath:href" : t.startsWith("css") ? "css:finder" : "linkText"]),
            value: "",
          },
        ],
      },
    ],
    suites: [],
    urls: [url],
    plugins: [],
  };
}
