// Many runs in flight on ONE runtime, each suspended on its own tool calls:
// interleaving must not leak values, memory or failures between runs.
const { ptcWasm, sleep } = require("./helpers.cjs");

const RUNS = 64;

let rt;
beforeAll(async () => {
  rt = await ptcWasm.createRuntime();
});

// A run i: several awaited tool calls (sequential lets, a map with a call per
// item), its own context and memory, and a memory delta that depends on i.
function programFor(i) {
  return {
    program: {
      op: "let",
      name: "user",
      value: { op: "call", tool: "get_user", args: { id: i } },
      in: {
        op: "let",
        name: "orders",
        value: { op: "call", tool: "get_orders", args: { user: { op: "var", name: "user" } } },
        in: {
          op: "let",
          name: "priced",
          value: {
            op: "pipe",
            steps: [
              { op: "var", name: "orders" },
              { op: "map", expr: { op: "call", tool: "price", args: { order: { op: "get", path: [] } } } },
            ],
          },
          in: {
            // (a nested object without "op" would be literal data: spell out the object)
            result: {
              op: "object",
              fields: {
                user: { op: "var", name: "user" },
                total: { op: "pipe", steps: [{ op: "var", name: "priced" }, { op: "sum" }] },
                base: {
                  op: "pipe",
                  steps: [
                    { op: "load", name: "base" },
                    { op: "sum", field: "v" },
                  ],
                },
                previous: { op: "var", name: "previous" },
              },
            },
            [`seen_${i}`]: { op: "pipe", steps: [{ op: "var", name: "orders" }, { op: "count" }] },
            last_user: {
              op: "pipe",
              steps: [
                { op: "var", name: "user" },
                { op: "get", field: "name" },
              ],
            },
          },
        },
      },
    },
  };
}

function optionsFor(i, delays) {
  const wait = () => (delays ? sleep(Math.floor(Math.random() * 12)) : Promise.resolve());
  return {
    context: { base: Array.from({ length: (i % 5) + 1 }, (_, k) => ({ v: i * 100 + k })) },
    memory: { previous: `memory of run ${i}` },
    timeoutMs: 20000,
    tools: {
      get_user: async ({ id }) => {
        await wait();
        return { id, name: `user-${id}` };
      },
      get_orders: async ({ user }) => {
        await wait();
        return Array.from({ length: (user.id % 4) + 1 }, (_, k) => ({ user: user.id, n: k }));
      },
      price: async ({ order }) => {
        await wait();
        return order.user * 1000 + order.n;
      },
    },
  };
}

const comparable = (r) =>
  r.ok
    ? { ok: true, result: r.result, memoryDelta: r.memoryDelta, memory: r.memory, toolCalls: r.metrics.toolCalls }
    : { ok: false, error: r.error };

