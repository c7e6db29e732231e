// Values of the language. Lists, objects and strings live on the heap behind an
// intrusive (non-atomic) reference count, so passing a row from a loaded list to
// a filter result shares it instead of copying it. Every heap block is charged
// to the Budget of the run that created it, which enforces maxHeapBytes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ptc {

// Live and peak bytes of the values one run holds, against its limit.
class Budget {
 public:
  explicit Budget(uint64_t limit) : limit_(limit) {}
  void charge(uint64_t bytes);  // throws PtcError(memory_exceeded) past the limit
  void release(uint64_t bytes) { live_ -= bytes; }
  bool fits(uint64_t bytes) const { return live_ + bytes <= limit_; }
  // Throws as charge would, charging nothing: before building a copy whose
  // size is known (the copy is then charged when it becomes a value).
  void require(uint64_t bytes) const;
  uint64_t live() const { return live_; }
  uint64_t peak() const { return peak_; }
  uint64_t limit() const { return limit_; }

  // The budget that new values are charged to: the run being evaluated, or none
  // (compiled program literals belong to no run).
  static Budget*& current();

 private:
  uint64_t live_ = 0;
  uint64_t peak_ = 0;
  uint64_t limit_;
};

// Sets Budget::current() for a scope and restores the previous one.
class BudgetScope {
 public:
  explicit BudgetScope(Budget* b) : saved_(Budget::current()) { Budget::current() = b; }
  ~BudgetScope() { Budget::current() = saved_; }
  BudgetScope(const BudgetScope&) = delete;
  BudgetScope& operator=(const BudgetScope&) = delete;

 private:
  Budget* saved_;
};

enum class Kind : uint8_t { None, Null, Bool, Int, Double, String, Array, Object };

// The deepest nesting of lists and objects a value may have. Parsing refuses
// deeper JSON and building a deeper value fails (an execution_error at the node
// that builds it), so every recursive walk of a value (serialising, comparing,
// hashing, freeing) stays far inside the native stack — in wasm, exhausting it
// is a trap that ends every run of the instance. It also keeps memory readable:
// a stored value sits inside the program's result object, so it nests at most
// one level less, and the memory object holding it no deeper than the limit.
constexpr int kMaxNesting = 1000;

class Value;
struct Member;
struct MemberRef;
class MemberSpan;
using Array = std::vector<Value>;
using Members = std::vector<Member>;

struct HeapBlock {
  uint32_t refs = 1;
  uint32_t bytes = 0;
  Budget* budget = nullptr;
};

class Value {
 public:
  Value() : tag_{Kind::Null, 0} { u_.i = 0; }
  static Value none() {
    Value v;
    v.tag_.kind = Kind::None;
    return v;
  }
  static Value boolean(bool b) {
    Value v;
    v.tag_.kind = Kind::Bool;
    v.u_.b = b;
    return v;
  }
  static Value integer(int64_t i) {
    Value v;
    v.tag_.kind = Kind::Int;
    v.u_.i = i;
    return v;
  }
  static Value number(double d) {
    Value v;
    v.tag_.kind = Kind::Double;
    v.u_.d = d;
    return v;
  }
  static Value string(std::string s);
  // Lists and objects throw PtcError(execution_error) when they would nest
  // deeper than kMaxNesting.
  static Value array(Array items);
  static Value object(Members members);  // keys must be distinct strings
  // Moves n members from `first` into a new object (one allocation holds the
  // object and its members): for builders that collect members on a stack.
  // An object whose keys are those of `like` (the same string blocks in the
  // same order, as parsed rows have) holds only its values and shares the keys
  // (and key index) of the first object built with them: its shape.
  static Value object(Member* first, size_t n, const Value* like = nullptr);

