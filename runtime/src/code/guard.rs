//! Built-ins that loop in C without polling the interrupt handler, replaced before the
//! script runs by versions the CPU and wall limits can stop.
//!
//! QuickJS polls the interrupt handler when a function is called and on backward jumps
//! of the bytecode, so a JavaScript loop, a callback or a getter is always stoppable.
//! A few built-ins, though, loop over an array's `length` in C touching only plain
//! properties: `Array.prototype.reverse.call({length: 2**53 - 1})` runs for days,
//! `Array(2**32 - 1).join("")` for minutes, and neither ever asks the handler
//! (quickjs-ng 0.10: `js_array_reverse`, `js_array_copyWithin`, `js_array_join`,
//! `js_array_slice`, `js_array_lastIndexOf`'s cousins that do poll are left alone).
//!
//! Why this and not a thread or process to kill: a thread inside C cannot be stopped
//! safely, and a process per script would put every API call a script makes behind
//! inter-process messages. What is replaced is the short list of length-driven loops;
//! each replacement keeps the built-in for what is fast — a real array (not a proxy)
//! whose prototypes are the standard ones, at most [`NATIVE`] long — and otherwise
//! runs the same built-in over a proxy whose traps are JavaScript functions, so each
//! element it touches passes through a call that polls. `JSON.stringify`, `flat`,
//! `flatMap`, `concat` and default-order sorts of long arrays get a JavaScript step
//! per value (a replacer, a comparator, a loop) for the same reason. Measured in
//! `benches/code_limits.sh`.

use rquickjs::{Ctx, Function, Value as JsValue};

/// Longest real array a length-driven built-in handles natively (anything longer, or
/// anything that is not a real array, goes through the polling path): 2^16 elements
/// take well under a millisecond in every replaced built-in, a default-order sort
/// about 20 ms.
pub(super) const NATIVE: u32 = 1 << 16;

