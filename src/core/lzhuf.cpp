// LZHuf (docs/xray-sdk.md "LZHuf"): LZSS over a 4096-byte window whose first 4036 bytes start as
// spaces, symbols 0-255 for literal bytes and 256-313 for match lengths 3-60 coded by an adaptive
// Huffman tree that is rebuilt with halved weights when the root's weight reaches 0x4000, and
// match distances coded as a 6-bit prefix code (its code lengths below) plus 6 plain bits. Bits
// are packed most significant first.
//
// The encoder must choose the same matches as the SDK's to write the same bytes: it keeps the
// window's positions in binary search trees, one per first byte, inserts each position by
// comparing up to 60 bytes, keeps the longest match met on the way down (the nearest among
// equally long ones) and replaces a node whose 60 bytes are all equal. The window starts as the
// SDK's does in a fresh process: spaces, then the data, then zero bytes.
#include "boneyard/core/lzhuf.h"

#include <array>
#include <cstring>
#include <memory>

#include "core/byte_reader.h"

namespace boneyard {

namespace {

constexpr int kWindow = 4096;
constexpr int kWindowMask = kWindow - 1;
constexpr int kMaxMatch = 60;
constexpr int kShortestMatch = 3;                                  // shorter runs are literals
constexpr int kSymbols = 256 + kMaxMatch - kShortestMatch + 1;     // 314
constexpr int kNodes = 2 * kSymbols - 1;                           // 627
constexpr int kRoot = kNodes - 1;
constexpr std::uint32_t kRebuildWeight = 0x4000;
constexpr int kStart = kWindow - kMaxMatch;  // where the data starts in the window
constexpr std::uint8_t kFill = 0x20;        // the window's initial bytes before kStart

int symbol_of_match(int length) { return 256 + length - kShortestMatch; }
int match_of_symbol(int symbol) { return symbol - 256 + kShortestMatch; }

// ---- distance code: the upper 6 bits of a distance (0-63) as a canonical prefix code with
// 1 code of 3 bits, 3 of 4, 8 of 5, 12 of 6, 24 of 7 and 16 of 8; then the lower 6 bits plain.

constexpr std::array<int, 9> kCodesOfLength = {0, 0, 0, 1, 3, 8, 12, 24, 16};

struct PrefixCode {
  std::uint8_t length = 0;
  std::uint8_t bits = 0;  // right-aligned
};

constexpr std::array<PrefixCode, 64> make_distance_codes() {
  std::array<PrefixCode, 64> codes{};
  int index = 0;
  unsigned next = 0;
  for (int length = 1; length <= 8; ++length) {
    for (int k = 0; k < kCodesOfLength[length]; ++k) codes[index++] = {std::uint8_t(length), std::uint8_t(next++)};
    next <<= 1;
  }
  return codes;
}
constexpr auto kDistanceCodes = make_distance_codes();
static_assert(kDistanceCodes[63].length == 8 && kDistanceCodes[63].bits == 0xFF, "a complete prefix code");

// ---- the adaptive Huffman tree shared by both directions

class SymbolTree {
 public:
  SymbolTree() {
    for (int s = 0; s < kSymbols; ++s) {
      weight_[s] = 1;
      child_[s] = kNodes + s;
      parent_[kNodes + s] = s;
    }
    for (int pair = 0, node = kSymbols; node <= kRoot; pair += 2, ++node) {
      weight_[node] = weight_[pair] + weight_[pair + 1];
      child_[node] = pair;
      parent_[pair] = parent_[pair + 1] = node;
    }
    weight_[kNodes] = 0xFFFF;  // above every weight: stops the search for a swap partner
    parent_[kRoot] = 0;
  }

  // The node where the walk from the root starts, and the child a bit leads to: >= kNodes is the
  // leaf of symbol (value - kNodes).
  int root_children() const { return child_[kRoot]; }
  int next(int pair, int bit) const { return child_[pair + bit]; }

  // Root-to-leaf bits of `symbol`, last bit first, into `path`; returns how many.
  int path_bits(int symbol, std::array<std::uint8_t, kNodes>& path) const {
    int n = 0;
    for (int node = parent_[kNodes + symbol]; node != kRoot; node = parent_[node]) path[n++] = node & 1;
    return n;
  }

