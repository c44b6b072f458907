// check-roundtrip: each model of a folder through the same steps as `convert model.ogf -o m.glb`
// then `convert m.glb -o model.ogf [--template model.ogf]`, in memory and in parallel (the
// batch's pool), and what came back compared with the original.
#include "boneyard/registry/check_roundtrip.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "boneyard/core/file_io.h"
#include "boneyard/core/interrupt.h"
#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/registry/xray_files.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/ogf/ogf_import.h"
#include "boneyard/xray/xray_scene.h"
#include "formats.h"
#include "parallel.h"

namespace boneyard {

namespace fs = std::filesystem;

namespace {

using Outcome = RoundTripItem::Outcome;

std::string hex_offset(std::uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llX", static_cast<unsigned long long>(v));
  return b;
}

// Where two files first differ: the byte and the top-level chunk of the original that holds it.
std::string first_difference(const xray::OgfFile& original, Bytes back) {
  const Bytes a = original.source->bytes();
  const std::size_t n = std::min(a.size(), back.size());
  std::size_t at = 0;
  while (at < n && a[at] == back[at]) ++at;
  std::string chunk;
  for (const Chunk& c : original.chunks.chunks)
    if (at >= c.offset && at < c.payload_offset() + c.payload.size()) chunk = " (in chunk " + hex_offset(c.id()) + ")";
  std::string out = "differs from byte " + std::to_string(at) + chunk;
  if (a.size() != back.size()) out += "; " + std::to_string(back.size()) + " bytes instead of " + std::to_string(a.size());
  return out;
}

// Static models (types 0-2) are one kind: a model made anew is a hierarchy (1) even of one child.
int model_kind(std::uint8_t type) { return type <= 2 ? 0 : type; }

// Triangles drawn at full detail per texture and shader.
std::map<std::pair<std::string, std::string>, std::size_t> triangles_by_material(const xray::OgfFile& f) {
  std::map<std::pair<std::string, std::string>, std::size_t> out;
  for (const auto& c : f.children)
    if (c.readable) out[{c.texture, c.shader}] += c.full_detail().second / 3;
  return out;
}

bool near(const Vec3& a, const Vec3& b, double tolerance) {
  return std::fabs(a.x - b.x) <= tolerance && std::fabs(a.y - b.y) <= tolerance && std::fabs(a.z - b.z) <= tolerance;
}

// What a model made without template must keep of the original for the game to use it the same
// way; "" when it does. Vertex layouts, tangent frames, boxes and the split into children may
// differ (docs/ogf-write.md "Without a template").
std::string rebuilt_difference(const xray::OgfFile& a, const xray::OgfFile& b) {
  if (model_kind(a.header.type) != model_kind(b.header.type))
    return "model type " + std::to_string(b.header.type) + " instead of " + std::to_string(a.header.type);
  if (a.bones.size() != b.bones.size())
    return std::to_string(b.bones.size()) + " bones instead of " + std::to_string(a.bones.size());
  for (std::size_t i = 0; i < a.bones.size(); ++i) {
    const auto& x = a.bones[i];
    const auto& y = b.bones[i];
    const std::string bone = "bone " + std::to_string(i) + " (" + printable(x.name) + ")";
    if (x.name != y.name) return bone + " is named " + printable(y.name);
    if (lower_ascii(x.parent_name) != lower_ascii(y.parent_name))
      return bone + " has parent " + printable(y.parent_name) + " instead of " + printable(x.parent_name);
    if (x.ik && y.ik) {
      constexpr double kBindTolerance = 1e-5;  // what glTF's float32 rest pose keeps of the stored values
      if (!near(x.ik->bind_position, y.ik->bind_position, kBindTolerance)) return bone + " bind position moved";
      if (!near(x.ik->bind_rotation, y.ik->bind_rotation, kBindTolerance)) return bone + " bind rotation turned";
    }
  }
  if (a.motion_refs != b.motion_refs) return "motion refs differ";
  const std::size_t motions_a = a.motions ? a.motions->params.motions.size() : 0;
  const std::size_t motions_b = b.motions ? b.motions->params.motions.size() : 0;
  if (motions_a != motions_b)
    return std::to_string(motions_b) + " embedded motions instead of " + std::to_string(motions_a);
  if (a.user_data.value_or("") != b.user_data.value_or("")) return "user data differs";
  const auto tris_a = triangles_by_material(a);
  const auto tris_b = triangles_by_material(b);
  for (const auto& [material, count] : tris_a) {
    const auto it = tris_b.find(material);
    const std::size_t got = it == tris_b.end() ? 0 : it->second;
    if (got != count)
      return std::to_string(got) + " triangles of texture " + printable(material.first) + " (shader " +
             printable(material.second) + ") instead of " + std::to_string(count);
  }
  if (tris_b.size() != tris_a.size()) return "a material the original does not have";
  return {};
}

// --meshes, else the model's nearest "meshes" ancestor, else the folder being checked (as the
// batch looks up refs).
fs::path meshes_root_for(const fs::path& model, const RoundTripOptions& o) {
  if (!o.meshes.empty()) return o.meshes;
  return xray::meshes_folder_of(fs::absolute(model)).value_or(o.input_dir);
}

std::string where(const Finding& f) {
  std::string s = f.path.empty() ? f.message : f.path + ": " + f.message;
  if (!f.expected.empty() || !f.found.empty()) s += " (expected " + f.expected + ", found " + f.found + ")";
  return s;
}

void fail_both(RoundTripItem& item, const std::string& detail) {
  item.with_template = item.without_template = Outcome::failed;
  item.with_detail = item.without_detail = detail;
}

// One import of the glTF: with the original as template (compared byte for byte) or without.
void bring_back(const scene::Scene& sc, const xray::OgfFile& original, bool with_template, RoundTripItem& item) {
  Diagnostics warnings;
  xray::OgfImportOptions io;
  if (with_template) io.template_ogf = &original;
  auto bytes = xray::scene_to_ogf_bytes(sc, io, warnings);
  Outcome& outcome = with_template ? item.with_template : item.without_template;
  std::string& detail = with_template ? item.with_detail : item.without_detail;
  for (auto& f : warnings.findings()) {
    f.path = std::string(with_template ? "with template: " : "without template: ") + f.path;
    item.warnings.push_back(std::move(f));
  }
  if (!bytes) {
    outcome = Outcome::failed, detail = where(bytes.error());
    return;
  }
  if (with_template) {
    const Bytes back(bytes->data(), bytes->size());
    const Bytes stored = original.source->bytes();
    const bool same = back.size() == stored.size() && std::equal(back.begin(), back.end(), stored.begin());
    outcome = same ? Outcome::identical : Outcome::different;
    if (!same) detail = first_difference(original, back);
    return;
  }
  auto rebuilt = xray::read_ogf(FileData::from_vector(std::move(bytes).value()));
  if (!rebuilt) {
    outcome = Outcome::failed, detail = where(rebuilt.error());
    return;
  }
  detail = rebuilt_difference(original, rebuilt.value());
  outcome = detail.empty() ? Outcome::identical : Outcome::different;
}

void check_one(RoundTripItem& item, const RoundTripOptions& o) {
  auto opened = FileData::open(item.model);
  if (!opened) return fail_both(item, "cannot read: " + opened.error().message);
  // A model boneyard cannot read (an OGF v3, a broken file) or that has validation errors is one
  // `convert` refuses: by design, not a round trip that failed.
  auto ogf = xray::read_ogf(std::move(opened).value());
  const auto blockers = ogf ? xray::ogf_conversion_blockers(ogf.value(), false) : std::vector<Finding>{ogf.error()};
  if (!blockers.empty()) {
    item.with_template = item.without_template = Outcome::refused;
    item.with_detail = item.without_detail = (ogf ? "" : "cannot be read: ") + where(blockers.front());
    return;
  }
  std::vector<std::uint8_t> glb;
  {
    Diagnostics warnings;
    auto sc = ogf_scene_with_motions(ogf.value(), item.model, meshes_root_for(item.model, o), warnings);
    for (auto& f : warnings.findings()) item.warnings.push_back(std::move(f));
    if (!sc) return fail_both(item, "export: " + where(sc.error()));
    VectorSink sink(glb);
    if (auto s = gltf::Encoding(sc.value(), gltf::Container::glb).write(sink); !s)
      return fail_both(item, "export: " + where(s.error()));
  }
  item.glb_bytes = glb.size();
  // Read back as `convert x.glb` reads it: the animations are described, never sampled for a model.
  gltf::ReadOptions ro;
  ro.require_animations = false;
  Diagnostics read_warnings;
  auto sc = gltf::read_deferred(FileData::from_vector(std::move(glb)), {}, ro, read_warnings);
  if (!sc) return fail_both(item, "glTF read: " + where(sc.error()));
  for (auto& f : read_warnings.findings()) item.warnings.push_back(std::move(f));
  item.motions = sc->animations.size();
  if (o.with_template) bring_back(sc.value(), ogf.value(), true, item);
  if (o.without_template) bring_back(sc.value(), ogf.value(), false, item);
}

}  // namespace

const char* outcome_name(RoundTripItem::Outcome outcome) {
  switch (outcome) {
    case Outcome::identical: return "identical";
    case Outcome::different: return "different";
    case Outcome::failed: return "failed";
    case Outcome::refused: return "refused";
    case Outcome::skipped: return "skipped";
    case Outcome::interrupted: return "interrupted";
  }
  return "?";
}

RoundTripResult check_roundtrip(const RoundTripOptions& o) {
  RoundTripResult result;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(o.input_dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    if (lower_extension(path_to_utf8(it->path().filename())) != ".ogf") continue;
    RoundTripItem item;
    item.model = it->path();
    item.with_template = item.without_template = Outcome::interrupted;
    result.items.push_back(std::move(item));
  }
  std::sort(result.items.begin(), result.items.end(),
            [](const RoundTripItem& a, const RoundTripItem& b) { return a.model < b.model; });
  const std::size_t total = result.items.size();
  std::size_t done = 0;
  registry::run_parallel(total, o.threads, [&](std::size_t i) {
    RoundTripItem& item = result.items[i];
    item.with_template = item.without_template = Outcome::skipped;
    try {
      check_one(item, o);
    } catch (const std::exception& e) {  // e.g. bad_alloc on a hostile file: this model only
      fail_both(item, std::string("internal error: ") + e.what());
    }
    return true;
  }, [&](std::size_t i) {
    ++done;
    if (o.progress) o.progress(done, total, result.items[i]);
  });
  for (const auto& item : result.items) {
    if (item.with_template == Outcome::interrupted) {
      ++result.not_checked;
      continue;
    }
    if (item.with_template == Outcome::refused) {
      ++result.refused;
      continue;
    }
    const Outcome outcomes[2] = {item.with_template, item.without_template};
    for (int d = 0; d < 2; ++d) {
      if (outcomes[d] == Outcome::identical) ++result.identical[d];
      if (outcomes[d] == Outcome::different) ++result.different[d];
      if (outcomes[d] == Outcome::failed) ++result.failed[d];
    }
  }
  result.interrupt_signal = interrupt_signal();
  return result;
}

}  // namespace boneyard
