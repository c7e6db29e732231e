// Issue 40 items 1-3, measured (not a test): the gateway in front of a server
// whose schemas are small and hostile (tests/js/fixtures/hostile-schemas-server.cjs).
//   node bench/hostile-schemas.mjs [N=22] [items=1,2,3]
// Prints, for a valid call of chain_args with timeoutMs 1000: how long it took
// to settle, its result, and how often a 10 ms timer fired meanwhile; for
// describe_tools of chain_types: the answer's size and time, and how long a
// ping sent at the same moment waited; the prompt's size; and whether `add 1 2`
// runs beside deep_result's outputSchema.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createRuntime } from "../dist/node.mjs";
import { mcpTools, createMcpServer } from "../dist/mcp.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const N = process.argv[2] ?? "22";
const items = new Set((process.argv[3] ?? "1,2,3").split(","));
const server = path.join(root, "tests/js/fixtures/hostile-schemas-server.cjs");

async function ticking(work) {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const start = performance.now();
  try {
    const value = await work();
    return { ms: Math.round(performance.now() - start), ticks, value };
  } finally {
    clearInterval(timer);
  }
}

const t0 = performance.now();
const gateway = await mcpTools({ mcpServers: { hostile: { command: process.execPath, args: [server, N] } } });
console.log(`N=${N}: mcpTools connected in ${Math.round(performance.now() - t0)} ms`);
for (const w of gateway.warnings ?? []) console.log(`  warning: ${w.server}.${w.tool}: ${w.message}`);
const ptc = await createRuntime();

// Item 1: a valid call, timeoutMs 1000 (the run given only that tool: item 3 is apart).
if (items.has("1")) {
  const call = await ticking(() =>
    ptc.run(
      { program: { op: "call", tool: "hostile.chain_args", args: { query: "x" } } },
      { tools: { "hostile.chain_args": gateway.tools["hostile.chain_args"] }, timeoutMs: 1000 },
    ),
  );
  const outcome = call.value.ok ? `ok ${JSON.stringify(call.value.result)}` : `${call.value.error.type}`;
  console.log(`item 1: chain_args call settled in ${call.ms} ms (${outcome}); 10 ms timer fired ${call.ticks} times`);
}

// Item 2: describe_tools over MCP, and a ping sent at the same moment.
if (items.has("2")) {
  const mcp = createMcpServer(ptc, { tools: gateway.tools });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientSide);
  const start = performance.now();
  let pingMs;
  const ping = client.ping().then(() => (pingMs = Math.round(performance.now() - start)));
  const described = await ticking(() =>
    client.callTool({ name: "describe_tools", arguments: { tools: ["hostile.chain_types"] } }),
  );
  await ping;
  const text = described.value.content.map((c) => c.text).join("\n");
  console.log(
    `item 2: describe_tools chain_types: ${text.length} characters in ${described.ms} ms; ping answered after ${pingMs} ms`,
  );
  const prompted = await ticking(async () => ptc.prompt({ tools: gateway.tools, compact: true }));
  console.log(`item 2: prompt({compact}) with the tools: ${prompted.value.length} characters in ${prompted.ms} ms`);
  await client.close();
}

// Item 3: a program that calls no tool, beside deep_result's outputSchema.
if (items.has("3")) {
  const add = await ptc.run({ program: { op: "add", left: 1, right: 2 } }, { tools: gateway.tools });
  console.log(
    `item 3: add 1 2 with the tools: ${add.ok ? `ok ${add.result}` : `${add.error.type}: ${add.error.message}`}`,
  );
}

await gateway.close();
