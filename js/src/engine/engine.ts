// One instance of the wasm engine, with typed access to its Embind functions.
// Large texts cross as UTF-8 bytes written straight into wasm memory; the rest
// as Embind strings, made well-formed first (wellFormed below).
import createPtcModule from "../../../build/wasm/ptc.cjs";
import type { ResidentSpec } from "./resident.js";
import type { RunKind, WasmModule } from "../types/public.js";
// Generated from wasm/bindings.cpp (scripts/gen-embind-types.mjs): the build refuses a stale one.
import type { EmbindModule } from "./embind.generated.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// A status text longer than this is released in the engine once read.
const KEEP_STATUS_BYTES = 64 * 1024;

// Inputs up to this size are written into one buffer the instance keeps in
// wasm memory, rather than one allocated and freed for each call: a warm run
// is then a single call into wasm (malloc and free were two more, a tenth of
// a tiny run's boundary). Bigger inputs get a buffer of their own, freed after.
const KEEP_INPUT_BYTES = 64 * 1024;

// Writes an ASCII text a byte per character at `at`; -1 (with some bytes
// written) when it is not ASCII. Short texts are copied in a loop, which beats
// the call and the view encodeInto needs; long ones go through encodeInto.
function putAscii(text: string, heap: Uint8Array, at: number): number {
  const n = text.length;
  if (n > 64) {
    const done = encoder.encodeInto(text, heap.subarray(at, at + n));
    return done.read === n && done.written === n ? n : -1;
  }
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return -1;
    heap[at + i] = c;
  }
  return n;
}

// The reader of a resident context's text (wasm/bindings.cpp's TextReader):
// the engine asks for the text a piece at a time, each written as UTF-8 into
// its buffer, so the whole text is never in wasm memory, whose high-water mark
// stays (it never shrinks). A surrogate pair is never cut: a piece ends before
// its first half.
function textReader(m: EmbindModule, text: string) {
  let at = 0;
  return (buffer: number, capacity: number, restart: boolean): number => {
    if (restart) at = 0;
    if (at >= text.length) return 0;
    let end = Math.min(text.length, at + capacity);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && end - at > 1 && last >= 0xd800 && last <= 0xdbff) end--;
    const done = encoder.encodeInto(text.slice(at, end), m.HEAPU8.subarray(buffer, buffer + capacity));
    at += done.read;
    return done.written;
  };
}

// Embind's UTF-8 encoder (Emscripten 3.1.6) takes any surrogate for the first
// half of a pair and swallows the next unit with it: "a\uD800b" arrived as
// "a\u{10062}". A lone surrogate becomes U+FFFD instead, as TextEncoder writes
// it for the texts that cross as bytes. Every string argument goes through here.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
type MaybeWellFormed = string & { isWellFormed?: () => boolean };