describe(`${RUNS} concurrent runs on one runtime`, () => {
  test("each result equals the same run executed alone, and activeRuns returns to 0", async () => {
    const alone = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await rt.run(programFor(i), optionsFor(i, false));
      expect({ i, ok: r.ok, error: r.error }).toEqual({ i, ok: true, error: undefined });
      alone.push(comparable(r));
    }
    // Sanity: the runs differ from each other.
    expect(alone[3].result.user).toEqual({ id: 3, name: "user-3" });
    expect(alone[3].result.total).toBe(3000 + 3001 + 3002 + 3003);
    expect(alone[3].result.base).toBe(300 + 301 + 302 + 303);
    expect(alone[3].result.previous).toBe("memory of run 3");
    expect(alone[3].memoryDelta).toEqual({ seen_3: 4, last_user: "user-3" });
    expect(alone[3].memory).toHaveProperty("previous", "memory of run 3");
    expect(alone[3].toolCalls).toBe(2 + 4);

    let maxActive = 0;
    const sample = setInterval(() => (maxActive = Math.max(maxActive, rt.activeRuns)), 1);
    const started = [];
    const together = await Promise.all(
      Array.from({ length: RUNS }, (_, i) => {
        const options = optionsFor(i, true);
        const orig = options.tools.get_user;
        options.tools.get_user = (args) => {
          started.push(i);
          maxActive = Math.max(maxActive, rt.activeRuns);
          return orig(args);
        };
        return rt.run(programFor(i), options).then(comparable);
      }),
    );
    clearInterval(sample);

    for (let i = 0; i < RUNS; i++) expect({ i, r: together[i] }).toEqual({ i, r: alone[i] });
    // They really were in flight together.
    expect(started).toHaveLength(RUNS);
    expect(maxActive).toBeGreaterThan(RUNS / 2);
    expect(rt.activeRuns).toBe(0);
  });

  test("failures, timeouts and aborts in some runs do not disturb the others", async () => {
    const alone = [];
    for (let i = 0; i < RUNS; i++) alone.push(comparable(await rt.run(programFor(i), optionsFor(i, false))));

    const controllers = [];
    const together = await Promise.all(
      Array.from({ length: RUNS }, (_, i) => {
        const options = optionsFor(i, true);
        if (i % 4 === 1) {
          options.tools.price = async () => {
            await sleep(Math.random() * 5);
            throw new Error(`price service down for ${i}`);
          };
        } else if (i % 8 === 2) {
          options.timeoutMs = 30;
          options.tools.get_orders = () => new Promise(() => {});
        } else if (i % 8 === 6) {
          const controller = new AbortController();
          controllers.push(controller);
          options.signal = controller.signal;
          options.tools.get_orders = () => new Promise(() => {});
        }
        return rt.run(programFor(i), options).then(comparable);
      }),
      sleep(60).then(() => controllers.forEach((c) => c.abort())),
    );

    for (let i = 0; i < RUNS; i++) {
      const r = together[i];
      if (i % 4 === 1) {
        expect({ i, type: r.error?.type }).toEqual({ i, type: "execution_error" });
        expect(r.error.message).toContain(`price service down for ${i}`);
      } else if (i % 8 === 2) {
        expect({ i, type: r.error?.type }).toEqual({ i, type: "timeout" });
      } else if (i % 8 === 6) {
        expect({ i, type: r.error?.type }).toEqual({ i, type: "execution_error" });
        expect(r.error.message).toMatch(/abort/i);
      } else {
        expect({ i, r }).toEqual({ i, r: alone[i] });
      }
    }
    expect(rt.activeRuns).toBe(0);
  });

  test("a tool may itself run a program on the same runtime", async () => {
    const inner = { program: { op: "pipe", steps: [{ op: "load", name: "xs" }, { op: "sum" }] } };
    const runs = Array.from({ length: 16 }, (_, i) =>
      rt.run(
        { program: { op: "add", left: { op: "call", tool: "nested", args: { i } }, right: 1 } },
        {
          tools: {
            nested: async ({ i: k }) => {
              await sleep(Math.random() * 5);
              const r = await rt.run(inner, { context: { xs: [k, k, k] } });
              if (!r.ok) throw new Error(JSON.stringify(r.error));
              return r.result;
            },
          },
        },
      ),
    );
    const results = await Promise.all(runs);
    expect(results.map((r) => r.ok && r.result)).toEqual(Array.from({ length: 16 }, (_, i) => 3 * i + 1));
    expect(rt.activeRuns).toBe(0);
  });

  test("synchronous runs complete while others are suspended on tools", async () => {
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    const waiting = Array.from({ length: 8 }, (_, i) =>
      rt.run(
        { program: { op: "call", tool: "wait", args: { i } } },
        { tools: { wait: async ({ i: k }) => (await gate, k) } },
      ),
    );
    await sleep(5);
    expect(rt.activeRuns).toBe(8);
    for (let k = 0; k < 20; k++) {
      const r = await rt.run({ program: { op: "mul", left: k, right: 2 } });
      expect(r).toMatchObject({ ok: true, result: k * 2 });
      expect(rt.validate({ program: { op: "filer" } }).ok).toBe(false);
    }
    expect(rt.activeRuns).toBe(8);
    release();
    expect((await Promise.all(waiting)).map((r) => r.result)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(rt.activeRuns).toBe(0);
  });
});
