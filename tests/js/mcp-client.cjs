// An MCP SDK client connected in memory to a server (createMcpServer's), as
// the agent tests drive one, and a call's answer as those tests read it.
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");

/** A client connected to `server`; `capabilities` as a host declares them (e.g. { elicitation: {} }). */
async function inMemoryClient(server, capabilities) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "host", version: "1.0.0" }, capabilities ? { capabilities } : undefined);
  await client.connect(clientSide);
  return client;
}

/** A tool call's answer: whether it is an error, its code (_meta.code) and its texts. */
const answerOf = (r) => ({ isError: r.isError === true, code: r._meta?.code, texts: r.content.map((c) => c.text) });

module.exports = { inMemoryClient, answerOf };
