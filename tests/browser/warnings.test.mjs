// Browser test of issue 26's playground item: a run's warnings (a misspelt
// field, a context key that is not there) are shown to the user with the
// result, each with its code, place and fix, and go away with the mistake.
//   node --test tests/browser/warnings.test.mjs
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { nextRun, openPage, resultText, setEditor, shot, startAll } from "./helpers.mjs";

let env;
before(async () => {
  env = await startAll();
});
after(async () => {
  await env?.close();
});

const context = {
  orders: [
    { id: 1, category: "books", amount: 5 },
    { id: 2, category: "toys", amount: 7 },
  ],
};
const filterOn = (field, key = "orders") =>
  JSON.stringify(
    {
      program: {
        op: "pipe",
        steps: [
          { op: "load", name: key },
          { op: "filter", where: { op: "eq", field, value: "books" } },
          { op: "count" },
        ],
      },
    },
    null,
    2,
  );
const shown = (page) => page.locator("#warnings-list > li").allInnerTexts();

test("a run's warnings are shown with its result, and leave with the mistake", async () => {
  const { page, context: browserContext, errors } = await openPage(env.browser, env.server.url);
  try {
    const box = page.locator("#warnings-box");
    await nextRun(page, () => setEditor(page, "context", JSON.stringify(context, null, 2)));
    await nextRun(page, () => setEditor(page, "program", filterOn("categry")));
    assert.equal(await page.evaluate(() => document.body.dataset.status), "ok", "a warning does not fail the run");
    assert.match(await resultText(page), /\b0\b/);
    assert.ok(await box.isVisible(), "the warnings box is shown");
    assert.deepEqual(await shown(page), [
      "field_not_found at /program/steps/1/where: 'eq' reads field 'categry', which no object it read has, so it " +
        "read null. Did you mean 'category'? The fields of those objects are: amount, category, id.",
    ]);
    await shot(page, "warnings-misspelt-field");

    // A failing run shows the warning that led to the failure beside the error.
    await nextRun(page, () => setEditor(page, "program", filterOn("category", "order")));
    assert.equal(await page.evaluate(() => document.body.dataset.status), "error");
    assert.ok(await box.isVisible());
    const [failing] = await shown(page);
    assert.match(failing, /^unknown_context_key at \/program\/steps\/0: .*Did you mean 'orders'\?/);

    // The program fixed: the result is right and the box is gone.
    await nextRun(page, () => setEditor(page, "program", filterOn("category")));
    assert.match(await resultText(page), /\b1\b/);
    assert.equal(await box.isVisible(), false, "no warnings, no box");
    assert.deepEqual(await shown(page), []);
    assert.deepEqual(errors, []);
  } finally {
    await browserContext.close();
  }
});
