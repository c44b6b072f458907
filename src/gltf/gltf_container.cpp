// The glTF container and its data, for the reader: GLB chunks, base64 data URIs and external
// buffers (gltf_uri.cpp confines them), then every accessor read checked against its buffer view
// and buffer before use (element range, stride, component type) and charged against the decode
// budget of the input's size.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <utility>

#include "boneyard/core/limits.h"
#include "gltf_json_parse.h"
#include "gltf_reader_internal.h"

namespace boneyard::gltf {

namespace detail {

Finding error(std::string path, std::string message, std::string expected, std::string found) {
  return Finding{Severity::error, 0, std::move(path), std::move(message), std::move(expected), std::move(found)};
}

std::string in_quotes(const std::string& s) { return "\"" + s + "\""; }

const Json* member(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}
Json* member(Json& j, const char* key) { return const_cast<Json*>(member(std::as_const(j), key)); }
std::int64_t index_of(const Json& j, const char* key, std::int64_t fallback) {
  const Json* v = member(j, key);
  if (v == nullptr) return fallback;
  if (v->is_number_unsigned()) return v->get<std::uint64_t>() > (1ull << 40) ? -2 : std::int64_t(v->get<std::uint64_t>());
  if (v->is_number_integer()) return v->get<std::int64_t>() >= 0 ? v->get<std::int64_t>() : -2;
  return -2;
}
std::string string_of(const Json& j, const char* key) {
  const Json* v = member(j, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}
const Json& array_of(const Json& j, const char* key) {
  static const Json kEmpty = Json::array();
  const Json* v = member(j, key);
  return v && v->is_array() ? *v : kEmpty;
}
void set_extras(scene::Extras& extras, const Json& owner) {
  if (const Json* v = member(owner, "extras"); v != nullptr && !v->is_null()) json_of(extras) = *v;
}
void move_or_copy_extras(scene::Extras& extras, Json& owner, bool move) {
  if (!move) return set_extras(extras, owner);
  if (Json* v = member(owner, "extras"); v != nullptr && !v->is_null()) json_of(extras) = std::move(*v);
}

std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view s) {
  std::vector<std::uint8_t> out;
  out.reserve(s.size() / 4 * 3);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    int v;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '+' || c == '-') v = 62;
    else if (c == '/' || c == '_') v = 63;
    else if (c == '=') break;
    else return std::nullopt;
    acc = (acc << 6) | std::uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(std::uint8_t((acc >> bits) & 0xFF));
    }
  }
  return out;
}

}  // namespace detail

std::string percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

namespace detail {

std::optional<Finding> load_buffers(Model& m, Bytes glb_bin, const ExternalBuffers& external) {
  const Json& buffers = array_of(m.json, "buffers");
  m.owned.reserve(buffers.size());
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const std::string where = "buffer " + std::to_string(i);
    const std::int64_t length = index_of(buffers[i], "byteLength", -2);
    if (length < 0) return error(where, "missing or invalid byteLength");
    const std::string uri = string_of(buffers[i], "uri");
    Bytes data;
    if (uri.empty()) {
      if (i != 0 || glb_bin.data() == nullptr) return error(where, "buffer without uri outside a .glb", "a uri", "none");
      data = glb_bin;
    } else if (uri.rfind("data:", 0) == 0) {
      const auto comma = uri.find(',');
      if (comma == std::string::npos || uri.substr(0, comma).find(";base64") == std::string::npos)
        return error(where, "data URI is not base64", "data:...;base64,...", uri.substr(0, 40));
      auto bytes = base64_decode(std::string_view(uri).substr(comma + 1));
      if (!bytes) return error(where, "invalid base64 in data URI");
      m.owned.push_back(std::move(*bytes));
      data = m.owned.back();
    } else {
      if (!external)
        return error(where, "external buffer not read: the glTF came without a folder to read it from",
                     "a data: URI", uri.substr(0, 80));
      auto loaded = external(uri, where);
      if (!loaded) return loaded.error();
      m.files.push_back(std::move(loaded).value());
      data = m.files.back()->bytes();
    }
    if (std::uint64_t(length) > data.size())
      return error(where, "buffer shorter than its byteLength", std::to_string(length) + " bytes",
                   std::to_string(data.size()));
    m.buffers.push_back(data.first(static_cast<std::size_t>(length)));
  }
  return std::nullopt;
}

