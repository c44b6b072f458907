// The glTF writer's binary buffer, laid out before a byte is written: views appended in order,
// each 4-byte aligned and tightly packed (no accessor needs a byteStride), accessors into them,
// and the copies that fill them, run in buffer order when the buffer is streamed. Private to
// src/gltf.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "boneyard/core/file_io.h"

namespace boneyard::gltf {

struct AccessorInfo {
  std::uint32_t view = 0;  // index into the views list (not yet the glTF index)
  std::size_t offset = 0;  // within the view
  std::size_t count = 0;
  const char* type = "SCALAR";
  std::uint32_t component = 5126;  // FLOAT
  bool normalized = false;         // integer components read as [-1, 1] (SHORT rotations)
  int minmax = 0;                  // number of components that carry min/max
  std::array<float, 3> min{}, max{};
};

// A region of the binary buffer; views with data become glTF bufferViews in this order.
struct View {
  std::size_t start = 0, size = 0;
  std::uint32_t target = 0;  // 34962 ARRAY_BUFFER, 34963 ELEMENT_ARRAY_BUFFER, 0 none
};

// A copy into the binary buffer, recorded while laying it out and run once its place is known.
struct Copy {
  std::uint32_t view = 0;
  std::size_t offset = 0;
  const void* data = nullptr;
  std::size_t bytes = 0;
};

class BufferLayout {
 public:
  std::vector<View> views;
  std::vector<AccessorInfo> accessors;
  std::vector<Copy> copies;

  std::uint32_t add_view(std::uint32_t target = 0) {
    views.push_back({0, 0, target});
    return static_cast<std::uint32_t>(views.size() - 1);
  }
  // Reserves `bytes` at the end of `view`; returns the offset within it.
  std::size_t reserve(std::uint32_t view, std::size_t bytes) {
    const std::size_t at = views[view].size;
    views[view].size += bytes;
    return at;
  }
  std::size_t add_accessor(const AccessorInfo& info) {
    accessors.push_back(info);
    return accessors.size() - 1;
  }
  // A view holding exactly one accessor over `data` (vertex attributes cannot share a view
  // without a byteStride).
  std::size_t add_array(const void* data, std::size_t bytes, std::size_t count, const char* type,
                        std::uint32_t component, std::uint32_t target) {
    const std::uint32_t v = add_view(target);
    copies.push_back({v, reserve(v, bytes), data, bytes});
    return add_accessor({v, 0, count, type, component});
  }
  // Assigns each view its place and the glTF index of each view that holds data; returns the
  // buffer's total size.
  std::size_t finish() {
    std::size_t total = 0;
    view_index.assign(views.size(), -1);
    int written = 0;
    for (std::size_t i = 0; i < views.size(); ++i) {
      auto& v = views[i];
      if (v.size == 0) continue;
      view_index[i] = written++;
      v.start = total;
      total = (total + v.size + 3) & ~std::size_t{3};
    }
    total_ = total;
    return total;
  }
  std::size_t total() const { return total_; }
  std::vector<int> view_index;  // glTF bufferView index of each view (-1: empty, not written)

  // The whole buffer, `total()` bytes, in order: every copy at its place, zeros between.
  Status stream(ByteSink& out) const {
    std::vector<const Copy*> order;
    order.reserve(copies.size());
    for (const auto& c : copies)
      if (c.bytes) order.push_back(&c);
    auto at = [&](const Copy* c) { return views[c->view].start + c->offset; };
    std::stable_sort(order.begin(), order.end(), [&](const Copy* a, const Copy* b) { return at(a) < at(b); });
    std::size_t pos = 0;
    for (const Copy* c : order) {
      if (auto s = out.zeros(at(c) - pos); !s) return s;
      if (auto s = out.write({static_cast<const std::uint8_t*>(c->data), c->bytes}); !s) return s;
      pos = at(c) + c->bytes;
    }
    return out.zeros(total_ - pos);
  }

 private:
  std::size_t total_ = 0;
};

// Accessors over equal bytes written once: animation outputs repeat (a constant rotation held by
// many motions, the same key times in every motion of a length), and each accessor costs about
// 100 bytes of JSON besides its data. Keyed by the view (which fixes the component type) and the
// element type; the bytes are compared, not only hashed.
class SharedAccessors {
 public:
  explicit SharedAccessors(BufferLayout& layout) : L_(layout) {}
  // The accessor over `bytes` of `data` in `view`; a new one (its bytes copied when the buffer
  // is streamed, so `data` must outlive the layout) unless an equal one exists.
  std::size_t get(std::uint32_t view, const AccessorInfo& info, const void* data, std::size_t bytes) {
    const std::string_view content(static_cast<const char*>(data), bytes);
    const std::size_t key = std::hash<std::string_view>{}(content) ^ (std::size_t{view} * 0x9E3779B97F4A7C15ull) ^
                            std::hash<std::string_view>{}(info.type);
    if (2 * (entries_.size() + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = key & mask;
    for (; slots_[i] != 0; i = (i + 1) & mask) {
      const Entry& e = entries_[slots_[i] - 1];
      if (e.key == key && e.view == view && e.type == std::string_view(info.type) && e.content == content)
        return e.accessor;
    }
    AccessorInfo placed = info;
    placed.view = view;
    placed.offset = L_.reserve(view, bytes);
    const std::size_t accessor = L_.add_accessor(placed);
    L_.copies.push_back({view, placed.offset, data, bytes});
    entries_.push_back({key, view, info.type, content, accessor});
    slots_[i] = entries_.size();
    return accessor;
  }

 private:
  struct Entry {
    std::size_t key;
    std::uint32_t view;
    std::string_view type, content;
    std::size_t accessor;
  };
  // Open addressing with linear probing, at most half full: a model's 100,000 accessors (the hands
  // with their 2,760 motions) cost one allocation per doubling, not one per accessor.
  void grow() {
    slots_.assign(std::max<std::size_t>(1024, 2 * slots_.size()), 0);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t e = 0; e < entries_.size(); ++e) {
      std::size_t i = entries_[e].key & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = e + 1;
    }
  }
  BufferLayout& L_;
  std::vector<std::size_t> slots_;  // entry index + 1, or 0 for an empty slot
  std::vector<Entry> entries_;
};

}  // namespace boneyard::gltf
