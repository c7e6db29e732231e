// Browser tests of the playground's step-function dialect (examples/step-functions/):
// results, the trace timeline, errors marked in the file, sharing, keyboard use.
//   node --test tests/browser/
// Build first: bash scripts/build.sh (or the package build, then node scripts/bundle-playground.mjs).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  ARTIFACTS,
  editorText,
  nextRun,
  openPage,
  resultText,
  ROOT,
  selectInEditor,
  setEditor,
  shot,
  startAll,
} from "./helpers.mjs";

let env;
before(async () => {
  env = await startAll();
});
after(async () => {
  await env?.close();
});

const EXAMPLES = JSON.parse(readFileSync(join(ROOT, "examples", "step-functions", "index.json"), "utf8"));

const status = (page) => page.evaluate(() => ({ ...document.body.dataset }));
const diagnostics = (page, which = "program") => page.evaluate((w) => window.__playground.diagnostics(w), which);
const rows = (page) => page.locator("#trace .trace-row");

async function select(page, which, needle, nth = 0) {
  assert.ok(await selectInEditor(page, which, needle, nth), `"${needle}" not found in the ${which} editor`);
}

async function pickExample(page, id) {
  await nextRun(page, () => page.selectOption("#example-select", id));
}

/** The checkout example with `charge` throwing "card declined". */
async function failCharge(page) {
  const tools = await editorText(page, "tools");
  const failing = tools.replace(/^charge: .*$/m, 'charge: async () => { throw new Error("card declined"); },');
  assert.notEqual(failing, tools, "the checkout tools define charge on one line");
  await page.click("#tab-tools");
  await nextRun(page, () => setEditor(page, "tools", failing));
}