std::optional<Finding> parse(Bytes bytes, const ExternalBuffers& external, Model& m) {
  Bytes json_text = bytes, bin;
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0) {
    auto u32 = [&](std::size_t at) {
      std::uint32_t v;
      std::memcpy(&v, bytes.data() + at, 4);
      return v;
    };
    if (bytes.size() < 20) return error("glb header", "truncated .glb", ">= 20 bytes", std::to_string(bytes.size()));
    if (u32(4) != 2) return error("glb header", "unsupported .glb version", "2", std::to_string(u32(4)));
    const std::size_t total = std::min<std::size_t>(u32(8), bytes.size());
    std::size_t at = 12;
    json_text = {};
    while (at + 8 <= total) {
      const std::uint32_t len = u32(at), type = u32(at + 4);
      if (len > total - at - 8) return error("glb chunk at " + std::to_string(at), "chunk runs past the end of the file");
      const Bytes chunk = bytes.subspan(at + 8, len);
      if (type == 0x4E4F534Au && json_text.data() == nullptr) json_text = chunk;
      else if (type == 0x004E4942u && bin.data() == nullptr) bin = chunk;
      at += 8 + len;
    }
    if (json_text.data() == nullptr) return error("glb", "no JSON chunk", "a JSON chunk first", "none");
  }
  m.json = parse_gltf_json(std::string_view(reinterpret_cast<const char*>(json_text.data()), json_text.size()), m.arrays);
  if (m.json.is_discarded() || !m.json.is_object()) return error("glTF", "cannot parse the glTF JSON", "valid JSON", "parse error");
  const Json* asset = member(m.json, "asset");
  if (!asset || string_of(*asset, "version").rfind("2.", 0) != 0)
    return error("asset", "not a glTF 2.0 file", "asset.version 2.x", asset ? string_of(*asset, "version") : "none");
  return load_buffers(m, bin, external);
}

std::size_t component_size(std::int64_t type) {
  switch (type) {
    case 5120:
    case 5121: return 1;
    case 5122:
    case 5123: return 2;
    case 5125:
    case 5126: return 4;
    default: return 0;
  }
}

int components_of(const std::string& type) {
  if (type == "SCALAR") return 1;
  if (type == "VEC2") return 2;
  if (type == "VEC3") return 3;
  if (type == "VEC4") return 4;
  if (type == "MAT4") return 16;
  return 0;
}

