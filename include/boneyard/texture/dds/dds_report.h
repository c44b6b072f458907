// What `info` and `dump` show of a .dds, and how sure the bytes look like one (JSON:
// docs/json-schema.md).
#pragma once

#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/texture/dds/dds.h"

namespace boneyard::texture {

std::string describe_dds(const DdsFile& dds);
void dump_dds(JsonWriter& out, const DdsFile& dds, bool raw);
// 0: not a DDS; 90 with the .dds extension, 80 otherwise.
int sniff_dds(Bytes bytes, std::string_view extension);

}  // namespace boneyard::texture