function wellFormed(text: string): string {
  const native = (text as MaybeWellFormed).isWellFormed; // ES2024: a scan with no allocation
  if (native ? native.call(text) : !/[\uD800-\uDFFF]/.test(text)) return text;
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

/**
 * A program or step-function file compiled inside this instance, the context
 * keys it loads (none for a step-function file: its input is the whole
 * payload), and which of them it reads only in part.
 */
export interface Prepared {
  id: number;
  loads: string[];
  fields?: Record<string, string[]>;
}

/**
 * A done status that says only a scalar result and the metrics (the engine's
 * ScalarDone, engine/core/run.h): {"state":"done","ok":true,"result":R,
 * "memoryDelta":{},"memory":{},"metrics":{"memoryBytes":B,"toolCalls":C}}.
 */
export interface ScalarDone {
  result: number | boolean | null;
  memoryBytes: number;
  toolCalls: number;
}

/**
 * A run's first status: its text, or (a done status of a scalar result) what
 * the text would say, read without decoding it; and the run's handle beside
 * it while it waits on tools (0: done).
 */
export type RunStatus = { run: number; text: string } | { run: 0; scalar: ScalarDone };

// What ptcStatusSlot points at (wasm/bindings.cpp's StatusSlot): u32s, then f64s.
const SLOT_TEXT = 0;
const SLOT_LENGTH = 1;
const SLOT_RUN = 2;
const SLOT_SCALAR = 3;
const SLOT_NUMBER = 2; // f64 indexes
const SLOT_MEMORY_BYTES = 3;
const SLOT_TOOL_CALLS = 4;
// ScalarDone::Kind: None, Number (in the slot), Null, True, False.
const SCALAR_NUMBER = 1;
const SCALAR_RESULTS: readonly (boolean | null)[] = [null, null, null, true, false];

// Prepared programs and files kept per instance, by dialect, options and text.
// Agents rerun the same programs; a bounded set keeps the engine's side bounded too.
const PREPARED_PER_INSTANCE = 256;

export class EngineInstance {
  /** Set when the instance trapped; it is never used again. */
  broken = false;

  // By dialect, options text, then program text: lookups of strings the
  // caller already holds, rather than hashing a concatenation on every run.
  private readonly prepared: Record<RunKind, Map<string, Map<string, Prepared>>> = {
    program: new Map(),
    workflow: new Map(),
  };
  private preparedCount = 0;
  // Resident contexts loaded into this instance: spec id → the engine's id.
  private readonly residents = new Map<number, number>();

  // Where ptcRunPrepared leaves its status (StatusSlot), as a u32 index and an f64 index.
  private readonly statusAt: number;
  private readonly statusF64At: number;

  // The memory the instance started with: what it grew by is what recycling gives back.
  private readonly startBytes: number;

  // The kept input buffer (see KEEP_INPUT_BYTES): where, and its size (0: none yet).
  private inputAt = 0;
  private inputBytes = 0;
  // Byte lengths of the two texts the last write() wrote.
  private firstLen = 0;
  private secondLen = 0;

  private constructor(private readonly m: EmbindModule) {
    const slot = m._ptcStatusSlot();
    this.statusAt = slot >>> 2;
    this.statusF64At = slot >>> 3;
    this.startBytes = m.HEAPU8.length;
  }

  // Instantiates synchronously from an already compiled module, so a trapped
  // instance can be replaced on the spot. With MODULARIZE the object passed to
  // the factory becomes the module, ready once instantiateWasm has answered.
  static create(module: WasmModule): EngineInstance {
    const m: Record<string, unknown> = {
      instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) {
        done(new WebAssembly.Instance(module, imports));
        return {};
      },
      print: () => {},
      printErr: () => {},
    };
    void createPtcModule(m).catch(() => {});
    if (typeof m.prepare !== "function") throw new Error("ptc-wasm: the engine module did not initialise");
    return new EngineInstance(m as unknown as EmbindModule);
  }

  validate(program: string, options: string): string {
    return this.guard(() => this.withBytes(program, "", (ptr, len) => this.m.validate(ptr, len, wellFormed(options))));
  }
  /**
   * The program (or step-function file) compiled with these options (limits
   * included), prepared once and then found by its text; or, when it does not
   * compile, the done status text with the error.
   */
  prepare(kind: RunKind, text: string, options: string): Prepared | string {
    const known = this.prepared[kind].get(options)?.get(text);
    if (known) return known;
    const answer = this.guard(() =>
      this.withBytes(text, "", (ptr, len) =>
        kind === "program"
          ? this.m.prepare(ptr, len, wellFormed(options))
          : this.m.prepareWorkflow(ptr, len, wellFormed(options)),
      ),
    );
    const status = JSON.parse(answer) as { state: string } & Prepared;
    if (status.state !== "prepared") return answer;
    if (this.preparedCount >= PREPARED_PER_INSTANCE) this.forgetPrepared();
    const entry: Prepared = { id: status.id, loads: status.loads, fields: status.fields };
    let byText = this.prepared[kind].get(options);
    if (!byText) this.prepared[kind].set(options, (byText = new Map()));
    byText.set(text, entry);
    this.preparedCount++;
    return entry;
  }
  /**
   * Runs a prepared program on the context and memory texts and the row blocks
   * (engine/core/row_block.h), or a prepared step-function file on its input
   * (as the context): its status text and, beside it, the run's handle while
   * the run waits on a tool (0 once it is done).
   * spentMs (turning the data into JSON) counts toward the run's time limit.
   */
  runPrepared(
    prepared: Prepared,
    context: string,
    memory: string,
    spentMs: number,
    rows?: Uint8Array,
    resident = 0,
  ): RunStatus {
    // guard() and withBytes() spelled out: no closures made for every run.
    if (this.broken) throw new EngineBrokenError(undefined, true);
    try {
      const ptr = this.write(context, memory, rows);
      try {
        this.m._ptcRunPrepared(prepared.id, ptr, this.firstLen, this.secondLen, spentMs, rows?.length ?? 0, resident);
        return this.lastStatus();
      } finally {
        this.release(ptr);
      }
    } catch (e) {
      this.broken = true;
      throw new EngineBrokenError(e, false);
    }
  }

  // The status the last ptcRunPrepared left in wasm memory: a scalar result
  // and the metrics when it is no more (its text is then not decoded, which
  // with parsing it was a tenth of a tiny run), else its text (UTF-8); and the
  // run's handle beside it.
  private lastStatus(): RunStatus {
    const slot = this.m.HEAPU32; // read after the call: growth replaces the views
    const scalar = slot[this.statusAt + SLOT_SCALAR] as number;
    if (scalar !== 0) {
      const numbers = this.m.HEAPF64;
      const at = this.statusF64At;
      return {
        run: 0,
        scalar: {
          result: scalar === SCALAR_NUMBER ? (numbers[at + SLOT_NUMBER] as number) : (SCALAR_RESULTS[scalar] ?? null),
          memoryBytes: numbers[at + SLOT_MEMORY_BYTES] as number,
          toolCalls: numbers[at + SLOT_TOOL_CALLS] as number,
        },
      };
    }
    const ptr = slot[this.statusAt + SLOT_TEXT] as number;
    const len = slot[this.statusAt + SLOT_LENGTH] as number;
    const run = slot[this.statusAt + SLOT_RUN] as number;
    const text = decoder.decode(this.m.HEAPU8.subarray(ptr, ptr + len));
    if (len > KEEP_STATUS_BYTES) this.m._ptcReleaseStatus();
    return { run, text };
  }
  /**
   * Loads a resident context (resident.ts) into this instance: its status
   * text, {"state":"resident","id":N,"bytes":B,"keys":[...]} or a done status
   * with the error.
   */
  loadResident(spec: ResidentSpec): string {
    const text = this.guard(() => this.m.loadResident(textReader(this.m, spec.text), spec.maxBytes, spec.timeoutMs));
    const status = JSON.parse(text) as { state: string; id: number };
    if (status.state === "resident") this.residents.set(spec.id, status.id);
    return text;
  }
  /** The engine's id of a resident context, loaded first if this instance has not got it; or the error status text. */
  residentId(spec: ResidentSpec): number | string {
    const known = this.residents.get(spec.id);
    if (known !== undefined) return known;
    const text = this.loadResident(spec);
    return this.residents.get(spec.id) ?? text;
  }
  releaseResident(spec: ResidentSpec): void {
    const id = this.residents.get(spec.id);
    if (id === undefined || this.broken) return;
    this.residents.delete(spec.id);
    this.guard(() => this.m.releaseResident(id));
  }
  /** Bytes the resident contexts loaded into this instance take. */
  residentBytes(): number {
    return this.guard(() => this.m.residentBytes());
  }
  validateWorkflow(source: string, options: string): string {
    return this.guard(() =>
      this.withBytes(source, "", (ptr, len) => this.m.validateWorkflow(ptr, len, wellFormed(options))),
    );
  }
  analyze(program: string, options: string): string {
    return this.guard(() => this.withBytes(program, "", (ptr, len) => this.m.analyze(ptr, len, wellFormed(options))));
  }
  analyzeWorkflow(source: string, options: string): string {
    return this.guard(() =>
      this.withBytes(source, "", (ptr, len) => this.m.analyzeWorkflow(ptr, len, wellFormed(options))),
    );
  }
  /** Answers call `call` of a run waiting on tools with its result (JSON text). */
  resume(run: number, result: string, call: number): string {
    return this.guard(() => this.withBytes(result, "", (ptr, len) => this.m.resume(run, ptr, len, call)));
  }
  /** Fails call `call` of a run waiting on tools with this message. */
  fail(run: number, message: string, call: number): string {
    return this.guard(() => this.m.fail(run, wellFormed(message), call));
  }
  /** Ends a run waiting on a tool (engine/api/engine.h): timed out, aborted, or the tool's result is not JSON data. */
  cancel(run: number, reason: "timeout" | "abort" | "fault", detail: string, call = 0): string {
    return this.guard(() => this.m.cancel(run, reason, wellFormed(detail), call));
  }
  formatError(error: string): string {
    return this.guard(() => this.m.formatError(wellFormed(error)));
  }
  operations(): string {
    return this.guard(() => this.m.operations());
  }
  workflowLanguage(): string {
    return this.guard(() => this.m.workflowLanguage());
  }
  liveRuns(): number {
    return this.guard(() => this.m.liveRuns());
  }
  /** Makes the instance trap, as a bug in the engine would (tests of recovery). */
  trapForTesting(): void {
    this.guard(() => this.m.debugTrap());
  }
  /** Bytes of wasm linear memory (grows, never shrinks). */
  memoryBytes(): number {
    return this.m.HEAPU8.length;
  }
  /**
   * What the memory grew by beyond the resident contexts it holds: what a
   * fresh instance (they are loaded into it again) would give back.
   */
  grownBytes(): number {
    return this.broken ? 0 : Math.max(0, this.memoryBytes() - this.startBytes - this.residentBytes());
  }
  /**
   * Whether grownBytes() is over `limit`, asked after every run: the engine is
   * called (for its resident bytes) only once the memory alone grew past it, so
   * a run that grew nothing crosses the boundary once, not twice.
   */
  grewPast(limit: number): boolean {
    return !this.broken && this.memoryBytes() - this.startBytes > limit && this.grownBytes() > limit;
  }
  /** memoryBytes(), grownBytes() and residentBytes() with one call into the engine. */
  size(): { memoryBytes: number; grownBytes: number; residentBytes: number } {
    const memoryBytes = this.memoryBytes();
    const residentBytes = this.residentBytes();
    return { memoryBytes, grownBytes: Math.max(0, memoryBytes - this.startBytes - residentBytes), residentBytes };
  }

  // Runs started before keep their compiled program: the engine shares it.
  private forgetPrepared(): void {
    for (const byOptions of Object.values(this.prepared)) {
      for (const byText of byOptions.values()) for (const { id } of byText.values()) this.m.release(id);
      byOptions.clear();
    }
    this.preparedCount = 0;
  }

  // Writes two texts as UTF-8, back to back, then `tail` if given, into one
  // wasm buffer for `use`. First tries a byte per UTF-16 unit, which holds any
  // ASCII text (JSON mostly is) with no measuring pass; other text is encoded
  // apart.
  private withBytes<T>(
    first: string,
    second: string,
    use: (ptr: number, firstLen: number, secondLen: number) => T,
    tail?: Uint8Array,
  ): T {
    const ptr = this.write(first, second, tail);
    try {
      return use(ptr, this.firstLen, this.secondLen);
    } finally {
      this.release(ptr);
    }
  }

  // withBytes' writing: the buffer (release it after use) holding the texts
  // and tail, their lengths in firstLen and secondLen.
  private write(first: string, second: string, tail?: Uint8Array): number {
    const units = first.length + second.length;
    const tailLen = tail?.length ?? 0;
    let ptr = this.buffer(units + tailLen);
    const heap = this.m.HEAPU8; // read after malloc: growth replaces the view
    let firstLen = putAscii(first, heap, ptr);
    let secondLen = firstLen < 0 ? -1 : putAscii(second, heap, ptr + firstLen);
    if (secondLen < 0) {
      this.release(ptr);
      const firstBytes = encoder.encode(first);
      const secondBytes = encoder.encode(second);
      ptr = this.buffer(firstBytes.length + secondBytes.length + tailLen);
      this.m.HEAPU8.set(firstBytes, ptr);
      this.m.HEAPU8.set(secondBytes, ptr + firstBytes.length);
      [firstLen, secondLen] = [firstBytes.length, secondBytes.length];
    }
    if (tail) this.m.HEAPU8.set(tail, ptr + firstLen + secondLen);
    this.firstLen = firstLen;
    this.secondLen = secondLen;
    return ptr;
  }

  // A buffer of `bytes` in wasm memory for one call's input: the kept one when
  // it is small enough (no call into wasm once it exists), else its own. The
  // engine reads its input during the call and keeps no view of it, and no
  // call re-enters the instance, so one buffer serves every call.
  private buffer(bytes: number): number {
    if (bytes > KEEP_INPUT_BYTES) return this.malloc(bytes);
    if (bytes > this.inputBytes) {
      if (this.inputAt) this.m._free(this.inputAt);
      this.inputAt = this.inputBytes = 0; // (malloc may throw)
      const size = Math.max(1024, 2 ** Math.ceil(Math.log2(bytes)));
      this.inputAt = this.malloc(size);
      this.inputBytes = size;
    }
    return this.inputAt;
  }

  private release(ptr: number): void {
    if (ptr !== this.inputAt) this.m._free(ptr);
  }

  private malloc(bytes: number): number {
    const ptr = this.m._malloc(bytes || 1);
    if (!ptr) throw new RangeError("ptc-wasm: the engine could not allocate memory for the input");
    return ptr;
  }

  // A trap (a WebAssembly.RuntimeError) leaves the instance in an unknown state:
  // mark it broken so the runtime replaces it.
  private guard<T>(call: () => T): T {
    if (this.broken) throw new EngineBrokenError(undefined, true);
    try {
      return call();
    } catch (e) {
      this.broken = true;
      throw new EngineBrokenError(e, false);
    }
  }
}

export class EngineBrokenError extends Error {
  /**
   * @param earlier the instance had failed before this call (during another
   * run's call): whatever this run held in it is lost, but this call did not
   * make it fail.
   */
  constructor(
    cause?: unknown,
    readonly earlier = false,
  ) {
    super(`the engine instance failed${cause instanceof Error ? `: ${cause.message}` : ""}`);
    this.name = "EngineBrokenError";
  }
}