std::optional<Finding> view_accessor(const Model& m, std::int64_t index, int width, const std::string& where,
                                     AccessorView& out) {
  const auto& accessors = m.arrays.accessors;
  if (index < 0 || std::size_t(index) >= accessors.size())
    return error(where, "accessor index out of range", "< " + std::to_string(accessors.size()), std::to_string(index));
  const AccessorRecord& a = accessors[std::size_t(index)];
  // Put together only for a message: this runs for every accessor of a model.
  const auto at = [&] { return where + " accessor " + std::to_string(index); };
  if (a.sparse) return error(at(), "sparse accessors are not supported", "a dense accessor", "sparse");
  const int comps = components_of(a.type);
  if (comps != width) return error(at(), "wrong accessor type", std::to_string(width) + " components", a.type);
  const std::int64_t ctype = or_fallback(a.component_type, -2);
  const std::size_t csize = component_size(ctype);
  if (csize == 0) return error(at(), "unknown component type", "5120..5126", std::to_string(ctype));
  const std::int64_t count = or_fallback(a.count, -2);
  if (count <= 0) return error(at(), "accessor has no elements", ">= 1", std::to_string(count));
  const std::int64_t view_index = or_fallback(a.buffer_view, -2);
  const Json& views = array_of(m.json, "bufferViews");
  if (view_index < 0 || std::size_t(view_index) >= views.size())
    return error(at(), "accessor has no valid buffer view", "a bufferView index", std::to_string(view_index));
  const Json& v = views[std::size_t(view_index)];
  const std::int64_t buffer = index_of(v, "buffer", -2), view_offset = index_of(v, "byteOffset", 0),
                     view_length = index_of(v, "byteLength", -2), byte_stride = index_of(v, "byteStride", 0),
                     offset = or_fallback(a.byte_offset, 0);
  if (buffer < 0 || std::size_t(buffer) >= m.buffers.size())
    return error(at(), "buffer view refers to a missing buffer", "a buffer index", std::to_string(buffer));
  if (view_offset < 0 || view_length < 0 || byte_stride < 0 || offset < 0)
    return error(at(), "invalid buffer view or accessor offsets");
  const Bytes data = m.buffers[std::size_t(buffer)];
  const std::uint64_t elem = csize * std::uint64_t(width);
  const std::uint64_t stride = byte_stride != 0 ? std::uint64_t(byte_stride) : elem;
  // All arithmetic in 64 bits on values bounded by 2^40, so nothing wraps.
  const std::uint64_t need = std::uint64_t(offset) + stride * std::uint64_t(count - 1) + elem;
  // Three separate checks, so that expected and found always name the same quantity.
  if (stride < elem)
    return error(at(), "buffer view stride shorter than one element", ">= " + std::to_string(elem) + " bytes",
                 std::to_string(stride));
  if (std::uint64_t(view_offset) > data.size() || std::uint64_t(view_length) > data.size() - std::uint64_t(view_offset))
    return error(at(), "buffer view " + std::to_string(view_index) + " runs past the end of buffer " + std::to_string(buffer),
                 "byteOffset + byteLength <= " + std::to_string(data.size()) + " bytes",
                 std::to_string(view_offset) + " + " + std::to_string(view_length));
  if (need > std::uint64_t(view_length))
    return error(at(), "accessor reads past the end of its buffer view",
                 "<= " + std::to_string(view_length) + " bytes (byteLength)", std::to_string(need) + " bytes");
  out.data = data.data() + view_offset + offset;
  out.count = static_cast<std::size_t>(count);
  out.stride = static_cast<std::size_t>(stride);
  out.component_type = ctype;
  out.normalized = a.normalized;
  return std::nullopt;
}

// Counts `elements` x `width` decoded values of `size` bytes against the model's decode budget.
std::optional<Finding> charge_decode(const Model& m, std::size_t elements, int width, std::size_t size,
                                     const std::string& where, std::int64_t index) {
  const std::uint64_t bytes = std::uint64_t(elements) * std::uint64_t(width) * size;
  if (bytes > m.decode_budget - m.decoded_bytes)
    return error(where + " accessor " + std::to_string(index), "accessors decode to far more data than the file holds (one accessor used many times?)",
                 "<= " + std::to_string(m.decode_budget) + " decoded bytes in all",
                 std::to_string(m.decoded_bytes + bytes));
  m.decoded_bytes += bytes;
  return std::nullopt;
}

namespace {

// Floats, or normalised integers (glTF permits them for rotation outputs, texture coordinates and
// weights); 32-bit integers are never normalised.
std::optional<Finding> check_float_type(const AccessorView& a, std::int64_t index, const std::string& where) {
  if (a.component_type != 5126 && (!a.normalized || component_size(a.component_type) == 4))
    return error(where + " accessor " + std::to_string(index), "unsupported component type",
                 "float or normalised (u)byte/(u)short", std::to_string(a.component_type));
  return std::nullopt;
}

}  // namespace

