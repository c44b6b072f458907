// .object edits (object_edit.h): each builds the new body from the old one's chunks, replacing only
// the chunks it changes, and reads the result back.
#include "boneyard/xray/object/object_edit.h"

#include <algorithm>
#include <functional>

#include "boneyard/core/chunks.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/object/object_scene.h"
#include "object_import_body.h"

namespace boneyard::xray {

namespace {

using Payload = std::vector<std::uint8_t>;

// The file again with the body's chunks passed through `change` (nullopt: keep; a payload: replace;
// an empty optional inside: remove), then `append` before the description (0x922) or at the end.
Result<Payload> rebuild(const ObjectFile& f, const std::function<std::optional<std::optional<Payload>>(const Chunk&)>& change,
                        std::optional<std::pair<std::uint32_t, Payload>> append = std::nullopt) {
  Payload body;
  ByteWriter w(body);
  auto put_append = [&] {
    if (append) write_chunk(w, append->first, append->second);
    append.reset();
  };
  for (const Chunk& c : f.chunks.chunks) {
    if (c.id() == kObjDescription) put_append();
    if (auto replaced = change(c)) {
      if (*replaced) write_chunk(w, c.raw_id, **replaced);
    } else {
      write_chunk(w, c.raw_id, c.payload);
    }
  }
  put_append();
  w.bytes(f.chunks.trailing);
  auto bytes = object_file_bytes(body, f.compressed);
  if (!bytes) return bytes.error();
  ByteWriter out(bytes.value());
  for (std::size_t i = 1; i < f.file_chunks.chunks.size(); ++i)
    write_chunk(out, f.file_chunks.chunks[i].raw_id, f.file_chunks.chunks[i].payload);
  out.bytes(f.file_chunks.trailing);
  return bytes;
}

Result<EditReport> commit(ObjectFile& f, Result<Payload> bytes, EditReport report) {
  if (!bytes) return bytes.error();
  auto read = read_object(FileData::from_vector(std::move(bytes).value()));
  if (!read) return read.error();
  f = std::move(read).value();
  return report;
}

Result<std::string> storable(const std::string& utf8, const char* what) {
  auto cp = utf8_to_cp1251(utf8);
  if (!cp)
    return Finding{Severity::error, 0, "", std::string(what) + " has no cp1251 form", "Latin or Cyrillic characters", utf8};
  if (cp->find('\0') != std::string::npos)
    return Finding{Severity::error, 0, "", std::string(what) + " holds a NUL byte (strings end at NUL)", "text", utf8};
  return *cp;
}

}  // namespace

std::vector<ObjectSurfaceInfo> list_surfaces(const ObjectFile& f) {
  std::vector<ObjectSurfaceInfo> out;
  for (std::size_t i = 0; i < f.surfaces.size(); ++i) {
    const ObjectSurface& s = f.surfaces[i];
    ObjectSurfaceInfo info{i,
                           cp1251_to_utf8(s.name),
                           cp1251_to_utf8(s.texture),
                           cp1251_to_utf8(s.shader),
                           cp1251_to_utf8(s.compiler_shader),
                           cp1251_to_utf8(s.game_mtl),
                           s.two_sided(),
                           0};
    for (const auto& m : f.meshes)
      for (const auto& sf : m.surfaces)
        if (sf.surface == s.name) info.faces += sf.count;
    out.push_back(std::move(info));
  }
  return out;
}

Result<std::vector<std::size_t>> select_surfaces(const ObjectFile& f, const std::vector<std::string>& selectors) {
  std::vector<std::size_t> out;
  for (const auto& sel : selectors) {
    bool matched = false;
    const bool numeric = !sel.empty() && std::all_of(sel.begin(), sel.end(), [](char c) { return c >= '0' && c <= '9'; });
    for (std::size_t i = 0; i < f.surfaces.size(); ++i) {
      const bool hit = numeric ? (sel.size() < 10 && std::stoul(sel) == i)
                               : glob_match(sel, cp1251_to_utf8(f.surfaces[i].name)) ||
                                     glob_match(sel, cp1251_to_utf8(f.surfaces[i].texture));
      if (!hit) continue;
      matched = true;
      if (std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
    }
    if (!matched)
      return Finding{Severity::error, 0, "", "no surface matches " + sel,
                     "a surface index (0-" + std::to_string(f.surfaces.empty() ? 0 : f.surfaces.size() - 1) +
                         ") or a glob over surface names or textures",
                     std::to_string(f.surfaces.size()) + " surfaces"};
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<EditReport> set_surfaces(ObjectFile& f, const std::vector<std::string>& selectors, const SurfaceChange& change) {
  auto picked = select_surfaces(f, selectors);
  if (!picked) return picked.error();
  if (change.game_mtl && f.surfaces_chunk == kObjSurfaces)
    return Finding{Severity::error, 0, "0x905", "the old surfaces chunk holds no game material", "a 0x906/0x907 object", "0x905"};
  std::vector<ObjectSurface> surfaces = f.surfaces;
  EditReport report;
  for (std::size_t i : picked.value()) {
    ObjectSurface& s = surfaces[i];
    const std::string before = cp1251_to_utf8(s.name);
    auto set = [&](const std::optional<std::string>& v, std::string& field, const char* what) -> std::optional<Finding> {
      if (!v) return std::nullopt;
      auto cp = storable(*v, what);
      if (!cp) return cp.error();
      if (field != *cp) report.changes.push_back("surface " + std::to_string(i) + " (" + before + ") " + what + ": " + cp1251_to_utf8(field) + " -> " + *v);
      field = *cp;
      return std::nullopt;
    };
    if (auto e = set(change.texture, s.texture, "texture")) return *e;
    if (auto e = set(change.shader, s.shader, "shader")) return *e;
    if (auto e = set(change.compiler_shader, s.compiler_shader, "compiler shader")) return *e;
    if (auto e = set(change.game_mtl, s.game_mtl, "game material")) return *e;
    if (change.two_sided && s.two_sided() != *change.two_sided) {
      s.flags = *change.two_sided ? (s.flags | 1u) : (s.flags & ~1u);
      report.changes.push_back("surface " + std::to_string(i) + " (" + before + ") two-sided: " + (*change.two_sided ? "on" : "off"));
    }
  }
  if (report.changes.empty()) return report;
  const std::uint32_t id = f.surfaces_chunk;
  return commit(f, rebuild(f, [&](const Chunk& c) -> std::optional<std::optional<Payload>> {
                  if (c.id() == id) return std::optional<Payload>(object_import::surfaces_payload(surfaces, id));
                  if (c.id() == kObjSurfacesXrlc && id == kObjSurfaces)
                    return std::optional<Payload>(object_import::compiler_shaders_payload(surfaces));
                  return std::nullopt;
                }),
                std::move(report));
}

Result<EditReport> set_object_motion_refs(ObjectFile& f, const std::vector<std::string>& refs, Game game) {
  std::vector<std::string> stored;
  for (const auto& r : refs) {
    auto cp = storable(r, "motion ref");
    if (!cp) return cp.error();
    if (cp->find(',') != std::string::npos)
      return Finding{Severity::error, 0, "", "motion ref holds a comma (0x924 separates refs with commas)", "a path", r};
    if (!cp->empty()) stored.push_back(*cp);
  }
  EditReport report;
  if (stored == f.motion_refs && (f.motion_refs_chunk != 0 || stored.empty())) return report;
  const std::uint32_t id = f.motion_refs_chunk ? f.motion_refs_chunk : game == Game::soc ? kObjMotionRefsSoc : kObjMotionRefs;
  std::string list;
  for (const auto& r : refs) list += (list.empty() ? "" : ", ") + r;
  report.changes.push_back(stored.empty() ? "motion refs removed" : "motion refs (" + hex(id) + "): " + list);
  const Payload payload = object_import::motion_refs_payload(stored, id);
  if (f.motion_refs_chunk != 0)
    return commit(f, rebuild(f, [&](const Chunk& c) -> std::optional<std::optional<Payload>> {
                    if (c.id() != f.motion_refs_chunk) return std::nullopt;
                    return stored.empty() ? std::optional<Payload>() : std::optional<Payload>(payload);
                  }),
                  std::move(report));
  return commit(f, rebuild(f, [](const Chunk&) { return std::optional<std::optional<Payload>>(); }, std::pair{id, payload}),
                std::move(report));
}

Result<EditReport> set_object_user_data(ObjectFile& f, const std::string& text) {
  auto cp = storable(text, "user data");
  if (!cp) return cp.error();
  EditReport report;
  if (f.user_data && *f.user_data == cp.value()) return report;
  if (!f.user_data && cp->empty()) return report;
  report.changes.push_back("user data " + std::string(f.user_data ? "replaced" : "added") + " (" + std::to_string(cp->size()) + " bytes)");
  Payload p(cp->begin(), cp->end());
  p.push_back(0);
  if (f.user_data)
    return commit(f, rebuild(f, [&](const Chunk& c) -> std::optional<std::optional<Payload>> {
                    if (c.id() != kObjClassScript) return std::nullopt;
                    return std::optional<Payload>(p);
                  }),
                  std::move(report));
  return commit(f, rebuild(f, [](const Chunk&) { return std::optional<std::optional<Payload>>(); }, std::pair{kObjClassScript, p}),
                std::move(report));
}

Result<EditReport> load_object_bones(ObjectFile& f, const BonesFile& bones) {
  Diagnostics warnings;
  auto bytes = apply_bones_to_object(f, bones, warnings);
  if (!bytes) return bytes.error();
  EditReport report;
  if (bytes.value() == write_object(f)) return report;
  std::size_t named = 0;
  for (const auto& b : f.bones)
    named += std::any_of(bones.bones.begin(), bones.bones.end(), [&](const BoneData& d) { return bone_key(d.name) == bone_key(b.name); });
  report.changes.push_back("bone data loaded for " + std::to_string(named) + " of " + std::to_string(f.bones.size()) + " bone(s)" +
                           (bones.parts ? ", " + std::to_string(bones.parts->parts.size()) + " part(s)" : std::string()));
  for (const auto& w : warnings.findings()) report.warnings.push_back(w.message + " (" + w.found + ")");
  return commit(f, std::move(bytes), std::move(report));
}

}  // namespace boneyard::xray
