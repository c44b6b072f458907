// The body of an imported .object: the template's chunks with the edited ones replaced, or a new
// body in the CoP SDK's order (CEditableObject::Save).
#include <algorithm>

#include "boneyard/core/chunks.h"
#include "boneyard/core/text.h"
#include "object_extras.h"
#include "object_import_body.h"
#include "scene/extras_json.h"
#include "xray/scene/xray_import_bones.h"

namespace boneyard::xray::object_import {

namespace {

using nlohmann::json;

const json* object_extras_of(const scene::Scene& s) {
  const auto* x = import_detail::member(json_of(s.extras), "xray");
  return x ? import_detail::member(*x, "object") : nullptr;
}

// The motion refs a new object gets: the option's, else the scene extras'.
Result<std::vector<std::string>> refs_for(const scene::Scene& s, const ObjectImportOptions& o) {
  std::vector<std::string> out;
  auto add = [&](const std::string& utf8) -> std::optional<Finding> {
    auto cp = utf8_to_cp1251(utf8);
    if (!cp) return Finding{Severity::error, 0, "motion refs", "motion ref has no cp1251 form", "Latin or Cyrillic characters", utf8};
    if (cp->find_first_of(std::string(",\0", 2)) != std::string::npos)
      return Finding{Severity::error, 0, "motion refs", "motion ref the format cannot hold (comma or NUL)", "a path", utf8};
    if (!cp->empty() && std::find(out.begin(), out.end(), *cp) == out.end()) out.push_back(*cp);
    return std::nullopt;
  };
  if (o.motion_refs) {
    for (const auto& r : *o.motion_refs)
      if (auto e = add(r)) return *e;
  } else if (const auto* x = import_detail::member(json_of(s.extras), "xray")) {
    if (const auto* refs = import_detail::member(*x, "motion_refs"); refs && refs->is_array())
      for (const auto& r : *refs)
        if (r.is_string())
          if (auto e = add(r.get<std::string>())) return *e;
  }
  return out;
}

std::uint32_t refs_chunk_for(Game game, const json* obj) {
  if (game == Game::soc) return kObjMotionRefsSoc;
  if (game == Game::cs || game == Game::cop) return kObjMotionRefs;
  if (obj)
    if (const auto* c = import_detail::member(*obj, "motion_refs_chunk"); c && c->is_string() && c->get<std::string>() == "0x924")
      return kObjMotionRefsSoc;
  return kObjMotionRefs;
}

// The meshes chunk. With the template's list: its payload as it was when every mesh is kept in its
// place; otherwise the meshes in order, then what the template's list held that was never read as a
// mesh (chunks after a gap, repeated ids, trailing bytes) as it was.
void meshes_chunk(ByteWriter& w, std::uint32_t raw_id, const std::vector<OutputMesh>& meshes, const ChunkList* original,
                  std::size_t template_meshes = 0) {
  if (original != nullptr && meshes.size() == template_meshes) {
    bool same = true;
    for (std::size_t i = 0; i < meshes.size() && same; ++i)
      same = meshes[i].kept && meshes[i].template_mesh != nullptr && meshes[i].template_mesh->index == i;
    if (same) {
      write_chunk_with(w, raw_id, [&] {
        for (const Chunk& c : original->chunks) write_chunk(w, c.raw_id, c.payload);
        w.bytes(original->trailing);
      });
      return;
    }
  }
  write_chunk_with(w, raw_id, [&] {
    for (std::size_t i = 0; i < meshes.size(); ++i) {
      const OutputMesh& m = meshes[i];
      if (m.kept && original != nullptr) {
        const Chunk* c = original->find(m.template_mesh->index);
        write_chunk(w, static_cast<std::uint32_t>(i), c->payload);
      } else {
        write_chunk(w, static_cast<std::uint32_t>(i), m.payload);
      }
    }
    if (original == nullptr) return;
    std::vector<const Chunk*> read;
    for (std::uint32_t id = 0; id < template_meshes; ++id) read.push_back(original->find(id));
    for (const Chunk& c : original->chunks)
      if (std::find(read.begin(), read.end(), &c) == read.end()) write_chunk(w, c.raw_id, c.payload);
    w.bytes(original->trailing);
  });
}

std::uint32_t new_flags(const json* obj, bool skeletal) {
  std::uint32_t flags = skeletal ? 1u : 0u;  // eoDynamic for a skeleton
  if (obj)
    if (auto f = import_detail::number<std::uint32_t>(*obj, "flags")) flags = *f;
  return flags;
}

}  // namespace

std::optional<std::array<Vec3, 2>> new_actor_transform(const scene::Scene& scene, bool skeletal) {
  const json* obj = object_extras_of(scene);
  if ((new_flags(obj, skeletal) & 1u) == 0) return std::nullopt;
  std::array<Vec3, 2> t{};
  if (const auto* x = obj ? import_detail::member(*obj, "actor_transform") : nullptr) {
    t[0] = object_extras::vec3(*x, "position").value_or(Vec3{});
    t[1] = object_extras::vec3(*x, "rotation").value_or(Vec3{});
  }
  return t;
}

std::vector<std::uint8_t> surfaces_payload(const std::vector<ObjectSurface>& surfaces, std::uint32_t id) {
  std::vector<std::uint8_t> out;
  out.reserve(64);
  ByteWriter w(out);
  w.u32(static_cast<std::uint32_t>(surfaces.size()));
  for (const auto& s : surfaces) {
    w.stringz(s.name);
    w.stringz(s.shader);
    if (id == kObjSurfaces) {
      w.u8(s.two_sided() ? 1 : 0);
      w.u32(s.fvf);
      w.u32(s.tc_count);
      w.stringz(s.texture);
      w.stringz(s.vmap);
      continue;
    }
    w.stringz(s.compiler_shader);
    if (id == kObjSurfaces3) w.stringz(s.game_mtl);
    w.stringz(s.texture);
    w.stringz(s.vmap);
    w.u32(s.flags);
    w.u32(s.fvf);
    w.u32(s.tc_count);
  }
  return out;
}

std::vector<std::uint8_t> compiler_shaders_payload(const std::vector<ObjectSurface>& surfaces) {
  std::vector<std::uint8_t> out;
  out.reserve(64);
  ByteWriter w(out);
  for (const auto& s : surfaces) w.stringz(s.compiler_shader);
  return out;
}

std::vector<std::uint8_t> motion_refs_payload(const std::vector<std::string>& refs, std::uint32_t id) {
  std::vector<std::uint8_t> out;
  out.reserve(64);
  ByteWriter w(out);
  if (id == kObjMotionRefsSoc) {
    std::string joined;
    for (const auto& r : refs) joined += (joined.empty() ? "" : ",") + r;
    w.stringz(joined);
  } else {
    w.u32(static_cast<std::uint32_t>(refs.size()));
    for (const auto& r : refs) w.stringz(r);
  }
  return out;
}

Result<std::vector<std::uint8_t>> template_body(const ObjectFile& tpl, const BodyParts& parts, const scene::Scene& scene,
                                                const ObjectImportOptions& o, Diagnostics& warnings, ObjectImportStats& st) {
  std::optional<std::vector<std::string>> refs;
  if (o.motion_refs) {
    auto r = refs_for(scene, o);
    if (!r) return r.error();
    refs = std::move(r).value();
  }
  const bool any_bone_edited = std::find(parts.edited_bones.begin(), parts.edited_bones.end(), true) != parts.edited_bones.end();
  std::vector<std::uint8_t> body;
  body.reserve(tpl.body.size() + 1024);
  ByteWriter w(body);
  bool refs_written = false;
  // New motions for a template without 0x916 go after its bones, where the SDK writes them.
  bool motions_written = parts.motions.keep_template || !parts.motions.payload || tpl.find(kObjMotions) != nullptr;
  auto write_motions_after = [&](std::uint32_t id) {
    if (motions_written || (id != kObjBones && id != kObjBonesOld)) return;
    motions_written = true;
    write_chunk(w, kObjMotions, *parts.motions.payload);
  };
  auto write_refs = [&](std::uint32_t id) {
    refs_written = true;
    if (!refs->empty()) write_chunk(w, id, motion_refs_payload(*refs, id));
  };
  for (const Chunk& c : tpl.chunks.chunks) {
    const std::uint32_t id = c.id();
    if (id == kObjMeshes) {
      const ChunkList original = split_chunks(c.payload, c.payload_offset());
      meshes_chunk(w, c.raw_id, parts.meshes, &original, tpl.meshes.size());
    } else if (id == tpl.surfaces_chunk && parts.surfaces_changed) {
      write_chunk(w, c.raw_id, surfaces_payload(parts.surfaces, id));
    } else if (id == kObjSurfacesXrlc && tpl.surfaces_chunk == kObjSurfaces && parts.surfaces_changed) {
      write_chunk(w, c.raw_id, compiler_shaders_payload(parts.surfaces));
    } else if (id == kObjBones && any_bone_edited) {
      const ChunkList original = split_chunks(c.payload, c.payload_offset());
      write_chunk_with(w, c.raw_id, [&] {
        for (const Chunk& b : original.chunks) {
          if (b.id() < parts.bones.size() && !b.compress_bit() && parts.edited_bones[b.id()])
            write_chunk(w, b.raw_id, bone_payload(parts.bones[b.id()], true));
          else
            write_chunk(w, b.raw_id, b.payload);
        }
        w.bytes(original.trailing);
      });
    } else if (id == kObjMotions && !parts.motions.keep_template) {
      motions_written = true;
      if (parts.motions.payload) write_chunk(w, c.raw_id, *parts.motions.payload);
    } else if ((id == kObjMotionRefsSoc || id == kObjMotionRefs) && refs) {
      if (!refs_written) write_refs(id);
    } else {
      if (id == kObjDescription && refs && !refs_written) write_refs(refs_chunk_for(o.game == Game::keep ? Game::cop : o.game, nullptr));
      write_chunk(w, c.raw_id, c.payload);
    }
    write_motions_after(id);
  }
  if (!motions_written) write_chunk(w, kObjMotions, *parts.motions.payload);
  if (refs && !refs_written) write_refs(refs_chunk_for(o.game == Game::keep ? Game::cop : o.game, nullptr));
  w.bytes(tpl.chunks.trailing);
  if (any_bone_edited && tpl.bones_chunk == kObjBonesOld)
    warnings.add(Severity::warning, 0, "0x913", "bone data edits cannot be stored in the old 0x913 bones (they hold no data): left out");
  st.bones_kept = !any_bone_edited;
  if (body.size() == tpl.body.size() && std::equal(body.begin(), body.end(), tpl.body.begin())) return write_object(tpl);
  auto file = object_file_bytes(body, tpl.compressed);
  if (!file) return file.error();
  // Chunks after the body (never read by the SDK) stay as they were.
  ByteWriter f(file.value());
  for (std::size_t i = 1; i < tpl.file_chunks.chunks.size(); ++i) write_chunk(f, tpl.file_chunks.chunks[i].raw_id, tpl.file_chunks.chunks[i].payload);
  f.bytes(tpl.file_chunks.trailing);
  return file;
}

Result<std::vector<std::uint8_t>> new_body(const BodyParts& parts, const scene::Scene& scene, const ObjectImportOptions& o,
                                           Diagnostics& warnings) {
  const json* obj = object_extras_of(scene);
  const auto* xray = import_detail::member(json_of(scene.extras), "xray");
  auto refs = refs_for(scene, o);
  if (!refs) return refs.error();
  const bool skeletal = !parts.bones.empty();
  const std::uint32_t flags = new_flags(obj, skeletal);
  std::vector<std::uint8_t> body;
  ByteWriter w(body);
  write_chunk_with(w, kObjVersion, [&] { w.u16(kObjectVersion); });
  write_chunk_with(w, kObjClassScript, [&] { w.stringz(xray ? import_detail::extras_name(*xray, "user_data").value_or("") : ""); });
  write_chunk_with(w, kObjLodRef, [&] { w.stringz(obj ? object_extras::raw_string(*obj, "lod_ref").value_or("") : ""); });
  write_chunk_with(w, kObjFlags, [&] { w.u32(flags); });
  meshes_chunk(w, kObjMeshes, parts.meshes, nullptr);
  write_chunk(w, kObjSurfaces3, surfaces_payload(parts.surfaces, kObjSurfaces3));
  if (skeletal)
    write_chunk_with(w, kObjBones, [&] {
      for (std::size_t i = 0; i < parts.bones.size(); ++i) write_chunk(w, std::uint32_t(i), bone_payload(parts.bones[i], true));
    });
  if (parts.motions.payload) write_chunk(w, kObjMotions, *parts.motions.payload);
  if (!refs->empty()) {
    const std::uint32_t id = refs_chunk_for(o.game, obj);
    write_chunk(w, id, motion_refs_payload(*refs, id));
  }
  if (skeletal) {
    BoneParts bp;
    if (o.parts) {
      bp = *o.parts;
      bp.chunk = kBonePartsChunk;
    } else if (const auto* list = obj ? import_detail::member(*obj, "parts") : nullptr; list && list->is_array()) {
      for (const auto& p : *list) {
        BoneGroup part;
        part.name = object_extras::raw_string(p, "name").value_or("");
        if (const auto* bones = import_detail::member(p, "bones"); bones && bones->is_array())
          for (const auto& b : *bones)
            if (b.is_string())
              if (auto cp = utf8_to_cp1251(b.get<std::string>())) part.bones.push_back(*cp);
        bp.parts.push_back(std::move(part));
      }
    }
    if (bp.parts.empty()) {
      // One part with every bone: the SDK's motion export needs the parts to cover the skeleton.
      BoneGroup all;
      all.name = "default";
      for (const auto& b : parts.bones) all.bones.push_back(b.name);
      bp.parts.push_back(std::move(all));
    }
    write_chunk(w, kBonePartsChunk, bone_parts_payload(bp));
  }
  if (const auto actor = new_actor_transform(scene, skeletal)) {
    const Vec3& position = (*actor)[0];
    const Vec3& rotation = (*actor)[1];
    write_chunk_with(w, kObjActorTransform, [&] {
      w.f32(position.x), w.f32(position.y), w.f32(position.z);
      w.f32(rotation.x), w.f32(rotation.y), w.f32(rotation.z);
    });
  }
  write_chunk_with(w, kObjDescription, [&] {
    const auto* d = obj ? import_detail::member(*obj, "description") : nullptr;
    w.stringz(d ? object_extras::raw_string(*d, "creator").value_or("boneyard") : "boneyard");
    w.u32(d ? import_detail::number<std::uint32_t>(*d, "create_time").value_or(0) : 0);
    w.stringz(d ? object_extras::raw_string(*d, "modifier").value_or("") : "");
    w.u32(d ? import_detail::number<std::uint32_t>(*d, "modify_time").value_or(0) : 0);
  });
  (void)warnings;
  return object_file_bytes(body, false);
}

}  // namespace boneyard::xray::object_import