namespace {

// The components of `a` as floats into `out` (n x width of them).
void convert_floats(const AccessorView& a, std::size_t width, std::vector<float>& out) {
  const std::size_t csize = component_size(a.component_type);
  const std::uint8_t* p = a.data;
  const std::size_t n = a.count, w = width;
  out.resize(n * w);
  if (a.component_type == 5126) {  // floats: copied element by element
    for (std::size_t i = 0; i < n; ++i, p += a.stride) std::memcpy(&out[i * w], p, w * sizeof(float));
    return;
  }
  for (std::size_t i = 0; i < n; ++i, p += a.stride)
    for (std::size_t c = 0; c < w; ++c) {
      const std::uint8_t* q = p + c * csize;
      float f = 0;
      switch (a.component_type) {
        case 5120: f = std::max(float(std::int8_t(*q)) / 127.0f, -1.0f); break;
        case 5121: f = float(*q) / 255.0f; break;
        case 5122: {
          std::int16_t s;
          std::memcpy(&s, q, 2);
          f = std::max(float(s) / 32767.0f, -1.0f);
          break;
        }
        default: {
          std::uint16_t s;
          std::memcpy(&s, q, 2);
          f = float(s) / 65535.0f;
        }
      }
      out[i * w + c] = f;
    }
}

std::optional<Finding> check_finite(const float* v, std::size_t size, std::size_t width, std::int64_t index,
                                    const std::string& where) {
  for (std::size_t k = 0; k < size; ++k)
    if (!std::isfinite(v[k]))
      return error(where + " accessor " + std::to_string(index), "non-finite value (NaN or infinity)", "finite numbers",
                   "element " + std::to_string(k / width) + " component " + std::to_string(k % width));
  return std::nullopt;
}

}  // namespace

// Reads accessor `index` as floats, checking every byte it touches.
std::optional<Finding> read_floats(const Model& m, std::int64_t index, int width, const std::string& where,
                                   std::vector<float>& out) {
  AccessorView a;
  if (auto e = view_accessor(m, index, width, where, a)) return e;
  if (auto e = check_float_type(a, index, where)) return e;
  if (auto e = charge_decode(m, a.count, width, sizeof(float), where, index)) return e;
  convert_floats(a, std::size_t(width), out);
  return check_finite(out.data(), out.size(), std::size_t(width), index, where);
}

std::optional<Finding> read_floats(const Model& m, std::int64_t index, int width, const std::string& where,
                                   FloatValues& out) {
  if (auto e = view_accessor(m, index, width, where, out.view)) return e;
  if (auto e = check_float_type(out.view, index, where)) return e;
  if (auto e = charge_decode(m, out.view.count, width, sizeof(float), where, index)) return e;
  return decode_floats(out.view, index, width, where, out);
}

std::optional<Finding> decode_floats(const AccessorView& a, std::int64_t index, int width, const std::string& where,
                                     FloatValues& out) {
  if (auto e = check_float_type(a, index, where)) return e;
  out.view = a;
  const std::size_t w = static_cast<std::size_t>(width);
  const bool packed = a.component_type == 5126 && a.stride == w * sizeof(float) &&
                      reinterpret_cast<std::uintptr_t>(a.data) % alignof(float) == 0;
  if (packed) {  // the buffer's own floats (a mapped file or a decoded data: URI): no copy
    out.owned.clear();
    out.data = reinterpret_cast<const float*>(a.data);
    out.size = a.count * w;
  } else {
    convert_floats(a, w, out.owned);
    out.data = out.owned.data();
    out.size = out.owned.size();
  }
  return check_finite(out.data, out.size, w, index, where);
}

std::optional<Finding> read_uints(const Model& m, std::int64_t index, int width, const std::string& where,
                                  std::vector<std::uint32_t>& out) {
  AccessorView a;
  if (auto e = view_accessor(m, index, width, where, a)) return e;
  const std::int64_t ctype = a.component_type;
  if ((ctype != 5121 && ctype != 5123 && ctype != 5125) || a.normalized)
    return error(where + " accessor " + std::to_string(index), "unsupported component type",
                 "unsigned byte, short or int", std::to_string(ctype));
  const std::size_t csize = component_size(ctype);
  if (auto e = charge_decode(m, a.count, width, sizeof(std::uint32_t), where, index)) return e;
  out.resize(a.count * static_cast<std::size_t>(width));
  const std::uint8_t* p = a.data;
  for (std::size_t i = 0; i < a.count; ++i, p += a.stride)
    for (int c = 0; c < width; ++c) {
      const std::uint8_t* q = p + std::size_t(c) * csize;
      std::uint32_t v = 0;
      if (csize == 1) {
        v = *q;
      } else if (csize == 2) {
        std::uint16_t s;
        std::memcpy(&s, q, 2);
        v = s;
      } else {
        std::memcpy(&v, q, 4);
      }
      out[i * std::size_t(width) + std::size_t(c)] = v;
    }
  return std::nullopt;
}

}  // namespace detail

}  // namespace boneyard::gltf
