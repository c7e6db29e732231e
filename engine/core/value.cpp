#include "core/value.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <new>
#include <string>

#include "core/deadline.h"
#include "core/error.h"

namespace ptc {

namespace detail {
const std::string kEmptyString;
const Array kEmptyArray;
}  // namespace detail

namespace {

using detail::ArrayBlock;
using detail::ObjectBlock;
using detail::StringBlock;

using detail::KeyIndex;

uint64_t objectBytes(size_t n) {
  return sizeof(ObjectBlock) + n * sizeof(Member) + (n >= Value::kIndexFrom ? sizeof(KeyIndex*) : 0);
}
uint64_t shapedBytes(size_t n) { return sizeof(ObjectBlock) + n * sizeof(Value) + sizeof(ObjectBlock*); }
uint64_t keyIndexBytes(size_t n) { return sizeof(KeyIndex) + n * sizeof(uint32_t); }

// Sorts the positions of a wide object's members by key (then position, so
// that with a repeated key the first one is found, as a scan would). Objects
// of one shape share the index of the shape, which holds their keys.
const uint32_t* keyIndexOf(ObjectBlock* block) {
  if (block->shaped()) block = block->shape();
  KeyIndex* shared = block->index();
  uint32_t* index = shared->order();
  if (!shared->filled) {
    Member* members = block->members();
    for (uint32_t i = 0; i < block->count(); ++i) index[i] = i;
    sortPositions(index, block->count(), [members](uint32_t x, uint32_t y) {
      int c = members[x].key.str().compare(members[y].key.str());
      return c != 0 ? c < 0 : x < y;
    });
    shared->filled = true;
  }
  return index;
}

// The shape of `like` (the object holding the keys) when it is an object with
// the same key blocks in the same order.
ObjectBlock* shapeOf(const Member* first, size_t n, const Value* like) {
  if (n == 0 || !like || !like->isObject() || like->members().size() != n) return nullptr;
  MemberSpan theirs = like->members();
  for (size_t i = 0; i < n; ++i)
    if (!first[i].key.sameHeap(theirs.key(i))) return nullptr;
  auto* block = static_cast<ObjectBlock*>(const_cast<void*>(like->identity()));
  return block->shaped() ? block->shape() : block;
}

// Charges the current budget before allocating, so a refused charge leaks nothing.
template <class Block, class Payload>
Block* allocate(uint64_t bytes, Payload&& payload) {
  Budget* budget = Budget::current();
  if (budget) budget->charge(bytes);
  Block* block = new Block();
  block->bytes = static_cast<uint32_t>(std::min<uint64_t>(bytes, UINT32_MAX));
  block->budget = budget;
  if constexpr (std::is_same_v<Block, StringBlock>) block->s = std::forward<Payload>(payload);
  if constexpr (std::is_same_v<Block, ArrayBlock>) block->items = std::forward<Payload>(payload);
  return block;
}

void releaseIndex(KeyIndex* index) {
  if (--index->refs != 0) return;
  if (index->budget) index->budget->release(index->bytes);
  index->~KeyIndex();
  ::operator delete(index);
}

ObjectBlock* newBlock(uint64_t bytes, Budget* budget, uint32_t bits) {
  auto* block = new (::operator new(static_cast<size_t>(bytes))) ObjectBlock();
  block->bytes = static_cast<uint32_t>(std::min<uint64_t>(bytes, UINT32_MAX));
  block->budget = budget;
  block->bits = bits;
  return block;
}

// Holds only the values; the keys (released here: the shape holds the same blocks) are the shape's.
ObjectBlock* allocateShaped(Member* first, size_t n, ObjectBlock* shape) {
  const uint64_t bytes = shapedBytes(n);
  Budget* budget = Budget::current();
  if (budget) budget->charge(bytes);
  ObjectBlock* block = newBlock(bytes, budget, static_cast<uint32_t>(n) | ObjectBlock::kShaped);
  Value* values = block->values();
  for (size_t i = 0; i < n; ++i) {
    new (&values[i]) Value(std::move(first[i].value));
    first[i].key = Value();
  }
  ++shape->refs;
  block->shape() = shape;
  return block;
}

ObjectBlock* allocateObject(Member* first, size_t n, const Value* like) {
  if (ObjectBlock* shape = shapeOf(first, n, like)) return allocateShaped(first, n, shape);
  const uint64_t bytes = objectBytes(n);
  const uint64_t indexBytes = n >= Value::kIndexFrom ? keyIndexBytes(n) : 0;
  Budget* budget = Budget::current();
  if (budget) budget->charge(bytes + indexBytes);  // each block gives its part back when it goes
  KeyIndex* index = nullptr;
  if (indexBytes) {
    index = new (::operator new(static_cast<size_t>(indexBytes))) KeyIndex();
    index->bytes = static_cast<uint32_t>(std::min<uint64_t>(indexBytes, UINT32_MAX));
    index->budget = budget;
    index->count = static_cast<uint32_t>(n);
  }
  ObjectBlock* block = newBlock(bytes, budget, static_cast<uint32_t>(n));
  Member* members = block->members();
  for (size_t i = 0; i < n; ++i) new (&members[i]) Member(std::move(first[i]));
  if (index) block->index() = index;
  return block;
}

void freeObject(ObjectBlock* block) {
  ObjectBlock* shape = nullptr;
  if (block->shaped()) {
    Value* values = block->values();
    shape = block->shape();
    for (uint32_t i = 0; i < block->count(); ++i) values[i].~Value();
  } else {
    Member* members = block->members();
    if (block->wide()) releaseIndex(block->index());
    for (uint32_t i = 0; i < block->count(); ++i) members[i].~Member();
  }
  block->~ObjectBlock();
  ::operator delete(block);
  if (shape && --shape->refs == 0) {  // the last object of its shape, once the shape's own value went
    if (shape->budget) shape->budget->release(shape->bytes);
    freeObject(shape);
  }
}

// The height of a list or object holding values of these heights.
template <class It, class Get>
uint16_t containerHeight(It first, It last, Get height) {
  int deepest = 0;
  for (It it = first; it != last; ++it) deepest = std::max(deepest, height(*it));
  if (deepest >= kMaxNesting)
    throw PtcError(ErrorType::Execution, ErrorCode::NestingTooDeep,
                   "The value would nest lists and objects more than " + std::to_string(kMaxNesting) +
                       " levels deep, the most the engine holds; build a flatter value");
  return static_cast<uint16_t>(deepest + 1);
}

}  // namespace

Budget*& Budget::current() {
  thread_local Budget* budget = nullptr;
  return budget;
}

void Budget::charge(uint64_t bytes) {
  require(bytes);
  live_ += bytes;
  if (live_ > peak_) peak_ = live_;
}

void Budget::require(uint64_t bytes) const {
  if (!fits(bytes))
    throw PtcError(ErrorType::MemoryExceeded, ErrorCode::MemoryExceeded,
                   "Memory limit of " + std::to_string(limit_) +
                       " bytes exceeded: the run holds too much data (raise maxHeapBytes, or "
                       "filter/select/take earlier so fewer values are kept)");
}

Value Value::string(std::string s) {
  Value v;
  uint64_t bytes = sizeof(StringBlock) + s.size();
  v.u_.h = allocate<StringBlock>(bytes, std::move(s));
  v.tag_.kind = Kind::String;
  return v;
}

Value Value::array(Array items) {
  Value v;
  v.tag_.height = containerHeight(items.begin(), items.end(), [](const Value& x) { return x.height(); });
  uint64_t bytes = sizeof(ArrayBlock) + items.size() * sizeof(Value);
  v.u_.h = allocate<ArrayBlock>(bytes, std::move(items));
  v.tag_.kind = Kind::Array;
  return v;
}

Value Value::object(Members members) { return object(members.data(), members.size()); }

Value Value::object(Member* first, size_t n, const Value* like) {
  Value v;
  v.tag_.height = containerHeight(first, first + n, [](const Member& m) { return m.value.height(); });
  v.u_.h = allocateObject(first, n, like);
  v.tag_.kind = Kind::Object;
  return v;
}

void Value::retainBlock() const { ++u_.h->refs; }

void Value::releaseBlock() {
  if (--u_.h->refs == 0) destroy();
  tag_.kind = Kind::Null;
  tag_.height = 0;
}

void Value::destroy() {
  HeapBlock* b = u_.h;
  if (b->budget) b->budget->release(b->bytes);
  // No virtual destructor (it would cost a pointer per block): the kind says which block it is.
  if (tag_.kind == Kind::String) delete static_cast<StringBlock*>(b);
  else if (tag_.kind == Kind::Array) delete static_cast<ArrayBlock*>(b);
  else freeObject(static_cast<ObjectBlock*>(b));
}

const uint32_t* Value::keyIndex() const {
  if (tag_.kind != Kind::Object) return nullptr;
  auto* block = static_cast<ObjectBlock*>(u_.h);
  return block->wide() ? keyIndexOf(block) : nullptr;
}

const void* Value::shape() const {
  if (tag_.kind != Kind::Object) return nullptr;
  auto* block = static_cast<ObjectBlock*>(u_.h);
  return block->shaped() ? block->shape() : nullptr;
}

int64_t Value::position(std::string_view key) const {
  if (tag_.kind != Kind::Object) return -1;
  MemberSpan all = members();
  if (const uint32_t* index = keyIndex()) {
    const uint32_t* at = std::lower_bound(index, index + all.size(), key,
                                          [&all](uint32_t i, std::string_view k) { return all.key(i).str() < k; });
    return at != index + all.size() && all.key(*at).str() == key ? static_cast<int64_t>(*at) : -1;
  }
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string& k = all.key(i).str();
    if (k.size() == key.size() && std::memcmp(k.data(), key.data(), key.size()) == 0) return static_cast<int64_t>(i);
  }
  return -1;
}

