// Projected rows in binary (layout in engine/core/row_block.h): a loaded list of
// objects that the program reads only through some fields crosses as columns,
// one per field, written here in one pass over the rows, instead of as JSON
// text. The engine can then fold over a column without building the rows. The
// block must mean exactly what JSON.stringify would have written for those
// fields; whenever it could not (a list or item with toJSON, an item that is
// not a plain object, a field that is inherited, hidden or holds an object or
// a BigInt), encoding gives up and the list crosses as JSON, whole.

const enum Tag {
  Null,
  False,
  True,
  Number,
  String,
  Absent,
}

// Strings are numbered once (a repeated one is sent once) up to this many per
// list; later new ones are sent again each time they occur.
const MAX_NUMBERED_STRINGS = 65536;
// Strings (and their UTF-16 units) the numbering keeps from list to list; past
// either, it forgets them once the list is written.
const MAX_KEPT_STRINGS = 4096;
const MAX_KEPT_CHARS = 64 * 1024;

// The buffer starts small and is kept from payload to payload: allocating (and
// zeroing, and later collecting) tens of megabytes for each run of a program on
// a big list cost more than writing the list (measured: 75 ms of 130 at 1M
// rows). Once past KEEP_BUFFER_BYTES, it is let go after SMALL_PAYLOADS_TO_SHRINK
// payloads in a row used less than a quarter of it (runs of other programs in
// between do not let it go): the host gets the memory back once runs are small again.
const INITIAL_BUFFER_BYTES = 4096;
const KEEP_BUFFER_BYTES = 1 << 20;
const SMALL_PAYLOADS_TO_SHRINK = 16;

// Rows of one list usually have the read fields at the same places among their
// keys; after this many rows where they moved (or one is missing), the list is
// checked field by field instead.
const MAX_KEY_LIST_CHANGES = 8;
// Copying and comparing a wider row's keys costs more than the check per field
// (measured: about even at 16 keys and 2 read fields, 3× slower at 30).
const MAX_COMPARED_KEYS = 16;

// Recently numbered strings, in a small table indexed by length and first
// character: a row's text is mostly found there by identity, without hashing
// it for the Map (measured: a quarter of the time of a list of rows with one text field).
const RECENT_STRINGS = 64;
const recentSlot = (s: string) => (s.length * 31 + s.charCodeAt(0)) & (RECENT_STRINGS - 1);

const encoder = new TextEncoder();
const isEnumerable = Object.prototype.propertyIsEnumerable;

// new Number(1), new String("a"): JSON.stringify writes the primitive, not an object.
const isBoxed = (item: object) =>
  item instanceof Number || item instanceof String || item instanceof Boolean || item instanceof BigInt;

/** Row blocks for one payload, in a buffer reused from payload to payload. */
export class RowBlockWriter {
  private buffer = new Uint8Array(INITIAL_BUFFER_BYTES);
  private view = new DataView(this.buffer.buffer);
  // The buffer as f64s (its length stays a multiple of 8): made once per buffer,
  // not per list (two views per list were a third of a 10-row list's time).
  private f64 = new Float64Array(this.buffer.buffer);
  private at = 0;
  private smallPayloads = 0; // in a row, since the buffer was last used a quarter full
  // The strings of the list being written, in the order of their numbers: the
  // first stringCount entries (the array is reused, not truncated: setting an
  // array's length is a call into the runtime).
  private strings: string[] = [];
  private stringCount = 0;
  // A string's number in this list is its entry here less listBase (an entry
  // below listBase is an earlier list's): the map is not cleared for each
  // list, which made it grow its table again each time (a fifth of a 10-row
  // list's time), but only once it holds many strings.
  private numbered = new Map<string, number>();
  private listBase = 0;
  private keptChars = 0; // of the strings numbered since they were last forgotten
  private recentStrings: (string | undefined)[] = new Array<string | undefined>(RECENT_STRINGS).fill(undefined);
  private recentNumbers = new Float64Array(RECENT_STRINGS); // entries as in `numbered`
  // The cells of the list being written, column after column: f64s (a number,
  // or a string's number) from f64[cellsAt], then a tag byte each from buffer[tagsAt].
  private cellsAt = 0;
  private tagsAt = 0;
  // Where each read field was among the last row's own enumerable keys
  // (Object.keys), -1 when it was not: a row whose keys hold every read field
  // at those places needs no other check.
  private fieldPlaces: number[] = [];
  private own: boolean[] = [];
  private allOwn: boolean[] = [];
  private keyListChanges = 0;