  Value(const Value& o) : tag_(o.tag_), u_(o.u_) { retain(); }
  Value(Value&& o) noexcept : tag_(o.tag_), u_(o.u_) { o.tag_ = Tag{Kind::Null, 0}; }
  Value& operator=(const Value& o) {
    if (this != &o) {
      Value tmp(o);
      swap(tmp);
    }
    return *this;
  }
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      Value tmp(std::move(o));
      swap(tmp);
    }
    return *this;
  }
  ~Value() { release(); }
  void swap(Value& o) noexcept {
    std::swap(tag_, o.tag_);
    std::swap(u_, o.u_);
  }

  Kind kind() const { return tag_.kind; }
  bool isNone() const { return tag_.kind == Kind::None; }
  bool isNull() const { return tag_.kind == Kind::Null; }
  bool isBool() const { return tag_.kind == Kind::Bool; }
  bool isInt() const { return tag_.kind == Kind::Int; }
  bool isNumber() const { return tag_.kind == Kind::Int || tag_.kind == Kind::Double; }
  bool isString() const { return tag_.kind == Kind::String; }
  bool isArray() const { return tag_.kind == Kind::Array; }
  bool isObject() const { return tag_.kind == Kind::Object; }

  bool asBool() const { return u_.b; }
  int64_t asInt() const { return u_.i; }
  double asDouble() const { return tag_.kind == Kind::Int ? static_cast<double>(u_.i) : u_.d; }
  inline const std::string& str() const;
  inline const Array& items() const;
  // An object's members as (key, value) pairs (MemberRef), in their order;
  // empty unless an object.
  inline MemberSpan members() const;
  // Levels of lists and objects: 0 for a scalar, 1 for [] or {"a": 1}, 2 for [[]].
  int height() const { return tag_.height; }

  // Only null, false (and "no value") are falsy.
  bool truthy() const {
    return !(tag_.kind == Kind::Null || tag_.kind == Kind::None || (tag_.kind == Kind::Bool && !u_.b));
  }

  // Field of an object, or nullptr when missing or this is not an object.
  // Wide objects find it by binary search in their sorted key index.
  const Value* find(std::string_view key) const;
  // find(key.str()), trying the member at `hint` first and leaving there the
  // position found: rows of one list share their key order (and, parsed, their
  // key strings), so a field read per row becomes one comparison.
  inline const Value* find(const Value& key, uint32_t& hint) const;
  // Field of an object; null when missing or this is not an object.
  Value field(std::string_view key) const;

  // The positions of an object's members in key order, for objects of at
  // least kIndexFrom members (built on first use, in a block of its own that
  // objects of one shape share); nullptr for smaller objects and other values.
  const uint32_t* keyIndex() const;
  static constexpr size_t kIndexFrom = 9;
  // What tells a list, object or string from others as long as it lives (its
  // block), for caches of derived data; nullptr for the other kinds.
  const void* identity() const { return tag_.kind >= Kind::String ? u_.h : nullptr; }
  // The object whose keys this one reads (its shape: the first object built
  // with these keys, which holds them), or nullptr when it holds its own.
  const void* shape() const;
  // The same list, object or string (not just an equal one).
  bool sameHeap(const Value& o) const {
    return tag_.kind >= Kind::String && tag_.kind == o.tag_.kind && u_.h == o.u_.h;
  }

 private:
  // Scalars have no block: the check is inline, the rest out of line (a Value
  // is copied and destroyed in many places: inlining it all costs more wasm
  // than the call saves).
  void retain() const {
    if (tag_.kind >= Kind::String) retainBlock();
  }
  void retainBlock() const;
  void release() {
    if (tag_.kind >= Kind::String) releaseBlock();
  }
  void releaseBlock();  // drops a reference to the block; frees it with the last
  void destroy();
  int64_t position(std::string_view key) const;  // of the member with this key in an object, or -1
  HeapBlock* block() const { return u_.h; }

  // The kind, and the height of a list or object, in one word that copies as
  // one: the height lives in what was padding, so a Value is no bigger and
  // reading it touches no heap block.
  struct alignas(4) Tag {
    Kind kind;
    uint16_t height;
  };
  Tag tag_;
  union Payload {
    bool b;
    int64_t i;
    double d;
    HeapBlock* h;
  } u_;
};

static_assert(sizeof(Value) == 16, "a Value is a kind, a height and a payload, the height in the kind's padding");

// A member of an object being built (ObjectBuilder, Value::object).
struct Member {
  Value key;  // always a string
  Value value;
};

// A member of a built object: its key and its value where the object holds
// them (the key may be its shape's).
struct MemberRef {
  const Value& key;
  const Value& value;
};