const Value* Value::find(std::string_view key) const {
  const int64_t at = position(key);
  return at < 0 ? nullptr : &members().value(static_cast<size_t>(at));
}

Value Value::field(std::string_view key) const {
  const Value* v = find(key);
  return v ? *v : Value();
}

// What one entry of the key index takes: its node (the entry, a link, the
// cached hash) and a bucket.
constexpr uint64_t kIndexEntryBytes = sizeof(std::pair<const std::string_view, size_t>) + 3 * sizeof(void*);

// Room for one more member, charged before the vector grows (as it would: double).
void ObjectBuilder::grow() {
  const size_t capacity = members_.capacity();
  if (members_.size() < capacity) return;
  const size_t to = std::max<size_t>(4, capacity * 2);
  scratch_.charge((to - capacity) * sizeof(Member));
  members_.reserve(to);
}

void ObjectBuilder::put(Value key, Value value) {
  tickDeadline();
  if (members_.size() < Value::kIndexFrom) {
    for (Member& m : members_) {
      if (m.key.str() == key.str()) {
        m.value = std::move(value);
        return;
      }
    }
  } else {
    if (index_.empty()) {
      scratch_.charge(members_.size() * kIndexEntryBytes);
      for (size_t i = 0; i < members_.size(); ++i) index_.emplace(members_[i].key.str(), i);
    }
    scratch_.charge(kIndexEntryBytes);
    auto [at, added] = index_.emplace(key.str(), members_.size());
    if (!added) {
      scratch_.release(kIndexEntryBytes);
      members_[at->second].value = std::move(value);
      return;
    }
  }
  grow();
  members_.push_back(Member{std::move(key), std::move(value)});
}

