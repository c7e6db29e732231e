// Group-by on a page (issue 38 item 4): bench/browser.mjs with few rounds. On
// one page in headless Chromium, 50,000 rows loaded once into ptc-wasm in the
// default browser mode (a worker) and in-process, the same filter + group_by +
// aggregate as JS in quickjs-emscripten and plain JS; and engine start on a
// fresh page. Checks that every engine gives the same groups and that the table
// (with both group-by figures, the ratios and the start times) is printed; no
// timed assertion: the figures are for the report (`node bench/browser.mjs`).
//   node --test tests/browser/group-by-page.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";
import { ENGINES, measureBrowser, sameGroups } from "../../bench/browser.mjs";

test("group-by on a page: ptc-wasm (worker and in-process), quickjs-emscripten and plain JS agree; the table is printed", async () => {
  const printed = [];
  const { answers, groupBy, start, lines } = await measureBrowser({
    rounds: 3,
    warmup: 1,
    starts: 1,
    log: (line) => {
      printed.push(line);
      console.log(line);
    },
  });
  assert.deepEqual(Object.keys(answers), ENGINES);
  assert.equal(answers["plain JS"].length, 5, JSON.stringify(answers["plain JS"]));
  for (const engine of ENGINES)
    assert.ok(sameGroups(answers[engine], answers["plain JS"]), `${engine}: ${JSON.stringify(answers[engine])}`);
  for (const engine of ENGINES) assert.ok(Number.isFinite(groupBy[engine].median), engine);
  for (const engine of ["ptc worker", "ptc in-process"]) assert.ok(Number.isFinite(start[engine].median), engine);
  assert.deepEqual(printed, lines);
  const table = printed.join("\n");
  assert.match(table, /^ptc worker +[\d.]+ ms +[\d.]+ ms +[\d.]+x +[\d.]+x$/m);
  assert.match(table, /^quickjs +[\d.]+ ms/m);
  assert.match(table, /answers agree: yes/);
  assert.match(table, /engine start on a fresh page/);
});