  /** Starts a payload. A buffer past 1 MiB that 16 payloads in a row used less than a quarter of is let go. */
  reset(): void {
    this.smallPayloads = this.at < this.buffer.length / 4 ? this.smallPayloads + 1 : 0;
    if (this.buffer.length > KEEP_BUFFER_BYTES && this.smallPayloads >= SMALL_PAYLOADS_TO_SHRINK) {
      this.setBuffer(new Uint8Array(INITIAL_BUFFER_BYTES));
      this.smallPayloads = 0;
    }
    this.at = 0;
  }

  /** Whether no block was written since reset(). */
  empty(): boolean {
    return this.at === 0;
  }

  /** The blocks written since reset(), valid until the next reset. */
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.at);
  }

  /** Appends the block of `list` read through `fields`; false (nothing written) when it must cross as JSON. */
  write(key: string, list: unknown, fields: string[]): boolean {
    if (!Array.isArray(list) || typeof (list as { toJSON?: unknown }).toJSON === "function") return false;
    const start = this.at;
    const count = list.length;
    this.text(key);
    this.u32(count);
    this.u32(fields.length);
    for (const field of fields) this.text(field);
    // Cells start 8-aligned in the buffer, as a Float64Array needs: zero bytes before them.
    const padding = (8 - (this.at % 8)) % 8;
    this.ensure(padding);
    for (let i = 0; i < padding; i++) this.buffer[this.at++] = 0;
    const cellCount = count * fields.length;
    this.ensure(9 * cellCount);
    this.cellsAt = this.at / 8;
    this.tagsAt = this.at + 8 * cellCount;
    this.stringCount = 0;
    this.listBase += MAX_NUMBERED_STRINGS;
    if (this.listBase >= Number.MAX_SAFE_INTEGER - MAX_NUMBERED_STRINGS) this.forgetStrings();
    if (this.fieldPlaces.length !== fields.length) {
      this.fieldPlaces = fields.map(() => -1);
      this.own = fields.map(() => false);
      this.allOwn = fields.map(() => true);
    } else {
      for (let f = 0; f < fields.length; f++) this.fieldPlaces[f] = -1;
    }
    this.keyListChanges = 0;
    let i = 0;
    while (i < count && this.row(list[i], fields, i, count)) i++;
    // A field no item has crosses in the JSON: the engine's warning of its
    // reads then names the fields the items do have (core/warnings.h).
    if (i < count || (count > 0 && this.someFieldAbsent(fields.length, count))) {
      this.at = start;
      this.keepFewStrings();
      return false;
    }
    this.at += 9 * cellCount;
    const strings = this.strings;
    this.u32(this.stringCount);
    for (let s = 0; s < this.stringCount; s++) this.text(strings[s]!);
    this.keepFewStrings();
    return true;
  }

  // The numbered strings stay for the next list while they are few and short.
  private keepFewStrings(): void {
    if (this.keptChars > MAX_KEPT_CHARS || this.strings.length > MAX_KEPT_STRINGS) this.forgetStrings();
  }

  private forgetStrings(): void {
    this.strings = [];
    this.numbered.clear();
    this.recentStrings.fill(undefined);
    this.listBase = 0;
    this.keptChars = 0;
  }

  // Whether some column holds only Absent cells.
  private someFieldAbsent(fieldCount: number, count: number): boolean {
    const tags = this.buffer;
    for (let f = 0, cell = this.tagsAt; f < fieldCount; f++) {
      const end = cell + count;
      while (cell < end && tags[cell] === Tag.Absent) cell++;
      if (cell === end) return true;
      cell = end;
    }
    return false;
  }

  // Row i's fields into cell i of each column.
  private row(item: unknown, fields: string[], i: number, count: number): boolean {
    if (item === null || typeof item !== "object") return false;
    // A plain object (the usual row) is neither a list nor boxed: one
    // inline-cached property read instead of five checks (Object.getPrototypeOf
    // here was a sixth of the writer's time). An item whose `constructor` is
    // not Object's (its own field of that name, a class) gets the five checks.
    const plain = (item as { constructor?: unknown }).constructor === Object && !Array.isArray(item);
    if (
      typeof (item as { toJSON?: unknown }).toJSON === "function" ||
      (!plain && (Array.isArray(item) || isBoxed(item)))
    )
      return false;
    const row = item as Record<string, unknown>;
    const own = this.keyListChanges < MAX_KEY_LIST_CHANGES ? this.ownFields(row, fields) : undefined;
    for (let f = 0, cell = i; f < fields.length; f++, cell += count) {
      const key = fields[f] as string;
      if (!(own ? own[f] : isEnumerable.call(row, key))) {
        if (key in row) return false; // inherited, or not enumerable: JSON.stringify would skip it
        this.buffer[this.tagsAt + cell] = Tag.Absent;
      } else if (!this.cell(cell, row[key])) {
        return false;
      }
    }
    return true;
  }

  // Which fields are own enumerable keys of the row, as the keys JSON.stringify
  // would write (Object.keys reads no values, so runs no getter). One
  // Object.keys and a look at the places the fields had in the row before is
  // cheaper than propertyIsEnumerable per field; undefined when the list is to
  // be checked field by field.
  private ownFields(row: object, fields: string[]): boolean[] | undefined {
    const keys = Object.keys(row);
    const places = this.fieldPlaces;
    let f = 0;
    while (f < fields.length && places[f]! >= 0 && keys[places[f]!] === fields[f]) f++;
    if (f === fields.length) return this.allOwn;
    if (keys.length > MAX_COMPARED_KEYS) this.keyListChanges = MAX_KEY_LIST_CHANGES;
    if (++this.keyListChanges >= MAX_KEY_LIST_CHANGES) return undefined;
    const own = this.own;
    for (let i = 0; i < fields.length; i++) own[i] = (places[i] = keys.indexOf(fields[i] as string)) >= 0;
    return own;
  }

  // What JSON.stringify writes for a field's value: undefined, functions and
  // symbols leave the key out.
  private cell(cell: number, value: unknown): boolean {
    const tag = this.tagsAt + cell;
    switch (typeof value) {
      case "number":
        if (Number.isFinite(value)) {
          this.buffer[tag] = Tag.Number;
          this.f64[this.cellsAt + cell] = value;
        } else {
          this.buffer[tag] = Tag.Null; // as JSON.stringify writes NaN and Infinity
        }
        return true;
      case "string":
        this.buffer[tag] = Tag.String;
        this.f64[this.cellsAt + cell] = this.stringNumber(value);
        return true;
      case "boolean":
        this.buffer[tag] = value ? Tag.True : Tag.False;
        return true;
      case "undefined":
      case "function":
      case "symbol":
        this.buffer[tag] = Tag.Absent;
        return true;
      case "object":
        if (value !== null) return false; // would need the nested object's JSON
        this.buffer[tag] = Tag.Null;
        return true;
      default:
        return false; // a BigInt: JSON.stringify throws, so the JSON path reports it
    }
  }

  private stringNumber(value: string): number {
    const slot = recentSlot(value);
    const base = this.listBase;
    if (this.recentStrings[slot] === value && this.recentNumbers[slot]! >= base)
      return this.recentNumbers[slot]! - base;
    const entry = this.numbered.get(value);
    let n: number;
    if (entry !== undefined && entry >= base) {
      n = entry - base;
    } else {
      n = this.stringCount++;
      this.strings[n] = value;
      this.keptChars += value.length;
      if (n >= MAX_NUMBERED_STRINGS) return n;
      this.numbered.set(value, base + n);
    }
    this.recentStrings[slot] = value;
    this.recentNumbers[slot] = base + n;
    return n;
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
    this.f64 = new Float64Array(buffer.buffer);
  }
}