  // Counts one more occurrence of `symbol`: weights up to the root, swapping a node with the last
  // one of lower weight so that weights stay in order.
  void count(int symbol) {
    if (weight_[kRoot] == kRebuildWeight) rebuild();
    int node = parent_[kNodes + symbol];
    do {
      const std::uint32_t w = ++weight_[node];
      if (w > weight_[node + 1]) {
        int swap = node + 1;
        while (w > weight_[swap + 1]) ++swap;
        weight_[node] = weight_[swap];
        weight_[swap] = w;
        const int moved_up = child_[node];
        adopt(moved_up, swap);
        const int moved_down = child_[swap];
        child_[swap] = moved_up;
        adopt(moved_down, node);
        child_[node] = moved_down;
        node = swap;
      }
      node = parent_[node];
    } while (node != 0);
  }

 private:
  // Makes `node` the parent of `child` (a leaf's entry, or both nodes of an internal pair).
  void adopt(int child, int node) {
    parent_[child] = node;
    if (child < kNodes) parent_[child + 1] = node;
  }

  // Halves the leaves' weights (rounding up) and builds the tree again from them in order.
  void rebuild() {
    int leaves = 0;
    for (int node = 0; node < kNodes; ++node) {
      if (child_[node] >= kNodes) {
        weight_[leaves] = (weight_[node] + 1) / 2;
        child_[leaves] = child_[node];
        ++leaves;
      }
    }
    for (int pair = 0, node = kSymbols; node < kNodes; pair += 2, ++node) {
      const std::uint32_t w = weight_[pair] + weight_[pair + 1];
      weight_[node] = w;
      int at = node - 1;
      while (w < weight_[at]) --at;
      ++at;
      for (int k = node; k > at; --k) {
        weight_[k] = weight_[k - 1];
        child_[k] = child_[k - 1];
      }
      weight_[at] = w;
      child_[at] = pair;
    }
    for (int node = 0; node < kNodes; ++node) adopt(child_[node], node);
  }

  std::array<std::uint32_t, kNodes + 1> weight_{};
  std::array<int, kNodes> child_{};
  std::array<int, kNodes + kSymbols> parent_{};
};

// ---- decoding

class BitSource {
 public:
  BitSource(Bytes stream, std::uint64_t offset, std::string_view path) : stream_(stream), offset_(offset), path_(path) {}
  int bit() {
    if (position_ >= stream_.size() * 8) {
      fail(offset_ + stream_.size(), std::string(path_), "LZHuf stream ends before the declared size",
           "more coded bits", "end of the chunk");
    }
    const int b = (stream_[position_ >> 3] >> (7 - (position_ & 7))) & 1;
    ++position_;
    return b;
  }
  int bits(int n) {
    int v = 0;
    while (n-- > 0) v = (v << 1) | bit();
    return v;
  }
  std::uint64_t offset() const { return offset_ + position_ / 8; }

