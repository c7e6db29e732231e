// Projected rows in binary (layout in engine/host/row_block.h): a loaded list that
// the program reads only through some fields of its items crosses as a compact
// block, written here in one pass, instead of as JSON text. The block must mean
// exactly what JSON.stringify would have written for those fields; whenever it
// could not (a list or item with toJSON, an item that is a list or a boxed
// primitive, a field that is inherited, hidden or holds an object or a BigInt),
// encoding gives up and the list crosses as JSON, whole.

const enum Tag {
  Null,
  False,
  True,
  Number,
  NewString,
  StringRef,
  Object,
  Absent,
  PlainString,
}

// Strings are numbered for reuse up to this many per payload; later new ones
// are written in full each time.
const MAX_NUMBERED_STRINGS = 65536;

// The buffer starts small and is kept from payload to payload unless a big
// payload grew it past KEEP_BUFFER_BYTES (the host gets that memory back).
const INITIAL_BUFFER_BYTES = 4096;
const KEEP_BUFFER_BYTES = 1 << 20;

// Rows of one list usually share their keys; after this many rows whose keys
// differ from the row before, the list is checked field by field instead.
const MAX_KEY_LIST_CHANGES = 8;
// Copying and comparing a wider row's keys costs more than the check per field
// (measured: about even at 16 keys and 2 read fields, 3× slower at 30).
const MAX_COMPARED_KEYS = 16;

const encoder = new TextEncoder();
const isEnumerable = Object.prototype.propertyIsEnumerable;

// new Number(1), new String("a"): JSON.stringify writes the primitive, not an object.
const isBoxed = (item: object) =>
  item instanceof Number || item instanceof String || item instanceof Boolean || item instanceof BigInt;

/** Row blocks for one payload, in a buffer reused from payload to payload. */
export class RowBlockWriter {
  private buffer = new Uint8Array(INITIAL_BUFFER_BYTES);
  private view = new DataView(this.buffer.buffer);
  private at = 0;
  private strings = new Map<string, number>();
  // The last row's own enumerable keys (Object.keys) and, for each read field,
  // whether it is among them: rows with the same keys need no check per field.
  private lastKeys: string[] = [];
  private lastOwn: boolean[] = [];
  private keyListChanges = 0;

  /** Starts a payload. A buffer grown past 1 MiB by a big one is let go. */
  reset(): void {
    this.at = 0;
    if (this.buffer.length > KEEP_BUFFER_BYTES) this.setBuffer(new Uint8Array(INITIAL_BUFFER_BYTES));
  }

