// Browser tests of runs that ask first, fan out and replay (issue 16's playground
// items): a suspended run's pending calls with Approve / Deny, the tool-call
// timeline from the run's trace, and replaying recorded tool results.
//   node --test tests/browser/runs.test.mjs
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextRun, openPage, resultText, setEditor, shot, startAll } from "./helpers.mjs";

let env;
before(async () => {
  env = await startAll();
});
after(async () => {
  await env?.close();
});

/** Opens the page on one of its examples (after the first example's run). */
async function openExample(id, viewport) {
  const opened = await openPage(env.browser, env.server.url, viewport ? { viewport } : {});
  await nextRun(opened.page, () => opened.page.selectOption("#example-select", id));
  return opened;
}

const status = (page) => page.evaluate(() => document.body.dataset.status);
const rows = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("#timeline-rows > li")].map((li) => ({
      tool: li.querySelector(".tl-tool").textContent,
      outcome: li.className.replace(/^tl-row tl-/, ""),
      start: Number(li.dataset.start),
      end: Number(li.dataset.end),
    })),
  );

describe("approvals", () => {
  test("a call over the limit suspends the run; Approve resumes it to the final result", async () => {
    const { page, context, errors } = await openExample("approval");
    assert.equal(await status(page), "suspended");
    assert.match(await page.locator("#run-status").innerText(), /suspended[\s\S]*1 call to decide/);
    const pending = page.locator("#pending-list > li");
    assert.equal(await pending.count(), 1);
    const text = await pending.innerText();
    assert.match(text, /refund/);
    assert.match(text, /\{"id":"A-1002","amount":900\}/);
    assert.match(text, /at \/program\/steps\/1\/expr\/expr · asks for approval/);
    assert.equal(await resultText(page), "", "no result before the decision");
    // The two small refunds ran; the big one waits (its bar says so).
    const first = await rows(page);
    assert.deepEqual(
      first.map((r) => r.outcome),
      ["value", "suspended", "value"],
    );
    await shot(page, "approval-pending");

    await nextRun(page, () => page.getByRole("button", { name: /^Approve refund/ }).click());
    assert.equal(await status(page), "ok");
    assert.deepEqual(JSON.parse(await resultText(page)), [
      { id: "A-1001", refunded: 20 },
      { id: "A-1002", refunded: 900 },
      { id: "A-1003", refunded: 45 },
    ]);
    assert.ok(await page.locator("#pending").isHidden());
    // The resumed leg answered the first two calls from the journal; the approved call ran.
    assert.deepEqual(
      (await rows(page)).map((r) => r.outcome),
      ["recorded", "value", "recorded"],
    );
    assert.equal(await page.locator("#calls > li").count(), 3, "each mock tool call ran once");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "result", "focus moves to the result");
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("Deny (with a reason) resumes the run: the program's try turns the denial into a value", async () => {
    const { page, context, errors } = await openExample("approval");
    await page.getByRole("textbox", { name: /Reason for denying refund/ }).fill("over the agent's limit");
    await nextRun(page, () => page.getByRole("button", { name: /^Deny refund/ }).click());
    assert.deepEqual(JSON.parse(await resultText(page)), [
      { id: "A-1001", refunded: 20 },
      "Tool 'refund' failed: the call was denied: over the agent's limit",
      { id: "A-1003", refunded: 45 },
    ]);
    assert.deepEqual(
      (await rows(page)).map((r) => r.outcome),
      ["recorded", "failure", "recorded"],
    );
    assert.equal(await page.locator("#calls > li").count(), 2, "the denied call never ran");
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("two calls to decide: the run goes on once both are, and may stop again", async () => {
    const { page, context } = await openExample("approval");
    // Every refund asks now: three pending calls.
    const tools = `refund: { effect: "write", approval: true, execute: async ({ id, amount }) => ({ id, refunded: amount }) },\n`;
    await nextRun(page, () => setEditor(page, "tools", tools));
    assert.equal(await page.locator("#pending-list > li").count(), 3);
    const runs = await page.evaluate(() => window.__playground.runs);
    await page.getByRole("button", { name: /^Approve refund \{"id":"A-1001"/ }).click();
    await page.getByRole("button", { name: /^Deny refund \{"id":"A-1002"/ }).click();
    assert.equal(await page.evaluate(() => window.__playground.runs), runs, "no resume before every call is decided");
    assert.match(await page.locator("#pending-list > li").nth(1).innerText(), /denied/);
    await nextRun(page, () => page.getByRole("button", { name: /^Approve refund \{"id":"A-1003"/ }).click());
    assert.deepEqual(JSON.parse(await resultText(page)), [
      { id: "A-1001", refunded: 20 },
      "Tool 'refund' failed: the call was denied",
      { id: "A-1003", refunded: 45 },
    ]);
    await context.close();
  });

  test("a call that needs an approved call's answer: the resumed run stops again, then ends", async () => {
    const { page, context } = await openExample("approval");
    await nextRun(page, () =>
      setEditor(page, "tools", "refund: { approval: true, execute: async (args) => ({ ...args, done: true }) },\n"),
    );
    const chained = {
      program: {
        op: "pipe",
        steps: [
          { op: "call", tool: "refund", args: { id: 1 } },
          { op: "call", tool: "refund", args: { id: { op: "get", field: "id" }, again: true } },
        ],
      },
    };
    await nextRun(page, () => setEditor(page, "program", JSON.stringify(chained)));
    assert.match(await page.locator("#pending-list").innerText(), /\{"id":1\}/);
    await nextRun(page, () => page.getByRole("button", { name: /^Approve refund/ }).click());
    assert.equal(await status(page), "suspended", "the second call asks too");
    assert.match(await page.locator("#pending-list").innerText(), /\{"id":1,"again":true\}/);
    await nextRun(page, () => page.getByRole("button", { name: /^Approve refund/ }).click());
    assert.deepEqual(JSON.parse(await resultText(page)), { id: 1, again: true, done: true });
    assert.equal(await page.locator("#calls > li").count(), 2);
    await context.close();
  });

  test("step functions: a denied charge reaches the step's on-error, which compensates", async () => {
    const { page, context, errors } = await openExample("checkout");
    const tools = (await page.evaluate(() => window.__playground.views.tools.state.doc.toString())).replace(
      /charge: async \(args\) => ([^\n]*),\n/,
      'charge: { effect: "write", approval: true, execute: async (args) => $1 },\n',
    );
    assert.match(tools, /approval: true/);
    await nextRun(page, () => setEditor(page, "tools", tools));
    assert.equal(await status(page), "suspended");
    assert.match(await page.locator("#pending-list").innerText(), /charge[\s\S]*at \/0\/steps\/1/);
    // The trace so far: the reservation ran, the charge waits for a decision.
    assert.match(await page.locator("#trace").innerText(), /reserve[\s\S]*charge[\s\S]*waiting for a decision/);
    await page.getByRole("textbox", { name: /Reason for denying charge/ }).fill("card on hold");
    await nextRun(page, () => page.getByRole("button", { name: /^Deny charge/ }).click());
    assert.match(await resultText(page), /"error": "Payment failed: .*denied: card on hold"/);
    assert.ok((await page.locator("#trace > li").count()) > 0);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("a descriptor that is not one is a Tools error", async () => {
    const { page, context } = await openExample("approval");
    await nextRun(page, () => setEditor(page, "tools", `refund: { approval: "yes", execute: async () => 1 },\n`));
    assert.equal(await page.evaluate(() => document.body.dataset.errorType), "tools_error");
    assert.match(await page.locator("#error-message").innerText(), /'refund' is not a function or a descriptor/);
    assert.ok(await page.locator("#pending").isHidden());
    await context.close();
  });

  test("a link's approval check waits for Trust and run, then runs in the sandbox", async () => {
    const tools = `refund: {
  approval: () => { try { parent.document.title = "pwned"; } catch {} return true; },
  execute: async ({ id }) => ({ id }),
},
`;
    const program = '{"program": {"op": "call", "tool": "refund", "args": {"id": 7}}}';
    const hash = `#j=${Buffer.from(JSON.stringify({ v: 1, program, context: "{}", tools })).toString("base64url")}`;
    const { page, context } = await openPage(env.browser, env.server.url, { path: hash, waitForResult: false });
    await page.waitForFunction(() => document.body.dataset.status === "held", null, { timeout: 60_000 });
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => window.__playground.runs), 0);
    await nextRun(page, () => page.click("#consent .trust-tools"));
    assert.equal(await status(page), "suspended");
    assert.equal(await page.title(), "ptc-wasm playground", "the check could not reach the page");
    await nextRun(page, () => page.getByRole("button", { name: /^Approve refund/ }).click());
    assert.deepEqual(JSON.parse(await resultText(page)), { id: 7 });
    await context.close();
  });
});

describe("timeline", () => {
  test("a fan-out's calls show as overlapping bars", async () => {
    const { page, context, errors } = await openExample("fan-out");
    assert.equal(await resultText(page), "45");
    const bars = await rows(page);
    assert.equal(bars.length, 6);
    assert.ok(
      bars.every((b) => b.tool === "price" && b.outcome === "value"),
      JSON.stringify(bars),
    );
    // Every bar is about one call long (120 ms), and all six overlap: the latest start is before the earliest end.
    assert.ok(
      bars.every((b) => b.end - b.start >= 100),
      JSON.stringify(bars),
    );
    assert.ok(Math.max(...bars.map((b) => b.start)) < Math.min(...bars.map((b) => b.end)), JSON.stringify(bars));
    // Drawn overlapping too: the bars' boxes share a horizontal stretch.
    const boxes = await page
      .locator("#timeline-rows .tl-bar")
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
    assert.ok(Math.max(...boxes.map((b) => b.left)) < Math.min(...boxes.map((b) => b.right)), JSON.stringify(boxes));
    assert.match(await page.locator("#timeline-span").innerText(), /6 calls in \d+/);
    await page.locator("#timeline").scrollIntoViewIfNeeded();
    await shot(page, "timeline-fan-out");

    // A call that needs the one before it: the bars follow each other instead.
    const chained = {
      program: {
        op: "pipe",
        steps: [
          { op: "call", tool: "price", args: { sku: "A" } },
          { op: "call", tool: "price", args: { sku: { op: "get", field: "sku" } } },
        ],
      },
    };
    await nextRun(page, () => setEditor(page, "program", JSON.stringify(chained)));
    const [one, two] = await rows(page);
    assert.ok(two.start >= one.end - 5, JSON.stringify([one, two]));
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("on a phone (390 px) the timeline and the pending calls fit", async () => {
    const { page, context } = await openExample("fan-out", { width: 390, height: 844 });
    const overflow = () =>
      page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth));
    assert.equal(await overflow(), 0);
    await page.locator("#timeline").scrollIntoViewIfNeeded();
    await shot(page, "timeline-phone");
    // The pending calls and their buttons fit too.
    await nextRun(page, () => page.selectOption("#example-select", "approval"));
    const approve = page.getByRole("button", { name: /^Approve refund/ });
    await approve.scrollIntoViewIfNeeded();
    assert.ok(await approve.isVisible());
    assert.equal(await overflow(), 0);
    await shot(page, "approval-phone");
    await context.close();
  });
});

describe("replay", () => {
  test("replays the recorded tool results without running the mock tools; a new question is replay_missing", async () => {
    const { page, context, errors } = await openExample("fan-out");
    const toggle = page.getByRole("checkbox", { name: "Replay recorded tool results" });
    assert.equal(await toggle.isEnabled(), true, "the run recorded its tool results");
    await nextRun(page, () => toggle.check());
    assert.equal(await resultText(page), "45");
    assert.equal(await page.locator("#calls > li").count(), 0, "no mock tool was called");
    assert.match(await page.locator("#replay-note").innerText(), /Replaying 6 tool results/);
    assert.deepEqual([...new Set((await rows(page)).map((r) => r.outcome))], ["recorded"]);
    // Tools that would fail change nothing: they do not run.
    await nextRun(page, () => setEditor(page, "tools", 'price: async () => { throw new Error("live"); },\n'));
    assert.equal(await resultText(page), "45");
    assert.equal(await page.locator("#calls > li").count(), 0);
    // An edited program asking the same questions runs on the recording.
    const program = (sum) =>
      JSON.stringify({
        program: {
          op: "pipe",
          steps: [
            { op: "literal", value: sum },
            { op: "map", as: "sku", expr: { op: "call", tool: "price", args: { sku: { op: "var", name: "sku" } } } },
            { op: "max", field: "price" },
          ],
        },
      });
    await nextRun(page, () => setEditor(page, "program", program(["F", "A"])));
    assert.equal(await resultText(page), "10");
    // A question the recording lacks ends the run.
    await nextRun(page, () => setEditor(page, "program", program(["A", "Z"])));
    assert.equal(await page.evaluate(() => window.__playground.latest.error.code), "replay_missing");
    assert.match(await page.locator("#error-message").innerText(), /does not hold/);
    await shot(page, "replay-missing");
    // Off: the mock tools answer again (and this one throws).
    await nextRun(page, () => toggle.uncheck());
    assert.equal(await page.evaluate(() => window.__playground.latest.error.code), "tool_failed");
    assert.equal(await page.locator("#calls > li").count(), 2, "the map's two calls start together");
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("picking another example forgets the recording", async () => {
    const { page, context } = await openExample("fan-out");
    const toggle = page.locator("#replay-toggle");
    await nextRun(page, () => toggle.check());
    await nextRun(page, () => page.selectOption("#example-select", "approval"));
    assert.equal(await toggle.isChecked(), false);
    assert.equal(await status(page), "suspended");
    await context.close();
  });
});
