// The handle of a resident context (runtime.load, engine/resident.ts), a public
// type that the run options name: here, in the leaf, so that they need not
// import the engine layer.

/** What an engine instance needs to load a resident context (also posted to a worker). */
export interface ResidentSpec {
  /** Unique in the process. */
  id: number;
  text: string;
  maxBytes: number;
  timeoutMs: number;
}

/**
 * Context data kept in the engine: pass it as the `resident` option of run().
 * Programs load its keys by name, as ordinary context; a key of the run's own
 * `context` of the same name wins. Its values count toward its own limit
 * (maxResidentBytes), not the runs' maxHeapBytes. close() releases it.
 */
export class ResidentContext {
  // Named here: the bundles are minified without keepNames (it cost half a
  // millisecond of every import), and a public class keeps its name.
  static {
    Object.defineProperty(this, "name", { value: "ResidentContext" });
  }

  private isClosed = false;

  /** @internal made by runtime.load() */
  constructor(
    /** @internal */ readonly spec: ResidentSpec,
    /** The context keys it holds. */
    readonly keys: readonly string[],
    /** Bytes its values take in the engine. */
    readonly memoryBytes: number,
    /** @internal the runtime that loaded it */ readonly owner: object,
    private readonly release: (spec: ResidentSpec) => void,
  ) {}

  get closed(): boolean {
    return this.isClosed;
  }

  /** Releases the engine's copy; runs that hold it finish first. Later runs with it fail. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.release(this.spec);
  }
}
