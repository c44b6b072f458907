// OGF meshes: the 0x9 children with their texture (0x2), vertices (0x3), indices (0x4) and slide
// windows (0x6). Layouts: ../shared/docs/xray-motions.md section 9. Nothing here copies vertex
// or index data: the model keeps views into the file (so a rewrite stays byte-exact through the
// raw chunk list) and decode_vertex reads one vertex when asked.
#include <algorithm>
#include <cstring>

#include "ogf_internal.h"

#include "core/byte_reader.h"

namespace boneyard::xray {

namespace {

// The old "magic" ids the SoC SDK writes (and the SoC engine alone accepts); CS/CoP write 1-4.
constexpr std::uint32_t kMagic1Link = 0x12071980;
constexpr std::uint32_t kMagic2Link = 0x240E3300;
constexpr std::uint32_t kMagic3Link = 0x481C6600;
constexpr std::uint32_t kMagic4Link = 0x5A237F80;
constexpr std::uint32_t kMagicNLink = 0x36154C80;  // declared by the engine, rejected on load

// Skinned strides (structs packed to 2): bones, P, N, T, B (12 floats), stored weights, u, v.
constexpr std::uint32_t kSkinnedStride[4] = {60, 64, 70, 76};

// D3D FVF bits a static model can use (FVisual loads any FVF; the SDK writes 0x112).
constexpr std::uint32_t kFvfPositionMask = 0x400E, kFvfXyz = 0x002, kFvfNormal = 0x010, kFvfPsize = 0x020,
                        kFvfDiffuse = 0x040, kFvfSpecular = 0x080, kFvfTexCountMask = 0xF00;

std::optional<VertexLayout> skinned_layout(std::uint32_t format) {
  switch (format) {
    case 1: case kMagic1Link: return VertexLayout::skinned1;
    case 2: case kMagic2Link: return VertexLayout::skinned2;
    case 3: case kMagic3Link: return VertexLayout::skinned3;
    case 4: case kMagic4Link: return VertexLayout::skinned4;
    default: return std::nullopt;
  }
}

std::string format_list() { return "1-4, 0x12071980, 0x240E3300, 0x481C6600, 0x5A237F80 (skinned) or an FVF code"; }

void parse_vertices(const Chunk& c, OgfChild& child) {
  ByteReader r(c.payload, c.payload_offset());
  OgfVertices v;
  const std::uint64_t format_at = r.offset();
  v.format = r.u32("vertex format");
  v.count = r.u32("vertex count");
  // Child types 4/5 are skinned and 0/2 static (FVisual); other types are judged by the id.
  const std::uint8_t type = child.header.type;
  const bool static_type = type == 0 || type == 2;
  const auto skinned = static_type ? std::nullopt : skinned_layout(v.format);
  if (skinned) {
    v.layout = *skinned;
    v.stride = kSkinnedStride[static_cast<int>(*skinned)];
  } else if (static_type || (type != 4 && type != 5)) {
    v.layout = VertexLayout::fvf;
    v.stride = fvf_stride(v.format, v.fvf_normal, v.fvf_uv);
  }
  if (v.stride == 0)
    fail(format_at, "vertex format",
         v.format == kMagicNLink ? "N-link vertex format (declared but rejected by the engine)" : "unknown vertex format",
         static_type ? "an FVF code with XYZ position and 2-D UVs" : format_list(), hex(v.format));
  // The stride follows from the format; the chunk must hold exactly count of them.
  const std::uint64_t want = std::uint64_t{v.count} * v.stride;
  if (want != r.remaining())
    fail(r.offset(), "vertices", "chunk size does not match count x stride",
         "8 + " + std::to_string(v.count) + " x " + std::to_string(v.stride) + " = " + std::to_string(8 + want) + " bytes",
         std::to_string(c.payload.size()) + " bytes");
  v.offset = r.offset();
  v.data = r.bytes(static_cast<std::size_t>(want), "vertices");
  child.vertices = v;
}

void parse_indices(const Chunk& c, OgfChild& child, std::vector<Finding>& findings) {
  ByteReader r(c.payload, c.payload_offset());
  child.index_count = r.u32("index count");
  r.need_array(child.index_count, 2, "indices");
  child.indices_offset = r.offset();
  child.indices = r.bytes(std::size_t{child.index_count} * 2, "indices");
  if (!r.at_end())
    findings.push_back({Severity::warning, r.offset(), child.path() + " 0x4", "bytes after the last index (kept)", "0",
                        std::to_string(r.remaining())});
}

void parse_windows(const Chunk& c, OgfChild& child, std::vector<Finding>& findings) {
  ByteReader r(c.payload, c.payload_offset());
  r.skip(16, "reserved");
  const std::uint32_t count = r.u32("slide window count");
  r.need_array(count, 8, "slide windows");
  child.windows_offset = r.offset();
  child.windows.resize(count);
  for (auto& w : child.windows) {
    w.offset = r.u32("window offset");
    w.triangles = r.u16("window triangles");
    w.vertices = r.u16("window vertices");
  }
  if (!r.at_end())
    findings.push_back({Severity::warning, r.offset(), child.path() + " 0x6", "bytes after the last window (kept)",
                        "0", std::to_string(r.remaining())});
}

void parse_child(const Chunk& c, OgfChild& child, std::vector<Finding>& findings) {
  child.chunks = split_chunks(c.payload, c.payload_offset());
  if (const auto& o = child.chunks.overrun; o && o->truncated_chunk())
    fail(o->offset, hex(o->raw_id & ~kChunkCompressBit), "chunk truncated: its size runs past the end of the child",
         std::to_string(o->declared_size) + " bytes", std::to_string(o->available) + " bytes available");
  if (child.chunks.overrun || !child.chunks.trailing.empty())
    findings.push_back({Severity::warning, child.chunks.trailing_offset, child.path(),
                        "bytes after the child's last chunk (kept)", "0",
                        std::to_string(child.chunks.trailing.size()) + " bytes"});
  const Chunk* h = child.chunks.find(kOgfHeader);
  if (h == nullptr) fail(c.payload_offset(), "0x1", "child has no header", "chunk 0x1", "none");
  read_ogf_header(*h, child.header);
  // Each part is parsed with its chunk id in the error path ("0x9/3 0x3 vertex count").
  auto part = [&](std::uint32_t id, const char* name, auto&& fn) {
    const Chunk* p = child.chunks.find(id);
    if (p == nullptr) fail(c.payload_offset(), hex(id), std::string("child has no ") + name, "chunk " + hex(id), "none");
    try {
      fn(*p);
    } catch (ParseError& e) {
      e.prepend_path(hex(id));
      throw;
    }
  };
  part(kOgfTexture, "texture", [&](const Chunk& t) {
    ByteReader r(t.payload, t.payload_offset());
    child.texture = std::string(r.stringz("texture name"));
    child.shader = std::string(r.stringz("shader name"));
    child.texture_tail = r.rest();
  });
  part(kOgfVertices, "vertices", [&](const Chunk& v) { parse_vertices(v, child); });
  part(kOgfIndices, "indices", [&](const Chunk& i) { parse_indices(i, child, findings); });
  if (child.chunks.find(kOgfSwiData) != nullptr)
    part(kOgfSwiData, "slide windows", [&](const Chunk& w) { parse_windows(w, child, findings); });
}

}  // namespace

std::uint32_t fvf_stride(std::uint32_t fvf, int& normal_at, int& uv_at) {
  constexpr std::uint32_t known = kFvfPositionMask | kFvfNormal | kFvfPsize | kFvfDiffuse | kFvfSpecular |
                                  kFvfTexCountMask;
  if ((fvf & kFvfPositionMask) != kFvfXyz || (fvf & ~known) != 0) return 0;
  std::uint32_t at = 12;
  normal_at = -1, uv_at = -1;
  if (fvf & kFvfNormal) normal_at = static_cast<int>(at), at += 12;
  if (fvf & kFvfPsize) at += 4;
  if (fvf & kFvfDiffuse) at += 4;
  if (fvf & kFvfSpecular) at += 4;
  const std::uint32_t sets = (fvf & kFvfTexCountMask) >> 8;
  if (sets > 8) return 0;
  if (sets > 0) uv_at = static_cast<int>(at);
  return at + sets * 8;  // the size bits above 0xFFFF are zero here: 2-D coordinates
}


int OgfVertices::links() const {
  return layout == VertexLayout::fvf ? 0 : static_cast<int>(layout) + 1;
}

std::string OgfChild::path() const { return "0x9/" + std::to_string(index); }

std::pair<std::size_t, std::size_t> OgfChild::full_detail() const {
  if (windows.empty()) return {0, index_count};
  const std::size_t first = std::min<std::size_t>(windows[0].offset, index_count);
  return {first, std::min<std::size_t>(std::size_t{windows[0].triangles} * 3, index_count - first)};
}

OgfVertex decode_vertex(const OgfVertices& vs, std::size_t i) {
  const std::uint8_t* p = vs.data.data() + i * vs.stride;
  auto f = [&](std::size_t at) { return load_le<float>(p + at); };
  auto v3 = [&](std::size_t at) { return Vec3{f(at), f(at + 4), f(at + 8)}; };
  OgfVertex v;
  if (vs.layout == VertexLayout::fvf) {
    v.position = v3(0);
    if (vs.fvf_normal >= 0) v.normal = v3(static_cast<std::size_t>(vs.fvf_normal));
    if (vs.fvf_uv >= 0) v.u = f(static_cast<std::size_t>(vs.fvf_uv)), v.v = f(static_cast<std::size_t>(vs.fvf_uv) + 4);
    return v;
  }
  const int links = vs.links();
  v.links = links;
  // 1-link: P N T B u v, then a u32 bone read as u16. n-link: n x u16 bones first, then
  // P N T B, n-1 weights, u v.
  const std::size_t base = links == 1 ? 0 : 2 * static_cast<std::size_t>(links);
  v.position = v3(base);
  v.normal = v3(base + 12);
  v.tangent = v3(base + 24);
  v.binormal = v3(base + 36);
  if (links == 1) {
    v.u = f(48), v.v = f(52);
    v.bones.fill(static_cast<std::uint16_t>(load_le<std::uint32_t>(p + 56)));
    v.weights = {1, 0, 0, 0};
    return v;
  }
  for (int k = 0; k < 4; ++k)
    v.bones[k] = load_le<std::uint16_t>(p + 2 * static_cast<std::size_t>(k < links ? k : 0));
  const std::size_t w_at = base + 48;
  if (links == 2) {
    // lerp(M0 P, M1 P, w): bone 1 gets w.
    const float w = f(w_at);
    v.weights = {1 - w, w, 0, 0};
  } else {
    float rest = 1;
    for (int k = 0; k + 1 < links; ++k) rest -= (v.weights[k] = f(w_at + 4 * static_cast<std::size_t>(k)));
    v.weights[links - 1] = rest;
  }
  const std::size_t uv_at = w_at + 4 * static_cast<std::size_t>(links - 1);
  v.u = f(uv_at), v.v = f(uv_at + 4);
  return v;
}

OgfChild overrun_child(const OverrunChunk& o) {
  OgfChild child;
  child.index = o.raw_id;
  child.offset = o.offset;
  child.readable = Finding{Severity::error, o.offset, child.path(),
                        "child cannot be read: its size runs past the end of chunk 0x9 (truncated)",
                        std::to_string(o.declared_size) + " bytes", std::to_string(o.available) + " bytes available"};
  return child;
}

void parse_ogf_children(OgfFile& f) {
  const Chunk* c = f.chunks.find(kOgfChildren);
  if (c == nullptr) return;
  const ChunkList list = split_chunks(c->payload, c->payload_offset());
  // The engine opens ids 0, 1, ... and stops at the first one missing.
  for (std::uint32_t id = 0;; ++id) {
    const Chunk* k = list.find(id);
    if (k == nullptr) break;
    OgfChild child;
    child.index = id;
    child.offset = k->offset;
    try {
      parse_child(*k, child, f.read_findings);
    } catch (const ParseError& e) {
      ParseError located = e;
      located.prepend_path(child.path());
      child.readable = located.finding();
    }
    f.children.push_back(std::move(child));
  }
  if (f.children.size() != list.chunks.size())
    f.read_findings.push_back({Severity::warning, c->payload_offset(), "0x9",
                               "children after a gap in the ids are never loaded by the engine (kept, not exported)",
                               std::to_string(list.chunks.size()) + " children numbered from 0",
                               std::to_string(f.children.size()) + " before the first gap"});
  // A child whose size runs past chunk 0x9 is lost data, not trailing bytes, when it is the next
  // child the engine would open: an unreadable child (an error).
  if (list.overrun && list.overrun->truncated_chunk() && list.overrun->raw_id == f.children.size())
    f.children.push_back(overrun_child(*list.overrun));
  else if (list.overrun || !list.trailing.empty())
    f.read_findings.push_back({Severity::warning, list.trailing_offset, "0x9", "bytes after the last child (kept)", "0",
                               std::to_string(list.trailing.size()) + " bytes"});
}

}  // namespace boneyard::xray
