// Human and machine views of an .ogf model: `boneyard info` text and the `boneyard dump` JSON
// (schema: docs/json-schema.md).
#pragma once

#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/xray/ogf/ogf.h"

namespace boneyard::xray {

// Whole .ogf: skeleton, meshes, motion refs and embedded motions.
std::string describe_ogf(const OgfFile& file);
void dump_ogf(JsonWriter& out, const OgfFile& file, bool raw);

// 0: not this format; higher: surer (90 with its own extension). `extension` is lower case with
// its dot.
int sniff_ogf(Bytes bytes, std::string_view extension);

}  // namespace boneyard::xray
