// The schemas a tool may come with besides JSON Schema: the Standard Schema
// spec's interface (https://standardschema.dev), declared here as the spec
// asks (copied, not imported), so that no schema library is a dependency.
/** A validation result of the Standard Schema spec. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
      }>;
    };

/** A schema of the Standard Schema spec (https://standardschema.dev), with its JSON Schema when it offers one. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Standard JSON Schema (zod 4.2+, ArkType, Valibot's toStandardJsonSchema). */
    readonly jsonSchema?: { readonly input: (options: { readonly target: string }) => Record<string, unknown> };
  };
}

/** A tool's parameters or returns: a JSON Schema object, or a Standard Schema (zod...). */
export type ToolSchema<T = unknown> = Record<string, unknown> | StandardSchemaV1<T>;