 private:
  Bytes stream_;
  std::uint64_t offset_;
  std::string_view path_;
  std::size_t position_ = 0;
};

int decode_distance(BitSource& in) {
  // Canonical decoding: the first code of each length follows the last of the shorter ones.
  int code = 0, first = 0, index = 0;
  for (int length = 1; length <= 8; ++length) {
    code = (code << 1) | in.bit();
    const int count = kCodesOfLength[length];
    if (code - first < count) return ((index + code - first) << 6) | in.bits(6);
    index += count;
    first = (first + count) << 1;
  }
  return 0;  // unreachable: the code is complete
}

std::vector<std::uint8_t> decode(Bytes payload, std::uint64_t base, std::string_view path) {
  ByteReader header(payload, base);
  const std::uint32_t declared = header.u32(std::string(path) + " unpacked size");
  const Bytes stream = payload.subspan(4);
  const std::uint64_t most = lzhuf_max_unpacked_size(stream.size());
  if (declared > most) {
    fail(base, std::string(path) + " unpacked size", "declared unpacked size is more than the LZHuf stream can hold",
         "at most " + std::to_string(most) + " bytes (" + std::to_string(kLzhufMaxBytesPerPackedByte) + " per packed byte)",
         std::to_string(declared) + " bytes");
  }
  std::vector<std::uint8_t> out;
  if (declared == 0) return out;
  out.reserve(declared);
  std::array<std::uint8_t, kWindow> window{};
  std::memset(window.data(), kFill, kStart);
  int r = kStart;
  SymbolTree tree;
  BitSource in(stream, base + 4, path);
  while (out.size() < declared) {
    int node = tree.root_children();
    while (node < kNodes) node = tree.next(node, in.bit());
    const int symbol = node - kNodes;
    tree.count(symbol);
    if (symbol < 256) {
      out.push_back(static_cast<std::uint8_t>(symbol));
      window[r] = static_cast<std::uint8_t>(symbol);
      r = (r + 1) & kWindowMask;
      continue;
    }
    const int length = match_of_symbol(symbol);
    const int from = (r - decode_distance(in) - 1) & kWindowMask;
    if (out.size() + length > declared) {
      fail(in.offset(), std::string(path), "LZHuf match runs past the declared unpacked size",
           std::to_string(declared - out.size()) + " bytes at most", std::to_string(length) + " bytes");
    }
    for (int k = 0; k < length; ++k) {
      const std::uint8_t c = window[(from + k) & kWindowMask];
      out.push_back(c);
      window[r] = c;
      r = (r + 1) & kWindowMask;
    }
  }
  return out;
}

// ---- encoding

class BitSink {
 public:
  explicit BitSink(std::vector<std::uint8_t>& out) : out_(out) {}
  void put(std::uint32_t value, int n) {  // n <= 24
    pending_ = (pending_ << n) | (value & ((1u << n) - 1));
    count_ += n;
    while (count_ >= 8) {
      count_ -= 8;
      out_.push_back(static_cast<std::uint8_t>(pending_ >> count_));
    }
    pending_ &= (1u << count_) - 1;
  }
  void flush() {
    if (count_ > 0) out_.push_back(static_cast<std::uint8_t>(pending_ << (8 - count_)));
    count_ = 0;
    pending_ = 0;
  }

 private:
  std::vector<std::uint8_t>& out_;
  std::uint32_t pending_ = 0;
  int count_ = 0;
};

// The window and the search trees of its positions: node p is window position p, roots are
// kWindow + 1 + first byte, kNone marks no node.
class MatchFinder {
 public:
  static constexpr int kNone = kWindow;

  MatchFinder() {
    std::memset(bytes_.data(), kFill, kStart);
    smaller_.fill(kNone);
    larger_.fill(kNone);
    up_.fill(kNone);
  }

  std::uint8_t* window() { return bytes_.data(); }
  // Puts `c` at window position `at`; the first kMaxMatch - 1 positions are mirrored past the end
  // so that a comparison running over the end reads them.
  void set(int at, std::uint8_t c) {
    bytes_[at] = c;
    if (at < kMaxMatch - 1) bytes_[at + kWindow] = c;
  }

  int match_length = 0;
  int match_distance = 0;  // distance - 1

  void insert(int r) {
    const std::uint8_t* key = &bytes_[r];
    int p = kWindow + 1 + key[0];
    int order = 1;
    smaller_[r] = larger_[r] = kNone;
    match_length = 0;
    for (;;) {
      int& next = order >= 0 ? larger_[p] : smaller_[p];
      if (next == kNone) {
        next = r;
        up_[r] = p;
        return;
      }
      p = next;
      int same = 1;
      for (; same < kMaxMatch; ++same) {
        order = key[same] - bytes_[p + same];
        if (order != 0) break;
      }
      if (same >= kShortestMatch) {
        const int distance = ((r - p) & kWindowMask) - 1;
        if (same > match_length) {
          match_distance = distance;
          match_length = same;
          if (same >= kMaxMatch) break;
        } else if (same == match_length && distance < match_distance) {
          match_distance = distance;
        }
      }
    }
    // All kMaxMatch bytes equal: r takes p's place in the tree.
    up_[r] = up_[p];
    smaller_[r] = smaller_[p];
    larger_[r] = larger_[p];
    up_[smaller_[p]] = r;
    up_[larger_[p]] = r;
    replace_child(up_[p], p, r);
    up_[p] = kNone;
  }

