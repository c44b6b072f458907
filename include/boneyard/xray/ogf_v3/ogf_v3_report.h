// Human and machine views of an OGF v3 model: `boneyard info` text and the `boneyard dump` JSON
// (schema: docs/json-schema.md ".ogf v3").
#pragma once

#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"

namespace boneyard::xray {

std::string describe_ogf_v3(const OgfV3File& file);
void dump_ogf_v3(JsonWriter& out, const OgfV3File& file, bool raw);

// 0: not this format (a v4 model included); 95 with the .ogf extension, else 75: above v4's
// sniffer, which takes any file starting with a header chunk.
int sniff_ogf_v3(Bytes bytes, std::string_view extension);

}  // namespace boneyard::xray
