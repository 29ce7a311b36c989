// npm run bench -- --only gettext: the reference "Assert text" is held to (issue 34). On every
// element of the text torture page and of the saved pages (tests/support/getTextReference.ts),
// the text the recorder records and assertText compares (visibleText, drivers/player/dom.ts)
// against what Selenium's WebElement.getText() returns through Debian's chromedriver for the
// same element in the same session; isDisplayed against Selenium's is-displayed atom. The
// baseline is innerText with its lines trimmed, as the player read text before: the share it
// matches says how much the rules matter on these pages.
import { describeDifference, displayedMatches, innerTextMatches, openReference, savedPages, share, textMatches, TORTURE_PAGE, torturePage } from "../tests/support/getTextReference.ts";
import type { Compared } from "../tests/support/getTextReference.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtInt, fmtNum, heading, now, printTable } from "./support.ts";

const TARGET_TORTURE = 1;
const TARGET_SAVED = 0.98;
const SAVED_AT_LEAST = 50;

const pct = (part: { share: number }) => `${fmtNum(100 * part.share, 1)}%`;

async function run(): Promise<SummaryLine[]> {
  const saved = savedPages();
  heading(
    "gettext: the text Assert text records, against Selenium's getText through chromedriver",
    [
      `Every element of the body (through open shadow roots; scripts and styles left out) of the text torture page`,
      `and of ${saved.length} saved pages, read in one chromedriver session: WebElement.getText() beside the player's`,
      `visibleText run in the page, Selenium's is-displayed atom beside isDisplayed; innerText (lines trimmed) as the baseline.`,
    ].join("\n"),
  );
  const started = now();
  const reference = await openReference([torturePage(), ...saved]);
  const byPage = new Map<string, Compared[]>();
  try {
    for (const page of [torturePage(), ...saved]) byPage.set(page.name, await reference.compare(page.name));
  } finally {
    await reference.close();
  }
  const seconds = (now() - started) / 1000;

  const row = (name: string, compared: Compared[]) => [name, fmtInt(compared.length), pct(share(compared, textMatches)), pct(share(compared, displayedMatches)), pct(share(compared, innerTextMatches))];
  const torture = byPage.get(TORTURE_PAGE)!;
  const savedCompared = saved.flatMap((page) => byPage.get(page.name)!);
  printTable(
    ["page", "elements", "visibleText = getText", "isDisplayed = Selenium", "innerText = getText"],
    [...[...byPage].map(([name, compared]) => row(name, compared)), row("saved pages", savedCompared)],
    ["l", "r", "r", "r", "r"],
  );
  console.log("");
  const differences = [...torture, ...savedCompared].filter((c) => !textMatches(c) || !displayedMatches(c));
  console.log(`  ${fmtInt(torture.length + savedCompared.length)} elements in ${fmtNum(seconds, 1)} s; ${differences.length === 0 ? "no difference" : `${differences.length} difference(s):`}`);
  for (const difference of differences) console.log(`    ${describeDifference(difference)}`);

  check(torture.length > 200, `the torture page has more than 200 elements (got ${torture.length})`);
  check(savedCompared.length >= SAVED_AT_LEAST, `at least ${SAVED_AT_LEAST} elements of saved pages (got ${savedCompared.length})`);
  const tortureText = share(torture, textMatches);
  const savedText = share(savedCompared, textMatches);
  return [
    {
      benchmark: "gettext",
      figure: `torture page = getText (${torture.length} elements)`,
      value: pct(tortureText),
      ratio: `innerText ${pct(share(torture, innerTextMatches))}`,
      target: "100%",
      met: tortureText.share >= TARGET_TORTURE,
    },
    {
      benchmark: "gettext",
      figure: `saved pages = getText (${savedCompared.length} elements)`,
      value: pct(savedText),
      ratio: `innerText ${pct(share(savedCompared, innerTextMatches))}`,
      target: `>= ${TARGET_SAVED * 100}%`,
      met: savedText.share >= TARGET_SAVED,
    },
    {
      benchmark: "gettext",
      figure: "isDisplayed = Selenium's (all)",
      value: pct(share([...torture, ...savedCompared], displayedMatches)),
      ratio: "",
      target: "",
      met: null,
    },
  ];
}

export const gettextBenchmark: Benchmark = {
  name: "gettext",
  description: "the text Assert text records against chromedriver's getText, torture and saved pages (Chromium)",
  run,
};
