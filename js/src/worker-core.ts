// The engine side of worker mode: runs programs on an engine instance inside the
// worker and asks the caller's thread for payloads and tool outcomes (tools
// always run where the caller defined them).
import { driveRun, type RunKind, type DoneStatus } from "./driver.js";
import { EngineInstance } from "./engine.js";
import type { FromWorker, ToWorker } from "./worker-protocol.js";

export function serveEngine(post: (message: FromWorker) => void): (message: ToWorker) => void {
  let module: WebAssembly.Module | undefined;
  let engine: EngineInstance | undefined;
  const answers = new Map<string, (value: never) => void>();

  function ask<T>(key: string, message: FromWorker): Promise<T> {
    return new Promise<T>((resolve) => {
      answers.set(key, resolve as (value: never) => void);
      post(message);
    });
  }

  function reply(key: string, value: unknown): void {
    const resolve = answers.get(key);
    answers.delete(key);
    resolve?.(value as never);
  }

  async function run(id: number, program: string, engineOptions: string, kind: RunKind): Promise<void> {
    let status: DoneStatus;
    let toolMs = 0;
    try {
      if (!engine || engine.broken) engine = EngineInstance.create(module as WebAssembly.Module);
      ({ status, toolMs } = await driveRun(engine, program, engineOptions, {
        payload: (loads, fields) => ask(`${id}:payload`, { type: "payload?", id, loads, fields }),
        tool: (tool, args) => ask(`${id}:outcome`, { type: "call", id, tool, args }),
      }, kind));
    } catch (e) {
      const message = `The engine failed while running this program (${(e as Error).message}); it has been replaced`;
      status = { state: "done", ok: false, error: { type: "execution_error", message }, metrics: { memoryBytes: 0, toolCalls: 0 } };
    }
    post({ type: "done", id, status, toolMs });
  }

  return (message) => {
    switch (message.type) {
      case "init":
        module = message.module;
        return;
      case "run":
        void run(message.id, message.program, message.engineOptions, message.kind);
        return;
      case "payload":
        return reply(`${message.id}:payload`, message.payload);
      case "outcome":
        return reply(`${message.id}:outcome`, message.outcome);
    }
  };
}
