// JSON data as it crosses the boundary: what programs read, tools get and results hold.
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