/// Installs the replacements; run once per script, before its own code.
pub(super) fn install(ctx: &Ctx<'_>) -> rquickjs::Result<()> {
    // A real array (class Array, not a proxy of one): its `length` is a plain number
    // the script cannot make lie.
    let plain = Function::new(ctx.clone(), |value: JsValue<'_>| value.is_array())?;
    let guards: Function<'_> = ctx.eval(GUARDS)?;
    guards.call::<_, ()>((plain, NATIVE))?;
    Ok(())
}

/// The replacements. Everything they use is captured here, before the script can
/// change `Reflect`, `Proxy` or `Array.prototype`.
const GUARDS: &str = r#"(function (plain, native) {
  "use strict";
  const { apply, get, set, has, deleteProperty, defineProperty, getOwnPropertyDescriptor,
          ownKeys, getPrototypeOf } = Reflect;
  const ProxyOf = Proxy;
  const ObjectOf = Object;
  const toNumber = Number;
  const { trunc } = Math;
  const { is } = Object;
  const isArray = Array.isArray;
  const ArrayProto = Array.prototype;
  const ObjectProto = Object.prototype;
  const TypedProto = getPrototypeOf(Uint8Array.prototype);
  const lengthOfTyped = getOwnPropertyDescriptor(TypedProto, "length").get;
  const freeze = Object.freeze;
  const spreadable = Symbol.isConcatSpreadable;
  const MAX = 9007199254740991;

  // Every access a built-in makes through this proxy is a JavaScript call, and calls
  // poll the interrupt handler.
  const polling = freeze({
    get: (t, k) => get(t, k),
    set: (t, k, v) => set(t, k, v),
    has: (t, k) => has(t, k),
    deleteProperty: (t, k) => deleteProperty(t, k),
    defineProperty: (t, k, d) => defineProperty(t, k, d),
    getOwnPropertyDescriptor: (t, k) => getOwnPropertyDescriptor(t, k),
    ownKeys: (t) => ownKeys(t),
  });
  const isObject = (o) => (typeof o === "object" && o !== null) || typeof o === "function";
  // A receiver the built-in may loop over in C: a real, standard, short array.
  const fast = (o) => plain(o) && o.length <= native && getPrototypeOf(o) === ArrayProto
    && getPrototypeOf(ArrayProto) === ObjectProto;
  const through = (o) => (isObject(o) && !fast(o) ? new ProxyOf(o, polling) : o);
  const toLength = (v) => {
    const n = trunc(toNumber(v));
    return n > 0 ? (n < MAX ? n : MAX) : 0;
  };
  const define = (target, key, value) => defineProperty(target, key,
    { value, writable: true, enumerable: true, configurable: true });
  const replace = (owner, name, make) => {
    const builtin = owner[name];
    const wrapped = make(builtin);
    defineProperty(wrapped, "name", { value: name });
    defineProperty(wrapped, "length", { value: builtin.length });
    defineProperty(owner, name, { value: wrapped, writable: true, enumerable: false,
                                  configurable: true });
  };
  // What `sort` does without a comparator, as a comparator (so each comparison polls).
  const byString = (x, y) => {
    const a = `${x}`, b = `${y}`;
    return a < b ? -1 : a > b ? 1 : 0;
  };

  // Length-driven loops over the receiver (`push`, `pop`, `at`, `with` and the
  // `to*` copies are not: they touch a few elements or allocate the whole length,
  // which the memory limit stops).
  for (const name of ["reverse", "copyWithin", "fill", "join", "toString", "toLocaleString",
                      "slice", "splice", "shift", "unshift", "sort", "toSorted"]) {
    const sorts = name === "sort" || name === "toSorted";
    replace(ArrayProto, name, (builtin) => function (...args) {
      const self = through(this);
      if (sorts && args[0] === undefined && self !== this) define(args, 0, byString);
      const out = apply(builtin, self, args);
      return out === self && self !== this ? this : out;
    });
  }

  // `concat` loops over every spreadable argument: in JavaScript unless each is a short
  // real array or not an object at all.
  const concat = (first, items) => {
    const out = [];
    let n = 0;
    for (let i = -1; i < items.length; i++) {
      const item = i < 0 ? ObjectOf(first) : items[i];
      let spread = false;
      if (isObject(item)) {
        const flag = item[spreadable];
        spread = flag !== undefined ? !!flag : isArray(item);
      }
      if (!spread) {
        if (n >= MAX) throw new TypeError("concat: the result would be too long");
        define(out, n++, item);
        continue;
      }
      const length = toLength(item.length);
      if (n + length > MAX) throw new TypeError("concat: the result would be too long");
      for (let k = 0; k < length; k++, n++) {
        if (k in item) define(out, n, item[k]);
      }
    }
    out.length = n;
    return out;
  };
  replace(ArrayProto, "concat", (builtin) => function (...items) {
    let slow = isObject(this) && !fast(this);
    for (let i = 0; !slow && i < items.length; i++) slow = isObject(items[i]) && !fast(items[i]);
    return slow ? concat(this, items) : apply(builtin, this, items);
  });

  // `flat` and `flatMap` loop over nested arrays too: in JavaScript.
  const flatten = (target, source, depth, n, mapper, that) => {
    const length = toLength(source.length);
    for (let k = 0; k < length; k++) {
      if (!(k in source)) continue;
      let element = source[k];
      if (mapper !== undefined) element = apply(mapper, that, [element, k, source]);
      if (depth > 0 && isArray(element)) {
        n = flatten(target, element, depth - 1, n, undefined, undefined);
      } else {
        if (n >= MAX) throw new TypeError("flat: the result would be too long");
        define(target, n++, element);
      }
    }
    return n;
  };
  replace(ArrayProto, "flat", () => function (depth) {
    const source = ObjectOf(this);
    let d = depth === undefined ? 1 : trunc(toNumber(depth));
    if (!(d > 0)) d = 0;
    const out = [];
    flatten(out, source, d, 0, undefined, undefined);
    return out;
  });
  replace(ArrayProto, "flatMap", () => function (mapper, that) {
    const source = ObjectOf(this);
    if (typeof mapper !== "function") throw new TypeError("flatMap: not a function");
    const out = [];
    flatten(out, source, 1, 0, mapper, that);
    return out;
  });

  // Typed arrays are as long as their memory allows (64 Mi elements in 64 MiB): a long
  // one's `join` goes through the array version, its default sort gets a comparator.
  const byNumber = (a, b) => {
    if (a !== a) return b !== b ? 0 : 1;
    if (b !== b) return -1;
    if (a < b) return -1;
    if (a > b) return 1;
    if (a === 0 && b === 0) return is(a, -0) === is(b, -0) ? 0 : is(a, -0) ? -1 : 1;
    return 0;
  };
  for (const name of ["join", "toLocaleString"]) {
    const arrayVersion = ArrayProto[name];
    replace(TypedProto, name, (builtin) => function (...args) {
      return apply(apply(lengthOfTyped, this, []) > native ? arrayVersion : builtin, this, args);
    });
  }
  for (const name of ["sort", "toSorted"]) {
    replace(TypedProto, name, (builtin) => function (compare) {
      if (compare === undefined && apply(lengthOfTyped, this, []) > native) compare = byNumber;
      return apply(builtin, this, [compare]);
    });
  }

  // `JSON.stringify` walks every value in C: a replacer makes each one a call. A list
  // of keys becomes the replacer that keeps only them.
  const same = function (key, value) { return value; };
  const keepOnly = (list) => {
    const keys = [];
    const length = toLength(list.length);
    for (let i = 0; i < length; i++) {
      const v = list[i];
      let key;
      if (typeof v === "string") key = v;
      else if (typeof v === "number" || v instanceof String || v instanceof Number) key = `${v}`;
      let seen = false;
      for (let j = 0; !seen && j < keys.length; j++) seen = keys[j] === key;
      if (key !== undefined && !seen) define(keys, keys.length, key);
    }
    return function (key, value) {
      if (!isObject(value) || typeof value === "function" || isArray(value)
          || value instanceof String || value instanceof Number || value instanceof Boolean) {
        return value;
      }
      const kept = {};
      for (let j = 0; j < keys.length; j++) define(kept, keys[j], value[keys[j]]);
      return kept;
    };
  };
  replace(JSON, "stringify", (builtin) => function (value, replacer, space) {
    const walk = typeof replacer === "function" ? replacer
      : isArray(replacer) ? keepOnly(replacer) : same;
    return apply(builtin, JSON, [value, walk, space]);
  });
})"#;