  /** The blocks written since reset(), valid until the next reset. */
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.at);
  }

  /** Appends the block of `list` read through `fields`; false (nothing written) when it must cross as JSON. */
  write(key: string, list: unknown, fields: string[]): boolean {
    if (!Array.isArray(list) || typeof (list as { toJSON?: unknown }).toJSON === "function") return false;
    const start = this.at;
    this.strings.clear();
    this.lastKeys = [];
    this.lastOwn = fields.map(() => false);
    this.keyListChanges = 0;
    this.text(key);
    this.u32(list.length);
    this.u32(fields.length);
    for (const field of fields) this.text(field);
    for (let i = 0; i < list.length; i++) {
      if (!this.item(list[i], fields)) {
        this.at = start;
        return false;
      }
    }
    return true;
  }

  private item(item: unknown, fields: string[]): boolean {
    if (item === null || typeof item !== "object") return this.value(item, true);
    // A plain object (the usual row) is neither a list nor boxed: one
    // prototype read instead of five checks.
    const plain = Object.getPrototypeOf(item) === Object.prototype;
    if (
      typeof (item as { toJSON?: unknown }).toJSON === "function" ||
      (!plain && (Array.isArray(item) || isBoxed(item)))
    )
      return false;
    this.tag(Tag.Object);
    const row = item as Record<string, unknown>;
    const own = this.keyListChanges < MAX_KEY_LIST_CHANGES ? this.ownFields(row, fields) : undefined;
    for (let i = 0; i < fields.length; i++) {
      const key = fields[i] as string;
      if (!(own ? own[i] : isEnumerable.call(row, key))) {
        if (key in row) return false; // inherited, or not enumerable: JSON.stringify would skip it
        this.tag(Tag.Absent);
      } else if (!this.value(row[key], false)) {
        return false;
      }
    }
    return true;
  }

  // Which fields are own enumerable keys of the row, as the keys JSON.stringify
  // would write (Object.keys reads no values, so runs no getter). One
  // Object.keys and a comparison per row is cheaper than propertyIsEnumerable
  // per field, and rows of one list mostly have the same keys.
  private ownFields(row: object, fields: string[]): boolean[] | undefined {
    const keys = Object.keys(row);
    const last = this.lastKeys;
    if (keys.length === last.length) {
      let i = 0;
      while (i < keys.length && keys[i] === last[i]) i++;
      if (i === keys.length) return this.lastOwn;
    }
    if (keys.length > MAX_COMPARED_KEYS) this.keyListChanges = MAX_KEY_LIST_CHANGES;
    if (++this.keyListChanges >= MAX_KEY_LIST_CHANGES) return undefined;
    this.lastKeys = keys;
    const own = this.lastOwn;
    for (let i = 0; i < fields.length; i++) own[i] = keys.includes(fields[i] as string);
    return own;
  }

  // What JSON.stringify writes for a value: in a list, undefined, functions
  // and symbols become null; in an object, the key is left out.
  private value(value: unknown, inList: boolean): boolean {
    switch (typeof value) {
      case "number":
        if (Number.isFinite(value)) {
          this.tag(Tag.Number);
          this.ensure(8);
          this.view.setFloat64(this.at, value, true);
          this.at += 8;
        } else {
          this.tag(Tag.Null); // as JSON.stringify writes NaN and Infinity
        }
        return true;
      case "string":
        this.string(value);
        return true;
      case "boolean":
        this.tag(value ? Tag.True : Tag.False);
        return true;
      case "undefined":
      case "function":
      case "symbol":
        this.tag(inList ? Tag.Null : Tag.Absent);
        return true;
      case "object":
        if (value !== null) return false; // would need the nested object's JSON
        this.tag(Tag.Null);
        return true;
      default:
        return false; // a BigInt: JSON.stringify throws, so the JSON path reports it
    }
  }

  private string(value: string): void {
    const known = this.strings.get(value);
    if (known !== undefined) {
      this.tag(Tag.StringRef);
      this.u32(known);
      return;
    }
    if (this.strings.size < MAX_NUMBERED_STRINGS) {
      this.strings.set(value, this.strings.size);
      this.tag(Tag.NewString);
    } else {
      this.tag(Tag.PlainString);
    }
    this.text(value);
  }

  // u32 length, then UTF-8. ASCII is copied a byte at a time; anything else
  // goes through encodeInto (lone surrogates become U+FFFD, as in JSON).
  private text(value: string): void {
    const n = value.length;
    this.ensure(4 + 3 * n);
    const lengthAt = this.at;
    let at = lengthAt + 4;
    const buffer = this.buffer;
    let i = 0;
    for (; i < n; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0x80) break;
      buffer[at++] = c;
    }
    if (i < n) at += encoder.encodeInto(value.slice(i), buffer.subarray(at)).written;
    this.view.setUint32(lengthAt, at - lengthAt - 4, true);
    this.at = at;
  }

  private tag(tag: Tag): void {
    this.ensure(1);
    this.buffer[this.at++] = tag;
  }

  private u32(value: number): void {
    this.ensure(4);
    this.view.setUint32(this.at, value, true);
    this.at += 4;
  }

  private ensure(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.at + bytes) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buffer.subarray(0, this.at));
    this.setBuffer(grown);
  }

  private setBuffer(buffer: Uint8Array<ArrayBuffer>): void {
    this.buffer = buffer;
    this.view = new DataView(buffer.buffer);
  }
}