  void remove(int p) {
    if (up_[p] == kNone) return;
    int q;
    if (larger_[p] == kNone) {
      q = smaller_[p];
    } else if (smaller_[p] == kNone) {
      q = larger_[p];
    } else {
      // The largest node of the smaller subtree takes p's place.
      q = smaller_[p];
      if (larger_[q] != kNone) {
        do q = larger_[q];
        while (larger_[q] != kNone);
        larger_[up_[q]] = smaller_[q];
        up_[smaller_[q]] = up_[q];
        smaller_[q] = smaller_[p];
        up_[smaller_[p]] = q;
      }
      larger_[q] = larger_[p];
      up_[larger_[p]] = q;
    }
    up_[q] = up_[p];
    replace_child(up_[p], p, q);
    up_[p] = kNone;
  }

 private:
  void replace_child(int parent, int old_child, int new_child) {
    if (larger_[parent] == old_child) larger_[parent] = new_child;
    else smaller_[parent] = new_child;
  }

  std::array<std::uint8_t, kWindow + kMaxMatch - 1> bytes_{};
  std::array<int, kWindow + 257> smaller_{}, larger_{}, up_{};
};

class Encoder {
 public:
  explicit Encoder(std::vector<std::uint8_t>& out) : bits_(out) {}

  void symbol(int s) {
    const int n = tree_.path_bits(s, path_);
    for (int k = n - 1; k >= 0;) {  // root first, in pieces of up to 16 bits
      const int piece = k + 1 < 16 ? k + 1 : 16;
      std::uint32_t v = 0;
      for (int j = 0; j < piece; ++j) v = (v << 1) | path_[k - j];
      bits_.put(v, piece);
      k -= piece;
    }
    tree_.count(s);
  }
  void distance(int d) {
    const PrefixCode code = kDistanceCodes[d >> 6];
    bits_.put(code.bits, code.length);
    bits_.put(static_cast<std::uint32_t>(d & 0x3F), 6);
  }
  void finish() { bits_.flush(); }

 private:
  BitSink bits_;
  SymbolTree tree_;
  std::array<std::uint8_t, kNodes> path_{};
};

}  // namespace

std::optional<std::uint32_t> lzhuf_declared_size(Bytes payload) {
  if (payload.size() < 4) return std::nullopt;
  return load_le<std::uint32_t>(payload.data());
}

Result<std::vector<std::uint8_t>> lzhuf_decode(Bytes payload, std::uint64_t base_offset, std::string_view path) {
  return catch_parse_errors([&] { return decode(payload, base_offset, path.empty() ? "LZHuf" : path); });
}

std::vector<std::uint8_t> lzhuf_encode(Bytes data) {
  std::vector<std::uint8_t> out;
  out.reserve(data.size() / 2 + 8);
  ByteWriter(out).u32(static_cast<std::uint32_t>(data.size()));
  if (data.empty()) return out;
  auto finder = std::make_unique<MatchFinder>();
  auto encoder = std::make_unique<Encoder>(out);
  std::size_t next_in = 0;
  int s = 0;
  int r = kStart;
  int ahead = 0;  // bytes of data in the window from r on
  while (ahead < kMaxMatch && next_in < data.size()) finder->window()[r + ahead++] = data[next_in++];
  for (int k = 1; k <= kMaxMatch; ++k) finder->insert(r - k);
  finder->insert(r);
  do {
    int length = finder->match_length < ahead ? finder->match_length : ahead;
    if (length < kShortestMatch) {
      length = 1;
      encoder->symbol(finder->window()[r]);
    } else {
      encoder->symbol(symbol_of_match(length));
      encoder->distance(finder->match_distance);
    }
    int moved = 0;
    for (; moved < length && next_in < data.size(); ++moved) {
      finder->remove(s);
      finder->set(s, data[next_in++]);
      s = (s + 1) & kWindowMask;
      r = (r + 1) & kWindowMask;
      finder->insert(r);
    }
    for (; moved < length; ++moved) {
      finder->remove(s);
      s = (s + 1) & kWindowMask;
      r = (r + 1) & kWindowMask;
      if (--ahead > 0) finder->insert(r);
    }
  } while (ahead > 0);
  encoder->finish();
  return out;
}

}  // namespace boneyard
