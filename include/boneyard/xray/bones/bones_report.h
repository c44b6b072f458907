// Human and machine views of bone data: `boneyard info` and `dump` of a `.bones` file, and the
// bone records an .object dump shares (schema: docs/json-schema.md).
#pragma once

#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/xray/bones/bones.h"

namespace boneyard::xray {

std::string describe_bones(const BonesFile& file);
void dump_bones(JsonWriter& out, const BonesFile& file, bool raw);

// One bone as a JSON object (name, parent, weight map, bind pose, material, shape, joint, ...);
// with `raw` also its offset and chunk list.
void dump_bone_data(JsonWriter& out, const BoneData& bone, bool raw);
// Parts as a JSON array of {"name", "bones"} (0x919 parts give "indices").
void dump_bone_parts(JsonWriter& out, const BoneParts& parts);
// "  bone 3 flash <- wpn_body, box shape, joint (2), mass 10" lines.
std::string describe_bone_list(const std::vector<BoneData>& bones);

// 0: not this format; higher: surer (90 with its own extension).
int sniff_bones(Bytes bytes, std::string_view extension);

}  // namespace boneyard::xray
