// A resident context's text crosses into the engine a piece at a time (issue 37
// item 4; js/src/engine/engine.ts's textReader, wasm/bindings.cpp's
// TextReader): the engine never holds the whole text, so the wasm memory (which
// never shrinks) grows by the values and one piece, not by the text besides.
// Counted in bytes of wasm memory, not timed. Cuts inside strings, numbers,
// escapes and UTF-8 sequences are tested natively (tests/cpp/json_pieces_test.cpp).
const { ptcWasm } = require("./helpers.cjs");

const MiB = 2 ** 20;
const patient = { maxResidentBytes: 256 * MiB, timeoutMs: 600000 };

test("loading grows the wasm memory by the values and one piece, not by the whole text besides", async () => {
  const rt = await ptcWasm.createRuntime();
  try {
    expect(await rt.run({ program: { op: "literal", value: 1 } })).toMatchObject({ ok: true });
    const before = rt.engine.m.HEAPU8.length;
    // 40 MB of text, its values about as big (each string is one block of its own bytes).
    const rows = Array.from({ length: 40000 }, (_, i) => `${String(i).padStart(8, "0")}:${"x".repeat(990)}`);
    const textBytes = JSON.stringify({ rows }).length;
    const loaded = await rt.load({ rows }, patient);
    expect(loaded.ok).toBe(true);
    const growth = rt.engine.m.HEAPU8.length - before;
    // With the whole text copied in, the growth was the text and the values (about 2x the text).
    expect(growth).toBeLessThan(loaded.resident.memoryBytes + textBytes / 2);
    const count = { program: { op: "pipe", steps: [{ op: "load", name: "rows" }, { op: "count" }] } };
    expect(await rt.run(count, { resident: loaded.resident })).toMatchObject({ ok: true, result: 40000 });
  } finally {
    rt.close();
  }
});

test("text of any script crosses in pieces whole: no character is cut at a piece's end", async () => {
  const rt = await ptcWasm.createRuntime();
  try {
    // Over 3 MiB of UTF-8: one-, two-, three- and four-byte characters (a surrogate pair in JS) all along.
    const rows = Array.from({ length: 30000 }, (_, i) => ({
      id: i,
      text: `é€😀${i}中文 "quoted"\n${"ß".repeat(i % 40)}`,
    }));
    const loaded = await rt.load({ rows }, patient);
    expect(loaded.ok).toBe(true);
    const out = await rt.run(
      { program: { op: "load", name: "rows" } },
      { resident: loaded.resident, maxHeapBytes: 256 * MiB, timeoutMs: 600000 },
    );
    expect(out.ok).toBe(true);
    expect(out.result).toEqual(rows);
  } finally {
    rt.close();
  }
});

test("the resident limit reached part way through the pieces is memory_exceeded, and the runtime goes on", async () => {
  const rt = await ptcWasm.createRuntime();
  try {
    const rows = Array.from({ length: 20000 }, (_, i) => ({
      id: i,
      name: `row ${i} with a name long enough to be its own block`,
    }));
    const refused = await rt.load({ rows }, { maxResidentBytes: 1 * MiB });
    expect(refused).toMatchObject({ ok: false, error: { type: "memory_exceeded" } });
    expect(refused.error.message).toContain("maxResidentBytes");
    const loaded = await rt.load({ rows }, patient);
    expect(loaded.ok).toBe(true);
    const count = { program: { op: "pipe", steps: [{ op: "load", name: "rows" }, { op: "count" }] } };
    expect(await rt.run(count, { resident: loaded.resident })).toMatchObject({ ok: true, result: 20000 });
  } finally {
    rt.close();
  }
});
