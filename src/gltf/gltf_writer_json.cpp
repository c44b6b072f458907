// The glTF writer's JSON text, produced from the laid-out document (gltf_encoding_state.h). It is
// built in blocks: the constructor keeps a small text whole and only measures a large one, which
// write() then produces again straight into the output.

#include "gltf_encoding_state.h"

namespace boneyard::gltf {

void Encoding::State::json_nodes(JsonText& j) const {
  j.raw("\"nodes\":[");
  auto put_children = [&](std::size_t node) {
    if (!children[node].empty()) j.index_list("children", children[node]);
  };
  for (std::size_t i = 0; i < n; ++i) {
    const auto& jt = sc.skeleton.joints[i];
    j.raw(i ? ",{\"name\":" : "{\"name\":");
    j.str(jt.name);
    j.raw(",\"translation\":[");
    const float t[3] = {jt.translation.x, jt.translation.y, jt.translation.z};
    j.floats(t, 3);
    j.raw("],\"rotation\":[");
    const float r[4] = {jt.rotation.x, jt.rotation.y, jt.rotation.z, jt.rotation.w};
    j.floats(r, 4);
    j.raw("]");
    if (jt.scale != Vec3{1, 1, 1}) {
      j.raw(",\"scale\":[");
      const float s3[3] = {jt.scale.x, jt.scale.y, jt.scale.z};
      j.floats(s3, 3);
      j.raw("]");
    }
    put_children(i);
    for (std::size_t c = 0; c < sc.cameras.size(); ++c)
      if (sc.cameras[c].joint == i) {
        j.raw(",\"camera\":");
        j.num(std::uint64_t{c});
        break;
      }
    j.extras(jt.extras);
    j.raw("}");
  }
  j.raw(n ? ",{\"name\":" : "{\"name\":");
  j.str(sc.skeleton.name.empty() ? "Armature" : sc.skeleton.name);
  put_children(n);
  j.extras(sc.skeleton.extras);
  j.raw("}");
  for (std::size_t mi = 0; mi < sc.meshes.size(); ++mi) {
    if (!mesh_written[mi]) continue;
    j.raw(",{\"name\":");
    j.str(sc.meshes[mi].name);
    j.raw(",\"mesh\":");
    j.num(std::uint64_t{mesh_index[mi]});
    if (skinned_mesh(mi)) j.raw(",\"skin\":0");
    j.raw("}");
  }
  j.raw("]");
}

void Encoding::State::json_cameras(JsonText& j) const {
  if (sc.cameras.empty()) return;
  j.raw(",\"cameras\":[");
  for (std::size_t c = 0; c < sc.cameras.size(); ++c) {
    const scene::Camera& cam = sc.cameras[c];
    j.raw(c ? ",{\"type\":\"perspective\"" : "{\"type\":\"perspective\"");
    if (!cam.name.empty()) {
      j.raw(",\"name\":");
      j.str(cam.name);
    }
    j.raw(",\"perspective\":{\"yfov\":");
    j.floats(&cam.yfov, 1);
    j.raw(",\"znear\":");
    j.floats(&cam.znear, 1);
    if (cam.zfar > cam.znear) {
      j.raw(",\"zfar\":");
      j.floats(&cam.zfar, 1);
    }
    if (cam.aspect > 0) {
      j.raw(",\"aspectRatio\":");
      j.floats(&cam.aspect, 1);
    }
    j.raw("}}");
  }
  j.raw("]");
}

void Encoding::State::json_skin(JsonText& j) const {
  if (n == 0) return;
  j.raw(",\"skins\":[{\"inverseBindMatrices\":");
  j.num(acc(*ibm_accessor));
  j.raw(",\"skeleton\":");
  j.num(std::uint64_t{n});
  j.raw(",\"joints\":[");
  for (std::size_t i = 0; i < n; ++i) {
    if (i) j.raw(",");
    j.num(std::uint64_t{i});
  }
  j.raw("]}]");
}

void Encoding::State::json_meshes(JsonText& j) const {
  bool first_mesh = true;
  for (std::size_t mi = 0; mi < sc.meshes.size(); ++mi) {
    if (!mesh_written[mi]) continue;
    const auto& mesh = sc.meshes[mi];
    j.raw(first_mesh ? ",\"meshes\":[{\"name\":" : ",{\"name\":");
    first_mesh = false;
    j.str(mesh.name);
    j.raw(",\"primitives\":[");
    std::size_t k = 0;
    for (const auto& p : mesh.primitives) {
      if (p.vertex_count() == 0) continue;
      const auto& pa = mesh_acc[mi][k];
      j.raw(k++ ? ",{\"attributes\":{\"POSITION\":" : "{\"attributes\":{\"POSITION\":");
      j.num(acc(pa.position));
      if (pa.normal) j.raw(",\"NORMAL\":"), j.num(acc(*pa.normal));
      for (std::size_t u = 0; u < pa.uvs.size(); ++u) {
        j.raw(",\"TEXCOORD_"), j.num(std::uint64_t{u}), j.raw("\":");
        j.num(acc(pa.uvs[u]));
      }
      if (pa.joints) {
        j.raw(",\"JOINTS_0\":"), j.num(acc(*pa.joints));
        j.raw(",\"WEIGHTS_0\":"), j.num(acc(*pa.weights));
      }
      j.raw("}");
      if (pa.indices) j.raw(",\"indices\":"), j.num(acc(*pa.indices));
      if (p.material < sc.materials.size()) j.raw(",\"material\":"), j.num(std::uint64_t{p.material});
      j.extras(p.extras);
      j.raw("}");
    }
    j.raw("]");
    j.extras(mesh.extras);
    j.raw("}");
  }
  if (!first_mesh) j.raw("]");
}

// "materials", "textures", "samplers" and "images": texture i samples image i, every texture
// with the one sampler (linear, mipmapped, repeating as D3D's default WRAP addressing does).
void Encoding::State::json_materials(JsonText& j) const {
  if (sc.materials.empty()) return;
  j.raw(",\"materials\":[");
  for (std::size_t i = 0; i < sc.materials.size(); ++i) {
    const auto& m = sc.materials[i];
    const bool textured = m.image < sc.images.size() && image_index[m.image] != scene::kNoImage;
    j.raw(i ? ",{\"name\":" : "{\"name\":");
    j.str(m.name);
    j.raw(",\"pbrMetallicRoughness\":{");
    if (textured) {
      j.raw("\"baseColorTexture\":{\"index\":");
      j.num(std::uint64_t{image_index[m.image]});
      j.raw("},");
    }
    j.raw("\"metallicFactor\":0,\"roughnessFactor\":1}");
    if (textured && m.alpha_mode == scene::AlphaMode::mask) {
      j.raw(",\"alphaMode\":\"MASK\",\"alphaCutoff\":");
      j.floats(&m.alpha_cutoff, 1);
    } else if (textured && m.alpha_mode == scene::AlphaMode::blend) {
      j.raw(",\"alphaMode\":\"BLEND\"");
    }
    if (m.double_sided) j.raw(",\"doubleSided\":true");
    j.extras(m.extras);
    j.raw("}");
  }
  j.raw("]");
  if (images.empty()) return;
  j.raw(",\"textures\":[");
  for (std::size_t i = 0; i < images.size(); ++i) {
    j.raw(i ? ",{\"sampler\":0,\"source\":" : "{\"sampler\":0,\"source\":");
    j.num(std::uint64_t{i});
    j.raw("}");
  }
  j.raw("],\"samplers\":[{\"magFilter\":9729,\"minFilter\":9987}],\"images\":[");
  for (std::size_t i = 0; i < images.size(); ++i) {
    const auto& im = sc.images[images[i]];
    j.raw(i ? ",{" : "{");
    if (!im.name.empty()) {
      j.raw("\"name\":");
      j.str(im.name);
      j.raw(",");
    }
    if (image_view[i]) {
      j.raw("\"bufferView\":");
      j.num(std::uint64_t(L.view_index[*image_view[i]]));
      j.raw(",\"mimeType\":\"image/png\"}");
    } else {
      j.raw("\"uri\":");
      j.str(percent_encode(im.uri, true));
      j.raw("}");
    }
  }
  j.raw("]");
}

void Encoding::State::json_animations(JsonText& j) const {
  bool first_anim = true;
  for (std::size_t a = 0; a < sc.animations.size(); ++a) {
    const auto& anim = sc.animations[a];
    if (anim.channels.empty()) continue;
    j.raw(first_anim ? ",\"animations\":[{\"name\":" : ",{\"name\":");
    first_anim = false;
    j.str(anim.name);
    j.raw(",\"samplers\":[");
    for (std::size_t s = 0; s < samplers[a].size(); ++s) {
      j.raw(s ? ",{\"input\":" : "{\"input\":");
      j.num(acc(samplers[a][s].input));
      j.raw(",\"output\":");
      j.num(acc(samplers[a][s].output));
      j.raw("}");  // interpolation LINEAR is the default
    }
    j.raw("],\"channels\":[");
    for (std::size_t c = 0; c < anim.channels.size(); ++c) {
      const auto& ch = anim.channels[c];
      j.raw(c ? ",{\"sampler\":" : "{\"sampler\":");
      j.num(std::uint64_t{channel_sampler[a][c]});
      j.raw(",\"target\":{\"node\":");
      j.num(std::uint64_t{ch.joint});
      j.raw(ch.path == scene::Channel::Path::rotation      ? ",\"path\":\"rotation\"}}"
            : ch.path == scene::Channel::Path::translation ? ",\"path\":\"translation\"}}"
                                                           : ",\"path\":\"scale\"}}");
    }
    j.raw("]");
    j.extras(anim.extras);
    j.raw("}");
    j.flush_if_full();
  }
  if (!first_anim) j.raw("]");
}

void Encoding::State::json_accessors(JsonText& j) const {
  j.raw(",\"accessors\":[");
  for (std::size_t i = 0; i < accessor_at.size(); ++i) {
    const auto& info = L.accessors[accessor_at[i]];
    j.raw(i ? ",{\"bufferView\":" : "{\"bufferView\":");
    j.num(std::uint64_t(L.view_index[info.view]));
    if (info.offset) {
      j.raw(",\"byteOffset\":");
      j.num(std::uint64_t{info.offset});
    }
    j.raw(",\"componentType\":");
    j.num(std::uint64_t{info.component});
    j.raw(",\"count\":");
    j.num(std::uint64_t{info.count});
    j.raw(",\"type\":\"");
    j.raw(info.type);
    j.raw("\"");
    if (info.normalized) j.raw(",\"normalized\":true");
    if (info.minmax) {
      j.raw(",\"min\":["), j.floats(info.min.data(), info.minmax);
      j.raw("],\"max\":["), j.floats(info.max.data(), info.minmax), j.raw("]");
    }
    j.raw("}");
    j.flush_if_full();
  }
  j.raw("]");
}

void Encoding::State::json_buffer_views(JsonText& j) const {
  j.raw(",\"bufferViews\":[");
  bool first = true;
  for (const auto& v : L.views) {
    if (v.size == 0) continue;
    j.raw(first ? "{\"buffer\":0" : ",{\"buffer\":0");
    first = false;
    if (v.start) {
      j.raw(",\"byteOffset\":");
      j.num(std::uint64_t{v.start});
    }
    j.raw(",\"byteLength\":");
    j.num(std::uint64_t{v.size});
    if (v.target) {
      j.raw(",\"target\":");
      j.num(std::uint64_t{v.target});
    }
    j.raw("}");
  }
  j.raw("],\"buffers\":[{\"byteLength\":");
  j.num(std::uint64_t{L.total()});
  if (container == Container::gltf) {
    j.raw(",\"uri\":");
    j.str(percent_encode(bin_uri));
  }
  j.raw("}]");
}

void Encoding::State::json(JsonText& j) const {
  j.raw("{\"asset\":{\"version\":\"2.0\",\"generator\":");
  j.str(sc.generator.empty() ? "boneyard" : sc.generator);
  j.raw("},\"scene\":0,\"scenes\":[{\"nodes\":[");
  for (std::size_t r = 0; r < scene_roots.size(); ++r) {
    if (r) j.raw(",");
    j.num(std::uint64_t{scene_roots[r]});
  }
  j.raw("]");
  j.extras(sc.extras);
  j.raw("}],");
  json_nodes(j);
  json_cameras(j);
  json_skin(j);
  json_meshes(j);
  json_materials(j);
  json_animations(j);
  if (!L.accessors.empty()) json_accessors(j);
  if (L.total() > 0) json_buffer_views(j);
  j.raw("}");
  if (container == Container::gltf)
    j.raw("\n");
  else
    while (j.size() % 4 != 0) j.raw(" ");  // the GLB JSON chunk is padded with spaces
}

}  // namespace boneyard::gltf