Value ObjectBuilder::build() {
  index_.clear();
  Value v = Value::object(members_.data(), members_.size());
  members_ = Members();  // its storage goes now: the object charges its own bytes
  index_ = {};
  scratch_.handBack();
  return v;
}

namespace {

// An object's members in key order: its key index when it is wide, else
// sorted here (a handful of members).
class KeyOrder {
 public:
  explicit KeyOrder(const Value& v) : members_(v.members()), order_(v.keyIndex()) {
    if (order_) return;
    for (uint32_t i = 0; i < members_.size(); ++i) small_[i] = i;
    sortPositions(small_, members_.size(),
                  [this](uint32_t x, uint32_t y) { return members_.key(x).str() < members_.key(y).str(); });
    order_ = small_;
  }
  size_t size() const { return members_.size(); }
  MemberRef operator[](size_t i) const { return members_[order_[i]]; }

 private:
  MemberSpan members_;
  const uint32_t* order_;
  uint32_t small_[Value::kIndexFrom];
};

bool equalObjects(const Value& a, const Value& b) {
  KeyOrder x(a), y(b);
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i].key.str() != y[i].key.str()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    tickDeadline();
    if (!equals(x[i].value, y[i].value)) return false;
  }
  return true;
}

}  // namespace

bool equals(const Value& a, const Value& b) {
  if (a.sameHeap(b)) return true;
  if (a.isNumber() && b.isNumber()) {
    if (a.isInt() && b.isInt()) return a.asInt() == b.asInt();
    return a.asDouble() == b.asDouble();
  }
  Kind ka = a.isNone() ? Kind::Null : a.kind();
  Kind kb = b.isNone() ? Kind::Null : b.kind();
  if (ka != kb) return false;
  switch (ka) {
    case Kind::Null: return true;
    case Kind::Bool: return a.asBool() == b.asBool();
    case Kind::String: return a.str() == b.str();
    case Kind::Array: {
      const Array& x = a.items();
      const Array& y = b.items();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        tickDeadline();  // a walk of a whole value counts its steps; comparing two scalars does not
        if (!equals(x[i], y[i])) return false;
      }
      return true;
    }
    case Kind::Object: return a.members().size() == b.members().size() && equalObjects(a, b);
    default: return false;
  }
}