// The members of an object, which live inside its heap block (the keys of a
// shaped object in its shape's): a read-only view for as long as the object is
// alive. Keys sit every other Value (in Members); values too, or side by side
// in a shaped object.
class MemberSpan {
 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = MemberRef;
    using difference_type = std::ptrdiff_t;
    using reference = MemberRef;
    using pointer = void;
    iterator(const Value* key, const Value* value, uint32_t valueStride)
        : key_(key), value_(value), valueStride_(valueStride) {}
    MemberRef operator*() const { return MemberRef{*key_, *value_}; }
    iterator& operator++() {
      key_ += 2;
      value_ += valueStride_;
      return *this;
    }
    iterator operator++(int) {
      iterator was = *this;
      ++*this;
      return was;
    }
    bool operator==(const iterator& o) const { return key_ == o.key_; }
    bool operator!=(const iterator& o) const { return key_ != o.key_; }

   private:
    const Value* key_;
    const Value* value_;
    uint32_t valueStride_;
  };

  MemberSpan() : keys_(nullptr), values_(nullptr), n_(0), valueStride_(2) {}
  MemberSpan(const Member* first, size_t n)
      : keys_(first ? &first->key : nullptr), values_(first ? &first->value : nullptr), n_(n), valueStride_(2) {}
  // Keys from `shapeMembers`, values side by side from `values`.
  MemberSpan(const Member* shapeMembers, const Value* values, size_t n)
      : keys_(&shapeMembers->key), values_(values), n_(n), valueStride_(1) {}
  iterator begin() const { return iterator(keys_, values_, valueStride_); }
  iterator end() const { return iterator(keys_ + 2 * n_, values_ + valueStride_ * n_, valueStride_); }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  MemberRef operator[](size_t i) const { return MemberRef{keys_[2 * i], values_[valueStride_ * i]}; }
  const Value& key(size_t i) const { return keys_[2 * i]; }
  const Value& value(size_t i) const { return values_[valueStride_ * i]; }

 private:
  const Value* keys_;
  const Value* values_;
  size_t n_;
  uint32_t valueStride_;
};

// The heap blocks behind strings, lists and objects, here so that reading
// them inlines: every field read of every row goes through them.
namespace detail {
struct StringBlock final : HeapBlock {
  std::string s;
};
struct ArrayBlock final : HeapBlock {
  Array items;
};
// The key index of wide objects: the members' positions in key order, filled
// on first use; shared by the objects whose keys are the same string blocks in
// the same order (rows of a list), so 50,000 rows of 14 fields hold one.
struct KeyIndex final : HeapBlock {
  uint32_t count = 0;
  bool filled = false;
  uint32_t* order() { return reinterpret_cast<uint32_t*>(this + 1); }
};
// Its members follow it in the same allocation, and for a wide object (at
// least Value::kIndexFrom members) then a pointer to its key index. A shaped
// object holds only its values, then a pointer to its shape: the object,
// holding its own members, whose keys it has (rows of a list hold their keys once).
struct alignas(Member) ObjectBlock final : HeapBlock {
  static constexpr uint32_t kShaped = 0x80000000u;
  uint32_t bits = 0;  // the count of members, and kShaped
  uint32_t count() const { return bits & ~kShaped; }
  bool shaped() const { return (bits & kShaped) != 0; }
  char* after() { return reinterpret_cast<char*>(this) + sizeof(ObjectBlock); }
  Member* members() { return reinterpret_cast<Member*>(after()); }                        // unless shaped
  Value* values() { return reinterpret_cast<Value*>(after()); }                           // shaped
  ObjectBlock*& shape() { return *reinterpret_cast<ObjectBlock**>(values() + count()); }  // shaped
  bool wide() const { return count() >= Value::kIndexFrom; }
  KeyIndex*& index() { return *reinterpret_cast<KeyIndex**>(members() + count()); }  // wide, unless shaped
};
extern const std::string kEmptyString;
extern const Array kEmptyArray;
}  // namespace detail

const std::string& Value::str() const {
  return tag_.kind == Kind::String ? static_cast<detail::StringBlock*>(u_.h)->s : detail::kEmptyString;
}
const Array& Value::items() const {
  return tag_.kind == Kind::Array ? static_cast<detail::ArrayBlock*>(u_.h)->items : detail::kEmptyArray;
}
MemberSpan Value::members() const {
  if (tag_.kind != Kind::Object) return MemberSpan();
  auto* block = static_cast<detail::ObjectBlock*>(u_.h);
  if (!block->shaped()) return MemberSpan(block->members(), block->count());
  return MemberSpan(block->shape()->members(), block->values(), block->count());
}