describe("step functions in the playground", () => {
  test('the checkout example shows {"ok": ...} and a trace of 4 steps', async () => {
    const { page, errors, context } = await openPage(env.browser, env.server.url);
    await pickExample(page, "checkout");
    assert.equal((await status(page)).status, "ok");
    assert.equal((await status(page)).dialect, "step-functions");
    assert.equal(await page.locator("#dialect-label").innerText(), "Step functions");
    assert.deepEqual(JSON.parse(await resultText(page)), {
      ok: { "order-id": "o1", "charge-id": "c1", "reservation-id": "r1" },
    });
    // The input panel: the entry's input and the entry selector (default: the last function).
    assert.match(await page.locator("#tab-context").innerText(), /Input/);
    assert.equal(await page.locator("#entry-select").inputValue(), "checkout");
    assert.match(
      await page.locator("#entry-params").innerText(),
      /items \(list item\), payment-id \(text\), amount \(number\)/,
    );
    assert.deepEqual(JSON.parse(await editorText(page, "context")), EXAMPLES.find((e) => e.id === "checkout").input);
    // The trace: 4 rows, calls with their tool and args, all with a value.
    const trace = await page.evaluate(() => window.__playground.latest.trace);
    assert.equal(trace.length, 4);
    assert.equal(await rows(page).count(), 4);
    assert.deepEqual(
      trace.map((e) => e.kind),
      ["call", "call", "call", "return"],
    );
    assert.match(
      await rows(page).nth(0).innerText(),
      /call[\s\S]*reservation =[\s\S]*reserve[\s\S]*\{"items": \["a", "b"\]\}[\s\S]*value[\s\S]*\{"id": "r1"\}/,
    );
    assert.match(await rows(page).nth(1).innerText(), /charge[\s\S]*"payment-id": "p1"/);
    assert.equal(await page.locator("#trace .outcome-value").count(), 4);
    // Duration bars are scaled to the longest step: one is full width.
    const widths = await page
      .locator("#trace .tr-fill")
      .evaluateAll((fills) => fills.map((f) => parseFloat(f.style.width)));
    assert.equal(Math.max(...widths), 100);
    // Memory, tool calls and the operation reference are PTC-JSON's: hidden here.
    assert.ok(await page.locator("#trace-card").isVisible());
    assert.ok(await page.locator("#calls-card").isHidden());
    assert.ok(await page.locator("#memory-card").isHidden());
    assert.ok(await page.locator("#reference-toggle").isHidden());
    // Functions written one after another are not flagged as bad JSON.
    await pickExample(page, "classify-summaries");
    assert.deepEqual(await diagnostics(page), []);
    assert.equal(await page.locator("#program-editor .cm-lintRange").count(), 0);
    assert.equal(await page.locator("#entry-select option").count(), 2);
    assert.equal(await page.locator("#entry-select").inputValue(), "summaries");
    await shot(page, "sf-timeline-laptop");
    await page.locator("#trace-card").screenshot({ path: join(ARTIFACTS, "sf-timeline-laptop-card.png") });
    // Back to a PTC-JSON example: its panels return.
    await pickExample(page, "7.1");
    assert.equal(await resultText(page), "1234.5");
    assert.ok(await page.locator("#calls-card").isVisible());
    assert.ok(await page.locator("#trace-card").isHidden());
    assert.ok(await page.locator("#reference-toggle").isVisible());
    assert.match(await page.locator("#tab-context").innerText(), /Context/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("every step-function example runs with its sample input and mock tools", async () => {
    const { page, errors, context } = await openPage(env.browser, env.server.url);
    for (const ex of EXAMPLES) {
      await pickExample(page, ex.id);
      const latest = await page.evaluate(() => window.__playground.latest);
      assert.equal(latest.ok, true, `${ex.id}: ${JSON.stringify(latest.error)}`);
      assert.ok(latest.trace.length > 0, ex.id);
      assert.equal(await rows(page).count(), latest.trace.length, ex.id);
      assert.equal(await page.locator("#entry-select").inputValue(), ex.entry, ex.id);
    }
    // Format lays out each function of a file written on one line.
    await pickExample(page, "approve");
    const compact = (await editorText(page, "program")).replace(/\s*\n\s*/g, "");
    await nextRun(page, () => setEditor(page, "program", compact));
    const result = await resultText(page);
    await nextRun(page, () => page.click("#format-program"));
    const formatted = await editorText(page, "program");
    assert.match(formatted, /^\{\n  "function": "rate",[\s\S]*\n\}\n\n\{\n  "function": "approve",/);
    assert.equal(await resultText(page), result);
    // enrich's mock answers in sequence: the second lookup throws, and on-error continue skips that record.
    await pickExample(page, "enrich");
    assert.deepEqual(
      JSON.parse(await resultText(page)).map((r) => r.id),
      ["a1", "c3"],
    );
    assert.equal(await page.locator("#trace .trace-row.outcome-failure").count(), 1);
    assert.match(
      await page.locator("#trace .trace-row.outcome-failure").innerText(),
      /lookup[\s\S]*"b2"[\s\S]*not found/,
    );
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("a charge tool that throws: the error result, a compensated charge and the release compensation", async () => {
    const { page, errors, context } = await openPage(env.browser, env.server.url);
    await pickExample(page, "checkout");
    assert.match(await page.locator("#tools-hint").innerText(), /throw new Error/);
    await failCharge(page);
    assert.equal((await status(page)).status, "ok");
    assert.deepEqual(JSON.parse(await resultText(page)), { error: "Payment failed: card declined" });
    assert.match(await page.locator("#run-status").innerText(), /returned an error/);
    assert.equal(await rows(page).count(), 3);
    const charge = rows(page).nth(1);
    assert.match(await charge.getAttribute("class"), /outcome-compensated/);
    assert.match(await charge.innerText(), /charge[\s\S]*compensated[\s\S]*card declined/);
    const release = rows(page).nth(2);
    assert.match(await release.getAttribute("class"), /kind-compensate/);
    assert.match(await release.innerText(), /compensate[\s\S]*release[\s\S]*\{"reservation-id": "r1"\}/);
    // The compensation is drawn inside the charge step.
    assert.equal(
      await page.locator("#trace > li:nth-child(2) > ol.trace-children .trace-row.kind-compensate").count(),
      1,
    );
    assert.equal(
      await release.locator(".tr-body").evaluate((b) => getComputedStyle(b).getPropertyValue("--depth").trim()),
      "1",
    );
    // Compensated and failed rows look different from the rest.
    const look = (loc) =>
      loc.evaluate((b) => {
        const s = getComputedStyle(b);
        return `${s.backgroundColor} ${s.borderLeftColor}`;
      });
    assert.notEqual(await look(charge), await look(rows(page).nth(0)));
    // Clicking the row marks the charge step in the program.
    await charge.click();
    const marked = await page.evaluate(() => window.__playground.markedRange());
    assert.ok(marked, "a range is marked");
    const step = JSON.parse(marked.text);
    assert.equal(step.call, "charge");
    assert.equal(step["on-error"].compensate[0].call, "release");
    await page.locator("#trace-card").scrollIntoViewIfNeeded();
    await shot(page, "sf-compensation-laptop");
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("a typo in a call target: the validation error marked on the call, with its did-you-mean", async () => {
    const { page, errors, context } = await openPage(env.browser, env.server.url);
    await pickExample(page, "checkout");
    await select(page, "program", '"charge"');
    await nextRun(page, () => page.keyboard.type('"chrage"'));
    const st = await status(page);
    assert.equal(st.status, "error");
    assert.equal(st.errorType, "validation_error");
    const [d, ...rest] = await diagnostics(page);
    assert.equal(rest.length, 0);
    assert.equal(d.text, '"call": "chrage"');
    assert.match(d.message, /Unknown function or tool 'chrage'\. Did you mean 'charge'\?/);
    const box = await page.locator("#error-box").innerText();
    assert.match(box, /at \/0\/steps\/1\/call/);
    assert.match(box, /Did you mean 'charge'\?/);
    assert.match(await page.locator("#trace-empty").innerText(), /Nothing ran/);
    assert.equal(await rows(page).count(), 0);
    // The last good result stays, greyed; "Show in program" selects the range.
    assert.ok(await page.locator("#result.stale").isVisible());
    await page.click("#error-goto");
    const sel = await page.evaluate(() => {
      const v = window.__playground.views.program;
      return v.state.sliceDoc(v.state.selection.main.from, v.state.selection.main.to);
    });
    assert.equal(sel, '"call": "chrage"');
    await shot(page, "sf-validation-error");

    // A fault: the expression that faulted is marked, with the trace so far.
    await pickExample(page, "total");
    await select(page, "program", '"$input.rate"');
    await nextRun(page, () => page.keyboard.type('"x"'));
    assert.equal((await status(page)).errorType, "execution_error");
    const [f] = await diagnostics(page);
    assert.equal(f.text, '"*": ["$subtotal", "x"]');
    assert.equal(await rows(page).count(), 2);
    assert.match(await rows(page).nth(1).getAttribute("class"), /outcome-failure/);
    assert.match(await rows(page).nth(1).innerText(), /needs numbers/);
    assert.ok(await page.locator("#trace-note").isVisible());

    // A syntax error: marked at the engine's position.
    await select(page, "program", '"output"');
    await nextRun(page, () => page.keyboard.type('"output" "'));
    assert.equal((await status(page)).errorType, "parse_error");
    const [p] = await diagnostics(page);
    assert.ok(p && p.from > 0, JSON.stringify(p));
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("completion offers the file's functions and the mock tools as call targets", async () => {
    const { page, context } = await openPage(env.browser, env.server.url);
    await pickExample(page, "classify-summaries");
    await select(page, "program", '"classify", "args"');
    await page.keyboard.type('"cl');
    await page.locator(".cm-tooltip-autocomplete").waitFor({ timeout: 60_000 });
    const offered = await page.locator(".cm-tooltip-autocomplete li .cm-completionLabel").allInnerTexts();
    assert.ok(offered.includes("classify"), offered.join(", "));
    await context.close();
  });

  test("a shared URL restores a step-function session: program, entry, input and tools", async () => {
    const { page, context } = await openPage(env.browser, env.server.url);
    await pickExample(page, "approve");
    // Run the file's other function, with an input of its own.
    await nextRun(page, () => setEditor(page, "context", '{"score": 700}'));
    await nextRun(page, () => page.selectOption("#entry-select", "rate"));
    assert.equal(await resultText(page), "0.08");
    assert.equal(await page.evaluate(() => window.__playground.entry), "rate");
    const program = await editorText(page, "program");
    const input = await editorText(page, "context");
    const tools = await editorText(page, "tools");
    const withoutTimes = (text) => text.replace(/(< )?[\d.]+ ms/g, "");
    const traceText = withoutTimes(await page.locator("#trace").innerText());
    await page.click("#share-button");
    await page.locator("#share-box").waitFor();
    const url = await page.locator("#share-url").inputValue();
    assert.match(url, /#[cj]=[A-Za-z0-9_-]+$/);

    const again = await openPage(env.browser, env.server.url, { path: url.slice(env.server.url.length) });
    const p2 = again.page;
    assert.equal(await p2.evaluate(() => window.__playground.dialect), "step-functions");
    assert.equal(await editorText(p2, "program"), program);
    assert.equal(await editorText(p2, "context"), input);
    assert.equal(await editorText(p2, "tools"), tools);
    assert.equal(await p2.locator("#entry-select").inputValue(), "rate");
    assert.equal(await resultText(p2), "0.08");
    assert.equal(withoutTimes(await p2.locator("#trace").innerText()), traceText);
    assert.equal(await p2.locator("#trace .trace-row").count(), 2);
    assert.equal(await p2.locator("#dialect-label").innerText(), "Step functions");
    assert.equal(await p2.locator("#example-select").inputValue(), "approve");
    assert.deepEqual(again.errors, []);
    await again.context.close();
    await context.close();
  });

  test("links made before the playground's renames still open: compressed, and without a dialect", async () => {
    // Made by the Share button of the playground before its code said "step functions" everywhere
    // (approve.json, entry rate, input {"score": 700}).
    const OLD_LINK =
      "#c=jVRNb9swDP0rhLBDu3mJMyztkK0Fdthxl2G3OQfZZhqtshRIcj4Q-L-Pkuwkrh0sJ0F85CP5SOnItmwxS1gpuMTCsQWzDjcfV7UqnNDKsoRtjH4xvCLomCmAjHVgxhZ0M9xhxpIICbWpnbcfM2YLbTD6qLrK0WSsad107Vq_M9ZCPr31yB9_B08kVi3j81ME2LuQZ9JmSOBxni6bxBeDrjahsHSSzmO6GzkeRjm-XHBcArNPjbcvM0XnqC58Q8Jtx6Xhla7V2_6DT6ErHNpLzEe8RwT25kort7b_F96graUDqbkCh3t30wi-XVFvng7UI280RpuY7Rf-pf3CcgGFwVI4CKFwyQPCQo5S7zwb1XwhvUR32jahY5-435g2z7RfVZTL-7SGTtdlM7oSXfSJPJ18vrUbnwtCIMR43wXPafKepd_FMGMsr1uHxGPv-1hXOkm8bG4tKhJCj97XRVUZWAmqzYkKLXTk16TGqGLBpXxr4-bFDh96fy1GacN6ysOVGQ4F6InzIWCzMNpYSydK690tf2_SPcH068gjHOTqWl2cMyWXxQf76dY0F78BfZkFAfSiwpd5lucxTRsCndbSEjSdwk9dvEK4J8AtuDVCrssD6BXQo9S5nydI4dBwuQDFK6TZ2oMq4M7rfw9Pz7DlssZJpojue-CCFRfSwm6NCuidubXRO3uKCzHHaAWFO_jhF-jOD9mUtM2FFArLjN1_hSaQ_l7T4uCeVxuJFIClBaVDIuIsS9AKYY30erkqwW-KT7oyugIO_ieZBEVQOXOgpr2U_hr5yNB-k6z5Bw";
    const old = await openPage(env.browser, env.server.url, { path: OLD_LINK });
    assert.equal(await old.page.evaluate(() => window.__playground.dialect), "step-functions");
    assert.equal(await old.page.locator("#example-select").inputValue(), "approve");
    assert.equal(await old.page.locator("#entry-select").inputValue(), "rate");
    assert.deepEqual(JSON.parse(await editorText(old.page, "context")), { score: 700 });
    assert.equal(await resultText(old.page), "0.08");
    assert.deepEqual(old.errors, []);
    await old.context.close();
    // Older still: no "dialect" key; the example it names tells the dialect.
    const ex = EXAMPLES.find((e) => e.id === "total");
    const session = {
      v: 1,
      example: ex.id,
      program: readFileSync(join(ROOT, "examples", "step-functions", ex.file), "utf8"),
      context: JSON.stringify(ex.input),
      tools: "",
    };
    const older = await openPage(env.browser, env.server.url, {
      path: `#j=${Buffer.from(JSON.stringify(session)).toString("base64url")}`,
    });
    assert.equal(await older.page.evaluate(() => window.__playground.dialect), "step-functions");
    assert.equal((await older.page.evaluate(() => window.__playground.latest)).ok, true);
    assert.ok((await older.page.locator("#trace .trace-row").count()) > 0);
    await older.context.close();
  });

  test("keyboard: the trace rows are reachable, move with the arrows and mark their step with Enter", async () => {
    const { page, errors, context } = await openPage(env.browser, env.server.url);
    await pickExample(page, "classify-summaries");
    const total = await rows(page).count();
    assert.equal(total, 16);
    // From the result, Tab reaches the trace (one stop for the whole list).
    await page.locator("#result").focus();
    await page.keyboard.press("Tab");
    const focused = () =>
      page.evaluate(() => {
        const a = document.activeElement;
        return {
          index: a.dataset.index,
          row: a.classList.contains("trace-row"),
          label: a.getAttribute("aria-label"),
          ring: getComputedStyle(a).outlineStyle !== "none",
        };
      });
    let f = await focused();
    assert.ok(f.row, "Tab from the result reaches the trace");
    assert.equal(f.index, "0");
    assert.ok(f.ring, "the focused row shows a focus ring");
    assert.match(f.label, /^Step 1 of 16: for customer in \$input\.customers, value/);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    f = await focused();
    assert.equal(f.index, "2");
    assert.match(f.label, /in classify: if/);
    // Enter marks the step: classify's first if.
    await page.keyboard.press("Enter");
    const marked = await page.evaluate(() => window.__playground.markedRange());
    assert.deepEqual(JSON.parse(marked.text), { if: { ">=": ["$input.spent", 1000] }, return: "gold" });
    assert.equal((await focused()).index, "2", "focus stays in the trace");
    await page.keyboard.press("End");
    assert.equal((await focused()).index, String(total - 1));
    await page.keyboard.press("Home");
    assert.equal((await focused()).index, "0");
    // Tab leaves the list (the rows are not one stop each).
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Tab");
    assert.equal((await focused()).row, false);
    await page.keyboard.press("Shift+Tab");
    assert.equal((await focused()).index, "1", "Shift-Tab comes back to the row last visited");
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("phone width (390 px): the timeline fits", async () => {
    const { page, errors, context } = await openPage(env.browser, env.server.url, {
      viewport: { width: 390, height: 844 },
    });
    const overflow = () =>
      page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth));
    await pickExample(page, "checkout");
    await failCharge(page);
    assert.equal(await overflow(), 0);
    // Every row's parts stay inside the row.
    const outside = await page.locator("#trace .trace-row").evaluateAll((list) =>
      list.flatMap((row) => {
        const box = row.getBoundingClientRect();
        return [...row.querySelectorAll(".tr-outcome, .tr-time, .tr-kind")]
          .filter((n) => {
            const r = n.getBoundingClientRect();
            return r.left < box.left - 0.5 || r.right > box.right + 0.5;
          })
          .map((n) => `${row.dataset.index}: ${n.className}`);
      }),
    );
    assert.deepEqual(outside, []);
    // Nothing in a row's head overlaps its duration column.
    const overlaps = await page.locator("#trace .trace-row").evaluateAll((list) =>
      list
        .filter((row) => {
          const time = row.querySelector(".tr-time").getBoundingClientRect();
          return [...row.querySelectorAll(".tr-head > *")].some(
            (n) => n.getBoundingClientRect().right > time.left + 0.5,
          );
        })
        .map((row) => row.dataset.index),
    );
    assert.deepEqual(overlaps, []);
    await page.locator("#trace-card").scrollIntoViewIfNeeded();
    await shot(page, "sf-timeline-phone");
    await page.locator("#trace-card").screenshot({ path: join(ARTIFACTS, "sf-timeline-phone-card.png") });
    await pickExample(page, "classify-summaries");
    assert.equal(await overflow(), 0);
    await page.screenshot({ path: join(ARTIFACTS, "sf-phone-full.png"), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
