// Human and machine views of object motions (.anm): `boneyard info` text and the `boneyard dump`
// JSON (schema: docs/json-schema.md ".skl, .skls, .anm").
#pragma once

#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/xray/anm/anm.h"

namespace boneyard::xray {

void dump_anm(JsonWriter& out, const AnmFile& file, bool raw);
std::string describe_anm(const AnmFile& file);
int sniff_anm(Bytes bytes, std::string_view extension);

}  // namespace boneyard::xray