const Value* Value::find(const Value& key, uint32_t& hint) const {
  if (tag_.kind != Kind::Object) return nullptr;
  MemberSpan all = members();
  if (hint < all.size()) {
    const Value& k = all.key(hint);
    if (k.sameHeap(key) || k.str() == key.str()) return &all.value(hint);
  }
  const int64_t at = position(key.str());
  if (at < 0) return nullptr;
  hint = static_cast<uint32_t>(at);
  return &all.value(static_cast<size_t>(at));
}

// Memory a computation holds outside any value while it builds one (the list
// being filled, the groups of group_by, the set of items seen by distinct):
// charged to the run's budget as it grows, so maxHeapBytes holds before the
// value exists rather than once it is made; given back when the computation
// ends (the value it builds is charged on its own).
class Scratch {
 public:
  Scratch() : budget_(Budget::current()) {}
  explicit Scratch(Budget* budget) : budget_(budget) {}  // nullptr: charges nothing
  ~Scratch() { handBack(); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  // What it holds goes with it (a builder moved into a container).
  Scratch(Scratch&& o) noexcept : budget_(o.budget_), held_(o.held_) { o.held_ = 0; }
  Scratch& operator=(Scratch&& o) noexcept {
    if (this != &o) {
      handBack();
      budget_ = o.budget_;
      held_ = o.held_;
      o.held_ = 0;
    }
    return *this;
  }
  void charge(uint64_t bytes) {
    if (!budget_) return;
    budget_->charge(bytes);
    held_ += bytes;
  }
  void handBack() { release(held_); }
  void release(uint64_t bytes) {  // part of what it holds (at most all)
    bytes = std::min(bytes, held_);
    if (budget_) budget_->release(bytes);
    held_ -= bytes;
  }

 private:
  Budget* budget_;
  uint64_t held_ = 0;
};

// A list filled an item at a time: what its storage takes is charged before
// it grows (Scratch), so the limit holds while it fills; the charge passes to
// the list's value when it is built.
class ListBuilder {
 public:
  void reserve(size_t n) { cover(n); }
  void push_back(Value v) {
    if (items_.size() == items_.capacity()) cover(items_.size() + 1);
    items_.push_back(std::move(v));
  }
  template <class It>
  void append(It first, It last) {
    cover(items_.size() + static_cast<size_t>(last - first));
    items_.insert(items_.end(), first, last);
  }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  const Value& back() const { return items_.back(); }
  const Array& items() const { return items_; }
  Value build() {
    scratch_.handBack();  // the list's value charges its own bytes
    return Value::array(std::move(items_));
  }

 private:
  // Room for `needed` items, grown by half at least (as a vector grows, but
  // charged before the storage is allocated).
  void cover(size_t needed) {
    const size_t capacity = items_.capacity();
    if (needed <= capacity) return;
    const size_t to = std::max(needed, capacity + capacity / 2);
    scratch_.charge((to - capacity) * sizeof(Value));
    items_.reserve(to);
  }
  Array items_;
  Scratch scratch_;
};

// Builds an object from members added one at a time, where a repeated key
// keeps its first position and takes the last value (merge, parsing, the
// memory contract). Keys are found through a hash index once the object is
// wide, so n members cost O(n), not O(n^2).
class ObjectBuilder {
 public:
  // Parsing charges nothing while it builds (the text bounds what it holds);
  // a builder that copies members of values that may be shared many times
  // ($merge) is charged to the run's budget as it grows, as a ListBuilder is.
  ObjectBuilder() = default;
  explicit ObjectBuilder(Budget* chargedTo) : scratch_(chargedTo) {}
  void put(Value key, Value value);
  size_t size() const { return members_.size(); }
  Value build();  // moves the members into a new object

 private:
  void grow();
  Members members_;
  std::unordered_map<std::string_view, size_t> index_;  // views of the keys' strings, which members_ holds
  Scratch scratch_{nullptr};
};

// Equality, ordering and hashing walk values whole; they check the deadline
// of the work under way (deadline.h) as they go, and compare objects through
// their key index, so none is quadratic in the number of keys.
// Structural equality; numbers compare by value (1 == 1.0), object key order ignored.
bool equals(const Value& a, const Value& b);
// Total order of the reference implementation (Erlang term order):
// number < boolean/null (false < null < true) < object < list < string.
int compare(const Value& a, const Value& b);
// Hash consistent with equals.
size_t hashValue(const Value& v);
// "null", "boolean", "number", "string", "list", "object".
const char* typeName(const Value& v);

}  // namespace ptc
