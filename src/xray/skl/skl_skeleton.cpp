// The skeleton motions are compiled for, from the models that hold one (.ogf, .object), and the
// bone parts of the .omf from wherever they are kept (.bones, .object, .omf).
#include <map>

#include "boneyard/core/text.h"
#include "boneyard/xray/skl/skl_convert.h"

namespace boneyard::xray {

namespace {

// Parent indices by name, ignoring case (the engine lower-cases bone names).
void link_parents(MotionSkeleton& sk, const std::vector<std::string>& parents) {
  std::map<std::string, int> index;
  for (std::size_t i = 0; i < sk.bones.size(); ++i) index.emplace(lower_ascii(sk.bones[i].name), static_cast<int>(i));
  for (std::size_t i = 0; i < sk.bones.size(); ++i) {
    auto it = parents[i].empty() ? index.end() : index.find(lower_ascii(parents[i]));
    sk.bones[i].parent = it == index.end() || it->second == static_cast<int>(i) ? -1 : it->second;
  }
}

// Parts whose bones are given by name, mapped to the skeleton's indices; every bone in one part.
Result<std::vector<BonePart>> map_parts(const MotionSkeleton& sk,
                                        const std::vector<std::pair<std::string, std::vector<std::string>>>& parts,
                                        std::string_view source) {
  std::map<std::string, std::uint32_t> index;
  for (std::size_t i = 0; i < sk.bones.size(); ++i) index.emplace(lower_ascii(sk.bones[i].name), static_cast<std::uint32_t>(i));
  std::vector<int> part_of(sk.bones.size(), -1);
  std::vector<BonePart> out;
  const std::string where = "bone parts of " + std::string(source);
  if (parts.size() > kMaxParts)
    return Finding{Severity::error, 0, where, "more bone parts than the engine plays", "<= 4", std::to_string(parts.size())};
  for (std::size_t p = 0; p < parts.size(); ++p) {
    BonePart part;
    part.name = parts[p].first;
    for (const auto& name : parts[p].second) {
      auto it = index.find(lower_ascii(name));
      if (it == index.end())
        return Finding{Severity::error, 0, where + " part \"" + printable(part.name) + "\"",
                       "a part names a bone the skeleton (" + sk.source + ") lacks", "a bone of the skeleton",
                       "\"" + printable(name) + "\""};
      if (part_of[it->second] >= 0)
        return Finding{Severity::error, 0, where + " part \"" + printable(part.name) + "\"", "a bone is in two parts",
                       "each bone in one part", "\"" + printable(name) + "\""};
      part_of[it->second] = static_cast<int>(p);
      // The .omf names a part's bones as the model does, with its motion-bone index.
      part.bones.push_back({sk.bones[it->second].name, it->second, 0});
    }
    out.push_back(std::move(part));
  }
  for (std::size_t i = 0; i < part_of.size(); ++i)
    if (part_of[i] < 0)
      return Finding{Severity::error, 0, where, "a bone of the skeleton is in no part (the engine would not animate it)",
                     "every bone in a part", "\"" + printable(sk.bones[i].name) + "\""};
  return out;
}

}  // namespace

MotionSkeleton motion_skeleton(const std::vector<SklMotion>& motions) {
  MotionSkeleton sk;
  sk.source = "the motions' own bones";
  sk.rest_known = false;
  if (!motions.empty())
    for (const auto& b : motions[0].bones) sk.bones.push_back({std::string(b.name), -1, {}, {}});
  return sk;
}

Result<MotionSkeleton> motion_skeleton(const OgfFile& ogf, std::string source) {
  MotionSkeleton sk;
  sk.source = std::move(source);
  if (ogf.bones.empty())
    return Finding{Severity::error, 0, sk.source + " 0xD", "the model has no skeleton", "chunk 0xD with bones", "none"};
  if (!ogf.has_ik)
    return Finding{Severity::error, 0, sk.source + " 0x10", "the model has no IK data, so no rest pose for bones a motion lacks",
                   "chunk 0x10", "none"};
  std::vector<std::string> parents;
  for (const auto& b : ogf.bones) {
    MotionSkeletonBone mb;
    mb.name = b.name;
    if (b.ik) {
      mb.rest_offset = b.ik->bind_position;
      mb.rest_rotate = b.ik->bind_rotation;
    }
    sk.bones.push_back(std::move(mb));
    parents.push_back(b.parent_name);
  }
  link_parents(sk, parents);
  // An .ogf with motions of its own holds the parts they were compiled with.
  if (ogf.motions && !ogf.motions->params.parts.empty() && !ogf.motions->params.parts_without_names) {
    auto parts = parts_for(sk, ogf.motions->params, sk.source);
    if (parts) sk.parts = std::move(parts).value();
  }
  return sk;
}

Result<MotionSkeleton> motion_skeleton(const ObjectFile& object, std::string source) {
  MotionSkeleton sk;
  sk.source = std::move(source);
  if (object.bones.empty())
    return Finding{Severity::error, 0, sk.source + " 0x921", "the object has no bones", "bones", "none"};
  std::vector<std::string> parents;
  for (const auto& b : object.bones) {
    sk.bones.push_back({b.name, -1, b.rest_offset, b.bind_rotation()});
    parents.push_back(b.parent);
  }
  link_parents(sk, parents);
  sk.actor_transform = object.actor_transform;
  if (object.parts && !object.parts->parts.empty()) {
    auto parts = parts_for(sk, *object.parts, sk.source);
    if (!parts) return parts.error();
    sk.parts = std::move(parts).value();
  }
  return sk;
}

Result<std::vector<BonePart>> parts_for(const MotionSkeleton& sk, const BoneParts& parts, std::string_view source) {
  std::vector<std::pair<std::string, std::vector<std::string>>> named;
  for (const auto& g : parts.parts) {
    std::vector<std::string> bones = g.bones;
    if (bones.empty())
      for (std::uint32_t i : g.indices) {
        if (i >= sk.bones.size())
          return Finding{Severity::error, parts.offset, "bone parts of " + std::string(source),
                         "a part names a bone index past the skeleton", "< " + std::to_string(sk.bones.size()), std::to_string(i)};
        bones.push_back(sk.bones[i].name);
      }
    named.emplace_back(g.name, std::move(bones));
  }
  return map_parts(sk, named, source);
}

Result<std::vector<BonePart>> parts_for(const MotionSkeleton& sk, const Params& params, std::string_view source) {
  if (params.parts_without_names || params.version < 2)
    return Finding{Severity::error, params.offset, "bone parts of " + std::string(source), "the parts do not name their bones",
                   "params version 2-4 with bone names", "version " + std::to_string(params.version)};
  std::vector<std::pair<std::string, std::vector<std::string>>> named;
  for (const auto& part : params.parts) {
    std::vector<std::string> bones;
    for (const auto& b : part.bones) bones.push_back(b.name);
    named.emplace_back(part.name, std::move(bones));
  }
  return map_parts(sk, named, source);
}

}  // namespace boneyard::xray