namespace {

// Rank of a type in Erlang term order; booleans and null are atoms, ordered
// alphabetically (false < nil < true).
int typeRank(const Value& v) {
  switch (v.kind()) {
    case Kind::Int:
    case Kind::Double: return 0;
    case Kind::Bool: return v.asBool() ? 3 : 1;
    case Kind::None:
    case Kind::Null: return 2;
    case Kind::Object: return 4;
    case Kind::Array: return 5;
    case Kind::String: return 6;
  }
  return 2;
}

int compareNumbers(const Value& a, const Value& b) {
  if (a.isInt() && b.isInt()) return a.asInt() < b.asInt() ? -1 : (a.asInt() > b.asInt() ? 1 : 0);
  double x = a.asDouble(), y = b.asDouble();
  return x < y ? -1 : (x > y ? 1 : 0);
}

int compareObjects(const Value& a, const Value& b) {
  size_t na = a.members().size(), nb = b.members().size();
  if (na != nb) return na < nb ? -1 : 1;
  KeyOrder x(a), y(b);
  for (size_t i = 0; i < x.size(); ++i) {
    int c = x[i].key.str().compare(y[i].key.str());
    if (c != 0) return c < 0 ? -1 : 1;
  }
  for (size_t i = 0; i < x.size(); ++i) {
    int c = compare(x[i].value, y[i].value);
    if (c != 0) return c;
  }
  return 0;
}

}  // namespace

int compare(const Value& a, const Value& b) {
  tickDeadline();
  if (a.sameHeap(b)) return 0;
  int ra = typeRank(a), rb = typeRank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (a.kind()) {
    case Kind::Int:
    case Kind::Double: return compareNumbers(a, b);
    case Kind::String: {
      int c = a.str().compare(b.str());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case Kind::Array: {
      const Array& x = a.items();
      const Array& y = b.items();
      size_t n = std::min(x.size(), y.size());
      for (size_t i = 0; i < n; ++i) {
        int c = compare(x[i], y[i]);
        if (c != 0) return c;
      }
      return x.size() == y.size() ? 0 : (x.size() < y.size() ? -1 : 1);
    }
    case Kind::Object: return compareObjects(a, b);
    default: return 0;
  }
}

size_t hashValue(const Value& v) {
  tickDeadline();
  auto mix = [](size_t h, size_t x) { return h ^ (x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); };
  switch (v.kind()) {
    case Kind::None:
    case Kind::Null: return 0x51;
    case Kind::Bool: return v.asBool() ? 0x71 : 0x70;
    case Kind::Int: return std::hash<double>()(static_cast<double>(v.asInt()));
    case Kind::Double: return std::hash<double>()(v.asDouble() == 0 ? 0.0 : v.asDouble());
    case Kind::String: return std::hash<std::string>()(v.str());
    case Kind::Array: {
      size_t h = 0xa1;
      for (const Value& x : v.items()) h = mix(h, hashValue(x));
      return h;
    }
    case Kind::Object: {
      size_t h = 0x0b;  // order-independent: sum of member hashes
      for (MemberRef m : v.members()) h += mix(std::hash<std::string>()(m.key.str()), hashValue(m.value));
      return h;
    }
  }
  return 0;
}

const char* typeName(const Value& v) {
  switch (v.kind()) {
    case Kind::None:
    case Kind::Null: return "null";
    case Kind::Bool: return "boolean";
    case Kind::Int:
    case Kind::Double: return "number";
    case Kind::String: return "string";
    case Kind::Array: return "list";
    case Kind::Object: return "object";
  }
  return "null";
}

}  // namespace ptc
